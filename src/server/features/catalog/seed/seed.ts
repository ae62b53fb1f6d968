import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../../db/client.ts';
import type { StoredImage } from '../../../db/schema/catalog.ts';
import { deleteImage, type ImageSource, storeImage } from '../images.ts';
import * as repo from '../repository.ts';
import {
  defaultCategories,
  defaultExamplePhotos,
  defaultQuizImages,
  type PictureRecipe,
  sources,
} from './default-content.ts';
import { clearRenderCache, frame, type Pixels, sideBySide } from './look.ts';
import { looks } from './looks.ts';

export const seedAssetsDir = fileURLToPath(new URL('../../../../../assets/seed', import.meta.url));

export interface SeedOptions {
  db: Database;
  storage: Storage;
  logger?: FastifyBaseLogger;
  /** Where the source photos are (assets/seed). */
  assetsDir?: string;
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
 * Fills each empty part of the catalog with the default content: categories and presets when
 * there are no categories, example photos when there are none, quiz pictures when there are
 * none. A part an operator has filled (even partly) is never touched, so this is safe to run at
 * every start. Several processes starting at once queue on an advisory lock and re-check under
 * it, so the content is made once.
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
  // Most starts find the catalog filled; they do not wait for the lock.
  if ((await emptySections(options.db)).length === 0) return empty;

  const made: StoredImage[] = [];
  try {
    const report = await options.db.transaction(async (tx) => {
      await repo.lockForSeeding(tx);
      const sections = await emptySections(tx);
      if (sections.length === 0) return empty;
      options.logger?.info({ sections }, 'seeding the default catalog content (first start)');
      const seeder = createSeeder(tx, options, made);
      return {
        ...empty,
        ...(sections.includes('presets') ? await seeder.presets() : {}),
        ...(sections.includes('examplePhotos') ? await seeder.examplePhotos() : {}),
        ...(sections.includes('quizImages') ? await seeder.quizImages() : {}),
      };
    });
    report.milliseconds = Math.round(performance.now() - started);
    if (report.categories || report.examplePhotos || report.quizImages)
      options.logger?.info({ ...report }, 'default catalog content ready');
    return report;
  } catch (error) {
    // The rows were rolled back; their pictures go too.
    await Promise.all(made.map((image) => deleteImage(options.storage, image).catch(() => {})));
    throw error;
  } finally {
    clearRenderCache();
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
      'the default catalog content could not be made; starting without it (npm run seed retries)',
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

function createSeeder(tx: Executor, options: SeedOptions, made: StoredImage[]) {
  const assetsDir = options.assetsDir ?? seedAssetsDir;
  const files = new Map<string, Promise<Buffer>>();
  const readAsset = (file: string) => {
    let bytes = files.get(file);
    if (!bytes) {
      bytes = readFile(path.join(assetsDir, ...file.split('/')));
      files.set(file, bytes);
    }
    return bytes;
  };

  async function framed(recipe: Pick<PictureRecipe, 'source' | 'mirror' | 'zoom'>) {
    const source = sources[recipe.source];
    return frame(await readAsset(source.file), {
      face: source.face,
      zoom: recipe.zoom ?? source.zoom,
      ...(recipe.mirror ? { mirror: true } : {}),
    });
  }

  async function store(folder: string[], source: ImageSource): Promise<StoredImage> {
    const image = await storeImage(options.storage, folder, source, { effort: 2 });
    made.push(image);
    return image;
  }

  const raw = (pixels: Pixels): ImageSource => ({ raw: { ...pixels, channels: 3 } });

  async function picture(folder: string[], recipe: PictureRecipe): Promise<StoredImage> {
    return store(folder, raw(await looks[recipe.look](await framed(recipe))));
  }

  return {
    async presets() {
      const jobs = defaultCategories.flatMap((category) =>
        category.presets.map((preset) => ({ category, preset, id: randomUUID() })),
      );
      // Pictures take the time; they are made a few at a time, rows are written in order after.
      const pictures = await mapLimit(jobs, parallelism(), async ({ preset, id }) => {
        const folder = ['presets', id];
        const featured = await picture(folder, preset.featured);
        const additional: StoredImage[] = [];
        for (const recipe of preset.additional) additional.push(await picture(folder, recipe));
        return { featured, additional };
      });
      for (const [index, category] of defaultCategories.entries()) {
        await repo.insertCategory(tx, {
          manualId: category.manualId,
          displayName: category.displayName,
          emoji: category.emoji,
          featured: category.featured,
          orderIndex: index,
          active: true,
        });
      }
      let presetCount = 0;
      for (const [index, job] of jobs.entries()) {
        const inserted = await repo.insertPreset(tx, {
          id: job.id,
          manualId: job.preset.manualId,
          categoryId: job.category.manualId,
          displayName: job.preset.displayName,
          description: job.preset.description,
          prompt: job.preset.prompt,
          scene: job.preset.scene ?? null,
          featuredImage: pictures[index]!.featured,
          additionalImages: pictures[index]!.additional,
          orderIndex: job.category.presets.indexOf(job.preset),
          active: true,
        });
        if (inserted) presetCount++;
      }
      return { categories: defaultCategories.length, presets: presetCount };
    },

    async examplePhotos() {
      const rows = await mapLimit(defaultExamplePhotos, parallelism(), async (photo) => {
        const id = randomUUID();
        const folder = ['example-photos', id];
        const { picture: made } = photo;
        const image =
          'file' in made
            ? await store(folder, { bytes: await readAsset(made.file) })
            : 'recipe' in made
              ? await picture(folder, made.recipe)
              : await store(
                  folder,
                  raw(
                    await sideBySide(
                      await framed({ source: made.twoPeople[0] }),
                      await framed({ source: made.twoPeople[1], mirror: true }),
                    ),
                  ),
                );
        return { id, image, photo };
      });
      for (const [index, row] of rows.entries()) {
        await repo.insertExamplePhoto(tx, {
          id: row.id,
          image: row.image,
          goodOrBad: row.photo.goodOrBad,
          caption: row.photo.caption,
          orderIndex: index,
          active: true,
        });
      }
      return { examplePhotos: rows.length };
    },

    async quizImages() {
      const rows = await mapLimit(defaultQuizImages, parallelism(), async (quizImage) => {
        const id = randomUUID();
        const folder = ['quiz-images', id];
        const image = quizImage.isAi
          ? await picture(folder, quizImage.recipe)
          : await store(folder, { bytes: await readAsset(quizImage.file) });
        return { id, image, isAi: quizImage.isAi };
      });
      for (const [index, row] of rows.entries()) {
        await repo.insertQuizImage(tx, {
          id: row.id,
          image: row.image,
          isAi: row.isAi,
          orderIndex: index,
          active: true,
        });
      }
      return { quizImages: rows.length };
    },
  };
}

function parallelism(): number {
  return Math.max(2, availableParallelism());
}

/** Runs `fn` over the items with at most `limit` at once, keeping the results in order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
