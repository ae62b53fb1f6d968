// `npm run content -- import <folder>`: adds or updates catalog content from a folder holding a
// manifest.json and the pictures it names (format: docs/catalog.md). The whole folder is
// checked before anything changes; importing the same folder again changes nothing.
// `npm run content -- prepare [folder]`: encodes a pack's pictures (the default pack's when no
// folder is named) into the picture cache, so importing or seeding it later stores them without
// encoding (decision 052). `npm start` and the image build run it for the default pack.
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createCatalogAdminService } from '../features/catalog/admin-service.ts';
import {
  ContentImportError,
  importContent,
  readContentFolder,
} from '../features/catalog/content-import.ts';
import { cachedEncoder, defaultPictureCacheDir } from '../features/catalog/picture-cache.ts';
import { defaultContentDir } from '../features/catalog/seed.ts';
import { AppError } from '../http/app-error.ts';
import { CliError, openCliContext, runCli } from './cli-context.ts';

const usage = [
  'Usage: npm run content -- import <folder with manifest.json>',
  '       npm run content -- prepare [folder with manifest.json]',
].join('\n');

async function readPack(directory: string) {
  try {
    return await readContentFolder(directory);
  } catch (error) {
    if (error instanceof ContentImportError) throw new CliError(error.message);
    throw error;
  }
}

/** Encodes every picture of the pack that the cache lacks, one per core at a time. */
async function prepare(directory: string) {
  const started = performance.now();
  // Where the cache cannot be written (a read-only install), encoding here would be work lost.
  const writable = await mkdir(defaultPictureCacheDir, { recursive: true })
    .then(() => access(defaultPictureCacheDir, constants.W_OK))
    .then(
      () => true,
      () => false,
    );
  if (!writable) {
    console.log(`The picture cache (${defaultPictureCacheDir}) cannot be written; not prepared.`);
    return;
  }
  const pictures = [...(await readPack(directory)).pictures.values()];
  const encode = cachedEncoder(defaultPictureCacheDir);
  const next = pictures.entries();
  await Promise.all(
    Array.from({ length: availableParallelism() }, async () => {
      for (const [, bytes] of next) await encode(bytes);
    }),
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${pictures.length} pictures of ${directory} ready in the picture cache (${seconds} s)`,
  );
}

await runCli(async () => {
  const [command, folder, ...rest] = process.argv.slice(2);
  if (command === 'prepare' && rest.length === 0)
    return prepare(path.resolve(folder ?? defaultContentDir));
  if (command !== 'import' || !folder || rest.length > 0) throw new CliError(usage);
  const directory = path.resolve(folder);
  const content = await readPack(directory);
  const context = await openCliContext();
  try {
    const db = context.database.db;
    const admin = createCatalogAdminService({ db, storage: context.storage });
    const encode = cachedEncoder(defaultPictureCacheDir);
    const report = await importContent({ db, admin, encode }, content).catch((error: unknown) => {
      // A rule the admin API would also refuse (a preset in a missing category, a taken key).
      if (error instanceof AppError) throw new CliError(error.message);
      throw error;
    });
    console.log(
      [
        `Imported from ${directory}:`,
        `  categories: ${report.categories.created} created, ${report.categories.updated} updated`,
        `  presets: ${report.presets.created} created, ${report.presets.updated} updated, ${report.presetImages} pictures added`,
        `  example photos: ${report.examplePhotos.added} added, ${report.examplePhotos.skipped} already there`,
        `  quiz images: ${report.quizImages.added} added, ${report.quizImages.skipped} already there`,
      ].join('\n'),
    );
  } finally {
    await context.close();
  }
});
