// What the API answers when a request itself is wrong, whatever the feature.
// Only the server says these.

/** `messages.http`: what the API answers when a request itself is wrong, whatever the feature. */
export const httpMessages = {
  webhookNotVerified: 'The webhook could not be verified.',
  invalidAddress: 'This address is not valid.',
  serverError: 'Something went wrong on our side. Please try again.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  nothingHere: 'There is nothing at this address.',
  methodNotAllowed: (method: string) => `${method} is not allowed here.`,
  tooLarge: 'The request is too large.',
  unsupportedContentType: 'This content type is not supported here.',
  invalidJson: 'The request body is not valid JSON.',
  emptyBody: 'The request body is empty.',
  invalidText:
    'The request contains characters that are not valid text (a NUL byte or a broken Unicode character).',
  signInRequired: 'Please sign in to continue.',
  linkInvalid: 'This link is not valid.',
  linkExpired: 'This link has expired.',
  fileNotFound: 'File not found',
} as const;
