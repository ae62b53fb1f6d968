// The words of signing in, signing up and resetting a password.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { auth as authLimits } from '../product/auth.ts';
import { landing as landingNumbers } from '../product/landing.ts';
import { formatUsd } from '../product/money.ts';
import { yearlyOffer } from '../product/plans.ts';
import { training as trainingNumbers } from '../product/training.ts';
import { photoRange, plural } from './format.ts';

/** '45 seconds', '2 minutes': how long a refused visitor should wait, rounded up. */
function waitDuration(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole < 60 ? plural(whole, 'second') : plural(Math.ceil(whole / 60), 'minute');
}

const paymentRedirectFailedTitle = 'Payment Redirect Failed';
const paymentRedirectFailedDescription = "We couldn't redirect you to payment. Please try again.";

/**
 * `messages.auth`: what the sign-in, sign-up and password reset pages share, and the session's
 * words.
 */
export const authMessages = {
  checkingAuthentication: 'Checking authentication...',
  useAuthOutsideProvider: 'useAuth must be used within an AuthProvider',
  sessionExpired: 'Your session has ended. Please sign in again.',
  emailLabel: 'Email',
  passwordLabel: 'Password',
  emailPlaceholder: 'you@example.com',
  termsNotice: 'By continuing, you agree to our Terms of Service and Privacy Policy.',
  or: 'or',
  invalidEmail: 'Please enter a valid email address',
  invalidRequest: 'The request could not be read. Please try again.',
  invalidRedirect: 'This link is not valid. Please go back and try again.',
  crossSiteRefused: 'This request came from another site and was refused.',
  rateLimited: (retryAfterSeconds: number) =>
    `Too many attempts. Please wait ${waitDuration(retryAfterSeconds)} and try again.`,
  signInLocked: (retryAfterSeconds: number) =>
    `Too many failed sign-in attempts for this email. Please wait ${waitDuration(retryAfterSeconds)} and try again, or reset your password.`,
  showPassword: 'Show password',
  // The sentence under the auth forms, in pieces so its two documents can be links.
  legalNotice: {
    before: 'By continuing, you agree to our ',
    terms: 'Terms of Service',
    between: ' and ',
    privacy: 'Privacy Policy',
    after: '.',
  },
  sidePanelText: `Train a private AI model on ${photoRange} photos of yourself, then create studio-quality portraits in any style.`,
  sidePanelPoints: [
    'Only you can use your AI model',
    `${landingNumbers.marketingStyleCount}+ premium styles`,
    'Commercial use of your photos',
  ],
  sidePanelImageAlt:
    'Three illustrated portraits of the same person: a business headshot, a portrait with a golden crown and a sunny outdoor photo',
} as const;

/** `messages.login`: the sign-in page. */
export const loginMessages = {
  title: 'Welcome back',
  subtitle: 'Sign in to continue creating',
  sidePanel: `Your AI photos, ready in ${trainingNumbers.loginPanelReadyMinutes} minutes`,
  forgotPassword: 'Forgot password',
  submit: 'Sign In',
  submitting: 'Signing in...',
  success: 'Login successful',
  missingFields: 'Please enter both email and password',
  failed: 'Failed to sign in',
  invalidCredentials: 'Invalid email or password',
  unexpectedError: 'An unexpected error occurred. Please try again.',
  noAccount: "Don't have an account?",
  signUpLink: 'Sign up',
  passwordMissing: 'Please enter your password',
} as const;

/** `messages.signup`: the sign-up page. */
export const signupMessages = {
  title: 'Create your account',
  subtitle: 'Start creating AI photos of yourself',
  offerSubtitle: 'Claim your exclusive offer and start creating',
  offerBadge: `Limited time: ${formatUsd(yearlyOffer.priceUsd)}/year (save ${yearlyOffer.signupSavingsPercent}%)`,
  continueWithEmail: 'Continue with email',
  back: 'Back',
  submit: 'Create Account',
  submitOffer: 'Claim Offer & Create Account',
  submitting: 'Creating account...',
  missingFields: 'Please enter both email and password',
  passwordHint: `Must be at least ${authLimits.passwordMinLength} characters long`,
  passwordTooShort: `Password must be at least ${authLimits.passwordMinLength} characters long`,
  passwordTooLong: `Password must be at most ${authLimits.passwordMaxLength} characters long`,
  weakPassword: 'This password is too weak. Please choose a stronger password.',
  alreadySignedIn: 'This email is already registered. Please use a different email or sign in.',
  alreadyRegistered: 'This email is already registered.',
  signInInstead: 'Sign in instead',
  failed: 'Failed to create account',
  haveAccount: 'Already have an account?',
  signInLink: 'Sign in',
  paymentRedirectFailedTitle,
  paymentRedirectFailedDescription,
  paymentRedirectFailed: `${paymentRedirectFailedTitle}. ${paymentRedirectFailedDescription}`,
  chooseMethod: 'How would you like to sign up?',
} as const;

/** `messages.google`: signing in and up with Google. */
export const googleMessages = {
  continue: 'Continue with Google',
  redirecting: 'Redirecting...',
  signInFailed: 'Failed to sign in with Google. Please try again.',
  signInError: 'An error occurred during Google login.',
  signUpFailed: 'Failed to sign up with Google. Please try again.',
  signUpError: 'An error occurred during Google signup.',
  unavailable: 'Sign-in with Google is not available.',
} as const;

/** `messages.logout`: signing out. */
export const logoutMessages = {
  button: 'Logout',
  failed: 'Failed to log out. Please try again.',
} as const;

/** `messages.passwordReset`: the password reset pages. */
export const passwordResetMessages = {
  title: 'Reset your password',
  intro: "Enter your email and we'll send you a link to reset your password.",
  submit: 'Send reset link',
  submitting: 'Sending...',
  sent: "If an account exists for that email, we've sent a link to reset your password. Check your inbox.",
  newPasswordTitle: 'Choose a new password',
  newPasswordLabel: 'New password',
  confirmPasswordLabel: 'Confirm new password',
  passwordsDoNotMatch: 'Passwords do not match',
  update: 'Update password',
  updating: 'Updating...',
  updated: 'Your password has been updated. You can now sign in.',
  invalidLink: 'This reset link is invalid or has expired. Please request a new one.',
  failed: "We couldn't reset your password. Please try again.",
  backToLogin: 'Back to sign in',
  emailMissing: 'Please enter your email address',
  passwordMissing: 'Please enter a new password',
  sentTitle: 'Check your email',
  sentHint: "The link works for one hour. Didn't get it? Check your spam folder or send it again.",
  sendAgain: 'Send again',
  updatedTitle: 'Password updated',
  invalidLinkTitle: 'This link has expired',
  requestNewLink: 'Request a new link',
  goToSignIn: 'Sign in',
  newPasswordIntro: 'Choose a password you do not use on other sites.',
} as const;
