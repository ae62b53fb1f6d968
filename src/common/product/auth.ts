// Sign-in and passwords.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const passwordMinLength = 6;
// Bounds the hashing work per request; better-auth's own default maximum.
export const passwordMaxLength = 128;

export const auth = {
  passwordMinLength,
  passwordMaxLength,
  passwordResetTokenTtlSeconds: 3600,
} as const;
