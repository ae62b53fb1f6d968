import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '../../../common/errors.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { AppError } from '../app-error.ts';
import { appWide } from './app-wide.ts';

/** Every error leaves in our wire shape; a server fault is logged and told in general words. */
export const errorAnswers = appWide('error-answers', async (app) => {
  app.setErrorHandler(answerError);
});

/** The router refuses a malformed URL (`%E0`) before any handler runs; answer in our shape. */
export const answerMalformedUrl = (_error: unknown, _request: unknown, reply: FastifyReply) =>
  sendError(reply, 400, 'BAD_REQUEST', httpMessages.invalidAddress);

export function sendError(reply: FastifyReply, status: number, code: ErrorCode, message: string) {
  const body: ErrorResponse = { error: { code, message } };
  return reply.status(status).type('application/json').send(body);
}

function answerError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError)
    return sendError(reply, error.statusCode, error.code, error.message);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = first?.instancePath
      ? `${first.instancePath.slice(1).replaceAll('/', '.')}: `
      : '';
    return sendError(
      reply,
      400,
      'VALIDATION_ERROR',
      `${where}${first?.message ?? 'Invalid request'}`,
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'INTERNAL', httpMessages.serverError);
  }
  return sendError(reply, status, codeForStatus(status), messageForClientError(error, status));
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'BAD_REQUEST';
  }
}

function messageForClientError(error: FastifyError, status: number): string {
  if (status === 413) return httpMessages.tooLarge;
  if (status === 415) return httpMessages.unsupportedContentType;
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return httpMessages.invalidJson;
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return httpMessages.emptyBody;
  return error.message;
}
