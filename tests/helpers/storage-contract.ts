import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/server/adapters/storage/storage.ts';

/**
 * The behaviour every Storage implementation owes the app, checked the same way against each:
 * LocalStorage (disk + the app's /api/files route) and S3Storage (a bucket's presigned URLs).
 */

export interface FetchedFile {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface StorageUnderTest {
  /** A storage whose signed URLs are signed at the given clock (default: now). */
  storage(options?: { now?: () => number }): Storage;
  /** Fetches a signed URL the way a browser would (local URLs are relative to the app). */
  get(url: string): Promise<FetchedFile>;
  close(): Promise<void>;
}

export function describeStorageContract(name: string, make: () => Promise<StorageUnderTest>) {
  describe(`${name} keeps the Storage contract`, () => {
    let under: StorageUnderTest;
    let storage: Storage;
    // Each run of the contract gets a folder of its own.
    const root = `contract-${randomBytes(4).toString('hex')}`;
    const key = (...parts: string[]) => [root, ...parts].join('/');

    beforeAll(async () => {
      under = await make();
      storage = under.storage();
    });
    afterAll(async () => {
      await under?.close();
    });

    it('reads back what was put, from a Buffer and from a stream, and overwrites', async () => {
      const bytes = randomBytes(300_000);
      await storage.put(key('buffer.jpg'), bytes, 'image/jpeg');
      expect((await storage.read(key('buffer.jpg'))).equals(bytes)).toBe(true);

      const chunks = [randomBytes(70_000), randomBytes(1), randomBytes(200_000)];
      await storage.put(key('stream.bin'), Readable.from(chunks), 'application/octet-stream');
      expect((await storage.read(key('stream.bin'))).equals(Buffer.concat(chunks))).toBe(true);

      await storage.put(key('buffer.jpg'), Buffer.from('second version'), 'image/jpeg');
      expect((await storage.read(key('buffer.jpg'))).toString()).toBe('second version');
    });

    it('knows what exists, and deletes (a missing key too) without error', async () => {
      await storage.put(key('here.webp'), Buffer.from('here'), 'image/webp');
      expect(await storage.exists(key('here.webp'))).toBe(true);
      expect(await storage.exists(key('never-there.webp'))).toBe(false);
      await expect(storage.read(key('never-there.webp'))).rejects.toBeInstanceOf(Error);

      await storage.delete(key('here.webp'));
      expect(await storage.exists(key('here.webp'))).toBe(false);
      await expect(storage.delete(key('here.webp'))).resolves.toBeUndefined();
    });

    it('deletePrefix removes a folder, nested files included, and nothing beside it', async () => {
      const gone = ['a.jpg', 'b.jpg', 'nested/c.jpg', 'nested/deeper/d.jpg'].map((n) =>
        key('users', 'gone', n),
      );
      // `users/gone-too/...` shares the string prefix `users/gone` but is another folder.
      const kept = [key('users', 'gone-too', 'a.jpg'), key('users', 'kept', 'a.jpg')];
      for (const k of [...gone, ...kept]) await storage.put(k, Buffer.from(k), 'image/jpeg');

      await storage.deletePrefix(`${key('users', 'gone')}/`);
      for (const k of gone) expect(await storage.exists(k), k).toBe(false);
      for (const k of kept) expect((await storage.read(k)).toString(), k).toBe(k);

      // Without the trailing slash it is the same folder.
      await storage.deletePrefix(key('users', 'kept'));
      expect(await storage.exists(kept[1]!)).toBe(false);
      expect(await storage.exists(kept[0]!)).toBe(true);
      await expect(storage.deletePrefix(key('users', 'never-there/'))).resolves.toBeUndefined();
    });

    it('refuses keys the server would never build, before touching anything', async () => {
      for (const bad of ['', '../escape.jpg', 'a//b.jpg', '/etc/passwd', 'a b.jpg', 'café.jpg']) {
        await expect(storage.put(bad, Buffer.from('x'), 'image/jpeg'), bad).rejects.toThrow(
          /Unsafe storage key/,
        );
        await expect(storage.signedUrl(bad), bad).rejects.toThrow(/Unsafe storage key/);
      }
      // An empty prefix would be everything.
      await expect(storage.deletePrefix('')).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.deletePrefix('/')).rejects.toThrow(/Unsafe storage key/);
    });

    it('serves a signed URL with the content type, cached privately while the link lives', async () => {
      const bytes = randomBytes(5000);
      await storage.put(key('signed.webp'), bytes, 'image/webp');
      const file = await under.get(await storage.signedUrl(key('signed.webp'), { expiresIn: 600 }));
      expect(file.status).toBe(200);
      expect(file.body.equals(bytes)).toBe(true);
      expect(file.headers['content-type']).toBe('image/webp');
      const maxAge = Number(
        /^private, max-age=(\d+)$/.exec(file.headers['cache-control'] ?? '')?.[1],
      );
      expect(maxAge).toBeGreaterThan(540);
      expect(maxAge).toBeLessThanOrEqual(600);
      expect(file.headers['content-disposition']).toBeUndefined();
    });

    it('serves a download as an attachment with a safe ASCII file name', async () => {
      await storage.put(key('download.jpg'), Buffer.from('jpeg'), 'image/jpeg');
      const file = await under.get(
        await storage.signedUrl(key('download.jpg'), { downloadName: 'My portrait (1).jpg' }),
      );
      expect(file.status).toBe(200);
      expect(file.headers['content-disposition']).toMatch(
        /^attachment; filename="My_portrait__1_\.jpg"(;|$)/,
      );
    });

    it('refuses a tampered link and an expired one with 403', async () => {
      await storage.put(key('private.jpg'), Buffer.from('private'), 'image/jpeg');
      const url = await storage.signedUrl(key('private.jpg'));
      // The first characters of the signature changed (to ones both base64url and hex allow).
      const tampered = url.replace(
        /([?&](?:signature|X-Amz-Signature)=)([^&]{4})/,
        (_, name: string, start: string) => `${name}${start === '0000' ? '1111' : '0000'}`,
      );
      expect(tampered).not.toBe(url);
      expect((await under.get(tampered)).status).toBe(403);

      const twoHoursAgo = Date.now() - 2 * 3600 * 1000;
      const expired = await under
        .storage({ now: () => twoHoursAgo })
        .signedUrl(key('private.jpg'), { expiresIn: 60 });
      const refused = await under.get(expired);
      expect(refused.status).toBe(403);
      expect(refused.body.toString()).not.toContain('private');
      // Signed at the same past moment but still valid: only the expiry refused the other.
      const stillValid = await under
        .storage({ now: () => twoHoursAgo })
        .signedUrl(key('private.jpg'), { expiresIn: 3 * 3600 });
      expect((await under.get(stillValid)).status).toBe(200);
    });
  });
}
