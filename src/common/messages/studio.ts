// The words of creating an AI model: guidelines, photos, their checks, gender, name, and the
// previews made while it trains.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { costs } from '../product/credits.ts';
import { photos } from '../product/photos.ts';
import { tierGates } from '../product/tiers.ts';
import { photoRange, plural } from './format.ts';
import {
  acceptedTypes,
  maxMb,
  subscriptionRequiredDescription,
  subscriptionRequiredTitle,
} from './phrases.ts';

const insufficientCreditsTitle = 'Insufficient Credits';
const insufficientCreditsDescription = (credits: number) =>
  `Training a new AI model costs ${costs.trainingCredits} credits, but you only have ${credits} credits available. Please purchase more credits to continue.`;

/** `messages.createModel`: how creating an AI model works, and what stops it. */
export const createModelMessages = {
  title: 'How It Works',
  steps: [
    `Upload ${photoRange} clear photos of yourself from different angles.`,
    'Our AI analyses them and builds a profile only you can use.',
    'Generate photos of yourself in any style.',
  ],
  continue: 'Continue',
  insufficientCreditsTitle,
  insufficientCreditsDescription,
  insufficientCreditsForTraining: (credits: number) =>
    `${insufficientCreditsTitle}: ${insufficientCreditsDescription(credits)}`,
  subscriptionRequiredTitle,
  subscriptionRequiredDescription,
  subscriptionRequired: `${subscriptionRequiredTitle}: ${subscriptionRequiredDescription}`,
  useCreditsTitle: 'Use credits for this training?',
  useCreditsDescription: (credits: number) =>
    `You have used this month's free training. Training a new AI model costs ${costs.trainingCredits} credits; you have ${credits} credits available.`,
  useCreditsConfirm: 'Continue',
  buyCredits: 'Buy Credits',
  cancel: 'Cancel',
  modelLimitReached: (tierName: string, limit: number) =>
    `Your ${tierName} plan allows up to ${plural(limit, 'AI model')}. To create another, upgrade your plan or contact us.`,
  modelLimitReachedTopTier: `You have reached the maximum of ${tierGates.premium.modelLimit} AI models. Please contact us if you need more.`,
  subtitle: 'Three steps from a handful of selfies to studio photos of you.',
  stepLabel: (n: number) => `Step ${n}`,
  viewModels: 'View My AI Models',
  upgradePlan: 'Upgrade plan',
  checkingModels: 'Checking your AI models...',
} as const;

/** `messages.examplePhotos`: the photo guidelines. */
export const examplePhotosMessages = {
  title: 'Photo Guidelines',
  subtitle: 'Good photos make a good AI model. Here is what works and what does not.',
  good: 'Good photos',
  bad: 'Bad photos',
  goodTips: [
    'Only you in the photo, face clearly visible',
    'Different angles, expressions and backgrounds',
    'Sharp, well-lit photos',
  ],
  badTips: [
    'Group photos or other people in view',
    'Sunglasses, hats or hands covering your face',
    'Blurry, dark or heavily filtered photos',
  ],
  continue: 'Continue to Upload Photos',
  loadFailed: 'Failed to load example photos.',
  goodBadge: 'Good',
  badBadge: 'Bad',
} as const;

/** `messages.upload`: uploading the training photos. */
export const uploadMessages = {
  title: 'Upload Photos',
  subtitle: `Add ${photoRange} clear photos of yourself. Only you, face clearly visible.`,
  choose: 'Choose photos',
  dropHint: 'Drag photos here or click to choose',
  typeHint: `${acceptedTypes}, up to ${maxMb} each`,
  selectedCount: (n: number) => `${n} of ${photos.max} photos`,
  upload: 'Upload',
  uploading: 'Uploading...',
  uploadingProgress: (done: number, total: number) => `Uploading ${done} of ${total}...`,
  continue: 'Continue',
  removePhoto: 'Remove photo',
  mustBeLoggedIn: 'You must be logged in to upload photos',
  selectPhotos: 'Please select photos to upload',
  someFailed: (n: number) => `Some uploads failed (${n}). See details.`,
  errorsTitle: 'Upload Errors',
  failedToUpload: (file: string, reason: string) => `Failed to upload ${file}: ${reason}`,
  failedToRecord: (file: string, reason: string) => `Failed to record ${file}: ${reason}`,
  failedToStartValidation: 'Failed to start validation process',
  // The reason in failedToRecord when the photo arrived but could not be stored.
  notStored: 'the photo could not be saved. Please try again.',
  failedToDelete: 'Failed to delete image',
  tooFewPassed: `At least ${photos.min} images are needed to train your AI model. Please add more images.`,
  tooMany: `You can add a maximum of ${photos.max} images. Please remove some of the images.`,
  someInvalid:
    'Make sure all images are clear and have one face on them. Please replace images with a warning and try again.',
  onlyImages: 'Only image files can be uploaded.',
  // After the specification's tooMany, when some of a selection still fitted.
  restLeftOut: (room: number) =>
    room === 1
      ? 'The first photo was added; the rest were left out.'
      : `The first ${room} photos were added; the rest were left out.`,
  showErrors: 'Show details',
  selectedTitle: 'Ready to upload',
  uploadedTitle: 'Your photos',
  noPhotosYet: 'No photos uploaded yet.',
  removeSelected: (file: string) => `Remove ${file} from the selection`,
  removePhotoNamed: (file: string) => `Remove photo ${file}`,
  uploadProgressLabel: (file: string) => `Uploading ${file}`,
  waiting: 'Waiting',
  photoAlt: (file: string) => `Your photo ${file}`,
  /** The number a photo has on the page (what "almost the same as photo 3" refers to). */
  photoNumber: (position: number) => `Photo ${position}`,
  uploadsDone: 'Uploads finished.',
  backToGuidelines: 'Photo guidelines',
  stillValidating: 'Some photos are still being checked. Please wait a moment.',
  photoNotFound: 'Photo not found',
  notMultipart: 'Send the photo as multipart/form-data in a field named "file".',
  oneFileOnly: 'Send one photo at a time.',
  fileMissing: 'Choose a photo to upload.',
  malformed: 'The upload was incomplete or malformed. Please try again.',
} as const;

