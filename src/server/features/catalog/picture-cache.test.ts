import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeImage, encodingKey } from './images.ts';
import { cachedEncoder } from './picture-cache.ts';
import { fixtures } from './test-kit.ts';

const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'picture-cache-'));

describe('the picture cache', () => {
  it('answers a picture encoded before, in this process or another, from disk: the same id and files', async () => {
    const dir = scratch();
    const bytes = await fixtures.small();
    const fresh = await encodeImage(bytes);

    const first = await cachedEncoder(dir)(bytes);
    expect(first).toEqual(fresh);
    expect(readdirSync(dir)).toEqual([encodingKey(bytes)]);

    // Another encoder (another process) over the same folder reads what the first wrote. To show
    // that it reads rather than encodes again, the cached largest file is replaced.
    const entry = path.join(dir, encodingKey(bytes));
    const largest = fresh.variants.at(-1)!;
    writeFileSync(path.join(entry, `${largest.width}.webp`), Buffer.from('cached'));
    const again = await cachedEncoder(dir)(bytes);
    expect(again.id).toBe(fresh.id);
    expect(again.variants.at(-1)!.data.toString()).toBe('cached');
  });

  it('encodes again and repairs an entry it cannot read', async () => {
    const dir = scratch();
    const bytes = await fixtures.small();
    const fresh = await cachedEncoder(dir)(bytes);
    writeFileSync(path.join(dir, encodingKey(bytes), 'image.json'), '{"id": "not a hash"');

    expect(await cachedEncoder(dir)(bytes)).toEqual(fresh);
    // Repaired: whole again on disk.
    const repaired = readFileSync(path.join(dir, encodingKey(bytes), 'image.json'), 'utf8');
    expect(JSON.parse(repaired)).toMatchObject({ id: fresh.id });
    expect(readdirSync(dir)).toEqual([encodingKey(bytes)]);
  });

  it('still encodes when its folder cannot be written', async () => {
    const file = path.join(scratch(), 'a-file');
    writeFileSync(file, '');
    const bytes = await fixtures.small();
    expect(await cachedEncoder(path.join(file, 'cache'))(bytes)).toEqual(await encodeImage(bytes));
  });

  it('keys pictures by their bytes: another picture is another entry', async () => {
    const dir = scratch();
    const encode = cachedEncoder(dir);
    const one = await encode(await fixtures.small());
    const other = await encode(fixtures.otherPortrait());
    expect(other.id).not.toBe(one.id);
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
