import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { Storage } from '../adapters/storage/storage.ts';

/**
 * A zip of stored files, produced as it is read: one file in memory at a time. Entries are
 * stored, not deflated (JPEG and WebP do not compress further).
 */
export function zipStoredFiles(
  storage: Pick<Storage, 'read'>,
  entries: { name: string; key: string }[],
): Readable {
  const output = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) return void output.destroy(error);
    output.write(chunk);
    if (final) output.end();
  });
  void (async () => {
    for (const entry of entries) {
      const file = new ZipPassThrough(entry.name);
      zip.add(file);
      file.push(await storage.read(entry.key), true);
    }
    zip.end();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
