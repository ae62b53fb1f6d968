// Virtual try-on's words: the studio tab and the public page.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { costs } from '../product/credits.ts';
import { photos } from '../product/photos.ts';
import { tryOn as tryOnNumbers } from '../product/tryon.ts';
import { plural } from './format.ts';

/** `messages.tryon`: virtual try-on: the studio tab and the public page. */
export const tryonMessages = {
  tab: 'Try-On',
  title: 'AI Virtual Try-On',
  subtitle: 'See yourself in any outfit: add a photo of a person and a garment.',
  personImage: 'Person image',
  garmentImage: 'Garment image',
  uploadPerson: 'Upload person photo',
  uploadGarment: 'Upload garment photo',
  chooseGenerated: 'Choose from your generated images',
  noGeneratedImages: 'No completed generated images yet',
  // The specification's words; WebP is accepted as well, and anything else is refused by type.
  uploadHint: `JPG, PNG up to ${photos.maxUploadMegabytes}MB`,
  duration: `This takes about ${tryOnNumbers.durationSecondsMin}-${tryOnNumbers.durationSecondsMax} seconds.`,
  start: 'Start Try-On',
  starting: 'Starting...',
  upgradeRequired: 'Upgrade Required',
  proNeeded: 'Pro subscription needed',
  upgrade: 'Upgrade',
  proOnly: 'AI Try-On is only available for Pro and Premium subscribers',
  selectBoth: 'Please select both a person image and a garment image',
  notFound: 'Try-on not found',
  personUploadFailed: 'Failed to upload person image',
  personSignedUrlFailed: 'Failed to create signed URL for person image',
  garmentUploadFailed: 'Failed to upload garment image',
  garmentSignedUrlFailed: 'Failed to create signed URL for garment image',
  startFailed: 'Failed to start AI try-on',
  completed: 'AI Try-On completed! View your result below.',
  started: 'AI Try-On started! Results will appear below when ready.',
  failed: 'This try-on failed. Your credit has been refunded.',
  // As for generated images, a safety-blocked try-on is not refunded (specification README).
  blocked: 'A try-on blocked by the safety filter still uses its credit.',
  // Why a try-on did not work, shown with the failed result (FASHN's runtime `error.name`s in
  // words, and what the local preview engine can run into).
  errors: {
    imageLoad: "We couldn't load one of the images. Please upload it again.",
    contentModeration: 'This image was blocked by the content filter.',
    pose: "We couldn't find a body pose in the person photo. Use a photo showing the upper body.",
    noFace:
      "We couldn't find a face in the person photo. Use a photo showing your face and upper body.",
    noGarment:
      "We couldn't make out the garment in the garment photo. Use a photo of the garment on a plain background.",
    generic: "We couldn't complete this try-on. Please try again.",
    timedOut: 'This try-on took too long and was stopped.',
  },
  // To FASHN, for a webhook about a run we have not recorded yet: it delivers again later.
  webhookTooEarly: 'This try-on is not ready for news yet; deliver it again later.',
  downloadFailed: 'Failed to download image',
  downloaded: 'Image downloaded successfully!',
  resultsTitle: 'Your Try-On Results',
  loadMore: 'Load more',
  resultsEmpty: 'Your try-on results will appear here.',
  // The dashboard tab (studio): slots, picker, results.
  resultsEmptyHint: 'Add a person and a garment above, then start your first try-on.',
  resultsLoadFailed: 'Failed to load your try-on results',
  personPreviewAlt: 'The chosen person image',
  garmentPreviewAlt: 'The chosen garment image',
  removePerson: 'Remove the person image',
  removeGarment: 'Remove the garment image',
  change: 'Change',
  pickerTitle: 'Choose a generated image',
  pickerText: 'Pick one of your latest completed images as the person.',
  pickerLoadFailed: 'Failed to load your generated images',
  pickerEmptyHint: 'Generate a photo from a preset first, or upload a photo of yourself.',
  pickerItem: (name: string, n: number) => `${name}, image ${n}`,
  fromGenerated: 'From your generated images',
  costNote: `Each try-on uses ${plural(costs.creditsPerTryOn, 'credit')}.`,
  gateText:
    'Put any garment on a photo of yourself. Try-on is part of the Pro, Premium and Enterprise plans.',
  seeHowItWorks: 'See how try-on works',
  resultAlt: (date: string) => `Try-on result from ${date}`,
  personAlt: 'Person image used',
  garmentAlt: 'Garment image used',
  processingText: `Working on it. This takes about ${tryOnNumbers.durationSecondsMin}-${tryOnNumbers.durationSecondsMax} seconds.`,
  preview: 'Preview',
  previewHint:
    'Made on this server by the offline studio engine: the garment fitted to your shoulders and lit like the photo, not an AI render.',
  status: {
    processing: 'Processing',
    completed: 'Ready',
    failed: 'Failed',
    blocked: 'Blocked',
  },
  publicPage: {
    title: 'AI Virtual Try-On',
    subtitle: 'Try on any outfit without leaving home.',
    before: 'Before',
    after: 'After',
    sliderLabel: 'Drag to compare before and after',
    howItWorksTitle: 'How It Works',
    steps: [
      { title: 'Add your photo', text: 'Upload a photo of yourself or use one you generated.' },
      { title: 'Add a garment', text: 'Upload a photo of the clothing you want to try.' },
      { title: 'See the result', text: 'Our AI dresses you in it in about a minute.' },
    ],
    availability: 'Available on the Pro, Premium and Enterprise plans.',
    cta: 'Get Started',
    lead: 'Add a photo of yourself and a photo of a garment, and see yourself wearing it in about a minute.',
    stepLabel: (n: number) => `Step ${n}`,
    ctaUpgrade: 'Choose a plan for Try-On',
    ctaOpen: 'Open Try-On',
    sliderValue: (percent: number) => `${percent}% before, ${100 - percent}% after`,
    beforeAlt: 'Before: a woman in a grey sweater, photographed at home',
    afterAlt: 'After: the same photo with the sweater changed to a terracotta knit',
    demoNote: 'Example pictures. Your own result depends on your photos.',
    plansTitle: 'Choose your plan',
  },
} as const;
