import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { filesPublicPath } from './create-storage.ts';
import { LocalStorage } from './local-storage.ts';
import { storageKey } from './storage.ts';

let app: TestApp;
let storage: LocalStorage;
const photo = randomBytes(4096);
const photoKey = storageKey('users', 'u1', 'photos', 'face.jpg');

beforeAll(async () => {
  app = await createTestApp();
  storage = app.deps.storage as LocalStorage;
  await storage.put(photoKey, photo, 'image/jpeg');
});
afterAll(async () => {
  await app.stop();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.app!.inject({ method: 'GET', url, headers });

/** Rewrites one part of a signed URL, as someone editing a link by hand would. */
function tamper(url: string, change: (parsed: URL) => void): string {
  const parsed = new URL(url, 'http://localhost');
  change(parsed);
  return `${parsed.pathname}${parsed.search}`;
}

/** Signs with the app's secret but another clock, so expiry is tested without waiting for it. */
function storageAt(now: number): LocalStorage {
  return new LocalStorage({
    root: app.config.storage.localDir,
    secret: app.config.authSecret,
    defaultTtlSeconds: app.config.signedUrlTtlSeconds,
    publicPath: filesPublicPath,
    now: () => now,
  });
}

describe('a signed URL serves the stored file', () => {
  it('returns the bytes with their content type, cached privately while the link lives', async () => {
    const url = await storage.signedUrl(photoKey);
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(photo)).toBe(true);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const maxAge = Number(
      /^private, max-age=(\d+)$/.exec(String(response.headers['cache-control']))?.[1],
    );
    // The browser may keep the file for as long as the signature is valid, and no longer.
    expect(maxAge).toBeGreaterThan(app.config.signedUrlTtlSeconds - 60);
    expect(maxAge).toBeLessThanOrEqual(app.config.signedUrlTtlSeconds);
    expect(response.headers['content-disposition']).toBeUndefined();
  });

  it('answers a Range request with 206 and exactly that slice', async () => {
    const url = await storage.signedUrl(photoKey);
    const response = await get(url, { range: 'bytes=100-1123' });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 100-1123/${photo.length}`);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.rawPayload.equals(photo.subarray(100, 1124))).toBe(true);
  });

  it('serves a download as an attachment with a safe file name', async () => {
    const url = await storage.signedUrl(photoKey, { downloadName: 'My portrait (1).jpg' });
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="My_portrait__1_.jpg"',
    );
    expect(response.rawPayload.equals(photo)).toBe(true);
  });

  it('is 404 when the signature is right but the file is gone', async () => {
    const key = storageKey('users', 'u1', 'photos', 'deleted.jpg');
    await storage.put(key, Buffer.from('soon gone'), 'image/jpeg');
    const url = await storage.signedUrl(key);
    await storage.delete(key);
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });
});

describe('a URL that was not signed as given is refused', () => {
  const notValid = { error: { code: 'FORBIDDEN', message: 'This link is not valid.' } };

  it('refuses a tampered signature', async () => {
    const url = tamper(await storage.signedUrl(photoKey), (u) => {
      const signature = u.searchParams.get('signature')!;
      u.searchParams.set(
        'signature',
        `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
      );
    });
    const response = await get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(notValid);
  });

  it('refuses a missing signature', async () => {
    const url = tamper(await storage.signedUrl(photoKey), (u) =>
      u.searchParams.delete('signature'),
    );
    const response = await get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(notValid);
  });

  it("refuses another file's key under a valid signature", async () => {
    const otherKey = storageKey('users', 'u2', 'photos', 'face.jpg');
    await storage.put(otherKey, Buffer.from('someone else'), 'image/jpeg');
    const url = tamper(await storage.signedUrl(photoKey), (u) => {
      u.pathname = `${filesPublicPath}/${otherKey}`;
    });
    const response = await get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(notValid);
  });

  it('refuses a postponed expiry', async () => {
    const url = tamper(await storage.signedUrl(photoKey), (u) => {
      u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 86_400));
    });
    const response = await get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(notValid);
  });

  it('refuses a changed or added download name', async () => {
    const renamed = tamper(
      await storage.signedUrl(photoKey, { downloadName: 'portrait.jpg' }),
      (u) => u.searchParams.set('download', 'other.jpg'),
    );
    const added = tamper(await storage.signedUrl(photoKey), (u) =>
      u.searchParams.set('download', 'portrait.jpg'),
    );
    const removed = tamper(
      await storage.signedUrl(photoKey, { downloadName: 'portrait.jpg' }),
      (u) => u.searchParams.delete('download'),
    );
    for (const url of [renamed, added, removed]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual(notValid);
    }
  });

  it('refuses a path that climbs out of the storage folder', async () => {
    const url = tamper(await storage.signedUrl(photoKey), (u) => {
      u.pathname = `${filesPublicPath}/users/u1/..%2F..%2F..%2Fsecrets%2Fauth-secret`;
    });
    const response = await get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(notValid);
  });
});

