// The emails the server sends.
// Only the server sends these.

import { brand, contact as contactDetails } from '../product/brand.ts';

/** `messages.email`: the emails the server sends. */
export const emailMessages = {
  passwordResetSubject: `Reset your ${brand.name} password`,
  passwordResetBody: (url: string) =>
    `Someone asked to reset the password of your ${brand.name} account.\n\nTo choose a new password, open this link within an hour:\n${url}\n\nIf it wasn't you, you can ignore this email; your password stays the same.`,
  trainingCompleteSubject: (modelName: string) => `Your AI model "${modelName}" is ready`,
  trainingCompleteBody: (modelName: string, url: string) =>
    `Good news: your AI model "${modelName}" has finished training.\n\nStart creating photos of yourself:\n${url}`,
  trainingFailedSubject: (modelName: string) => `Training of "${modelName}" did not finish`,
  trainingFailedBody: (modelName: string, reason: string, url: string) =>
    `We're sorry: training of your AI model "${modelName}" failed (${reason}). What it spent has been refunded.\n\nYou can try again here:\n${url}`,
  footer: `${contactDetails.companyLine}. Questions? ${contactDetails.infoEmail}`,
} as const;
