// The default catalog's categories and presets: names, descriptions, the prompt for the FLUX
// engines and, where its prompt alone would not get the offline studio right, the scene parts it
// sets. `npm run content:build` pictures each preset with several people (scripts/content/build.ts).
import type { PresetScene } from '../../src/server/adapters/engine/studio/scene.ts';

export interface CatalogPreset {
  manualId: string;
  displayName: string;
  description: string;
  /** `{trigger}` is replaced by the user model's trigger word. */
  prompt: string;
  scene?: PresetScene;
}

export interface CatalogCategory {
  manualId: string;
  displayName: string;
  emoji: string;
  /** Featured categories are the landing page's carousels. */
  featured: boolean;
  presets: CatalogPreset[];
}

export const categories: CatalogCategory[] = [
  {
    manualId: 'professional',
    displayName: 'Professional',
    emoji: '💼',
    featured: true,
    presets: [
      {
        manualId: 'corporate-headshot',
        displayName: 'Corporate Headshot',
        description:
          'A classic, trustworthy headshot on a soft grey studio backdrop. Made for LinkedIn, company pages and press.',
        prompt:
          'professional corporate headshot of {trigger}, wearing a tailored charcoal blazer, soft grey seamless studio backdrop, three-point softbox lighting, shallow depth of field, 85mm lens, sharp focus on the eyes, natural skin texture',
      },
      {
        manualId: 'executive-portrait',
        displayName: 'Executive Portrait',
        description:
          'Confident and commanding: deep navy tones and dramatic side light for leaders and founders.',
        prompt:
          'executive portrait of {trigger}, dark navy suit, deep blue studio background, dramatic Rembrandt side lighting, confident expression, medium close-up, editorial business magazine style, high detail',
      },
      {
        manualId: 'startup-founder',
        displayName: 'Startup Founder',
        description:
          'Bright, modern and approachable, with the soft glow of a sunlit office behind you.',
        prompt:
          'candid portrait of {trigger} in a bright modern startup office, smart casual outfit, warm window light, blurred plants and glass walls in the background, friendly smile, 50mm lens, natural colours',
      },
      {
        manualId: 'linkedin-fresh',
        displayName: 'LinkedIn Fresh',
        description:
          'Clean, high-key and friendly on a white backdrop: a profile photo that looks current.',
        prompt:
          'clean high-key headshot of {trigger} on a pure white background, light blue shirt, even beauty-dish lighting, approachable smile, crisp focus, professional profile photo',
      },
      {
        manualId: 'black-and-white-editorial',
        displayName: 'Black & White Editorial',
        description:
          'Timeless monochrome with strong contrast and fine film grain, like a magazine profile.',
        prompt:
          'black and white editorial portrait of {trigger}, high contrast, dark textured backdrop, single hard key light, fine film grain, thoughtful expression, shot on Tri-X 400',
      },
      {
        manualId: 'conference-speaker',
        displayName: 'Conference Speaker',
        description: 'On stage under the spotlight, with the glow of the hall behind you.',
        prompt:
          'photo of {trigger} speaking on a conference stage, spotlight from above, deep blue stage lights and bokeh in the background, lapel microphone, confident gesture, event photography',
      },
      {
        manualId: 'warm-natural-light',
        displayName: 'Warm Natural Light',
        description:
          'Soft golden window light and warm tones for a natural, approachable portrait.',
        prompt:
          'natural light portrait of {trigger} beside a large window, warm golden afternoon light, soft shadows, cream knit sweater, relaxed expression, 35mm film look',
      },
      {
        manualId: 'author-portrait',
        displayName: 'Author Portrait',
        description:
          'Bookish and warm among the shelves: the portrait for a book jacket, a talk or a faculty page.',
        prompt:
          'portrait of {trigger} in a library, wood-panelled walls and shelves of old books behind, warm lamp light from the left, tweed jacket, thoughtful expression, 50mm lens, shallow depth of field',
      },
    ],
  },
  {
    manualId: '80s-nostalgia',
    displayName: '80s',
    emoji: '📼',
    featured: true,
    presets: [
      {
        manualId: 'neon-grid',
        displayName: 'Neon Grid',
        description: 'Synthwave sunset, magenta glow and a neon grid running to the horizon.',
        prompt:
          'synthwave portrait of {trigger}, retro 1980s style, neon magenta and cyan lighting, glowing grid floor, striped sunset sun, chrome sunglasses pushed up, outrun aesthetic',
      },
      {
        manualId: 'laser-yearbook',
        displayName: 'Laser Yearbook',
        description:
          'The school portrait everyone had: laser beams, soft focus and big 80s energy.',
        prompt:
          '1980s school yearbook portrait of {trigger}, laser beam background, soft focus glow, big feathered hair, pastel sweater, vintage studio photo, film grain',
        scene: {
          palette: { base: [60, 80, 190], accent: [255, 90, 220] },
          rim: { colour: [120, 200, 255], strength: 0.5 },
        },
      },
      {
        manualId: 'vhs-memories',
        displayName: 'VHS Memories',
        description:
          'A paused home video from 1986: scanlines, colour bleed and the orange date stamp.',
        prompt:
          'VHS camcorder still of {trigger}, 1986 home video, scanlines, chromatic aberration, washed-out colours, orange date stamp in the corner, nostalgic living room',
      },
      {
        manualId: 'miami-nights',
        displayName: 'Miami Nights',
        description: 'Teal and pink under palm silhouettes: pure Miami Vice.',
        prompt:
          'portrait of {trigger} in 1980s Miami at night, pastel linen jacket, pink and teal neon, palm tree silhouettes, warm humid air, cinematic retro film still',
      },
      {
        manualId: 'arcade-glow',
        displayName: 'Arcade Glow',
        description:
          'Lit by the cabinet screens in a neon arcade, with a pixel frame and a high score.',
        prompt:
          'portrait of {trigger} in a neon 1980s video arcade, lit by glowing cabinet screens, cyan and magenta light, pixel art details, retro gaming atmosphere',
      },
      {
        manualId: 'polaroid-84',
        displayName: "Polaroid '84",
        description: 'A faded instant photo from a summer long ago, light leak included.',
        prompt:
          'faded instant film photo of {trigger}, summer 1984, warm light leak, soft colours, white border, candid smile, nostalgic snapshot',
      },
      {
        manualId: 'aerobics-pop',
        displayName: 'Aerobics Pop',
        description: 'Candy colours and Memphis shapes: leotards, headbands and pure fun.',
        prompt:
          'bright 1980s aerobics portrait of {trigger}, neon leotard and headband, Memphis design shapes in the background, candy pink and yellow, studio flash, playful energy',
      },
      {
        manualId: 'glamour-shot-86',
        displayName: "Glamour Shot '86",
        description:
          'Soft focus, a purple mall-studio backdrop and a sparkle of hairspray: the glamour shot of 1986.',
        prompt:
          '1980s glamour shot of {trigger}, soft focus, purple and pink studio backdrop, big voluminous hair, shoulder pads, dreamy diffused light, film grain, vintage colour photo',
      },
    ],
  },
  {
    manualId: 'classy',
    displayName: 'Classy',
    emoji: '🥂',
    featured: true,
    presets: [
      {
        manualId: 'old-hollywood',
        displayName: 'Old Hollywood',
        description: 'Silver-screen glamour: soft glow, deep shadows and black and white.',
        prompt:
          'old Hollywood glamour portrait of {trigger}, 1940s studio photography, black and white, butterfly lighting, soft glow, satin and pearls, deep shadows, film grain',
      },
      {
        manualId: 'black-tie-gala',
        displayName: 'Black Tie Gala',
        description: 'Evening wear, warm candlelight and golden bokeh at an elegant gala.',
        prompt:
          'portrait of {trigger} at a black tie gala, elegant evening wear, warm candlelight, golden bokeh from chandeliers, luxurious ballroom, cinematic depth of field',
      },
      {
        manualId: 'renaissance-oil',
        displayName: 'Renaissance Oil',
        description: 'Painted like an old master, in warm umber tones inside a gilded frame.',
        prompt:
          'renaissance oil painting portrait of {trigger}, old master style, warm umber palette, chiaroscuro lighting, velvet garments, visible brushstrokes, ornate gilded frame',
      },
      {
        manualId: 'parisian-cafe',
        displayName: 'Parisian Café',
        description: 'Soft afternoon light at a café terrace in Paris, warm and effortless.',
        prompt:
          'portrait of {trigger} at a Parisian café terrace, trench coat, espresso cup, soft afternoon light, warm muted tones, blurred Haussmann buildings, film photography',
      },
      {
        manualId: 'opera-night',
        displayName: 'Opera Night',
        description: 'Red velvet curtains and a warm spotlight: a night at the opera.',
        prompt:
          'portrait of {trigger} at the opera, red velvet curtains, warm spotlight, elegant evening attire, gold balcony details, rich deep reds, dramatic lighting',
      },
      {
        manualId: 'art-deco',
        displayName: 'Art Deco',
        description: 'Gatsby-era elegance with gold geometric lines and a deep teal mood.',
        prompt:
          'art deco portrait of {trigger}, 1920s Gatsby era, gold geometric frame, deep teal and champagne tones, finger waves, pearls, elegant glamour',
      },
      {
        manualId: 'sepia-heirloom',
        displayName: 'Sepia Heirloom',
        description: 'A treasured family photograph in sepia, framed in an oval mount.',
        prompt:
          'antique sepia photograph of {trigger}, victorian portrait, oval cameo mount, soft focus, aged paper texture, formal pose, heirloom photo',
      },
      {
        manualId: 'gallery-opening',
        displayName: 'Gallery Opening',
        description:
          'An evening among white walls and framed art, dressed in black and lit like the guest of honour.',
        prompt:
          'elegant portrait of {trigger} at a contemporary art gallery opening, white walls with framed paintings, black evening outfit, soft spotlight, sophisticated, 85mm lens',
        // "Paintings" on the walls are the gallery's, not the picture's style.
        scene: { treatment: 'none' },
      },
    ],
  },
  {
    manualId: 'fantasy-personas',
    displayName: 'Fantasy',
    emoji: '🧝',
    featured: true,
    presets: [
      {
        manualId: 'elven-royalty',
        displayName: 'Elven Royalty',
        description:
          'Woodland royalty in a soft golden glow, with sparkles drifting through the air.',
        prompt:
          'fantasy portrait of {trigger} as elven royalty, delicate silver circlet, flowing robes, enchanted forest glade, soft golden glow, floating sparkles, ethereal, highly detailed',
      },
      {
        manualId: 'arcane-sorcerer',
        displayName: 'Arcane Sorcerer',
        description: 'A circle of glowing runes and violet magic: the master of the arcane.',
        prompt:
          'fantasy portrait of {trigger} as an arcane sorcerer, glowing violet runes circling behind, hooded robe, magical sparks, dark tower library, dramatic rim light, epic fantasy art',
      },
      {
        manualId: 'frost-queen',
        displayName: 'Frost Queen',
        description: 'Icy blues, falling snow and a crown of frost.',
        prompt:
          'fantasy portrait of {trigger} as a frost queen, crown of ice crystals, pale blue gown, falling snowflakes, frozen palace, cold blue light, glittering frost, magical',
      },
      {
        manualId: 'fire-mage',
        displayName: 'Fire Mage',
        description: 'Glowing embers and molten orange light from the fire you command.',
        prompt:
          'fantasy portrait of {trigger} as a fire mage, flames swirling around the hands, glowing embers in the air, molten orange light, dark volcanic background, intense gaze, cinematic',
      },
      {
        manualId: 'forest-druid',
        displayName: 'Forest Druid',
        description: 'Guardian of the old forest, among leaves and fireflies.',
        prompt:
          'fantasy portrait of {trigger} as a forest druid, leaf crown, moss-green cloak, ancient forest, fireflies, dappled green light, mystical atmosphere, detailed',
      },
      {
        manualId: 'celestial-voyager',
        displayName: 'Celestial Voyager',
        description: 'Among the stars: nebula colours and starlight on your face.',
        prompt:
          'cosmic portrait of {trigger} as a celestial voyager, nebula in violet and pink, starfield, starlight reflecting on the face, space fantasy, luminous, dreamy',
      },
      {
        manualId: 'dragon-knight',
        displayName: 'Dragon Knight',
        description: 'Battle-worn steel and smouldering embers after the dragon fight.',
        prompt:
          'fantasy portrait of {trigger} as a dragon knight, battle-worn steel armour, smoke and embers, dragon silhouette in the distance, dramatic low-key light, epic, gritty',
      },
      {
        manualId: 'ocean-siren',
        displayName: 'Ocean Siren',
        description:
          'Deep under the waves in blue-green light, with sun rays falling through the water around you.',
        prompt:
          'fantasy portrait of {trigger} as an ocean siren underwater, blue-green water, sun rays from above, floating hair, shimmering teal outfit, magical, cinematic',
        scene: { place: 'underwater' },
      },
    ],
  },
  {
    manualId: 'fashion',
    displayName: 'Fashion',
    emoji: '👗',
    featured: true,
    presets: [
      {
        manualId: 'cover-star',
        displayName: 'Cover Star',
        description: 'Your own magazine cover, masthead and cover lines included.',
        prompt:
          'fashion magazine cover of {trigger}, high-end editorial styling, beauty lighting, blush backdrop, bold masthead, cover lines, glossy print',
      },
      {
        manualId: 'street-style',
        displayName: 'Street Style',
        description: 'City-editorial colour grade with teal shadows and warm highlights.',
        prompt:
          'street style photo of {trigger}, oversized coat, city street, teal and orange colour grade, candid fashion week moment, 35mm lens, gritty film grain',
      },
      {
        manualId: 'golden-hour-editorial',
        displayName: 'Golden Hour Editorial',
        description: 'Warm sun, lens flare and glowing skin at the golden hour.',
        prompt:
          'golden hour fashion editorial of {trigger}, rooftop at sunset, warm backlight and lens flare, flowing silk outfit, glowing skin, dreamy warm tones',
      },
      {
        manualId: 'monochrome-minimal',
        displayName: 'Monochrome Minimal',
        description: 'Clean, quiet and almost colourless on a bright white set.',
        prompt:
          'minimalist fashion portrait of {trigger}, all-white set, muted colours, structured white shirt, soft even light, clean lines, high-end catalogue look',
      },
      {
        manualId: 'pastel-dream',
        displayName: 'Pastel Dream',
        description: 'Soft pastels and a dreamy glow, sweet and airy.',
        prompt:
          'dreamy pastel portrait of {trigger}, lilac and pink tones, soft glow, sheer fabrics, airy studio, gentle sparkles, romantic fashion photography',
      },
      {
        manualId: 'runway-flash',
        displayName: 'Runway Flash',
        description: 'Hard flash and deep black: straight off the runway.',
        prompt:
          'runway photo of {trigger}, hard camera flash, black background, couture outfit, high contrast, catwalk fashion show, sharp detail',
      },
      {
        manualId: 'colour-block',
        displayName: 'Colour Block',
        description: 'Bold blocks of primary colour for a graphic, modern editorial.',
        prompt:
          'colour block fashion portrait of {trigger}, bold cobalt, yellow and coral background panels, graphic styling, bright studio flash, modern editorial',
      },
      {
        manualId: 'rooftop-editorial',
        displayName: 'Rooftop Editorial',
        description:
          'A city rooftop at dusk, the skyline glowing behind you: a fashion story shot after hours.',
        prompt:
          'fashion editorial photo of {trigger} on a city rooftop at dusk, skyline behind, tailored cream coat, wind in the hair, golden city lights, magazine style, 35mm film',
      },
    ],
  },
  {
    manualId: 'outdoor',
    displayName: 'Outdoor',
    emoji: '🏔️',
    featured: false,
    presets: [
      {
        manualId: 'mountain-summit',
        displayName: 'Mountain Summit',
        description: 'Wind, clear air and a range of peaks behind you: the picture from the top.',
        prompt:
          'outdoor portrait of {trigger} on a mountain summit, snow-capped peaks behind, clear blue sky, bright daylight, red technical jacket, adventurous, wide angle, crisp detail',
      },
      {
        manualId: 'beach-sunset',
        displayName: 'Beach Sunset',
        description:
          'Warm light on the sand and the sea turning gold: a summer evening by the water.',
        prompt:
          'portrait of {trigger} on a sandy beach at sunset, ocean waves behind, warm golden backlight, white linen shirt, relaxed smile, 85mm lens, soft bokeh',
      },
      {
        manualId: 'forest-trail',
        displayName: 'Forest Trail',
        description: 'Green shade and soft light through the trees on a walk in the woods.',
        prompt:
          'portrait of {trigger} on a forest trail, tall green trees, dappled sunlight through leaves, olive green jacket, calm expression, natural light, 50mm lens',
      },
      {
        manualId: 'misty-lake',
        displayName: 'Misty Lake',
        description: 'Still water, mist on the far shore and the quiet of an early morning.',
        prompt:
          'portrait of {trigger} by a calm lake in the morning mist, soft overcast light, pine trees on the far shore, navy knit sweater, peaceful mood, muted colours',
      },
      {
        manualId: 'desert-road-trip',
        displayName: 'Desert Road Trip',
        description: 'Red rock, dry heat and the long light of late afternoon on the open road.',
        prompt:
          'portrait of {trigger} in the desert at golden hour, red rock and sand dunes behind, warm low sun, denim jacket, sunlit, road trip mood, film photo',
      },
      {
        manualId: 'tropical-escape',
        displayName: 'Tropical Escape',
        description:
          'Palm leaves, turquoise water and bright sun: a holiday picture from somewhere warm.',
        prompt:
          'portrait of {trigger} on a tropical island, palm trees and turquoise sea behind, bright sunny day, colourful floral shirt, cheerful smile, vivid colours',
      },
    ],
  },
  {
    manualId: 'seasonal',
    displayName: 'Seasonal',
    emoji: '🍂',
    featured: false,
    presets: [
      {
        manualId: 'autumn-leaves',
        displayName: 'Autumn Leaves',
        description: 'Amber leaves, a warm coat and the low sun of an October afternoon.',
        prompt:
          'autumn portrait of {trigger} in a park, orange and red falling leaves, golden hour light, camel wool coat and scarf, cosy mood, 85mm lens, bokeh',
      },
      {
        manualId: 'winter-wonderland',
        displayName: 'Winter Wonderland',
        description: 'Falling snow and a bright white world, wrapped up warm.',
        prompt:
          'winter portrait of {trigger} in falling snow, snowy trees behind, soft cold daylight, cream knitted hat and scarf, rosy cheeks, bright and airy',
      },
      {
        manualId: 'spring-blossom',
        displayName: 'Spring Blossom',
        description: 'A garden in bloom, soft daylight and pastel colours of spring.',
        prompt:
          'spring portrait of {trigger} in a blooming garden, pink cherry blossoms and flowers, soft daylight, pastel blue shirt, gentle smile, fresh colours, 85mm lens',
      },
      {
        manualId: 'summer-meadow',
        displayName: 'Summer Meadow',
        description: 'Tall grass, wild flowers and a warm evening sun in the fields.',
        prompt:
          'summer portrait of {trigger} in a meadow of tall grass and wild flowers, warm golden hour sun, white cotton dress shirt, carefree mood',
      },
      {
        manualId: 'festive-night',
        displayName: 'Festive Night',
        description: 'Snow at night and warm lights all around: the picture for the holiday card.',
        prompt:
          'festive portrait of {trigger} on a snowy evening, warm string lights and bokeh, falling snow at night, deep red knit sweater, joyful, cosy warm glow',
      },
    ],
  },
  {
    manualId: 'dating',
    displayName: 'Dating profile',
    emoji: '💘',
    featured: false,
    presets: [
      {
        manualId: 'coffee-date',
        displayName: 'Coffee Date',
        description:
          'Relaxed and warm at a café table: the first picture on a profile that gets replies.',
        prompt:
          'candid portrait of {trigger} in a cosy cafe, warm window light, coffee cup on the table, casual sweater, genuine smile, shallow depth of field, natural colours',
      },
      {
        manualId: 'park-stroll',
        displayName: 'Park Stroll',
        description:
          'Sunny, green and easy-going: the picture that says you like a good afternoon out.',
        prompt:
          'candid portrait of {trigger} in a sunny garden park, green trees and flowers behind, bright natural daylight, light casual shirt, warm smile, 50mm lens',
      },
      {
        manualId: 'city-night-out',
        displayName: 'City Night Out',
        description: 'City lights behind you and the evening ahead: confident, not posed.',
        prompt:
          'portrait of {trigger} on a city street at night, glowing shop lights and bokeh, black leather jacket, confident smile, cinematic colours, 35mm lens',
      },
      {
        manualId: 'sunset-rooftop',
        displayName: 'Sunset Rooftop',
        description: 'Golden light on a rooftop terrace with the city below: warm and inviting.',
        prompt:
          'portrait of {trigger} on a rooftop terrace at golden hour, city skyline behind, warm sunset light, smart casual outfit, relaxed smile, soft bokeh',
      },
      {
        manualId: 'weekend-beach',
        displayName: 'Weekend Beach',
        description: 'Sea breeze, daylight and a real smile: the easy summer picture.',
        prompt:
          'candid portrait of {trigger} at the beach on a sunny day, blue sea and sky behind, light linen shirt, windswept hair, laughing, bright natural light',
      },
    ],
  },
];
