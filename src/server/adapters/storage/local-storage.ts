import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  isSafeKey,
  type ServedFiles,
  type SignatureCheck,
  type SignedFileRequest,
  type SignedUrlOptions,
  type Storage,
} from './storage.ts';

export interface LocalStorageOptions {
  root: string;
  secret: string;
  defaultTtlSeconds: number;
  /** URL path under which the API serves signed files. */
  publicPath: string;
  now?: () => number;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Local disk behind HMAC-signed, expiring URLs: the embedded stand-in for a private bucket. */
export class LocalStorage implements Storage, ServedFiles {
  private readonly signingKey: Buffer;
  private readonly now: () => number;

  constructor(private readonly options: LocalStorageOptions) {
    this.signingKey = createHmac('sha256', options.secret).update('local-storage-urls').digest();
    this.now = options.now ?? Date.now;
  }

  /** Its signed URLs point at the app, which serves the files from here. */
  get servedFiles(): ServedFiles {
    return this;
  }

  get root(): string {
    return this.options.root;
  }

  pathFor(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
    return path.join(this.options.root, ...key.split('/'));
  }

  /** Half-written files, named `<pid>-…`: one folder, so those of a killed process can be found. */
  private get partialDir(): string {
    return path.join(this.options.root, '.partial');
  }

  async put(key: string, body: Buffer | Readable, _contentType: string): Promise<void> {
    const target = this.pathFor(key);
    await mkdir(path.dirname(target), { recursive: true });
    await mkdir(this.partialDir, { recursive: true });
    // Write aside, then rename (same disk): a reader never sees half a file.
    const partial = path.join(
      this.partialDir,
      `${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}`,
    );
    try {
      await pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        createWriteStream(partial),
      );
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  /**
   * Removes what processes that are gone were writing (a worker killed mid-write); run at start.
   * Answers how many files it removed.
   */
  async removeAbandonedWrites(): Promise<number> {
    const names = await readdir(this.partialDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && processIsAlive(pid)) continue;
      await rm(path.join(this.partialDir, name), { force: true });
      removed += 1;
    }
    return removed;
  }

  read(key: string): Promise<Buffer> {
    return readFile(this.pathFor(key));
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.pathFor(key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathFor(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathFor(prefix.replace(/\/$/, '')), { recursive: true, force: true });
  }

  async signedUrl(key: string, options: SignedUrlOptions = {}): Promise<string> {
    this.pathFor(key);
    const expires =
      Math.floor(this.now() / 1000) + (options.expiresIn ?? this.options.defaultTtlSeconds);
    const params = new URLSearchParams({ expires: String(expires) });
    if (options.downloadName) params.set('download', options.downloadName);
    params.set('signature', this.sign(key, expires, options.downloadName));
    return `${this.options.publicPath}/${key}?${params}`;
  }

  check(request: SignedFileRequest): SignatureCheck {
    const expires = Number(request.expires);
    if (!request.signature || !Number.isInteger(expires) || !isSafeKey(request.key))
      return 'invalid';
    const expected = Buffer.from(this.sign(request.key, expires, request.download));
    const given = Buffer.from(request.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return expires * 1000 < this.now() ? 'expired' : 'valid';
  }

  private sign(key: string, expires: number, download: string | undefined): string {
    return createHmac('sha256', this.signingKey)
      .update(`${key}\n${expires}\n${download ?? ''}`)
      .digest('base64url');
  }
}
