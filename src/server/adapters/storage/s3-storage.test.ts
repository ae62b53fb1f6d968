import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../../../tests/fakes/s3-api.ts';
import { attachmentDisposition, createS3Storage, type S3StorageOptions } from './s3-storage.ts';

/**
 * S3Storage over real HTTP against tests/fakes/s3-api.ts, which verifies every SigV4 signature
 * (headers and presigned queries) on its own. The behaviour shared with LocalStorage is checked
 * in storage-contract.test.ts; here are the bucket's own concerns.
 */

const credentials = { accessKeyId: 'AKIDLIKENESSTEST', secretAccessKey: 'likeness-test-secret' };
const bucket = 'likeness-test';
let fake: FakeS3;

beforeAll(async () => {
  fake = await startFakeS3({ ...credentials, buckets: [bucket], pageSize: 250 });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.calls.length = 0;
});

function storageWith(overrides: Partial<S3StorageOptions> = {}) {
  return createS3Storage({
    ...credentials,
    bucket,
    region: 'us-east-1',
    endpoint: fake.url,
    forcePathStyle: true,
    defaultTtlSeconds: 3600,
    ...overrides,
  });
}

const operations = () => fake.calls.map((call) => call.operation);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `size` pseudo-random bytes in 64 KiB chunks, as a file or a request body would arrive. */
function chunkedStream(size: number, seed: Buffer, failAfter?: number): Readable {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size;) {
        if (failAfter !== undefined && sent >= failAfter) throw new Error('the source broke');
        const length = Math.min(64 * 1024, size - sent);
        const chunk = Buffer.alloc(length, seed[(sent / 65536) % seed.length]!);
        chunk.writeUInt32BE(sent, 0);
        sent += length;
        yield chunk;
      }
    })(),
  );
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('put and read', () => {
  it('puts a Buffer in one PutObject with its content type', async () => {
    const storage = storageWith();
    const bytes = randomBytes(2048);
    await storage.put('users/u1/photo.jpg', bytes, 'image/jpeg');
    expect(operations()).toEqual(['PutObject']);
    const stored = fake.bucket(bucket).get('users/u1/photo.jpg')!;
    expect(stored.body.equals(bytes)).toBe(true);
    expect(stored.contentType).toBe('image/jpeg');
    expect((await storage.read('users/u1/photo.jpg')).equals(bytes)).toBe(true);
  });

  it('streams a 12 MB Readable as a multipart upload, in order, without leaving parts behind', async () => {
    const storage = storageWith();
    const size = 12 * 1024 * 1024 + 12_345;
    const seed = randomBytes(64);
    const expected = await collect(chunkedStream(size, seed));
    await storage.put('users/u1/training.zip', chunkedStream(size, seed), 'application/zip');

    expect(operations().filter((op) => op === 'UploadPart')).toHaveLength(3);
    expect(operations()[0]).toBe('CreateMultipartUpload');
    expect(operations().at(-1)).toBe('CompleteMultipartUpload');
    expect(fake.openUploads()).toBe(0);
    const stored = fake.bucket(bucket).get('users/u1/training.zip')!;
    expect(stored.contentType).toBe('application/zip');
    expect(stored.etag).toMatch(/^"[0-9a-f]{32}-3"$/);
    const read = await storage.read('users/u1/training.zip');
    expect(read.length).toBe(size);
    expect(sha256(read)).toBe(sha256(expected));
  });

  it('sends a stream smaller than one part as a single PutObject', async () => {
    const storage = storageWith();
    await storage.put('users/u1/small.bin', chunkedStream(300_000, randomBytes(8)), 'image/webp');
    expect(operations()).toEqual(['PutObject']);
    expect(fake.bucket(bucket).get('users/u1/small.bin')!.body.length).toBe(300_000);
  });

  it('aborts the multipart upload when the source stream fails, and stores nothing', async () => {
    const storage = storageWith();
    const failing = chunkedStream(12 * 1024 * 1024, randomBytes(8), 6 * 1024 * 1024);
    const error = await storage.put('users/u1/broken.zip', failing, 'application/zip').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /Storage put of "users\/u1\/broken.zip" failed.*the source broke/,
    );
    expect(operations()).toContain('AbortMultipartUpload');
    expect(fake.openUploads()).toBe(0);
    expect(fake.bucket(bucket).has('users/u1/broken.zip')).toBe(false);
  });

  it('surfaces S3 errors as Errors that say what failed, and retries a passing 500', async () => {
    const storage = storageWith();
    await expect(storage.read('users/u1/missing.jpg')).rejects.toThrow(
      /^Storage read of "users\/u1\/missing.jpg" failed: NoSuchKey: The specified key does not exist\.$/,
    );

    fake.failNext('PutObject', 500, 'InternalError');
    await storage.put('users/u1/retried.jpg', Buffer.from('ok'), 'image/jpeg');
    expect(fake.calls.map((c) => `${c.operation} ${c.status}`)).toEqual([
      'GetObject 404',
      'PutObject 500',
      'PutObject 200',
    ]);
    expect(fake.bucket(bucket).get('users/u1/retried.jpg')!.body.toString()).toBe('ok');
  });

  it('refuses wrong credentials: an unknown key id and a wrong secret', async () => {
    await expect(
      storageWith({ accessKeyId: 'AKIDUNKNOWN' }).put(
        'users/u1/x.jpg',
        Buffer.from('x'),
        'image/jpeg',
      ),
    ).rejects.toThrow(/InvalidAccessKeyId/);
    await expect(
      storageWith({ secretAccessKey: 'not-the-secret' }).read('users/u1/photo.jpg'),
    ).rejects.toThrow(/SignatureDoesNotMatch/);
    expect(fake.calls.map((c) => c.status)).toEqual([403, 403]);
  });
});

