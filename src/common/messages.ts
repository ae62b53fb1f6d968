// Every user-facing message of the specification, written once, in src/common/messages/ (one file
// a feature, each group of words a named export). Wording the specification gives is copied
// exactly (punctuation and ellipses included); numbers come from src/common/product/. The web app
// imports the feature files directly, so each page downloads only its own words (decision 047);
// the server still uses this composition, `messages.<group>`, until it moves over too.

import { accountMessages } from './messages/account.ts';
import { adminMessages, adminPageMessages } from './messages/admin.ts';
import {
  authMessages,
  googleMessages,
  loginMessages,
  logoutMessages,
  passwordResetMessages,
  signupMessages,
} from './messages/auth.ts';
import { billingMessages, paymentSuccessMessages } from './messages/billing.ts';
import { catalogMessages } from './messages/catalog.ts';
import { contactMessages } from './messages/contact.ts';
import { creditsMessages } from './messages/credits.ts';
import { dashboardMessages } from './messages/dashboard.ts';
import { emailMessages } from './messages/email.ts';
import { bulkMessages, generationMessages } from './messages/generation.ts';
import { httpMessages } from './messages/http.ts';
import { landingMessages } from './messages/landing.ts';
import { legalMessages } from './messages/legal.ts';
import { modelsMessages, trainingMessages } from './messages/models.ts';
import { offerMessages, quizMessages } from './messages/quiz.ts';
import {
  commonMessages,
  footerMessages,
  navMessages,
  notFoundMessages,
  pageTitleMessages,
} from './messages/shell.ts';
import {
  createModelMessages,
  examplePhotosMessages,
  nameModelMessages,
  selectGenderMessages,
  trainingPreviewsMessages,
  uploadMessages,
  validationMessages,
} from './messages/studio.ts';
import { tryonMessages } from './messages/tryon.ts';

export const messages = {
  http: httpMessages,
  common: commonMessages,
  notFound: notFoundMessages,
  pageTitles: pageTitleMessages,
  nav: navMessages,
  footer: footerMessages,
  landing: landingMessages,
  contact: contactMessages,
  auth: authMessages,
  login: loginMessages,
  signup: signupMessages,
  google: googleMessages,
  logout: logoutMessages,
  passwordReset: passwordResetMessages,
  email: emailMessages,
  account: accountMessages,
  billing: billingMessages,
  credits: creditsMessages,
  paymentSuccess: paymentSuccessMessages,
  quiz: quizMessages,
  offer: offerMessages,
  createModel: createModelMessages,
  examplePhotos: examplePhotosMessages,
  upload: uploadMessages,
  validation: validationMessages,
  selectGender: selectGenderMessages,
  nameModel: nameModelMessages,
  training: trainingMessages,
  trainingPreviews: trainingPreviewsMessages,
  models: modelsMessages,
  catalog: catalogMessages,
  admin: adminMessages,
  generation: generationMessages,
  bulk: bulkMessages,
  tryon: tryonMessages,
  dashboard: dashboardMessages,
  adminPage: adminPageMessages,
  legal: legalMessages,
} as const;
