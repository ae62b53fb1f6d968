import { randomUUID } from 'node:crypto';
import type {
  AdminCategory,
  AdminExamplePhoto,
  AdminPreset,
  AdminQuizImage,
  CreateCategoryRequest,
  CreatePresetRequest,
  PresetImageRole,
  UpdateCategoryRequest,
  UpdateExamplePhotoRequest,
  UpdatePresetRequest,
  UpdateQuizImageRequest,
} from '../../../common/api/admin.ts';
import type { GoodOrBad } from '../../../common/api/catalog.ts';
import { adminMessages } from '../../../common/messages/admin.ts';
import { catalog } from '../../../common/product/catalog.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { StoredImage } from '../../db/schema/catalog.ts';
import { AppError } from '../../http/app-error.ts';
import {
  deleteImage,
  type ImageSource,
  inspectUpload,
  storeImage,
  toCatalogImage,
} from './images.ts';
import * as repo from './repository.ts';
import { toCategory, toExamplePhoto, toPresetSummary } from './service.ts';

/**
 * The operator's changes to the catalog. Pictures are checked before anything is stored and
 * their files are removed when the row change that would use them fails, so a refused upload
 * leaves no row and no file behind.
 */
export function createCatalogAdminService({ db, storage }: { db: Database; storage: Storage }) {
  const presetFolder = (id: string) => ['presets', id];

  /** Stores a picture, runs `use` with it, and removes the files if `use` throws. */
  async function withStoredImage<T>(
    folder: string[],
    source: ImageSource,
    use: (image: StoredImage) => Promise<T>,
  ): Promise<T> {
    await inspectUpload(source.bytes);
    const image = await storeImage(storage, folder, source);
    try {
      return await use(image);
    } catch (error) {
      await deleteImage(storage, image).catch(() => {});
      throw error;
    }
  }

  async function adminCategory(db: Executor, manualId: string): Promise<AdminCategory> {
    const row = await repo.findCategory(db, manualId);
    if (!row) throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
    const counts = await repo.countPresetsByCategory(db);
    return toAdminCategory(row, counts.get(row.manualId) ?? 0);
  }

  async function presetOrThrow(db: Executor, id: string, options: { forUpdate?: boolean } = {}) {
    const row = await repo.findPreset(db, id, options);
    if (!row) throw new AppError('NOT_FOUND', adminMessages.presetNotFound);
    return row;
  }

  async function uniquePresetKey(db: Executor, displayName: string): Promise<string> {
    const base = slugify(displayName) || 'preset';
    const taken = await repo.presetManualIdsLike(db, base);
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** The order must name every existing item exactly once. */
  function checkPermutation(given: readonly string[], existing: readonly string[]) {
    const unique = new Set(given);
    if (
      unique.size !== given.length ||
      given.length !== existing.length ||
      !existing.every((id) => unique.has(id))
    ) {
      throw new AppError('BAD_REQUEST', adminMessages.orderMustListAll);
    }
  }

  return {
    // ── Categories ──────────────────────────────────────────────────────────────────────────

    async listCategories(): Promise<AdminCategory[]> {
      const [rows, counts] = await Promise.all([
        repo.listCategories(db, { activeOnly: false }),
        repo.countPresetsByCategory(db),
      ]);
      return rows.map((row) => toAdminCategory(row, counts.get(row.manualId) ?? 0));
    },

    async createCategory(input: CreateCategoryRequest): Promise<AdminCategory> {
      return db.transaction(async (tx) => {
        const inserted = await repo.insertCategory(tx, {
          manualId: input.manualId,
          displayName: input.displayName,
          emoji: input.emoji ?? null,
          featured: input.featured ?? false,
          active: input.active ?? true,
          orderIndex: await repo.nextCategoryOrder(tx),
        });
        if (!inserted) throw new AppError('CONFLICT', adminMessages.categoryExists(input.manualId));
        return adminCategory(tx, input.manualId);
      });
    },

    async updateCategory(manualId: string, patch: UpdateCategoryRequest): Promise<AdminCategory> {
      return db.transaction(async (tx) => {
        if (!(await repo.findCategory(tx, manualId)))
          throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
        if (patch.manualId && patch.manualId !== manualId) {
          if (await repo.findCategory(tx, patch.manualId))
            throw new AppError('CONFLICT', adminMessages.categoryExists(patch.manualId));
        }
        await repo.updateCategory(tx, manualId, patch);
        return adminCategory(tx, patch.manualId ?? manualId);
      });
    },

    async deleteCategory(manualId: string): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await repo.findCategory(tx, manualId)))
          throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
        const count = (await repo.countPresetsByCategory(tx)).get(manualId) ?? 0;
        if (count > 0) throw new AppError('CONFLICT', adminMessages.categoryHasPresets(count));
        await repo.deleteCategory(tx, manualId);
      });
    },

    async reorderCategories(manualIds: string[]): Promise<AdminCategory[]> {
      await db.transaction(async (tx) => {
        const existing = await repo.listCategories(tx, { activeOnly: false });
        checkPermutation(
          manualIds,
          existing.map((row) => row.manualId),
        );
        await repo.setCategoryOrder(tx, manualIds);
      });
      return this.listCategories();
    },

    // ── Presets ─────────────────────────────────────────────────────────────────────────────

    async listPresets(categoryId?: string): Promise<AdminPreset[]> {
      if (categoryId && !(await repo.findCategory(db, categoryId)))
        throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
      const rows = await repo.listAllPresets(db, categoryId ? { categoryId } : {});
      return rows.map(toAdminPreset);
    },

    async getPreset(id: string): Promise<AdminPreset> {
      return toAdminPreset(await presetOrThrow(db, id));
    },

    async createPreset(input: CreatePresetRequest): Promise<AdminPreset> {
      return db.transaction(async (tx) => {
        if (!(await repo.findCategory(tx, input.categoryId)))
          throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
        const id = randomUUID();
        const manualId = input.manualId ?? (await uniquePresetKey(tx, input.displayName));
        const inserted = await repo.insertPreset(tx, {
          id,
          manualId,
          categoryId: input.categoryId,
          displayName: input.displayName,
          description: input.description ?? '',
          prompt: input.prompt,
          scene: input.scene ?? null,
          active: input.active ?? true,
          orderIndex: await repo.nextPresetOrder(tx, input.categoryId),
        });
        if (!inserted) throw new AppError('CONFLICT', adminMessages.presetExists(manualId));
        return toAdminPreset(await presetOrThrow(tx, id));
      });
    },

    async updatePreset(id: string, patch: UpdatePresetRequest): Promise<AdminPreset> {
      return db.transaction(async (tx) => {
        const current = await presetOrThrow(tx, id, { forUpdate: true });
        const values: Parameters<typeof repo.updatePreset>[2] = { ...patch };
        if (patch.manualId && patch.manualId !== current.manualId) {
          if (await repo.findPresetByManualId(tx, patch.manualId))
            throw new AppError('CONFLICT', adminMessages.presetExists(patch.manualId));
        }
        if (patch.categoryId && patch.categoryId !== current.categoryId) {
          if (!(await repo.findCategory(tx, patch.categoryId)))
            throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
          values.orderIndex = await repo.nextPresetOrder(tx, patch.categoryId);
        }
        return toAdminPreset((await repo.updatePreset(tx, id, values))!);
      });
    },

    async deletePreset(id: string): Promise<void> {
      const deleted = await repo.deletePreset(db, id);
      if (!deleted) throw new AppError('NOT_FOUND', adminMessages.presetNotFound);
      await storage.deletePrefix(`catalog/${presetFolder(id).join('/')}/`);
    },

    async reorderPresets(categoryId: string, ids: string[]): Promise<AdminPreset[]> {
      await db.transaction(async (tx) => {
        if (!(await repo.findCategory(tx, categoryId)))
          throw new AppError('NOT_FOUND', adminMessages.categoryNotFound);
        const existing = await repo.listAllPresets(tx, { categoryId });
        checkPermutation(
          ids,
          existing.map((row) => row.id),
        );
        await repo.setPresetOrder(tx, ids);
      });
      return this.listPresets(categoryId);
    },

    /**
     * Adds a picture to a preset: `featured` replaces the card picture (the old one's files go),
     * `additional` appends one to the detail page's examples. Without `as`, the first picture
     * becomes the featured one.
     */
    async addPresetImage(
      id: string,
      source: ImageSource,
      as?: PresetImageRole,
    ): Promise<AdminPreset> {
      await presetOrThrow(db, id);
      let replaced: StoredImage | null = null;
      const preset = await withStoredImage(presetFolder(id), source, (image) =>
        db.transaction(async (tx) => {
          const current = await presetOrThrow(tx, id, { forUpdate: true });
          const role = as ?? (current.featuredImage ? 'additional' : 'featured');
          const additional = current.additionalImages.filter((other) => other.id !== image.id);
          if (role === 'featured') {
            if (current.featuredImage?.id !== image.id) replaced = current.featuredImage;
            return repo.setPresetImages(tx, id, {
              featuredImage: image,
              additionalImages: additional,
            });
          }
          // The same picture twice is one picture (same content, same files).
          if (current.featuredImage?.id === image.id) return current;
          return repo.setPresetImages(tx, id, {
            featuredImage: current.featuredImage,
            additionalImages: [...additional, image],
          });
        }),
      );
      await deleteImage(storage, replaced).catch(() => {});
      return toAdminPreset(preset!);
    },

    async removePresetImage(id: string, imageId: string): Promise<AdminPreset> {
      let removed: StoredImage | undefined;
      const preset = await db.transaction(async (tx) => {
        const current = await presetOrThrow(tx, id, { forUpdate: true });
        if (current.featuredImage?.id === imageId) {
          removed = current.featuredImage;
          return repo.setPresetImages(tx, id, {
            featuredImage: null,
            additionalImages: current.additionalImages,
          });
        }
        removed = current.additionalImages.find((image) => image.id === imageId);
        if (!removed) throw new AppError('NOT_FOUND', adminMessages.imageNotFound);
        return repo.setPresetImages(tx, id, {
          featuredImage: current.featuredImage,
          additionalImages: current.additionalImages.filter((image) => image.id !== imageId),
        });
      });
      await deleteImage(storage, removed);
      return toAdminPreset(preset!);
    },

    /** Makes one of the additional pictures the featured one; the old featured one becomes additional. */
    async featurePresetImage(id: string, imageId: string): Promise<AdminPreset> {
      const preset = await db.transaction(async (tx) => {
        const current = await presetOrThrow(tx, id, { forUpdate: true });
        if (current.featuredImage?.id === imageId) return current;
        const chosen = current.additionalImages.find((image) => image.id === imageId);
        if (!chosen) throw new AppError('NOT_FOUND', adminMessages.imageNotFound);
        const rest = current.additionalImages.filter((image) => image.id !== imageId);
        return repo.setPresetImages(tx, id, {
          featuredImage: chosen,
          additionalImages: current.featuredImage ? [current.featuredImage, ...rest] : rest,
        });
      });
      return toAdminPreset(preset!);
    },

    // ── Example photos ──────────────────────────────────────────────────────────────────────

    async listExamplePhotos(): Promise<AdminExamplePhoto[]> {
      const rows = await repo.listExamplePhotos(db, { activeOnly: false });
      return rows.map(toAdminExamplePhoto);
    },

    async addExamplePhoto(
      source: ImageSource,
      input: { goodOrBad: GoodOrBad; caption?: string; active?: boolean },
    ): Promise<AdminExamplePhoto> {
      const id = randomUUID();
      const row = await withStoredImage(['example-photos', id], source, async (image) =>
        repo.insertExamplePhoto(db, {
          id,
          image,
          goodOrBad: input.goodOrBad,
          caption: input.caption ?? '',
          active: input.active ?? true,
          orderIndex: await repo.nextExamplePhotoOrder(db),
        }),
      );
      return toAdminExamplePhoto(row);
    },

    async updateExamplePhoto(
      id: string,
      patch: UpdateExamplePhotoRequest,
    ): Promise<AdminExamplePhoto> {
      const row = await repo.updateExamplePhoto(db, id, patch);
      if (!row) throw new AppError('NOT_FOUND', adminMessages.examplePhotoNotFound);
      return toAdminExamplePhoto(row);
    },

    async deleteExamplePhoto(id: string): Promise<void> {
      const row = await repo.deleteExamplePhoto(db, id);
      if (!row) throw new AppError('NOT_FOUND', adminMessages.examplePhotoNotFound);
      await storage.deletePrefix(`catalog/example-photos/${id}/`);
    },

    async reorderExamplePhotos(ids: string[]): Promise<AdminExamplePhoto[]> {
      await db.transaction(async (tx) => {
        const existing = await repo.listExamplePhotos(tx, { activeOnly: false });
        checkPermutation(
          ids,
          existing.map((row) => row.id),
        );
        await repo.setExamplePhotoOrder(tx, ids);
      });
      return this.listExamplePhotos();
    },

    // ── Quiz images ─────────────────────────────────────────────────────────────────────────

    async listQuizImages(): Promise<AdminQuizImage[]> {
      const rows = await repo.listQuizImages(db, { activeOnly: false });
      return rows.map(toAdminQuizImage);
    },

    async addQuizImage(
      source: ImageSource,
      input: { isAi: boolean; active?: boolean },
    ): Promise<AdminQuizImage> {
      const id = randomUUID();
      const row = await withStoredImage(['quiz-images', id], source, async (image) =>
        repo.insertQuizImage(db, {
          id,
          image,
          isAi: input.isAi,
          active: input.active ?? true,
          orderIndex: await repo.nextQuizImageOrder(db),
        }),
      );
      return toAdminQuizImage(row);
    },

    async updateQuizImage(id: string, patch: UpdateQuizImageRequest): Promise<AdminQuizImage> {
      const row = await repo.updateQuizImage(db, id, patch);
      if (!row) throw new AppError('NOT_FOUND', adminMessages.quizImageNotFound);
      return toAdminQuizImage(row);
    },

    async deleteQuizImage(id: string): Promise<void> {
      const row = await repo.deleteQuizImage(db, id);
      if (!row) throw new AppError('NOT_FOUND', adminMessages.quizImageNotFound);
      await storage.deletePrefix(`catalog/quiz-images/${id}/`);
    },

    async reorderQuizImages(ids: string[]): Promise<AdminQuizImage[]> {
      await db.transaction(async (tx) => {
        const existing = await repo.listQuizImages(tx, { activeOnly: false });
        checkPermutation(
          ids,
          existing.map((row) => row.id),
        );
        await repo.setQuizImageOrder(tx, ids);
      });
      return this.listQuizImages();
    },
  };
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;

/** 'Old Hollywood' → 'old-hollywood'; what is left of a name that is all symbols may be empty. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, catalog.manualIdMaxLength - 4)
    .replace(/-+$/g, '');
}

function toAdminCategory(row: repo.CategoryRow, presetCount: number): AdminCategory {
  return {
    ...toCategory(row),
    active: row.active,
    presetCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toAdminPreset(row: repo.PresetRow): AdminPreset {
  return {
    ...toPresetSummary(row),
    prompt: row.prompt,
    scene: row.scene,
    additionalImages: row.additionalImages.map((image, index) =>
      toCatalogImage(image, `${row.displayName}, example ${index + 2}`),
    ),
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toAdminExamplePhoto(row: repo.ExamplePhotoRow): AdminExamplePhoto {
  return {
    ...toExamplePhoto(row),
    orderIndex: row.orderIndex,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

function toAdminQuizImage(row: repo.QuizImageRow): AdminQuizImage {
  return {
    id: row.id,
    isAi: row.isAi,
    image: toCatalogImage(row.image, `Quiz portrait (${row.isAi ? 'AI' : 'real'})`),
    orderIndex: row.orderIndex,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}
