import { type SQL, and, asc, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { TrainingStatus } from '../../../common/api/studio.ts';
import type { Executor } from '../../db/client.ts';
import {
  modelPreviews,
  profiles,
  studioDrafts,
  trainingPhotos,
  user,
  userModels,
} from '../../db/schema/index.ts';

export type PhotoRow = typeof trainingPhotos.$inferSelect;
export type NewPhotoRow = typeof trainingPhotos.$inferInsert;
export type ModelRow = typeof userModels.$inferSelect;
export type DraftRow = typeof studioDrafts.$inferSelect;
export type PreviewRow = typeof modelPreviews.$inferSelect;
export type NewPreviewRow = typeof modelPreviews.$inferInsert;

// Every query on a user's data names the user, so another user's id simply finds nothing.

// ---------------------------------------------------------------------------------------------
// Draft (gender, name, training status, settings)
// ---------------------------------------------------------------------------------------------

export async function findDraft(tx: Executor, userId: string): Promise<DraftRow | undefined> {
  const [row] = await tx.select().from(studioDrafts).where(eq(studioDrafts.userId, userId));
  return row;
}

/** Locks the user's draft row (created when missing): uploads, validations and model creation of one user queue up here. */
export async function lockDraft(tx: Executor, userId: string): Promise<DraftRow> {
  await tx.insert(studioDrafts).values({ userId }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(studioDrafts)
    .where(eq(studioDrafts.userId, userId))
    .for('update');
  if (!row) throw new Error(`draft of ${userId} vanished`);
  return row;
}

export async function updateDraft(
  tx: Executor,
  userId: string,
  values: Partial<Omit<DraftRow, 'userId' | 'updatedAt'>>,
): Promise<DraftRow> {
  const [row] = await tx
    .insert(studioDrafts)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: studioDrafts.userId, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row!;
}

/**
 * Puts the user's draft back as `previous` read it, updated_at included (removed again if there
 * was none and nothing else was chosen since): a refused upload leaves nothing changed. The
 * training status is the one the draft's photos say now (`trainingStatus`), not the one
 * `previous` read: validations and deletions may have settled the draft meanwhile.
 */
export async function restoreDraft(
  tx: Executor,
  userId: string,
  previous: DraftRow | undefined,
  trainingStatus: TrainingStatus | null,
): Promise<void> {
  if (previous) {
    await tx
      .update(studioDrafts)
      .set({ trainingStatus, updatedAt: previous.updatedAt })
      .where(eq(studioDrafts.userId, userId));
    return;
  }
  await tx
    .delete(studioDrafts)
    .where(
      and(
        eq(studioDrafts.userId, userId),
        isNull(studioDrafts.gender),
        eq(studioDrafts.name, ''),
        eq(studioDrafts.keepTrainingPhotos, false),
      ),
    );
}

export async function setTrainingStatus(
  tx: Executor,
  userId: string,
  status: TrainingStatus | null,
): Promise<void> {
  await updateDraft(tx, userId, { trainingStatus: status });
}

// ---------------------------------------------------------------------------------------------
// Training photos
// ---------------------------------------------------------------------------------------------

const inDraft = (userId: string) =>
  and(eq(trainingPhotos.userId, userId), isNull(trainingPhotos.modelId));

export async function listDraftPhotos(tx: Executor, userId: string): Promise<PhotoRow[]> {
  return tx
    .select()
    .from(trainingPhotos)
    .where(inDraft(userId))
    .orderBy(asc(trainingPhotos.createdAt), asc(trainingPhotos.id));
}

/**
 * The draft's photos that take one of its 12 places: passed and pending ones. A failed photo
 * takes none (it is waiting to be replaced, and cannot be trained on), so failures never keep
 * the user from adding the photos that replace them.
 */
export async function countDraftPlaces(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(trainingPhotos)
    .where(and(inDraft(userId), ne(trainingPhotos.status, 'failed')));
  return row?.n ?? 0;
}

export async function insertPhoto(tx: Executor, photo: NewPhotoRow): Promise<PhotoRow> {
  const [row] = await tx.insert(trainingPhotos).values(photo).returning();
  return row!;
}

export async function findDraftPhoto(
  tx: Executor,
  userId: string,
  photoId: string,
): Promise<PhotoRow | undefined> {
  const [row] = await tx
    .select()
    .from(trainingPhotos)
    .where(and(inDraft(userId), eq(trainingPhotos.id, photoId)));
  return row;
}

/** A photo by id alone: for the validation job, which acts for the photo's owner. */
export async function findPhotoById(tx: Executor, photoId: string): Promise<PhotoRow | undefined> {
  const [row] = await tx.select().from(trainingPhotos).where(eq(trainingPhotos.id, photoId));
  return row;
}

export async function deletePhoto(tx: Executor, userId: string, photoId: string): Promise<void> {
  await tx
    .delete(trainingPhotos)
    .where(and(eq(trainingPhotos.userId, userId), eq(trainingPhotos.id, photoId)));
}

export async function updatePhoto(
  tx: Executor,
  photoId: string,
  values: Partial<
    Pick<PhotoRow, 'status' | 'failureReason' | 'face' | 'embedding' | 'validatedAt'>
  >,
): Promise<void> {
  await tx.update(trainingPhotos).set(values).where(eq(trainingPhotos.id, photoId));
}

export async function listModelPhotos(tx: Executor, modelId: string): Promise<PhotoRow[]> {
  return tx
    .select()
    .from(trainingPhotos)
    .where(eq(trainingPhotos.modelId, modelId))
    .orderBy(asc(trainingPhotos.createdAt), asc(trainingPhotos.id));
}

/** Gives the draft's photos with these ids to a model. */
export async function attachPhotos(
  tx: Executor,
  userId: string,
  photoIds: string[],
  modelId: string,
): Promise<void> {
  if (photoIds.length === 0) return;
  await tx
    .update(trainingPhotos)
    .set({ modelId })
    .where(and(inDraft(userId), inArray(trainingPhotos.id, photoIds)));
}

export async function deletePhotosOfModel(tx: Executor, modelId: string): Promise<void> {
  await tx.delete(trainingPhotos).where(eq(trainingPhotos.modelId, modelId));
}

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

export async function insertModel(
  tx: Executor,
  model: typeof userModels.$inferInsert,
): Promise<ModelRow> {
  const [row] = await tx.insert(userModels).values(model).returning();
  return row!;
}

export async function listModels(tx: Executor, userId: string): Promise<ModelRow[]> {
  return tx
    .select()
    .from(userModels)
    .where(eq(userModels.userId, userId))
    .orderBy(desc(userModels.createdAt), desc(userModels.id));
}

/** Models that hold a plan slot: every one except failed trainings. */
export async function countSlotModels(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(userModels)
    .where(and(eq(userModels.userId, userId), ne(userModels.status, 'failed')));
  return row?.n ?? 0;
}

export async function findModel(
  tx: Executor,
  userId: string,
  modelId: string,
): Promise<ModelRow | undefined> {
  const [row] = await tx
    .select()
    .from(userModels)
    .where(and(eq(userModels.userId, userId), eq(userModels.id, modelId)));
  return row;
}

/** What making pictures from a model needs to know of it: never its face embeddings. */
export type ModelSummary = Pick<ModelRow, 'id' | 'name' | 'status' | 'weights'>;

export async function findModelSummary(
  tx: Executor,
  userId: string,
  modelId: string,
): Promise<ModelSummary | undefined> {
  const [row] = await tx
    .select({
      id: userModels.id,
      name: userModels.name,
      status: userModels.status,
      weights: userModels.weights,
    })
    .from(userModels)
    .where(and(eq(userModels.userId, userId), eq(userModels.id, modelId)));
  return row;
}

/**
 * The user's models among `ids` (an SQL text[]) as a relation of someone else's statement
 * (decision 051): id, name, and `ready` (complete, with weights to make images from). The
 * summary's columns only: never the face embeddings.
 */
export function modelSummariesSql(userId: SQL, ids: SQL): SQL {
  return sql`select id, name, status = 'complete' and coalesce(weights, '') <> '' as ready
    from user_models where user_id = ${userId} and id = any(${ids})`;
}

/** A model by id alone, locked: for jobs and webhooks, which act for its owner. */
export async function lockModelById(tx: Executor, modelId: string): Promise<ModelRow | undefined> {
  const [row] = await tx.select().from(userModels).where(eq(userModels.id, modelId)).for('update');
  return row;
}

export async function findModelById(tx: Executor, modelId: string): Promise<ModelRow | undefined> {
  const [row] = await tx.select().from(userModels).where(eq(userModels.id, modelId));
  return row;
}

export async function findModelByReference(
  tx: Executor,
  engine: string,
  reference: string,
): Promise<ModelRow | undefined> {
  const [row] = await tx
    .select()
    .from(userModels)
    .where(and(eq(userModels.engine, engine), eq(userModels.engineReference, reference)));
  return row;
}

export async function updateModel(
  tx: Executor,
  modelId: string,
  values: Partial<Omit<ModelRow, 'id' | 'userId' | 'createdAt'>>,
): Promise<ModelRow | undefined> {
  const [row] = await tx
    .update(userModels)
    .set(values)
    .where(eq(userModels.id, modelId))
    .returning();
  return row;
}

/**
 * Updates a model only while it is in one of these statuses: a job that read it earlier must not
 * bring back a model that was deleted, failed or completed meanwhile.
 */
export async function updateModelIn(
  tx: Executor,
  modelId: string,
  statuses: ModelRow['status'][],
  values: Partial<Omit<ModelRow, 'id' | 'userId' | 'createdAt'>>,
): Promise<ModelRow | undefined> {
  const [row] = await tx
    .update(userModels)
    .set(values)
    .where(and(eq(userModels.id, modelId), inArray(userModels.status, statuses)))
    .returning();
  return row;
}

/** Models still pending or training whose last news (else start, else creation) is older than this. */
export async function staleTrainingModels(tx: Executor, before: Date): Promise<ModelRow[]> {
  return tx
    .select()
    .from(userModels)
    .where(
      and(
        inArray(userModels.status, ['pending', 'training']),
        sql`coalesce(${userModels.lastNewsAt}, ${userModels.trainingStartedAt}, ${userModels.createdAt}) < ${before.toISOString()}::timestamptz`,
      ),
    );
}

export async function deleteModel(tx: Executor, userId: string, modelId: string): Promise<void> {
  await tx.delete(userModels).where(and(eq(userModels.userId, userId), eq(userModels.id, modelId)));
}

// ---------------------------------------------------------------------------------------------
// Profile (the specification's users.training_in_progress and selected_training_model_id)
// ---------------------------------------------------------------------------------------------

/** Sets training_in_progress from the models themselves: true while one is pending or training. */
export async function syncTrainingInProgress(tx: Executor, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ n: count() })
    .from(userModels)
    .where(and(eq(userModels.userId, userId), inArray(userModels.status, ['pending', 'training'])));
  const inProgress = (row?.n ?? 0) > 0;
  await tx
    .insert(profiles)
    .values({ userId, trainingInProgress: inProgress })
    .onConflictDoUpdate({ target: profiles.userId, set: { trainingInProgress: inProgress } });
  return inProgress;
}

