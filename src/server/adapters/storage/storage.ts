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
  /**
   * Present when another origin serves the signed URLs (a bucket's presigned URLs): the origin
   * pages load files from, which the Content-Security-Policy must allow.
   */
  fileOrigin?(): Promise<string>;
  /** Present when the app serves the signed URLs itself (local disk, under `/api/files`). */
  readonly servedFiles?: ServedFiles;
}

/** A signed link to a file the app serves itself, as the request brings it. */
export interface SignedFileRequest {
  key: string;
  expires: string | undefined;
  signature: string | undefined;
  download: string | undefined;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/** What the files route needs to answer a signed link: check it, then find the file on disk. */
export interface ServedFiles {
  /** The folder the files live under. */
  readonly root: string;
  check(request: SignedFileRequest): SignatureCheck;
  exists(key: string): Promise<boolean>;
  pathFor(key: string): string;
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
