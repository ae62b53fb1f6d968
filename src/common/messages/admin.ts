// The operator's words: the admin API and command line, and the admin page.
// Part of `messages` (messages.ts composes each group under its usual name); the web app
// imports them from here, so a page downloads only the words it uses.

import { plural } from './format.ts';
import { catalogImageTypes, maxMb } from './phrases.ts';

/**
 * `messages.admin`: the operator's admin API and command line (categories, presets, example
 * photos, quiz).
 */
export const adminMessages = {
  categoryNotFound: 'Category not found',
  categoryExists: (manualId: string) => `A category with the key "${manualId}" already exists.`,
  categoryHasPresets: (count: number) =>
    `This category still has ${plural(count, 'preset')}. Move or delete them first.`,
  presetNotFound: 'Preset not found',
  presetExists: (manualId: string) => `A preset with the key "${manualId}" already exists.`,
  examplePhotoNotFound: 'Example photo not found',
  quizImageNotFound: 'Quiz image not found',
  imageNotFound: 'Image not found',
  orderMustListAll: 'The new order must list every item exactly once.',
  manualIdRule: 'Use lowercase letters, digits and single hyphens (for example "80s-nostalgia").',
  promptNeedsTrigger: "The prompt must contain {trigger}, where the user's AI model goes.",
  uploadMissing: 'Choose an image file to upload.',
  uploadOneFile: 'Send one image at a time.',
  uploadNotMultipart: 'Send the image as multipart/form-data in a field named "file".',
  uploadMalformed: 'The upload was incomplete or malformed. Please try again.',
  uploadTooLarge: `File is larger than ${maxMb}`,
  uploadUnsupportedType: `Not a supported image type (${catalogImageTypes})`,
  uploadUnreadable: 'The image could not be read',
  uploadTooManyPixels: 'Image dimensions are too large',
  uploadTooSmall: (minSide: number) => `Image is too small (at least ${minSide} px wide and tall)`,
} as const;

/**
 * `messages.adminPage`: the operator's admin page (/admin); the API's own messages are in `admin`.
 */
export const adminPageMessages = {
  title: 'Catalog admin',
  subtitle:
    'Categories, style presets, example photos and quiz pictures, as visitors and users see them, and what the image providers cost you.',
  tabs: {
    categories: 'Categories',
    presets: 'Presets',
    examplePhotos: 'Example photos',
    quizImages: 'Quiz images',
    costs: 'Costs',
  },
  costs: {
    title: 'Provider costs, last 30 days',
    explanation:
      'What the image providers cost you, by the price table (PROVIDER_PRICES_USD; defaults and sources in docs/providers.md). A picture includes its likeness re-rolls and its HD upscale. The offline engines cost nothing.',
    none: 'No paid provider calls in the last 30 days.',
    perPicture: 'Per picture',
    perPreview: 'Per preview',
    perTraining: 'Per training',
    perTryOn: 'Per try-on',
    total: 'Total',
    calls: (n: number) => `${n} ${n === 1 ? 'call' : 'calls'}`,
    kinds: {
      picture: 'Pictures',
      reroll: 'Likeness re-rolls',
      upscale: 'HD upscales',
      preview: 'Training previews',
      training: 'Trainings',
      tryon: 'Try-ons',
    },
  },
  newCategory: 'New category',
  editCategory: 'Edit category',
  newPreset: 'New preset',
  editPreset: 'Edit preset',
  key: 'Key',
  keyHint: 'Lowercase letters, digits and hyphens; used in the address /category/{key}.',
  presetKeyHint: 'Optional: made from the name when left empty.',
  displayName: 'Display name',
  emoji: 'Emoji',
  featured: 'Featured',
  active: 'Active',
  inactive: 'Inactive',
  activate: 'Activate',
  deactivate: 'Deactivate',
  edit: 'Edit',
  save: 'Save',
  create: 'Create',
  saved: 'Saved',
  created: 'Created',
  deleted: 'Deleted',
  moveUp: (name: string) => `Move ${name} up`,
  moveDown: (name: string) => `Move ${name} down`,
  presetsCount: (n: number) => plural(n, 'preset'),
  pictureCount: (n: number) => plural(n, 'picture'),
  category: 'Category',
  description: 'Description',
  prompt: 'Prompt',
  promptHint: 'Must contain {trigger}: it is replaced by the user’s AI model.',
  images: 'Pictures',
  manageImages: (name: string) => `Pictures of ${name}`,
  featuredImage: 'Featured picture',
  additionalImages: 'Additional pictures',
  uploadFeatured: 'Upload featured picture',
  replaceFeatured: 'Replace featured picture',
  uploadAdditional: 'Add a picture',
  makeFeatured: 'Make featured',
  deleteImage: 'Delete picture',
  noImage: 'No picture yet',
  uploading: (name: string) => `Uploading ${name}`,
  uploaded: 'Picture uploaded',
  uploadHint: `${catalogImageTypes}, up to ${maxMb}, at least 320 px on each side.`,
  noCategories: 'No categories yet',
  noPresets: 'No presets in this category yet',
  good: 'Good',
  bad: 'Bad',
  caption: 'Caption',
  uploadExample: 'Upload example photo',
  noExamples: 'No example photos yet',
  isAi: 'AI picture',
  real: 'Real',
  aiLabel: 'AI',
  uploadQuiz: 'Upload quiz picture',
  quizAiHint: 'Tick when the picture is AI-made (the quiz answer).',
  noQuizImages: 'No quiz pictures yet',
  confirmDelete: 'Delete this picture?',
  confirmDeleteText: 'It is removed from the site at once and cannot be restored.',
  loadFailed: 'Failed to load the catalog',
  hidden: 'Hidden',
} as const;
