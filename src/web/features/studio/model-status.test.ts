import { describe, expect, it } from 'vitest';
import {
  canChooseModel,
  generateWithModelPath,
  modelStatusView,
  trainingBannerState,
} from './model-status.ts';

describe('modelStatusView', () => {
  it('shows the specification badges; anything else is Unknown', () => {
    expect(modelStatusView('pending')).toMatchObject({ label: 'Pending', usable: false });
    expect(modelStatusView('training')).toMatchObject({
      label: 'Training...',
      busy: true,
      usable: false,
    });
    expect(modelStatusView('TRAINING_IN_PROGRESS').kind).toBe('training');
    expect(modelStatusView('complete')).toMatchObject({ label: 'Complete', usable: true });
    expect(modelStatusView('failed')).toMatchObject({ label: 'Failed', usable: false });
    expect(modelStatusView('archived')).toMatchObject({ label: 'Unknown', usable: false });
  });

  it('links Generate to the dashboard presets', () => {
    expect(generateWithModelPath).toBe('/dashboard?main=generation&sub=presets');
  });
});

describe('canChooseModel', () => {
  it('is a Pro, Premium and Enterprise feature of an active plan', () => {
    expect(canChooseModel('pro', true)).toBe(true);
    expect(canChooseModel('premium', true)).toBe(true);
    expect(canChooseModel('enterprise', true)).toBe(true);
    expect(canChooseModel('basic', true)).toBe(false);
    expect(canChooseModel('none', true)).toBe(false);
    expect(canChooseModel('pro', false)).toBe(false);
  });
});

describe('trainingBannerState', () => {
  const model = (status: string, progress: number | null) => ({ status, progress });

  it("follows the models list, else the profile's flag", () => {
    expect(trainingBannerState(undefined, true)).toEqual({ show: true, progress: null });
    expect(trainingBannerState(undefined, false)).toEqual({ show: false, progress: null });
    expect(
      trainingBannerState({ trainingInProgress: false, models: [model('complete', null)] }, true),
    ).toEqual({ show: false, progress: null });
  });

  it("shows the training model's progress when the engine reports one", () => {
    expect(
      trainingBannerState(
        { trainingInProgress: true, models: [model('training', 40), model('complete', null)] },
        false,
      ),
    ).toEqual({ show: true, progress: 40 });
    expect(
      trainingBannerState({ trainingInProgress: true, models: [model('pending', null)] }, false),
    ).toEqual({ show: true, progress: null });
  });
});
