import { describe, expect, it } from 'vitest';
import {
  bulkBadge,
  bulkCost,
  bulkProgressPercent,
  bulkQueuedMessage,
  checkCustomGeneration,
  checkPresetBulk,
  customButtonState,
  defaultModelId,
  generationTitle,
  generationView,
  isNew,
  isValidRecordId,
  keepSelectable,
  promptPreview,
  selectableModelIds,
  toggleSelectAll,
} from './generation-rules.ts';

const pro = { active: true, tier: 'pro' as const, credits: 10 };
const basic = { active: true, tier: 'basic' as const, credits: 10 };

const models = [
  { id: 'newest', status: 'complete' },
  { id: 'training', status: 'training' },
  { id: 'failed', status: 'failed' },
  { id: 'older', status: 'complete' },
  { id: 'pending', status: 'pending' },
];

describe('customButtonState', () => {
  const state = (input: Partial<Parameters<typeof customButtonState>[0]>) =>
    customButtonState({
      subscription: pro,
      hasUsableModel: true,
      submitting: false,
      selectedCount: 1,
      ...input,
    });

  it('follows the specification order and labels', () => {
    expect(state({ hasUsableModel: false, subscription: basic, submitting: true })).toEqual({
      kind: 'createModelFirst',
      label: 'Create AI Model First',
    });
    expect(state({ subscription: basic, submitting: true })).toEqual({
      kind: 'upgrade',
      label: 'Upgrade to Generate',
    });
    expect(state({ subscription: null }).kind).toBe('upgrade');
    expect(state({ submitting: true, subscription: { ...pro, credits: 0 } })).toEqual({
      kind: 'generating',
      label: 'Generating...',
    });
    expect(state({ subscription: { ...pro, credits: 0 } })).toEqual({
      kind: 'needCredits',
      label: 'Need Credits',
    });
    expect(state({})).toEqual({ kind: 'generate', label: 'Generate Image' });
  });

  it('asks for one credit per selected model', () => {
    expect(state({ selectedCount: 3, subscription: { ...pro, credits: 2 } }).kind).toBe(
      'needCredits',
    );
    expect(state({ selectedCount: 3, subscription: { ...pro, credits: 3 } }).kind).toBe('generate');
    // Nothing selected yet still needs the one credit a generation costs.
    expect(state({ selectedCount: 0, subscription: { ...pro, credits: 0 } }).kind).toBe(
      'needCredits',
    );
  });

  it('lets enterprise and premium through, like pro', () => {
    expect(state({ subscription: { ...pro, tier: 'premium' } }).kind).toBe('generate');
    expect(state({ subscription: { ...pro, tier: 'enterprise' } }).kind).toBe('generate');
  });
});