export async function selectedModelId(tx: Executor, userId: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: profiles.selectedTrainingModelId })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return row?.id ?? null;
}

export async function setSelectedModel(
  tx: Executor,
  userId: string,
  modelId: string | null,
): Promise<void> {
  await tx
    .insert(profiles)
    .values({ userId, selectedTrainingModelId: modelId })
    .onConflictDoUpdate({ target: profiles.userId, set: { selectedTrainingModelId: modelId } });
}

/** Clears the selection when it points at this model (it is being deleted). */
export async function unselectModel(tx: Executor, userId: string, modelId: string): Promise<void> {
  await tx
    .update(profiles)
    .set({ selectedTrainingModelId: null })
    .where(and(eq(profiles.userId, userId), sql`${profiles.selectedTrainingModelId} = ${modelId}`));
}

export async function userEmailOf(tx: Executor, userId: string): Promise<string | undefined> {
  const [row] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email;
}

// ---------------------------------------------------------------------------------------------
// Training previews (decision 039)
// ---------------------------------------------------------------------------------------------

export async function insertPreviews(tx: Executor, rows: NewPreviewRow[]): Promise<void> {
  if (rows.length > 0) await tx.insert(modelPreviews).values(rows);
}

/** The previews of these models (the caller's own), in their order. */
export async function listPreviewsOfModels(
  tx: Executor,
  userId: string,
  modelIds: string[],
): Promise<PreviewRow[]> {
  if (modelIds.length === 0) return [];
  return tx
    .select()
    .from(modelPreviews)
    .where(and(eq(modelPreviews.userId, userId), inArray(modelPreviews.userModelId, modelIds)))
    .orderBy(asc(modelPreviews.position));
}

export async function listPreviewsOfModel(tx: Executor, modelId: string): Promise<PreviewRow[]> {
  return tx
    .select()
    .from(modelPreviews)
    .where(eq(modelPreviews.userModelId, modelId))
    .orderBy(asc(modelPreviews.position));
}

/** Ends a preview still being made; undefined when it had ended or is gone (its model deleted). */
export async function endPreview(
  tx: Executor,
  previewId: string,
  values: Partial<Pick<PreviewRow, 'status' | 'imageKey' | 'thumbnailKey' | 'width' | 'height'>>,
): Promise<PreviewRow | undefined> {
  const [row] = await tx
    .update(modelPreviews)
    .set({ ...values, completedAt: new Date() })
    .where(and(eq(modelPreviews.id, previewId), eq(modelPreviews.status, 'processing')))
    .returning();
  return row;
}

export async function countUnfinishedPreviews(tx: Executor, modelId: string): Promise<number> {
  const [row] = await tx
    .select({ value: count() })
    .from(modelPreviews)
    .where(and(eq(modelPreviews.userModelId, modelId), eq(modelPreviews.status, 'processing')));
  return row?.value ?? 0;
}
