import { commonMessages } from '../../common/messages/shell.ts';
import { network, timings } from '../../common/product/timings.ts';

/**
 * The one way the web app talks to its API: same-origin, cookie session, JSON in and out, a
 * timeout on every request and one retry when a gateway says the server is momentarily away.
 * Every failure becomes an `ApiError`, so callers switch on `code` and show `message`.
 */

/** The server's error wire shape. */
export interface ApiErrorBody {
  error: { code: string; message: string };
}

/** Codes produced in the browser, for failures that never got an answer from the server. */
export const clientErrorCodes = {
  network: 'NETWORK_ERROR',
  timeout: 'TIMEOUT',
  invalidResponse: 'INVALID_RESPONSE',
} as const;

const fallbackMessages = {
  network: commonMessages.networkError,
  timeout: commonMessages.requestTimedOut,
  invalidResponse: commonMessages.unexpectedError,
  unknown: commonMessages.unexpectedError,
} as const;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, or 0 when no answer arrived (network failure, timeout). */
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** Sent as JSON; a `FormData` (uploads) is sent as multipart as it is. */
  body?: unknown;
  /** Appended to the path; null and undefined values are left out. */
  query?: Record<string, QueryValue>;
  /** Cancels the request (TanStack Query passes one). A cancelled request rejects with the
   * signal's reason, not with an `ApiError`, so cancellation is never shown as a failure. */
  signal?: AbortSignal;
  /** Per attempt; defaults to the specification's 10 s. Uploads may ask for more. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /**
   * Whether a 502/503/504 answer is retried once. Defaults to true for methods that are safe to
   * repeat (GET, HEAD, PUT, DELETE) and false for POST and PATCH: a gateway error does not prove
   * that the server did nothing, and repeating a generation would spend a credit twice.
   */
  retryOnGatewayError?: boolean;
}

const idempotentMethods: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const retryStatuses: ReadonlySet<number> = new Set(network.retryStatuses);
const retryDelayMs = 500;

export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  const retry = options.retryOnGatewayError ?? idempotentMethods.has(method);
  const attempts = retry ? 2 : 1;

  for (let attempt = 1; ; attempt += 1) {
    const outcome = await send(url, method, options);
    if (outcome.kind === 'ok') return outcome.body as T;
    if (attempt >= attempts) throw outcome.error;
    await wait(retryDelayMs, options.signal);
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

type Outcome = { kind: 'ok'; body: unknown } | { kind: 'gateway-error'; error: ApiError };

/**
 * One attempt. Resolves with the parsed body of a 2xx answer, or with a gateway error the caller
 * may retry; rejects with an `ApiError` for everything else.
 */
async function send(url: string, method: HttpMethod, options: ApiRequestOptions): Promise<Outcome> {
  const { signal: callerSignal } = options;
  callerSignal?.throwIfAborted();

  // The timeout covers the whole exchange, body included, so a stalled download cannot hang.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? timings.requestTimeoutMs);
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    const headers = new Headers(options.headers);
    headers.set('Accept', 'application/json');
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }

    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: controller.signal,
      });
    } catch (error) {
      throw toTransportError(error, timedOut, callerSignal);
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw toTransportError(error, timedOut, callerSignal);
    }

    if (retryStatuses.has(response.status)) {
      return { kind: 'gateway-error', error: errorFromBody(response.status, text) };
    }
    if (!response.ok) throw errorFromBody(response.status, text);
    return { kind: 'ok', body: parseBody(response, text) };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardAbort);
  }
}

/** The `ApiError` for a non-2xx answer's status and body text (shared with upload-file.ts). */
export function errorFromBody(status: number, text: string): ApiError {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const detail = readErrorDetail(parsed);
  // A bare 502/503/504 comes from a proxy in front of a server that is down or restarting.
  const fallback = retryStatuses.has(status) ? fallbackMessages.network : fallbackMessages.unknown;
  return new ApiError(status, detail.code ?? `HTTP_${status}`, detail.message ?? fallback);
}

/**
 * Reads `{ error: { code, message } }`, our wire shape. Better Auth's own endpoints answer
 * `{ code, message }` at the top level, which is read too, so auth failures carry their message.
 */
function readErrorDetail(value: unknown): { code?: string; message?: string } {
  if (!isRecord(value)) return {};
  const source = isRecord(value.error) ? value.error : value;
  return {
    code: typeof source.code === 'string' && source.code ? source.code : undefined,
    message: typeof source.message === 'string' && source.message ? source.message : undefined,
  };
}

function parseBody(response: Response, text: string): unknown {
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(
      response.status,
      clientErrorCodes.invalidResponse,
      fallbackMessages.invalidResponse,
    );
  }
}

function toTransportError(error: unknown, timedOut: boolean, callerSignal?: AbortSignal): unknown {
  if (callerSignal?.aborted) return callerSignal.reason ?? error;
  if (timedOut) return new ApiError(0, clientErrorCodes.timeout, fallbackMessages.timeout);
  return new ApiError(0, clientErrorCodes.network, fallbackMessages.network);
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  // Same origin only: an absolute or protocol-relative URL would carry the session elsewhere.
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new Error(`apiRequest expects a same-origin path, got "${path}"`);
  }
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) params.append(key, String(value));
  }
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
