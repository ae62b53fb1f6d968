// The words of the app's frame, which every page shows: the bars, the footer, page titles, the
// error and loading states. In a file of their own so the first page load does not download the
// words of every other page.

import { brand } from '../product/brand.ts';
import { plural } from './format.ts';

/** `messages.common`: words shared by every feature. */
export const commonMessages = {
  brand: brand.name,
  imageNotAvailable: 'Image not available',
  invalidDate: 'Invalid date',
  unknownTime: 'Unknown time',
  unknownError: 'Unknown error',
  unknown: 'Unknown',
  somethingWentWrong: 'Something went wrong',
  tryAgain: 'Try again',
  goBack: 'Go back',
  back: 'Back',
  cancel: 'Cancel',
  confirm: 'Confirm',
  continue: 'Continue',
  close: 'Close',
  refresh: 'Refresh',
  loading: 'Loading',
  loadingEllipsis: 'Loading...',
  processing: 'Processing...',
  download: 'Download',
  delete: 'Delete',
  deleting: 'Deleting...',
  upload: 'Upload',
  moreInfo: 'More Info',
  unexpectedError: 'An unexpected error occurred. Please try again.',
  routerError: 'Unexpected Application Error!',
  rateLimited: 'Too many attempts. Please wait a moment and try again.',
  requestTimedOut: 'The request took too long. Please try again.',
  networkError: "We couldn't reach the server. Check your connection and try again.",
  notFoundResource: 'Not found',
  credits: (n: number) => plural(n, 'credit'),
  copyright: (year: number) => `© ${year} ${brand.name}. All rights reserved.`,
  relativeTime: {
    justNow: 'Just now',
    minutesAgo: (n: number) => `${plural(n, 'minute')} ago`,
    hoursAgo: (n: number) => `${plural(n, 'hour')} ago`,
  },
} as const;

/** `messages.notFound`: the 404 page. */
export const notFoundMessages = {
  code: '404',
  title: 'Oops! Page not found',
  homeLink: 'Return to Home',
} as const;

/** `messages.pageTitles`: the tab title of each page. */
export const pageTitleMessages = {
  suffix: (title: string) => `${title} | ${brand.name}`,
  home: `${brand.name}: AI Photos of You`,
  login: 'Sign In',
  signup: 'Create Account',
  resetPassword: 'Reset Password',
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
  contact: 'Contact Us',
  tryOn: 'AI Virtual Try-On',
  quiz: 'Real or AI? Quiz',
  quizResults: 'Your Results',
  dashboard: 'AI Studio',
  myModels: 'My AI Models',
  category: 'Style Presets',
  model: 'Style Preset',
  customPrompt: 'Custom Prompt',
  bulkGenerate: 'Bulk Generate',
  bulkGeneration: 'Bulk Generation',
  generation: 'Generated Image',
  createModel: 'Create Your AI Model',
  examplePhotos: 'Photo Guidelines',
  uploadPhotos: 'Upload Photos',
  validationResults: 'Validation Results',
  selectGender: 'Select Gender',
  nameModel: 'Name Your Model',
  subscription: 'Subscription Plans',
  buyCredits: 'Buy Credits',
  account: 'Account',
  paymentSuccess: 'Payment',
  notFound: 'Page Not Found',
} as const;

/** `messages.nav`: the top bars and the mobile menu. */
export const navMessages = {
  tryOn: 'Try-On',
  pricing: 'Pricing',
  dashboard: 'Dashboard',
  signIn: 'Sign In',
  getStarted: 'Get Started',
  buyCredits: 'Buy Credits',
  account: 'Account',
  logout: 'Logout',
  homeLabel: `${brand.name} home`,
} as const;

/** `messages.footer`: the public pages' footer. */
export const footerMessages = {
  blurb: 'Studio-quality AI photos of you, in any style, from a handful of selfies.',
  linksHeading: 'Links',
  home: 'Home',
  login: 'Login',
  contactUs: 'Contact Us',
  legalHeading: 'Legal',
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
  /** CC BY 4.0 attribution of the composite faces in the default content (assets/content/default/LICENSES.md). */
  pictureCredits: {
    before: 'Example portraits include ',
    work: 'composite faces by Lisa DeBruine (2016)',
    workUrl: 'https://doi.org/10.6084/m9.figshare.4055130.v1',
    licence: 'CC BY 4.0',
    licenceUrl: 'https://creativecommons.org/licenses/by/4.0/',
    after: ', cropped and restyled by our studio engine.',
  },
} as const;
