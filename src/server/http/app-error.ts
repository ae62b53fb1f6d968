import type { ErrorCode } from '../../common/errors.ts';

const statusByCode: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SUBSCRIPTION_REQUIRED: 402,
  TIER_REQUIRED: 403,
  INSUFFICIENT_CREDITS: 402,
  LIMIT_REACHED: 409,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** An error whose message is meant for the user; services throw it, the error handler answers it. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.statusCode = statusByCode[code];
  }
}

export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
