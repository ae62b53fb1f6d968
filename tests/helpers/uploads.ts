import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Upload bodies for API tests (catalog pictures, training photos). */

const portrait = fileURLToPath(new URL('../../assets/seed/person-a/a-01.jpg', import.meta.url));

/**
 * A real JPEG padded past 10 MB (decoders ignore bytes after the end marker): the size limit is
 * on bytes, whatever the picture. Stands in for the shared fixture bad-files/over-10mb.jpg,
 * which is too large to keep in the repository.
 */
export function overTenMegabyteJpeg(): Buffer {
  const jpeg = readFileSync(portrait);
  return Buffer.concat([jpeg, randomBytes(10 * 1024 * 1024 + 1024 - jpeg.length)]);
}

/** A multipart/form-data body with one file, as a browser's FormData would send it. */
export function multipart(
  file: Buffer,
  options: { filename?: string; contentType?: string; field?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----likeness${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'picture.jpg'}"\r\nContent-Type: ${options.contentType ?? 'image/jpeg'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, file, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
