// `npm run content -- import <folder>`: adds or updates catalog content from a folder holding a
// manifest.json and the pictures it names (format: docs/catalog.md). The whole folder is
// checked before anything changes; importing the same folder again changes nothing.
import path from 'node:path';
import { createCatalogAdminService } from '../features/catalog/admin-service.ts';
import {
  ContentImportError,
  importContent,
  readContentFolder,
} from '../features/catalog/content-import.ts';
import { AppError } from '../http/app-error.ts';
import { CliError, openCliContext, runCli } from './cli-context.ts';

const usage = 'Usage: npm run content -- import <folder with manifest.json>';

await runCli(async () => {
  const [command, folder, ...rest] = process.argv.slice(2);
  if (command !== 'import' || !folder || rest.length > 0) throw new CliError(usage);
  const directory = path.resolve(folder);
  let content: Awaited<ReturnType<typeof readContentFolder>>;
  try {
    content = await readContentFolder(directory);
  } catch (error) {
    if (error instanceof ContentImportError) throw new CliError(error.message);
    throw error;
  }
  const context = await openCliContext();
  try {
    const db = context.database.db;
    const admin = createCatalogAdminService({ db, storage: context.storage });
    const report = await importContent({ db, admin }, content).catch((error: unknown) => {
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
