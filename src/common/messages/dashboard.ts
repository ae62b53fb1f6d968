// The dashboard's words (the AI Studio: plan card, next steps, tabs).
// The server and the web app import them from here, so a page downloads only the words it uses.

import { costs } from '../product/credits.ts';
import { photoRange, plural } from './format.ts';

/** `messages.dashboard`: the dashboard (the AI Studio). */
export const dashboardMessages = {
  greeting: (name: string) => `Welcome, ${name}`,
  greetingNoName: 'Welcome',
  subtitle: 'Your AI photo studio. Here is where you stand and what to do next.',
  planTitle: 'Your plan',
  noPlanHint: 'Choose a plan to train your AI model and start creating.',
  nextStepsTitle: 'Next steps',
  createModel: {
    title: 'Create your AI model',
    text: `Upload ${photoRange} photos of yourself to train a model that only you can use.`,
  },
  buyCredits: {
    title: 'Buy credits',
    text: `Top up your balance: ${plural(costs.creditsPerImage, 'credit')} per image. Credits never expire.`,
  },
  account: {
    title: 'Account',
    text: 'Your sign-in details and account settings.',
  },
  // The AI Studio shell: its tabs and the honest placeholders of what is not built yet.
  studioTitle: 'AI Studio',
  studioSubtitle: 'Choose a style, write your own prompt, or try on an outfit.',
  studioSections: 'Studio sections',
  generationTabs: 'Generation modes',
  tabs: {
    generation: 'Generate',
    tryon: 'Try-On',
    presets: 'Presets',
    custom: 'Custom',
    generated: 'Generated',
  },
  // Read after the tab's name while the lock icon shows (the icon itself is decorative).
  tryOnLocked: '(locked: Pro plan or above)',
  credits: 'Credits',
  choosePlan: 'Choose a plan',
  buyMoreCredits: 'Buy credits',
  browsePresets: 'Browse presets',
  // The plan card's main action, which follows where the user stands.
  nextStep: {
    generatePhotos: 'Generate photos',
    createAnother: 'Create another model',
    seeTraining: 'See your model training',
    trainingHint: 'Your AI model is training. Browse the styles meanwhile.',
    atLimit: (tierName: string, limit: number) =>
      `Your ${tierName} plan includes ${plural(limit, 'AI model')}, and it is in use.`,
    upgrade: 'Upgrade for more models',
  },
  tryonPlaceholder: {
    title: 'Virtual try-on',
    text: 'Put any garment on a photo of yourself. Try-on is coming to the studio soon (Pro, Premium and Enterprise plans); see how it works in the meantime.',
    link: 'See how try-on works',
  },
} as const;
