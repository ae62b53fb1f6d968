import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { manualIdSchema } from '../../../common/api/admin.ts';
import { goodOrBadSchema } from '../../../common/api/catalog.ts';
import { presetSceneSchema } from '../../../common/api/scene.ts';
import { catalog } from '../../../common/product/catalog.ts';
import type { Database } from '../../db/client.ts';
import type { CatalogAdminService } from './admin-service.ts';
import { type EncodedImage, encodeImage, type ImageSource, inspectUpload } from './images.ts';
import * as repo from './repository.ts';

/**
 * Bulk content from a folder: `manifest.json` plus the pictures it names. Categories and presets
 * are matched by `manualId` (created when new, updated when they exist); example photos and quiz
 * pictures are added unless the same picture is already there. Importing the same folder twice
 * changes nothing the second time.
 */

const fileName = z
  .string()
  .min(1)
  .refine((name) => !name.includes('..') && !path.isAbsolute(name), {
    error: 'Pictures must be named relative to the manifest folder.',
  });

const triggerPrompt = z
  .string()
  .trim()
  .min(1)
  .max(catalog.promptMaxLength)
  .refine((value) => value.includes(catalog.triggerPlaceholder), {
    error: `The prompt must contain ${catalog.triggerPlaceholder}.`,
  });

export const contentManifestSchema = z.object({
  categories: z
    .array(
      z.object({
        manualId: manualIdSchema,
        displayName: z.string().trim().min(1).max(catalog.displayNameMaxLength),
        emoji: z.string().trim().min(1).max(catalog.emojiMaxLength).nullable().optional(),
        featured: z.boolean().optional(),
        active: z.boolean().optional(),
      }),
    )
    .default([]),
  presets: z
    .array(
      z.object({
        manualId: manualIdSchema,
        categoryId: manualIdSchema,
        displayName: z.string().trim().min(1).max(catalog.displayNameMaxLength),
        description: z.string().trim().max(catalog.descriptionMaxLength).optional(),
        prompt: triggerPrompt,
        scene: presetSceneSchema.optional(),
        featuredImage: fileName.optional(),
        additionalImages: z.array(fileName).default([]),
        active: z.boolean().optional(),
      }),
    )
    .default([]),
  examplePhotos: z
    .array(
      z.object({
        image: fileName,
        goodOrBad: goodOrBadSchema,
        caption: z.string().trim().max(catalog.captionMaxLength).optional(),
        active: z.boolean().optional(),
      }),
    )
    .default([]),
  quizImages: z
    .array(z.object({ image: fileName, isAi: z.boolean(), active: z.boolean().optional() }))
    .default([]),
});

export type ContentManifest = z.infer<typeof contentManifestSchema>;

export interface ImportReport {
  categories: { created: number; updated: number };
  presets: { created: number; updated: number };
  presetImages: number;
  examplePhotos: { added: number; skipped: number };
  quizImages: { added: number; skipped: number };
}

export class ContentImportError extends Error {}

/** Reads and checks the whole folder first (manifest and every picture), so a bad folder changes nothing. */
export async function readContentFolder(folder: string) {
  const manifestPath = path.join(folder, 'manifest.json');
  let json: unknown;
  try {
    json = JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch (error) {
    throw new ContentImportError(
      `Could not read ${manifestPath}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = contentManifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ContentImportError(`manifest.json is not valid:\n${problems.join('\n')}`);
  }
  const manifest = parsed.data;
  const names = new Set([
    ...manifest.presets.flatMap((p) => [
      ...(p.featuredImage ? [p.featuredImage] : []),
      ...p.additionalImages,
    ]),
    ...manifest.examplePhotos.map((photo) => photo.image),
    ...manifest.quizImages.map((image) => image.image),
  ]);
  const pictures = new Map<string, Buffer>();
  for (const name of names) {
    const file = path.join(folder, name);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw new ContentImportError(`${name}: file not found in ${folder}`);
    }
    if (bytes.length > catalog.maxUploadBytes)
      throw new ContentImportError(`${name}: larger than ${catalog.maxUploadMegabytes} MB`);
    await inspectUpload(bytes).catch((error: Error) => {
      throw new ContentImportError(`${name}: ${error.message}`);
    });
    pictures.set(name, bytes);
  }
  return { manifest, pictures };
}

/**
 * Adds a pack to the catalog. `encode` makes each picture's files (a `cachedEncoder` reads them
 * from its cache); each picture is encoded once, for both the check whether the catalog has it
 * and the storing.
 */
export async function importContent(
  {
    db,
    admin,
    encode = encodeImage,
  }: {
    db: Database;
    admin: CatalogAdminService;
    encode?: (bytes: Buffer) => Promise<EncodedImage>;
  },
  { manifest, pictures }: { manifest: ContentManifest; pictures: Map<string, Buffer> },
): Promise<ImportReport> {
  const report: ImportReport = {
    categories: { created: 0, updated: 0 },
    presets: { created: 0, updated: 0 },
    presetImages: 0,
    examplePhotos: { added: 0, skipped: 0 },
    quizImages: { added: 0, skipped: 0 },
  };
  const encodings = new Map<string, Promise<EncodedImage>>();
  const sourceOf = async (name: string): Promise<ImageSource & { encoded: EncodedImage }> => {
    const bytes = pictures.get(name)!;
    let encoding = encodings.get(name);
    if (!encoding) encodings.set(name, (encoding = encode(bytes)));
    return { bytes, encoded: await encoding };
  };

  for (const category of manifest.categories) {
    const { manualId, ...fields } = category;
    if (await repo.findCategory(db, manualId)) {
      await admin.updateCategory(manualId, fields);
      report.categories.updated++;
    } else {
      await admin.createCategory(category);
      report.categories.created++;
    }
  }

  for (const preset of manifest.presets) {
    const { featuredImage, additionalImages, ...fields } = preset;
    const existing = await repo.findPresetByManualId(db, preset.manualId);
    const saved = existing
      ? await admin.updatePreset(existing.id, fields)
      : await admin.createPreset(fields);
    if (existing) report.presets.updated++;
    else report.presets.created++;
    // Pictures already on the preset (same content) are kept as they are.
    const has = new Set(
      [saved.featuredImage, ...saved.additionalImages].flatMap((image) =>
        image ? [image.id] : [],
      ),
    );
    if (featuredImage) {
      const source = await sourceOf(featuredImage);
      if (saved.featuredImage?.id !== source.encoded.id) {
        await admin.addPresetImage(saved.id, source, 'featured');
        report.presetImages++;
      }
      has.add(source.encoded.id);
    }
    for (const name of additionalImages) {
      const source = await sourceOf(name);
      if (has.has(source.encoded.id)) continue;
      await admin.addPresetImage(saved.id, source, 'additional');
      has.add(source.encoded.id);
      report.presetImages++;
    }
  }

  for (const { image, ...fields } of manifest.examplePhotos) {
    const source = await sourceOf(image);
    if (await repo.findExamplePhotoByImage(db, source.encoded.id)) {
      report.examplePhotos.skipped++;
      continue;
    }
    await admin.addExamplePhoto(source, fields);
    report.examplePhotos.added++;
  }

  for (const { image, ...fields } of manifest.quizImages) {
    const source = await sourceOf(image);
    if (await repo.findQuizImageByImage(db, source.encoded.id)) {
      report.quizImages.skipped++;
      continue;
    }
    await admin.addQuizImage(source, fields);
    report.quizImages.added++;
  }
  return report;
}
