import type { UserModel } from '../../../common/api/studio.ts';

/**
 * Which model's training previews the dashboard shows (decision 039): the newest model's, while
 * it trains (in the training banner), and once trained until the user has pictures of their own
 * (`hasOwnPictures` undefined: not known yet, nothing shown). Null: none.
 */
export function dashboardPreviews(
  models: readonly UserModel[] | undefined,
  hasOwnPictures: boolean | undefined,
): { model: UserModel; training: boolean } | null {
  const model = models?.[0];
  if (!model || model.previews.length === 0) return null;
  if (model.status === 'pending' || model.status === 'training') return { model, training: true };
  if (model.status === 'complete' && hasOwnPictures === false) return { model, training: false };
  return null;
}
