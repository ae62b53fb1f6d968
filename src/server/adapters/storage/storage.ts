import type { Readable } from 'node:stream';

export interface SignedUrlOptions {
  /** Seconds until the URL stops working; the configured default (3600) when omitted. */
  expiresIn?: number;
  /** Serve as an attachment with this file name (downloads). */
  downloadName?: string;
}

/**
 * Where photos, zips and generated images live. Keys are always built by the server
 * (`storageKey`), never taken from a request.
 */
export interface Storage {
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
}

const safeSegment = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Joins server-chosen parts into a key, refusing anything that could climb out of its folder. */
export function storageKey(...segments: string[]): string {
  for (const segment of segments) {
    if (!safeSegment.test(segment) || segment.includes('..')) {
      throw new Error(`Unsafe storage key segment: ${JSON.stringify(segment)}`);
    }
  }
  return segments.join('/');
}

export function isSafeKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length < 512 &&
    key.split('/').every((s) => safeSegment.test(s) && !s.includes('..'))
  );
}

const contentTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  zip: 'application/zip',
  json: 'application/json',
};

export function contentTypeForKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return contentTypes[extension] ?? 'application/octet-stream';
}
