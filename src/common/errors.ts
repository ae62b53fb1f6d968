import { z } from 'zod';

/** Every error the API answers has this shape, so the web app handles all of them one way. */
export const errorCodes = [
  'BAD_REQUEST',
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'SUBSCRIPTION_REQUIRED',
  'TIER_REQUIRED',
  'INSUFFICIENT_CREDITS',
  'LIMIT_REACHED',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorResponseSchema = z.object({
  error: z.object({ code: z.enum(errorCodes), message: z.string() }),
});

export type ErrorResponse = z.infer<typeof errorResponseSchema>;
