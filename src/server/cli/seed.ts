// `npm run seed`: fills each empty part of the catalog (categories and presets, example photos,
// quiz pictures) with the default content; parts that have content are left alone, so running
// it twice changes nothing. The app does the same at start unless SEED_CONTENT=false.
import { seedDefaultContent } from '../features/catalog/seed.ts';
import { openCliContext, runCli } from './cli-context.ts';

await runCli(async () => {
  const context = await openCliContext();
  try {
    const report = await seedDefaultContent({
      db: context.database.db,
      storage: context.storage,
      logger: context.logger,
    });
    const added = [
      report.categories && `${report.categories} categories with ${report.presets} presets`,
      report.examplePhotos && `${report.examplePhotos} example photos`,
      report.quizImages && `${report.quizImages} quiz images`,
    ].filter(Boolean);
    console.log(
      added.length
        ? `Added ${added.join(', ')} in ${(report.milliseconds / 1000).toFixed(1)} s.`
        : 'The catalog already has content; nothing was added.',
    );
  } finally {
    await context.close();
  }
});
