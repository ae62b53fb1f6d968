import type {
  CategoriesResponse,
  Category,
  CategoryDetailResponse,
  ExamplePhoto,
  ExamplePhotosResponse,
  LandingResponse,
  PresetResponse,
  PresetsResponse,
  PresetSummary,
  QuizImagesResponse,
} from '../../../common/api/catalog.ts';
import { catalogMessages } from '../../../common/messages/catalog.ts';
import { examplePhotosMessages } from '../../../common/messages/studio.ts';
import { lists } from '../../../common/product/limits.ts';
import { quiz } from '../../../common/product/quiz.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { PresetScene } from '../../adapters/engine/studio/scene.ts';
import { toCatalogImage } from './images.ts';
import {
  type CategoryRow,
  type ExamplePhotoRow,
  findCategory,
  findPreset,
  findVisiblePreset,
  listCategories,
  listExamplePhotos,
  listQuizImages,
  listVisiblePresets,
  type PresetRow,
} from './repository.ts';

/**
 * What visitors and signed-in users read. Hidden means hidden everywhere: an inactive preset,
 * or any preset of an inactive category, is in no list and its page answers "Model not found".
 */
export function createCatalogService({ db }: { db: Executor }) {
  return {
    async categories(): Promise<CategoriesResponse> {
      const rows = await listCategories(db, { activeOnly: true });
      return { categories: rows.map(toCategory) };
    },

    async category(manualId: string): Promise<CategoryDetailResponse> {
      const category = await findCategory(db, manualId);
      if (!category?.active) throw new AppError('NOT_FOUND', catalogMessages.categoryNotFound);
      const rows = await listVisiblePresets(db, { categoryId: manualId });
      return { category: toCategory(category), presets: rows.map(toPresetSummary) };
    },

    async presets(categoryId?: string): Promise<PresetsResponse> {
      if (categoryId) return { presets: (await this.category(categoryId)).presets };
      const rows = await listVisiblePresets(db);
      return { presets: rows.map(toPresetSummary) };
    },

    /** Presets as generation uses them (with their engine prompt), visible ones only, in catalog order. */
    async enginePresets(ids?: readonly string[]): Promise<EnginePreset[]> {
      if (ids?.length === 0) return [];
      const rows = await listVisiblePresets(db, ids ? { ids } : {});
      return rows.map(toEnginePreset);
    },

    /** Any preset by id, visible or not: a queued generation still finds one hidden since. */
    async enginePreset(id: string): Promise<EnginePreset | undefined> {
      const row = await findPreset(db, id);
      return row ? toEnginePreset(row) : undefined;
    },

    async preset(id: string): Promise<PresetResponse> {
      const row = await findVisiblePreset(db, id);
      if (!row) throw new AppError('NOT_FOUND', catalogMessages.modelNotFound);
      return {
        preset: {
          ...toPresetSummary(row.preset),
          additionalImages: row.preset.additionalImages.map((image, index) =>
            toCatalogImage(image, `${row.preset.displayName}, example ${index + 2}`),
          ),
          category: toCategory(row.category),
        },
      };
    },

    /**
     * The landing showcase, as the specification groups it: per active category, its active
     * presets that have a featured image, at most 8; categories left empty are not shown.
     */
    async landing(): Promise<LandingResponse> {
      const [categoryRows, presetRows] = await Promise.all([
        listCategories(db, { activeOnly: true }),
        listVisiblePresets(db, { withFeaturedImage: true }),
      ]);
      const byCategory = new Map<string, PresetRow[]>();
      for (const preset of presetRows) {
        const group = byCategory.get(preset.categoryId) ?? [];
        if (group.length < lists.presetsPerCategory) group.push(preset);
        byCategory.set(preset.categoryId, group);
      }
      return {
        categories: categoryRows
          .filter((category) => byCategory.has(category.manualId))
          .map((category) => ({
            manualId: category.manualId,
            displayName: category.displayName,
            emoji: category.emoji,
            presets: byCategory.get(category.manualId)!.map((preset) => ({
              id: preset.id,
              manualId: preset.manualId,
              displayName: preset.displayName,
              featuredImage: toCatalogImage(preset.featuredImage!, preset.displayName),
            })),
          })),
      };
    },

    async examplePhotos(): Promise<ExamplePhotosResponse> {
      const rows = await listExamplePhotos(db, { activeOnly: true });
      return { photos: rows.map(toExamplePhoto) };
    },

    async quizImages(): Promise<QuizImagesResponse> {
      const rows = await listQuizImages(db, { activeOnly: true, limit: quiz.imageCount });
      return {
        images: rows.map((row, index) => {
          // The alt text must not give the answer away.
          const { src, width, height, srcset, alt } = toCatalogImage(
            row.image,
            `Quiz portrait ${index + 1}`,
          );
          return { id: row.id, isAi: row.isAi, src, width, height, srcset, alt };
        }),
      };
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;

export function toCategory(row: CategoryRow): Category {
  return {
    manualId: row.manualId,
    displayName: row.displayName,
    emoji: row.emoji,
    featured: row.featured,
    orderIndex: row.orderIndex,
  };
}

export function toPresetSummary(row: PresetRow): PresetSummary {
  return {
    id: row.id,
    manualId: row.manualId,
    categoryId: row.categoryId,
    displayName: row.displayName,
    description: row.description,
    featuredImage: row.featuredImage ? toCatalogImage(row.featuredImage, row.displayName) : null,
    orderIndex: row.orderIndex,
  };
}

export function toExamplePhoto(row: ExamplePhotoRow): ExamplePhoto {
  const fallback =
    row.goodOrBad === 'good' ? examplePhotosMessages.good : examplePhotosMessages.bad;
  return {
    id: row.id,
    goodOrBad: row.goodOrBad,
    caption: row.caption,
    image: toCatalogImage(row.image, row.caption || fallback),
  };
}

/** A preset as the generation feature sees it (the engine prompt included). */
export interface EnginePreset {
  id: string;
  categoryId: string;
  displayName: string;
  description: string;
  /** `{trigger}` stands for the user model's trigger word. */
  prompt: string;
  /** The parts of the offline studio's scene the preset sets; the engine reads the rest from the prompt. */
  scene: PresetScene | null;
}

function toEnginePreset(row: PresetRow): EnginePreset {
  return {
    id: row.id,
    categoryId: row.categoryId,
    displayName: row.displayName,
    description: row.description,
    prompt: row.prompt,
    scene: row.scene ?? null,
  };
}
