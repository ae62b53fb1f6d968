// The style presets' words: categories, preset pages, the carousels.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { costs } from '../product/credits.ts';
import { photoRange, plural } from './format.ts';

/** `messages.catalog`: the style presets and their categories. */
export const catalogMessages = {
  loadModelsFailed: (message: string) => `Failed to load models: ${message}`,
  loadCategoriesFailed: 'Failed to load categories',
  somethingWentWrong: 'Something went wrong',
  tryAgain: 'Try again',
  noCategories: 'No categories found',
  noCategoriesHint: 'Start by creating some categories and models',
  refresh: 'Refresh',
  emptyCategory: 'No models in this category',
  addModel: 'Add Model',
  comingSoon: 'Create model feature coming soon!',
  viewAll: 'View All',
  collapse: 'Collapse',
  expand: 'Expand',
  bulkGenerate: 'Bulk Generate',
  selectedCount: (n: number) => `${n} selected`,
  selectForBulk: 'Select',
  modelNotFound: 'Model not found',
  loadModelDetailsFailed: 'Failed to load model details',
  loadModelsFailedPlain: 'Failed to load models',
  loadImageFailed: 'Failed to load image',
  examples: 'Examples',
  chooseYourModel: 'Choose your AI model',
  noTrainedModels: 'You have no trained AI model yet.',
  categoryNotFound: 'Category not found',
  // The studio's preset screens (dashboard presets tab, category page, preset detail).
  presetsTitle: 'Style presets',
  presetsHint: 'Pick a look. Each preset turns your AI model into a finished photo.',
  presetCount: (n: number) => plural(n, 'style'),
  scrollPrevious: (category: string) => `Previous ${category} presets`,
  scrollNext: (category: string) => `Next ${category} presets`,
  categoryHint: 'Open a preset to see its examples, or select several to generate them at once.',
  selectPreset: (name: string) => `Select ${name}`,
  clearSelection: 'Clear selection',
  bulkLockedTitle: 'Bulk generation is a Pro feature',
  upgrade: 'Upgrade',
  previousImage: 'Previous image',
  nextImage: 'Next image',
  showImage: (n: number, total: number) => `Show image ${n} of ${total}`,
  imageCount: (n: number, total: number) => `${n} / ${total}`,
  modelPickerEmptyTitle: 'Create an AI Model First',
  modelPickerEmptyText: `Train your own AI model from ${photoRange} photos, then choose it here to generate this preset with your face.`,
  createModelCta: 'Create your AI model',
  generateCost: `Uses ${plural(costs.creditsPerImage, 'credit')} per image.`,
  noDescription: 'No description yet.',
} as const;