describe('checkCustomGeneration', () => {
  const check = (input: Partial<Parameters<typeof checkCustomGeneration>[0]>) =>
    checkCustomGeneration({
      signedIn: true,
      subscription: pro,
      prompt: '  a portrait in a library  ',
      selected: ['newest'],
      ...input,
    });

  it('runs the checks in the specification order, each with its message and redirect', () => {
    // Everything wrong at once: the first check answers.
    const everythingWrong = {
      subscription: { active: false, tier: 'basic' as const, credits: 0 },
      prompt: ' ',
      selected: [],
    };
    expect(check({ ...everythingWrong, signedIn: false })).toEqual({
      ok: false,
      message: 'You must be logged in',
      redirectTo: '/login',
    });
    expect(check(everythingWrong)).toEqual({
      ok: false,
      message: 'Custom prompts are only available for Pro and Premium subscribers',
      redirectTo: '/subscription?from=custom-prompt',
    });
    const inactivePro = { active: false, tier: 'pro' as const, credits: 0 };
    expect(check({ subscription: inactivePro, prompt: '   ', selected: [] })).toEqual({
      ok: false,
      message: 'Please enter a prompt',
    });
    expect(check({ subscription: inactivePro, selected: [] })).toEqual({
      ok: false,
      message: 'Please select a model',
    });
    expect(check({ subscription: inactivePro })).toEqual({
      ok: false,
      message: 'You need an active subscription',
      redirectTo: '/subscription',
    });
    expect(check({ subscription: { ...pro, credits: 0 } })).toEqual({
      ok: false,
      message: 'You need at least 1 credit to generate images',
      redirectTo: '/buy-credits',
    });
  });

  it('sends one model as a single generation, with the prompt trimmed', () => {
    expect(check({})).toEqual({
      ok: true,
      kind: 'single',
      userModelId: 'newest',
      prompt: 'a portrait in a library',
    });
  });

  it('sends several models as one custom bulk, and needs a credit for each', () => {
    expect(check({ selected: ['newest', 'older'] })).toEqual({
      ok: true,
      kind: 'bulk',
      userModelIds: ['newest', 'older'],
      prompt: 'a portrait in a library',
    });
    expect(check({ selected: ['newest', 'older'], subscription: { ...pro, credits: 1 } })).toEqual({
      ok: false,
      message: 'You need more credits to generate images',
      redirectTo: '/buy-credits',
    });
  });

  it('refuses a prompt longer than the engine accepts', () => {
    const outcome = check({ prompt: 'x'.repeat(2001) });
    expect(outcome.ok).toBe(false);
  });
});

describe('model selection', () => {
  it('Select All counts and selects only models that are not training and can generate', () => {
    expect(selectableModelIds(models)).toEqual(['newest', 'older']);
    expect([...toggleSelectAll(models, new Set())]).toEqual(['newest', 'older']);
    expect([...toggleSelectAll(models, new Set(['newest']))]).toEqual(['newest', 'older']);
    // Everything already selected: Select All clears.
    expect([...toggleSelectAll(models, new Set(['newest', 'older']))]).toEqual([]);
    expect([...toggleSelectAll([{ id: 't', status: 'training' }], new Set())]).toEqual([]);
  });

  it('drops selections that cannot generate', () => {
    expect([...keepSelectable(models, new Set(['training', 'older', 'gone']))]).toEqual(['older']);
  });

  it('starts on the chosen model when usable, else the newest usable one', () => {
    expect(defaultModelId(models, 'older')).toBe('older');
    expect(defaultModelId(models, 'training')).toBe('newest');
    expect(defaultModelId(models, null)).toBe('newest');
    expect(defaultModelId([{ id: 't', status: 'training' }], 't')).toBeNull();
  });
});

describe('checkPresetBulk', () => {
  const check = (input: Partial<Parameters<typeof checkPresetBulk>[0]>) =>
    checkPresetBulk({ subscription: pro, presetIds: ['a', 'b', 'c'], userModelId: 'm', ...input });

  it('runs the bulk checks in order', () => {
    expect(check({ subscription: basic, presetIds: [], userModelId: null })).toEqual({
      ok: false,
      message: 'Bulk generation is only available for Pro and Premium subscribers',
    });
    // A Pro plan that lapsed is sent to renew it, not told about tiers.
    expect(check({ subscription: { ...pro, active: false } })).toEqual({
      ok: false,
      message: 'You need an active subscription',
      redirectTo: '/subscription',
    });
    expect(check({ presetIds: [], userModelId: null })).toEqual({
      ok: false,
      message: 'Please select at least one model',
    });
    expect(check({ userModelId: null })).toEqual({ ok: false, message: 'Please select a model' });
    expect(check({ subscription: { ...pro, credits: 2 } })).toEqual({
      ok: false,
      message: 'You need more credits to generate images',
      redirectTo: '/buy-credits',
    });
    expect(check({})).toEqual({ ok: true, userModelId: 'm', presetIds: ['a', 'b', 'c'] });
  });

  it('costs one credit per selected preset', () => {
    expect(bulkCost(0)).toBe(0);
    expect(bulkCost(3)).toBe(3);
  });

  it('words the queued outcome', () => {
    expect(bulkQueuedMessage({ queued: 3, failures: 0 })).toBe(
      'All 3 images queued for generation!',
    );
    expect(bulkQueuedMessage({ queued: 2, failures: 1 })).toBe(
      'Queued 2 images for generation with 1 failures.',
    );
  });
});

