// The landing page: its carousel, demo prompts and marketing counts.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const landingCarouselCategories = [
  { id: 'professional', label: 'Professional' },
  { id: '80s-nostalgia', label: '80s' },
  { id: 'classy', label: 'Classy' },
  { id: 'fantasy-personas', label: 'Fantasy' },
  { id: 'fashion', label: 'Fashion' },
] as const;

export const landing = {
  demoPrompts: [
    'A confident professional headshot in a modern office, soft window light',
    'Walking down a neon-lit Tokyo street at night, cinematic style',
    'An 80s yearbook portrait with a laser background and big hair',
    'A fantasy knight in ornate silver armour on a misty mountain',
    'A fashion editorial on a Paris rooftop at golden hour',
  ],
  demoGeneratedSeconds: 3,
  stepThreeImageCount: 4,
  marketingStyleCount: 50,
  marketingPhotoCount: 100,
} as const;
