import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import { createCatalogAdminService } from './admin-service.ts';
import { type ContentManifest, importContent, readContentFolder } from './content-import.ts';
import { cachedEncoder, defaultPictureCacheDir } from './picture-cache.ts';
import * as repo from './repository.ts';

/** The default content pack, made by `npm run content:build` (scripts/content/build.ts). */
export const defaultContentDir = fileURLToPath(
  new URL('../../../../assets/content/default', import.meta.url),
);

export interface SeedOptions {
  db: Database;
  storage: Storage;
  logger?: FastifyBaseLogger;
  /** A content pack folder (manifest.json and its pictures); the default pack when omitted. */
  contentDir?: string;
  /** Where encoded pictures are kept between seeds (see picture-cache.ts). */
  pictureCacheDir?: string;
}

export interface SeedReport {
  categories: number;
  presets: number;
  examplePhotos: number;
  quizImages: number;
  milliseconds: number;
}

type Section = 'presets' | 'examplePhotos' | 'quizImages';

/**
 * Fills each empty part of the catalog from the default content pack: categories and presets
 * when there are no categories, example photos when there are none, quiz pictures when there are
 * none. A part an operator has filled (even partly) is never touched, so this is safe to run at
 * every start. Several processes starting at once queue on an advisory lock and re-check under
 * it, so the content is added once; a failure leaves no rows and no pictures behind.
 */
export async function seedDefaultContent(options: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const empty: SeedReport = {
    categories: 0,
    presets: 0,
    examplePhotos: 0,
    quizImages: 0,
    milliseconds: 0,
  };
  // Most starts find the catalog filled; they neither read the pack nor wait for the lock.
  if ((await emptySections(options.db)).length === 0) return empty;
  // Read and checked before the lock: a broken pack fails here, having changed nothing.
  const pack = await readContentFolder(options.contentDir ?? defaultContentDir);

  const stored = recordingStorage(options.storage);
  try {
    const report = await options.db.transaction(async (tx) => {
      await repo.lockForSeeding(tx);
      const sections = await emptySections(tx);
      if (sections.length === 0) return empty;
      options.logger?.info({ sections }, 'adding the default catalog content (first start)');
      const manifest = onlySections(pack.manifest, sections);
      // The admin service's own transactions become savepoints of this one.
      const admin = createCatalogAdminService({ db: tx as Database, storage: stored.storage });
      const encode = cachedEncoder(
        options.pictureCacheDir ?? defaultPictureCacheDir,
        options.logger,
      );
      const imported = await importContent(
        { db: tx as Database, admin, encode },
        { ...pack, manifest },
      );
      return {
        ...empty,
        categories: imported.categories.created,
        presets: imported.presets.created,
        examplePhotos: imported.examplePhotos.added,
        quizImages: imported.quizImages.added,
      };
    });
    report.milliseconds = Math.round(performance.now() - started);
    if (report.categories || report.examplePhotos || report.quizImages)
      options.logger?.info({ ...report }, 'default catalog content ready');
    return report;
  } catch (error) {
    // The rows were rolled back; their pictures go too.
    await Promise.all(stored.keys.map((key) => options.storage.delete(key).catch(() => {})));
    throw error;
  }
}

/**
 * The start-up step: a failure is logged and the app starts anyway with the catalog as it is
 * (an operator can run `npm run seed` or use the admin API); content is never worth an outage.
 */
export async function seedDefaultContentAtStart(options: SeedOptions): Promise<void> {
  try {
    await seedDefaultContent(options);
  } catch (error) {
    options.logger?.error(
      { err: error },
      'the default catalog content could not be added; starting without it (npm run seed retries)',
    );
  }
}

async function emptySections(db: Executor): Promise<Section[]> {
  const [categoryCount, exampleCount, quizCount] = await Promise.all([
    repo.countCategories(db),
    repo.countExamplePhotos(db),
    repo.countQuizImages(db),
  ]);
  const sections: Section[] = [];
  if (categoryCount === 0) sections.push('presets');
  if (exampleCount === 0) sections.push('examplePhotos');
  if (quizCount === 0) sections.push('quizImages');
  return sections;
}

function onlySections(manifest: ContentManifest, sections: Section[]): ContentManifest {
  const presets = sections.includes('presets');
  return {
    categories: presets ? manifest.categories : [],
    presets: presets ? manifest.presets : [],
    examplePhotos: sections.includes('examplePhotos') ? manifest.examplePhotos : [],
    quizImages: sections.includes('quizImages') ? manifest.quizImages : [],
  };
}

/** The storage, remembering every key written through it (to remove them if the seed fails). */
function recordingStorage(storage: Storage): { storage: Storage; keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    storage: {
      put: (key, body, contentType) => {
        keys.push(key);
        return storage.put(key, body, contentType);
      },
      read: (key) => storage.read(key),
      exists: (key) => storage.exists(key),
      delete: (key) => storage.delete(key),
      deletePrefix: (prefix) => storage.deletePrefix(prefix),
      signedUrl: (key, options) => storage.signedUrl(key, options),
    },
  };
}