describe('generationTitle', () => {
  it('names a custom picture by its prompt, cut at 50 characters, and a preset one by the preset', () => {
    const prompt = 'A confident portrait in a sunlit library, warm tones, shallow depth of field';
    expect(generationTitle({ modelName: 'Custom: Me', promptText: prompt })).toBe(
      'A confident portrait in a sunlit library, warm ton...',
    );
    expect(generationTitle({ modelName: 'Custom: Me', promptText: 'Me on a beach' })).toBe(
      'Me on a beach',
    );
    expect(generationTitle({ modelName: 'Corporate Headshot', promptText: null })).toBe(
      'Corporate Headshot',
    );
    expect(generationTitle({ modelName: 'Custom: Me', promptText: '   ' })).toBe('Custom: Me');
  });
});

describe('promptPreview', () => {
  it('keeps prompts of up to 50 characters and cuts longer ones with an ellipsis', () => {
    const fifty = 'a'.repeat(50);
    expect(promptPreview(fifty)).toBe(fifty);
    expect(promptPreview(`${fifty}b`)).toBe(`${fifty}...`);
    expect(promptPreview('  short  ')).toBe('short');
    expect(promptPreview(null)).toBe('');
    // No dangling space before the ellipsis.
    expect(promptPreview(`${'a'.repeat(49)} and more`)).toBe(`${'a'.repeat(49)}...`);
  });
});

describe('bulk job badge and progress', () => {
  it('shows completed and processing, and anything else as a failure', () => {
    expect(bulkBadge('completed')).toEqual({ label: 'Completed', variant: 'success' });
    expect(bulkBadge('processing')).toEqual({ label: 'Processing', variant: 'accent' });
    expect(bulkBadge('failed')).toEqual({ label: 'Failed', variant: 'danger' });
    expect(bulkBadge('cancelled').variant).toBe('danger');
  });

  it('is completed over total as a whole percent', () => {
    expect(bulkProgressPercent({ completedImages: 0, totalImages: 3 })).toBe(0);
    expect(bulkProgressPercent({ completedImages: 1, totalImages: 3 })).toBe(33);
    expect(bulkProgressPercent({ completedImages: 3, totalImages: 3 })).toBe(100);
    expect(bulkProgressPercent({ completedImages: 0, totalImages: 0 })).toBe(0);
  });
});

describe('generation views', () => {
  it('tells processing, failed, blocked and complete apart', () => {
    expect(generationView({ status: 'processing', hasNsfwContent: false })).toBe('processing');
    expect(generationView({ status: 'failed', hasNsfwContent: false })).toBe('failed');
    expect(generationView({ status: 'complete', hasNsfwContent: true })).toBe('blocked');
    expect(generationView({ status: 'complete', hasNsfwContent: false })).toBe('complete');
  });

  it('marks unseen finished images as new', () => {
    expect(isNew({ status: 'complete', viewed: false })).toBe(true);
    expect(isNew({ status: 'complete', viewed: true })).toBe(false);
    expect(isNew({ status: 'processing', viewed: false })).toBe(false);
  });

  it('accepts only UUIDs as record ids', () => {
    expect(isValidRecordId('3f2b8c1e-9a4d-4c6e-8f00-1234567890ab')).toBe(true);
    expect(isValidRecordId('not-an-id')).toBe(false);
    expect(isValidRecordId('')).toBe(false);
    expect(isValidRecordId(undefined)).toBe(false);
  });
});
