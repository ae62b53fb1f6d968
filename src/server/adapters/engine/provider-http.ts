import { EngineError } from './training-engine.ts';

/**
 * The one way the GPU-service engines talk HTTP: plain `fetch`, a timeout on every request, JSON
 * read defensively, and failures sorted into transient (network, timeout, 408, 429, 5xx,
 * unreadable answers: the job queue retries them with backoff) and final (other 4xx, reported
 * with the provider's own `detail`). Nothing is retried here.
 */

export interface ProviderResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  body: unknown;
  /** The body was not empty but did not parse as JSON. */
  malformed: boolean;
  /** The start of the raw body, for messages when there is no JSON `detail`. */
  text: string;
}

export interface ProviderRequest {
  /** The provider's name for messages: `Replicate`, `fal`. */
  provider: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  timeoutMs: number;
}

/** Sends one request. Throws only when no HTTP answer arrived (a transient EngineError). */
export async function sendToProvider(request: ProviderRequest): Promise<ProviderResponse> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut =
      error instanceof DOMException &&
      (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new EngineError(
      timedOut
        ? `${request.provider} did not answer within ${Math.round(request.timeoutMs / 1000)} s`
        : `${request.provider} could not be reached (${describeNetworkError(error)})`,
      { transient: true },
    );
  }
  let body: unknown;
  let malformed = false;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      malformed = true;
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    malformed,
    text: text.slice(0, 300),
  };
}

/**
 * The answer's JSON body when the status is a success, or the EngineError the status stands for.
 * A success whose body is not a JSON object counts as transient: a proxy or a hiccup, not a verdict.
 */
export function successBody(provider: string, response: ProviderResponse): Record<string, unknown> {
  if (response.status >= 200 && response.status < 300) {
    if (!isRecord(response.body))
      throw new EngineError(`${provider} sent an unreadable answer (HTTP ${response.status})`, {
        transient: true,
      });
    return response.body;
  }
  throw errorFor(provider, response);
}

/**
 * fal's answer when a request's `X-Fal-Request-Timeout` passed: a deadline for a runner to
 * *start* it (queue wait, runner acquisition, fal's own retries), not a limit on the whole
 * request. fal answers 504 with `X-Fal-Request-Timeout-Type: user`; the request never ran.
 */
export function isStartDeadline(response: ProviderResponse): boolean {
  return (
    response.status === 504 &&
    response.headers.get('x-fal-request-timeout-type')?.trim().toLowerCase() === 'user'
  );
}

/** The EngineError a non-2xx answer stands for. */
export function errorFor(provider: string, response: ProviderResponse): EngineError {
  const { status } = response;
  const detail = problemDetail(response.body) ?? (response.malformed ? undefined : response.text);
  const message = `${provider} answered ${status}${detail ? `: ${detail}` : ''}`;
  if (isStartDeadline(response))
    // Transient: nothing was wrong with the request, no runner was free in time.
    return new EngineError(
      `${message} (no runner started the request before its start deadline, ` +
        'X-Fal-Request-Timeout-Type: user; it did not run)',
      { transient: true },
    );
  if (status === 429)
    return new EngineError(message, {
      transient: true,
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
    });
  if (status === 408 || status >= 500) return new EngineError(message, { transient: true });
  return new EngineError(message, { transient: false });
}

/**
 * A readable text from an error body: Replicate's problem details (`detail`, `title`), fal's
 * `detail` (a string, or a list of `{loc, msg}` validation errors), or a bare `error` string.
 */
export function problemDetail(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { detail, title, error } = body;
  if (typeof detail === 'string' && detail.trim()) return detail.trim();
  if (Array.isArray(detail)) {
    const parts = detail
      .map((item) => {
        if (typeof item === 'string') return item;
        if (!isRecord(item) || typeof item.msg !== 'string') return undefined;
        const where = Array.isArray(item.loc)
          ? item.loc.filter((part) => part !== 'body').join('.')
          : '';
        return where ? `${where}: ${item.msg}` : item.msg;
      })
      .filter((part): part is string => Boolean(part));
    if (parts.length > 0) return parts.join('; ');
  }
  if (typeof title === 'string' && title.trim()) return title.trim();
  if (typeof error === 'string' && error.trim()) return error.trim();
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return undefined;
}

/** Retry-After as seconds: either a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** One header's value; Node gives arrays for repeated headers, and names may come in any case. */
export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (cause?.code) return cause.code;
  return error instanceof Error ? error.message : String(error);
}