/** `messages.validation`: the photo checks and their results. */
export const validationMessages = {
  title: 'Validation Results',
  total: 'Total',
  passed: 'Passed',
  failed: 'Failed',
  inProgress: 'In progress',
  validating: 'Validating...',
  needAtLeast: `You need at least ${photos.min} valid photos to continue.`,
  loadFailed: 'Failed to load validation status.',
  summaryTitle: 'Photo summary',
  summary: (passed: number, failed: number, pending: number) =>
    `${passed} passed, ${failed} failed, ${pending} in progress.`,
  backToUpload: 'Back to photos',
  continue: 'Continue',
  /** The `sameShot` reason with the other photo's number, as the upload page numbers them. */
  sameShotAs: (position: number) => `This photo is almost the same as photo ${position}`,
  reasons: {
    noFace: 'No face found',
    multipleFaces: 'More than one face',
    faceTooSmall: 'Face too small',
    tooBlurry: 'Photo too blurry',
    differentPerson: 'This looks like a different person',
    sameShot: 'This photo is almost the same as another one',
    tooSmall: `Photo is too small (the short side must be at least ${photos.minShortSidePx} px)`,
    fileTooLarge: `File is larger than ${maxMb}`,
    unsupportedType: `Not a supported image type (${acceptedTypes})`,
    unreadable: 'The image could not be read',
    dimensionsTooLarge: 'Image dimensions are too large',
    // An upload our NSFW classifier flags (nudity or sexual content); nothing of it is kept.
    explicit: 'Our safety filter flagged this picture as explicit. Please choose another one.',
  },
  // One line per reason on what to do about it.
  advice: {
    noFace: 'Use a photo where your face is clearly visible.',
    multipleFaces: 'Use a photo with only you in it.',
    faceTooSmall: `Use a closer photo: your face should be at least ${photos.minFacePx} px and ${photos.minFaceSharePercent}% of the photo's shorter side.`,
    tooBlurry: 'Use a sharp, well-lit photo.',
    differentPerson: 'All photos must show the same person.',
    sameShot:
      'Use a different shot: another angle, expression or light. A mirrored, cropped or edited copy adds nothing new.',
    tooSmall: 'Use the original photo rather than a thumbnail or screenshot.',
    fileTooLarge: `Use a photo under ${maxMb}.`,
    unsupportedType: `Use a ${acceptedTypes} photo.`,
    unreadable: 'The file may be damaged. Try another photo.',
    dimensionsTooLarge: 'Use a smaller version of this photo.',
  },
} as const;

/** `messages.selectGender`: choosing whom the model is of. */
export const selectGenderMessages = {
  title: 'Select Gender',
  subtitle: 'This helps your AI model create accurate photos of you.',
  options: { man: 'Man', woman: 'Woman', other: 'Other' },
  legend: 'Your gender',
  saveFailed: 'Failed to save your choice. Please try again.',
  backToPhotos: 'Back to photos',
  continue: 'Continue',
} as const;

/** `messages.nameModel`: naming the model and starting its training. */
export const nameModelMessages = {
  title: 'Name Your Model',
  subtitle: 'Give your AI model a name so you can find it later.',
  label: 'Model name',
  placeholder: 'e.g. My Professional Look',
  nameRequired: 'Please enter a name for your model',
  nameTooLong: (max: number) => `Please use at most ${max} characters`,
  genderMissing: 'Gender information is missing. Please select a gender first.',
  submit: 'Start Training',
  submitting: 'Starting training...',
  freeTrainingNote: 'This training uses your free monthly training.',
  creditsNote: `This training uses ${costs.trainingCredits} credits.`,
  creditsBalance: (credits: number) => `You have ${plural(credits, 'credit')}.`,
  saveFailed: 'Failed to save the name. Please try again.',
  seePlans: 'See plans',
  buyCredits: 'Buy Credits',
  back: 'Back',
} as const;

/**
 * `messages.trainingPreviews`: training previews (decision 039): free pictures made from the
 * photos while a model trains.
 */
export const trainingPreviewsMessages = {
  title: 'Your first previews',
  badge: 'Preview',
  whileTraining:
    'Quick previews made from your photos while your model trains. They cost no credits.',
  afterTraining:
    'Quick previews made from your photos while your model trained. They cost no credits. Your model makes the real thing.',
  making: 'Making a preview…',
  alt: (style: string) => `Preview of you in the ${style} style`,
  listLabel: 'Previews of your model',
  noPerson: 'No person could be cut out of the photos for a preview.',
} as const;