describe('a mangled URL is a client error, never a server error', () => {
  it('refuses a repeated parameter or an over-encoded path with 403', async () => {
    const url = await storage.signedUrl(photoKey);
    const expires = new URL(url, 'http://localhost').searchParams.get('expires');
    for (const mangled of [
      `${url}&expires=${expires}`,
      `${filesPublicPath}/%25E0?${url.split('?')[1]}`,
    ]) {
      const response = await get(mangled);
      expect(response.statusCode, mangled).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
    }
  });

  it('answers a malformed percent-encoding with 400 in the usual error shape', async () => {
    const response = await get(`${filesPublicPath}/%E0.jpg`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: 'This address is not valid.' },
    });
  });
});

describe('an expired URL', () => {
  it('is refused with a message that says so', async () => {
    const twoHoursAgo = Date.now() - 2 * 3600 * 1000;
    const url = await storageAt(twoHoursAgo).signedUrl(photoKey, { expiresIn: 60 });
    const response = await get(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: { code: 'FORBIDDEN', message: 'This link has expired.' },
    });
  });

  it('works until its last second and not after', async () => {
    const signedAt = 1_700_000_000_000;
    const url = new URL(
      await storageAt(signedAt).signedUrl(photoKey, { expiresIn: 60 }),
      'http://localhost',
    );
    const signed = {
      key: photoKey,
      expires: url.searchParams.get('expires') ?? undefined,
      signature: url.searchParams.get('signature') ?? undefined,
      download: undefined,
    };
    expect(storageAt(signedAt + 59_000).check(signed)).toBe('valid');
    expect(storageAt(signedAt + 60_000).check(signed)).toBe('valid');
    expect(storageAt(signedAt + 61_000).check(signed)).toBe('expired');
  });
});

describe('keys are built by the server and never leave the storage folder', () => {
  it('refuses unsafe segments in storageKey', () => {
    for (const segment of ['..', '../etc', '/etc', 'a/b', '', '.hidden', 'a\\b', 'x..y']) {
      expect(() => storageKey('users', segment), segment).toThrow(/Unsafe storage key segment/);
    }
  });

  it('refuses to write to keys with "..", absolute paths or empty segments', async () => {
    for (const key of ['../escape.jpg', 'users/../../escape.jpg', '/etc/passwd', 'users//x.jpg']) {
      await expect(storage.put(key, Buffer.from('x'), 'image/jpeg'), key).rejects.toThrow(
        /Unsafe storage key/,
      );
      await expect(storage.signedUrl(key), key).rejects.toThrow(/Unsafe storage key/);
    }
    expect(existsSync(path.join(app.config.storage.localDir, '..', 'escape.jpg'))).toBe(false);
  });

  it('deletePrefix removes a whole folder and leaves its neighbours', async () => {
    const keys = ['a.jpg', 'b.jpg', 'nested/c.jpg'].map((name) =>
      storageKey('users', 'gone', ...name.split('/')),
    );
    const neighbour = storageKey('users', 'kept', 'a.jpg');
    for (const key of [...keys, neighbour]) await storage.put(key, Buffer.from(key), 'image/jpeg');

    await storage.deletePrefix('users/gone/');

    for (const key of keys) expect(await storage.exists(key), key).toBe(false);
    expect(existsSync(path.join(app.config.storage.localDir, 'users', 'gone'))).toBe(false);
    expect((await storage.read(neighbour)).toString()).toBe(neighbour);
    const response = await get(await storage.signedUrl(keys[0]!));
    expect(response.statusCode).toBe(404);
  });
});

describe('writes a process did not finish', () => {
  it('are removed at the next start when their process is gone, and kept while it lives', async () => {
    const root = app.config.storage.localDir;
    const partials = path.join(root, '.partial');
    mkdirSync(partials, { recursive: true });
    // A child that has exited: its pid names a process that is gone.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const abandoned = path.join(partials, `${gone}-1-deadbeef`);
    const inFlight = path.join(partials, `${process.pid}-1-cafebabe`);
    writeFileSync(abandoned, 'half a picture');
    writeFileSync(inFlight, 'being written');

    const restarted = new LocalStorage({
      root,
      secret: 'another-start',
      defaultTtlSeconds: 60,
      publicPath: filesPublicPath,
    });
    expect(await restarted.removeAbandonedWrites()).toBe(1);
    expect([existsSync(abandoned), existsSync(inFlight)]).toEqual([false, true]);
    rmSync(inFlight);
  });
});
