import { describe, expect, it } from 'vitest';
import type { ModelPreview, UserModel } from '../../../common/api/studio.ts';
import { dashboardPreviews } from './training-previews-rules.ts';

const preview: ModelPreview = {
  id: 'p1',
  presetId: 'studio-1',
  presetName: 'Studio',
  status: 'complete',
  imageUrl: '/api/files/a.jpg',
  thumbnailUrl: '/api/files/a.webp',
  width: 512,
  height: 640,
};

function model(status: string, previews: ModelPreview[] = [preview]): UserModel {
  return {
    id: `m-${status}`,
    name: 'Me',
    gender: 'woman',
    status,
    featuredImageUrl: null,
    failureReason: null,
    progress: null,
    engine: 'local',
    paidWith: 'free-training',
    photoCount: 8,
    createdAt: '2026-11-27T10:00:00.000Z',
    trainingStartedAt: null,
    completedAt: null,
    previews,
  };
}

describe('the previews the dashboard shows', () => {
  it("shows the newest model's previews while it trains, whatever the user has made", () => {
    for (const status of ['pending', 'training'])
      expect(dashboardPreviews([model(status), model('complete')], true)).toEqual({
        model: model(status),
        training: true,
      });
  });

  it('keeps them after training only until the user has pictures of their own', () => {
    expect(dashboardPreviews([model('complete')], false)?.training).toBe(false);
    expect(dashboardPreviews([model('complete')], true)).toBeNull();
    expect(dashboardPreviews([model('complete')], undefined)).toBeNull();
  });

  it('shows none for a failed model, a model without previews, or no model', () => {
    expect(dashboardPreviews([model('failed')], false)).toBeNull();
    expect(dashboardPreviews([model('training', [])], false)).toBeNull();
    expect(dashboardPreviews([], false)).toBeNull();
    expect(dashboardPreviews(undefined, false)).toBeNull();
  });
});
