import { commonMessages } from '../../common/messages/shell.ts';
import { ApiError, clientErrorCodes, errorFromBody } from './api-client.ts';

/**
 * One file to the API as multipart, with upload progress. `fetch` cannot report how much of a
 * request body has been sent, so this uses XMLHttpRequest; failures become the same `ApiError`s
 * as `apiRequest` gives (server message and code, or a network/timeout error), and a cancelled
 * upload rejects with the signal's reason. Never retried: a POST that may have arrived is the
 * caller's to repeat.
 */

export interface UploadFileOptions {
  /** Called with the share sent so far, 0..1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The multipart field name; the studio API reads `file`. */
  field?: string;
  /** Whole exchange; a 10 MB photo on a slow phone connection needs far more than 10 s. */
  timeoutMs?: number;
}

const defaultUploadTimeoutMs = 120_000;

export function uploadFile<T>(
  path: string,
  file: Blob & { name?: string },
  {
    onProgress,
    signal,
    field = 'file',
    timeoutMs = defaultUploadTimeoutMs,
  }: UploadFileOptions = {},
): Promise<T> {
  // Same origin only, as in apiRequest: the session cookie must not travel elsewhere.
  if (!path.startsWith('/') || path.startsWith('//')) {
    return Promise.reject(new Error(`uploadFile expects a same-origin path, got "${path}"`));
  }

  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }

    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const cleanUp = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.timeout = timeoutMs;

    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });

    xhr.addEventListener('load', () => {
      cleanUp();
      const text = xhr.responseText;
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorFromBody(xhr.status, text));
        return;
      }
      onProgress?.(1);
      if (!text) {
        resolve(undefined as T);
        return;
      }
      try {
        resolve(JSON.parse(text) as T);
      } catch {
        reject(
          new ApiError(
            xhr.status,
            clientErrorCodes.invalidResponse,
            commonMessages.unexpectedError,
          ),
        );
      }
    });
    xhr.addEventListener('error', () => {
      cleanUp();
      reject(new ApiError(0, clientErrorCodes.network, commonMessages.networkError));
    });
    xhr.addEventListener('timeout', () => {
      cleanUp();
      reject(new ApiError(0, clientErrorCodes.timeout, commonMessages.requestTimedOut));
    });
    xhr.addEventListener('abort', () => {
      cleanUp();
      reject(signal?.reason ?? new DOMException('The upload was cancelled', 'AbortError'));
    });
    signal?.addEventListener('abort', onAbort, { once: true });

    const body = new FormData();
    body.append(field, file, file.name ?? 'upload');
    xhr.send(body);
  });
}
