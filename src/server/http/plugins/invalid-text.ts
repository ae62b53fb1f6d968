import { httpMessages } from '../../../common/messages/http.ts';
import { AppError } from '../app-error.ts';
import { appWide } from './app-wide.ts';

/**
 * Text the database cannot store (NUL) or that is not Unicode at all (a lone surrogate) is
 * refused before any route sees it, wherever it hides: body, query or path.
 */
export const refuseInvalidText = appWide('invalid-text', async (app) => {
  app.addHook('preValidation', (request, _reply, done) => {
    const invalid =
      hasInvalidText(request.body) ||
      hasInvalidText(request.query) ||
      hasInvalidText(request.params);
    done(invalid ? new AppError('BAD_REQUEST', httpMessages.invalidText) : undefined);
  });
});

// A NUL, or a UTF-16 surrogate without its other half.
const invalidText =
  // eslint-disable-next-line no-control-regex -- finding the NUL is the point
  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

// Any NUL or surrogate at all: a plain class over UTF-16 units, much quicker than the exact
// pattern, which only text that has one of them needs (every request's every string runs this).
// eslint-disable-next-line no-control-regex -- finding the NUL is the point
const suspectText = /[\u0000\ud800-\udfff]/;

const isInvalidText = (text: string) => suspectText.test(text) && invalidText.test(text);

function hasInvalidText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isInvalidText(value);
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value))
    return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (isInvalidText(key) || hasInvalidText((value as Record<string, unknown>)[key], depth + 1))
      return true;
  }
  return false;
}
