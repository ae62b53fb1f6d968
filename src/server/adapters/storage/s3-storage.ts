import type { Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import { isSafeKey, type SignedUrlOptions, type Storage } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Unset: AWS S3 itself. R2 and MinIO give their own. */
  endpoint?: string;
  /** Bucket in the path instead of the host name (MinIO, most local setups). */
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  defaultTtlSeconds: number;
  /**
   * The endpoint as browsers and engines reach it, when that differs from `endpoint` (a bucket
   * behind a proxy that keeps the Host header). A presigned URL signs its host, so it is signed
   * for this one.
   */
  publicBaseUrl?: string;
  /** The clock presigned URLs are signed at (tests sign in the past to get expired links). */
  now?: () => number;
}

/** S3 accepts at most this many keys per DeleteObjects request. */
const deleteBatchSize = 1000;

interface Sdk {
  s3: typeof ClientS3;
  Upload: typeof LibStorage.Upload;
  getSignedUrl: typeof Presigner.getSignedUrl;
}

interface Connection {
  sdk: Sdk;
  client: S3Client;
  /** Signs presigned URLs (for the public address when there is one). */
  presignClient: S3Client;
}

/** The SDK is loaded on first use: processes on local storage never pay for it. */
async function loadSdk(): Promise<Sdk> {
  const [s3, libStorage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { s3, Upload: libStorage.Upload, getSignedUrl: presigner.getSignedUrl };
}

/** An S3-compatible private bucket (AWS S3, Cloudflare R2, MinIO) behind presigned URLs. */
export class S3Storage implements Storage {
  private readonly bucket: string;
  private readonly now: () => number;
  private connection: Promise<Connection> | undefined;

  constructor(private readonly options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.now = options.now ?? Date.now;
  }

  private connect(): Promise<Connection> {
    this.connection ??= loadSdk().then((sdk) => {
      const client = s3Client(sdk, this.options, this.options.endpoint);
      const presignClient = this.options.publicBaseUrl
        ? s3Client(sdk, this.options, this.options.publicBaseUrl)
        : client;
      return { sdk, client, presignClient };
    });
    return this.connection;
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    checkKey(key);
    try {
      const { sdk, client } = await this.connect();
      if (Buffer.isBuffer(body)) {
        await client.send(
          new sdk.s3.PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: body,
            ContentType: contentType,
          }),
        );
        return;
      }
      // A stream of unknown length: sent in 5 MB parts (one PutObject when it is smaller), never
      // held in memory whole; a failed upload is aborted so no orphaned parts are billed.
      await new sdk.Upload({
        client,
        params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
      }).done();
    } catch (error) {
      throw storageError('put', key, error);
    }
  }

  async read(key: string): Promise<Buffer> {
    checkKey(key);
    try {
      const { sdk, client } = await this.connect();
      const response = await client.send(
        new sdk.s3.GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      if (!response.Body) throw new Error('the response has no body');
      return Buffer.from(await response.Body.transformToByteArray());
    } catch (error) {
      throw storageError('read', key, error);
    }
  }

  async exists(key: string): Promise<boolean> {
    checkKey(key);
    try {
      const { sdk, client } = await this.connect();
      await client.send(new sdk.s3.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw storageError('exists', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      const { sdk, client } = await this.connect();
      // S3 answers 204 for a key that is not there, like LocalStorage's `rm({ force: true })`.
      await client.send(new sdk.s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw storageError('delete', key, error);
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    // A folder, as on disk: `users/u1/` (or `users/u1`) never touches `users/u10/`, and an empty
    // prefix (the whole bucket) is refused.
    const folder = prefix.replace(/\/+$/, '');
    checkKey(folder);
    const listPrefix = `${folder}/`;
    const pending: string[] = [];
    try {
      const connection = await this.connect();
      const { sdk, client } = connection;
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new sdk.s3.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: listPrefix,
            ContinuationToken: continuationToken,
          }),
        );
        for (const object of page.Contents ?? []) if (object.Key) pending.push(object.Key);
        while (pending.length >= deleteBatchSize)
          await this.deleteBatch(connection, pending.splice(0, deleteBatchSize));
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      if (pending.length > 0) await this.deleteBatch(connection, pending.splice(0));
    } catch (error) {
      throw storageError('deletePrefix', listPrefix, error);
    }
  }

  async signedUrl(key: string, options: SignedUrlOptions = {}): Promise<string> {
    checkKey(key);
    const expiresIn = options.expiresIn ?? this.options.defaultTtlSeconds;
    const { sdk, presignClient } = await this.connect();
    const command = new sdk.s3.GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      // As the local files route does: the browser may keep the file while the link lives.
      ResponseCacheControl: `private, max-age=${expiresIn}`,
      ...(options.downloadName
        ? { ResponseContentDisposition: attachmentDisposition(options.downloadName) }
        : {}),
    });
    return sdk.getSignedUrl(presignClient, command, {
      expiresIn,
      signingDate: new Date(this.now()),
    });
  }

  /**
   * The origin presigned URLs point at: pages show and fetch files from it, so the app's
   * Content-Security-Policy must allow it (and the bucket's CORS rules the app's origin).
   */
  async fileOrigin(): Promise<string> {
    const { sdk, presignClient } = await this.connect();
    const probe = new sdk.s3.GetObjectCommand({ Bucket: this.bucket, Key: 'origin' });
    return new URL(await sdk.getSignedUrl(presignClient, probe, { expiresIn: 60 })).origin;
  }

  private async deleteBatch({ sdk, client }: Connection, keys: string[]): Promise<void> {
    const response = await client.send(
      new sdk.s3.DeleteObjectsCommand({
        Bucket: this.bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    // DeleteObjects answers 200 even when some keys could not be deleted; those come back here.
    const failed = response.Errors ?? [];
    if (failed.length > 0) {
      const first = failed[0]!;
      throw new Error(
        `${failed.length} of ${keys.length} objects were not deleted (first: "${first.Key}": ${first.Code} ${first.Message})`,
      );
    }
  }
}

export function createS3Storage(options: S3StorageOptions): S3Storage {
  return new S3Storage(options);
}

function s3Client(sdk: Sdk, options: S3StorageOptions, endpoint: string | undefined): S3Client {
  return new sdk.s3.S3Client({
    region: options.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // The SDK's default adds CRC32 checksums to every upload; R2 and older MinIO refuse some of
    // them. Checksums stay where S3 requires them (DeleteObjects).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A bucket that stops answering fails the call instead of holding it forever (idle time, so
    // a slow but moving upload is not cut).
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  });
}

/** The same key rule as LocalStorage, so a key that works in production works on disk too. */
function checkKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
}

/** SDK errors carry the whole HTTP response; callers and logs get what failed and why. */
function storageError(operation: string, key: string, error: unknown): Error {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new Error(`Storage ${operation} of "${key}" failed: ${reason}`, { cause: error });
}

/**
 * `Content-Disposition` for a download: an ASCII `filename` every browser understands (the same
 * one the local files route gives) and, when the name has more than that, the exact name as
 * RFC 6266 `filename*`. Quotes, backslashes and line breaks never reach the header.
 */
export function attachmentDisposition(name: string): string {
  // Lone surrogates become U+FFFD (so encodeURIComponent cannot throw); control characters go.
  const wellFormed = Buffer.from(name, 'utf8')
    .toString('utf8')
    .replace(/\p{Cc}/gu, '');
  const fallback = wellFormed.replace(/[^\w.-]/g, '_') || 'download';
  if (fallback === wellFormed) return `attachment; filename="${fallback}"`;
  const encoded = encodeURIComponent(wellFormed).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
