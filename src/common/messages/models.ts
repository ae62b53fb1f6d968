// The words of the user's AI models: their training, the list, their statuses and settings. Apart
// from the studio's other words because the pages that generate pictures name the models too.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { training as trainingNumbers } from '../product/training.ts';
import { photoRange } from './format.ts';

/** `messages.training`: a model in training. */
export const trainingMessages = {
  bannerTitle: 'Training Your AI Model...',
  bannerEstimate: `Estimated time left: ${trainingNumbers.estimateMinutes} minutes`,
  noValidatedImages: 'No validated images found.',
  zipUploadFailed: 'Failed to upload zip.',
  createModelFailed: 'Failed to create model record',
  zippingFailed: 'Unexpected error during zipping.',
  prepareFailed: 'Failed to prepare images for training',
  notEnoughImages: 'Not enough valid images to proceed',
  startFailed: 'Failed to start training. Please try again.',
  started: 'Training started! We will let you know when your AI model is ready.',
  completed: (modelName: string) => `Your AI model "${modelName}" is ready!`,
  failed: (modelName: string) =>
    `Training of "${modelName}" failed. What it spent has been refunded.`,
  timedOut: 'Training took too long and was stopped.',
  bannerProgress: (percent: number) => `${percent}% complete`,
  bannerProgressLabel: 'Training progress',
  noUsableFace: 'No usable face was found in the training photos.',
} as const;

/** `messages.models`: the user's AI models. */
export const modelsMessages = {
  title: 'My AI Models',
  createNew: 'Create AI Model',
  empty: 'You have no AI models yet',
  emptyHint: `Upload ${photoRange} photos to train your first AI model.`,
  loadFailed: 'Failed to load your models',
  generate: 'Generate',
  placeholderAlt: 'AI model without a preview image',
  status: {
    pending: 'Pending',
    training: 'Training...',
    complete: 'Complete',
    failed: 'Failed',
    unknown: 'Unknown',
  },
  selected: 'Selected',
  select: 'Use this model',
  subtitle: 'Your trained AI models. Choose the one your generations use.',
  createdOn: (date: string) => `Created ${date}`,
  featuredAlt: (name: string) => `AI model ${name}`,
  deleteLabel: (name: string) => `Delete ${name}`,
  deleteTitle: (name: string) => `Delete "${name}"?`,
  deleteDescription:
    'This permanently deletes the AI model and every image generated with it. This cannot be undone.',
  deleteConfirm: 'Delete model',
  deleted: 'AI model deleted',
  deleteFailed: 'Failed to delete the AI model. Please try again.',
  selectFailed: 'Failed to choose the model. Please try again.',
  selectedToast: (name: string) => `Your generations now use "${name}".`,
  selectUpgradeHint:
    'Choosing which model your generations use is available on the Pro, Premium and Enterprise plans.',
  upgrade: 'Upgrade',
  settings: {
    title: 'Training photos',
    keepPhotos: 'Keep my training photos',
    keepPhotosHint:
      'Off by default: your photos and their zip are deleted once training finishes. Turn this on to keep them.',
    saved: 'Setting saved',
    saveFailed: 'Failed to save the setting. Please try again.',
    loadFailed: 'Failed to load your settings.',
  },
  notFound: 'AI model not found',
  notReady: 'This AI model has not finished training yet.',
  selectProOnly: 'Choosing your AI model is available for Pro and Premium subscribers',
} as const;
