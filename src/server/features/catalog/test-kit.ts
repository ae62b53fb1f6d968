import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { CatalogImage } from '../../../common/api/catalog.ts';
import type { TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';
export { multipart, overTenMegabyteJpeg } from '../../../../tests/helpers/uploads.ts';
import { setRole } from '../admin/roles.ts';

/** Helpers shared by the catalog's test files (not a test file itself). */

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export const fixtures = {
  portrait: () => readFileSync(path.join(repoRoot, 'assets/seed/person-a/a-01.jpg')),
  otherPortrait: () => readFileSync(path.join(repoRoot, 'assets/seed/person-a/a-02.jpg')),
  badFile: (name: string) =>
    readFileSync(path.join(repoRoot, 'tests/fixtures/photos/bad-files', name)),
  /** A 400 px wide portrait: cheap to process where a test uploads many pictures. */
  small: async (): Promise<Buffer> =>
    (smallPortrait ??= sharp(fixtures.portrait()).resize(400).jpeg({ quality: 80 }).toBuffer()),
};
let smallPortrait: Promise<Buffer> | undefined;

export async function signUpAdmin(app: TestApp): Promise<SignedInUser> {
  const admin = await signUp(app);
  await setRole(app.deps.database.db, admin.email, 'admin');
  return admin;
}

/** Every file under the storage's catalog folder, relative to it. */
export function catalogFiles(app: TestApp): string[] {
  const root = path.join(app.config.storage.localDir, 'catalog');
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else found.push(path.relative(root, full));
    }
  };
  walk(root);
  return found.sort();
}

/**
 * Fetches every variant of a picture through the API, decodes it and checks it is a WebP of
 * exactly the size the API announced, served publicly for a year.
 */
export async function expectImageServed(app: TestApp, image: CatalogImage): Promise<void> {
  expect(image.variants.length).toBeGreaterThan(0);
  expect(image.srcset.split(', ')).toHaveLength(image.variants.length);
  expect(image.variants.some((v) => v.src === image.src && v.width === image.width)).toBe(true);
  for (const variant of image.variants) {
    expect(image.srcset).toContain(`${variant.src} ${variant.width}w`);
    const response = await app.app!.inject({ url: variant.src });
    expect(response.statusCode, variant.src).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const metadata = await sharp(response.rawPayload).metadata();
    expect(metadata.format).toBe('webp');
    expect({ width: metadata.width, height: metadata.height }, variant.src).toEqual({
      width: variant.width,
      height: variant.height,
    });
    // Same aspect ratio in every size, so the reserved space is right whichever loads.
    expect(Math.abs(variant.width / variant.height - image.width / image.height)).toBeLessThan(
      0.01,
    );
  }
}
