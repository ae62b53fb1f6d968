// The landing page's words, in a file of their own so the landing does not download the words of
// every other page.

import { brand } from '../product/brand.ts';
import { landing as landingNumbers } from '../product/landing.ts';
import { photoRange } from './format.ts';

/** `messages.landing`: the landing page (`/`). */
export const landingMessages = {
  heroTitle: 'Professional AI photos of you, in any style',
  heroSubtitle: `Upload ${photoRange} photos, train your personal AI model and create studio-quality images for work, social media and fun.`,
  heroCta: 'Create Your AI Photos',
  claims: [
    'Commercial use',
    'Fast results',
    'Studio quality',
    `${landingNumbers.marketingStyleCount}+ premium styles`,
    `${landingNumbers.marketingPhotoCount}+ photos`,
  ],
  howItWorks: {
    title: 'How It Works',
    steps: [
      {
        title: 'Upload your photos',
        text: `Upload ${photoRange} clear photos of yourself from different angles.`,
      },
      {
        title: 'AI training',
        text: 'Our AI learns your features and builds a model only you can use.',
      },
      {
        title: 'Generate and download',
        text: 'Pick a style or write a prompt and download your photos.',
      },
    ],
  },
  presets: {
    title: 'Choose your style',
    subtitle: 'Hundreds of looks, from boardroom to fantasy.',
    tabsLabel: 'Style categories',
    viewAll: 'See every style',
  },
  heroPreviewLabel: 'A preview of the style presets',
  stepLabel: (n: number) => `Step ${n}`,
  trainingLabel: 'Training your AI model',
  examplesSubtitle: 'Real results from our style presets. Pick a look to explore it.',
  examplesCategoriesLabel: 'Example categories',
  slideProgress: 'Time until the next category',
  customScenario: {
    title: 'Or describe any scenario',
    subtitle: 'Write your own prompt and see yourself anywhere you can imagine.',
  },
  possibilities: {
    title: 'Endless Possibilities',
    items: [
      {
        title: 'Professional headshots',
        text: 'Polished portraits for LinkedIn, your website and press.',
      },
      {
        title: 'Creative avatars',
        text: 'Fantasy heroes, retro looks and artistic portraits.',
      },
      {
        title: 'Social media',
        text: 'Fresh, eye-catching photos for every post and profile.',
      },
    ],
  },
  pricing: {
    title: 'Simple, transparent pricing',
    subtitle: 'Choose the plan that fits you. Cancel anytime.',
    goToDashboard: 'Go to Dashboard',
    getStarted: 'Get Started',
  },
  closingCta: {
    title: 'Ready to see yourself in a new light?',
    button: 'Get Started',
  },
  examplesTitle: 'Made with ' + brand.name,
  demo: {
    title: 'See it in action',
    promptLabel: 'Prompt',
    generating: 'Generating...',
    original: 'Original',
    originalAlt: 'The original: a selfie',
    generatedAlt: (prompt: string) => `Generated portrait: ${prompt}`,
    generatedIn: `Generated in ${landingNumbers.demoGeneratedSeconds} seconds`,
  },
} as const;