describe('exists and delete', () => {
  it('answers exists from HeadObject: true, false on 404, and an error otherwise', async () => {
    const storage = storageWith();
    fake.putObject(bucket, 'users/u2/here.jpg', 'here', 'image/jpeg');
    expect(await storage.exists('users/u2/here.jpg')).toBe(true);
    expect(await storage.exists('users/u2/absent.jpg')).toBe(false);
    expect(operations()).toEqual(['HeadObject', 'HeadObject']);
    // A refusal is not "absent": callers must not treat a misconfigured bucket as empty.
    fake.failNext('HeadObject', 403, 'AccessDenied');
    await expect(storage.exists('users/u2/here.jpg')).rejects.toThrow(/Storage exists/);
  });

  it('deletes one object', async () => {
    const storage = storageWith();
    fake.putObject(bucket, 'users/u2/gone.jpg', 'gone');
    await storage.delete('users/u2/gone.jpg');
    expect(fake.bucket(bucket).has('users/u2/gone.jpg')).toBe(false);
    expect(operations()).toEqual(['DeleteObject']);
  });

  it('deletePrefix pages through the listing and deletes in batches of 1000', async () => {
    const storage = storageWith();
    const keys = Array.from(
      { length: 2050 },
      (_, n) => `users/u3/generations/${String(n).padStart(5, '0')}.jpg`,
    );
    for (const key of keys) fake.putObject(bucket, key, key);
    fake.putObject(bucket, 'users/u3-other/kept.jpg', 'kept');
    fake.putObject(bucket, 'users/u3.jpg', 'kept');

    await storage.deletePrefix('users/u3/');

    const remaining = [...fake.bucket(bucket).keys()].filter((key) => key.startsWith('users/u3'));
    expect(remaining.sort()).toEqual(['users/u3-other/kept.jpg', 'users/u3.jpg']);
    // 2050 keys at 250 per page: 9 pages; deleted 1000 + 1000 + 50.
    expect(operations().filter((op) => op === 'ListObjectsV2')).toHaveLength(9);
    expect(
      fake.calls.filter((c) => c.operation === 'DeleteObjects').map((c) => c.keyCount),
    ).toEqual([1000, 1000, 50]);
  });

  it('deletePrefix fails loudly when the bucket keeps some of the objects', async () => {
    const storage = storageWith();
    for (const name of ['a.jpg', 'locked.jpg', 'b.jpg'])
      fake.putObject(bucket, `users/u4/${name}`, name);
    fake.refuseDeleteOf((key) => key.endsWith('locked.jpg'));
    try {
      await expect(storage.deletePrefix('users/u4/')).rejects.toThrow(
        /1 of 3 objects were not deleted \(first: "users\/u4\/locked.jpg": AccessDenied/,
      );
    } finally {
      fake.refuseDeleteOf(undefined);
    }
    expect([...fake.bucket(bucket).keys()].filter((k) => k.startsWith('users/u4/'))).toEqual([
      'users/u4/locked.jpg',
    ]);
  });
});

describe('presigned URLs', () => {
  const key = 'users/u5/portrait.jpg';
  const bytes = randomBytes(4096);
  beforeAll(() => {
    fake.putObject(bucket, key, bytes, 'image/jpeg');
  });

  it('is a GetObject URL plain fetch can read, for the default or the given lifetime', async () => {
    const storage = storageWith();
    const url = new URL(await storage.signedUrl(key));
    expect(url.origin).toBe(fake.url);
    expect(url.pathname).toBe(`/${bucket}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(fake.calls.at(-1)).toMatchObject({
      operation: 'GetObject',
      presigned: true,
      status: 200,
    });

    const short = new URL(await storage.signedUrl(key, { expiresIn: 60 }));
    expect(short.searchParams.get('X-Amz-Expires')).toBe('60');
    expect((await fetch(short)).status).toBe(200);
  });

  it('refuses an expired URL with S3 AccessDenied', async () => {
    const signedAt = Date.now() - 61_000;
    const url = await storageWith({ now: () => signedAt }).signedUrl(key, { expiresIn: 60 });
    const response = await fetch(url);
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toContain('<Code>AccessDenied</Code>');
    expect(body).toContain('Request has expired');
  });

  it('refuses every edit of a signed URL with 403 SignatureDoesNotMatch', async () => {
    const storage = storageWith();
    fake.putObject(bucket, 'users/u6/portrait.jpg', 'someone else');
    const signed = await storage.signedUrl(key, { downloadName: 'portrait.jpg' });
    const edits: Record<string, (url: URL) => void> = {
      signature: (u) =>
        u.searchParams.set(
          'X-Amz-Signature',
          u.searchParams.get('X-Amz-Signature')!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
        ),
      'another key': (u) => {
        u.pathname = u.pathname.replace('/u5/', '/u6/');
      },
      'a longer life': (u) => u.searchParams.set('X-Amz-Expires', '604800'),
      'another download name': (u) =>
        u.searchParams.set('response-content-disposition', 'attachment; filename="other.jpg"'),
      'no download name': (u) => u.searchParams.delete('response-content-disposition'),
      'another host': (u) => {
        u.hostname = 'localhost';
      },
    };
    for (const [name, edit] of Object.entries(edits)) {
      const url = new URL(signed);
      edit(url);
      const response = await fetch(url);
      expect(response.status, name).toBe(403);
      expect(await response.text(), name).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    expect((await fetch(signed)).status).toBe(200);
  });

  it('sets Content-Disposition for a download name, with an exact UTF-8 name and a safe fallback', async () => {
    const storage = storageWith();
    const name = 'Café "Portrait" \\ 1/2\r\n(π).jpg';
    const response = await fetch(await storage.signedUrl(key, { downloadName: name }));
    expect(response.status).toBe(200);
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toBe(attachmentDisposition(name));
    const [, fallback, encoded] =
      /^attachment; filename="([\w.-]+)"; filename\*=UTF-8''([A-Za-z0-9%._~-]+)$/.exec(
        disposition,
      )!;
    expect(fallback).toBe('Caf___Portrait____1_2___.jpg');
    expect(decodeURIComponent(encoded!)).toBe('Café "Portrait" \\ 1/2(π).jpg');
    expect(attachmentDisposition('likeness-1a2b3c4d.jpg')).toBe(
      'attachment; filename="likeness-1a2b3c4d.jpg"',
    );
  });

  it('signs for the public address when the bucket is reached at another one', async () => {
    const publicBaseUrl = fake.url.replace('127.0.0.1', 'localhost');
    const storage = storageWith({ publicBaseUrl });
    const url = new URL(await storage.signedUrl(key));
    expect(url.origin).toBe(publicBaseUrl);
    expect((await fetch(url)).status).toBe(200);
    // The host is part of the signature: the internal address does not work with it.
    url.hostname = '127.0.0.1';
    expect((await fetch(url)).status).toBe(403);
    // Everything else still goes to the internal endpoint.
    await storage.put('users/u5/internal.jpg', Buffer.from('x'), 'image/jpeg');
    expect(fake.calls.at(-1)).toMatchObject({ operation: 'PutObject', status: 200 });
  });
});

describe('addresses without a fake (signing is local)', () => {
  it('points at AWS, R2 or MinIO in the style configured, and reports that origin', async () => {
    const cases = [
      {
        options: { region: 'eu-west-1', endpoint: undefined, forcePathStyle: false },
        origin: `https://${bucket}.s3.eu-west-1.amazonaws.com`,
        path: '/users/u1/a.jpg',
      },
      {
        options: {
          region: 'auto',
          endpoint: 'https://acc.r2.cloudflarestorage.com',
          forcePathStyle: false,
        },
        origin: `https://${bucket}.acc.r2.cloudflarestorage.com`,
        path: '/users/u1/a.jpg',
      },
      {
        options: { endpoint: 'http://minio:9000', forcePathStyle: true },
        origin: 'http://minio:9000',
        path: `/${bucket}/users/u1/a.jpg`,
      },
    ];
    for (const { options, origin, path } of cases) {
      const storage = storageWith(options);
      const url = new URL(await storage.signedUrl('users/u1/a.jpg'));
      expect(`${url.origin}${url.pathname}`).toBe(`${origin}${path}`);
      expect(await storage.fileOrigin()).toBe(origin);
    }
  });
});

describe('the fake itself', () => {
  it('verifies signatures of keys the SDK has to encode: spaces, unicode, plus, quotes', async () => {
    // S3Storage only builds safe keys (the contract refuses others), but the fake must not
    // pass only because keys are plain: the SDK's own encoding round-trips through it.
    const client = new S3Client({
      ...{ region: 'us-east-1', endpoint: fake.url, forcePathStyle: true },
      credentials,
    });
    for (const key of [
      'a folder/my photo (1).jpg',
      'ünïcødé/写真 ✓.jpg',
      'a+b=c&d/it\'s "x".jpg',
    ]) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
      expect(fake.bucket(bucket).get(key)?.body.toString(), key).toBe(key);
      const read = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      expect(await read.Body!.transformToString(), key).toBe(key);
    }
    client.destroy();
  });
});
