import { describe, expect, it } from 'vitest';
import {
  editPhotosPath,
  hasPendingPhotos,
  photoContinueRule,
  selectFiles,
  shouldSkipToGender,
  validationResultsContinue,
} from './photo-rules.ts';

function counts(passed: number, failed = 0, pending = 0) {
  return { total: passed + failed + pending, passed, failed, pending };
}

function issue(...args: Parameters<typeof counts>) {
  const rule = photoContinueRule(counts(...args));
  return rule.canContinue ? null : rule.issue;
}

describe('photoContinueRule', () => {
  it('offers Continue only with 8 to 12 passed and none failed or pending', () => {
    expect(issue(8)).toBeNull();
    expect(issue(10)).toBeNull();
    expect(issue(12)).toBeNull();
    expect(issue(7)).toBe('tooFewPassed');
    expect(issue(0)).toBe('tooFewPassed');
    expect(issue(13)).toBe('tooMany');
    expect(issue(8, 1)).toBe('someInvalid');
    expect(issue(8, 0, 1)).toBe('validating');
  });

  it('names what to fix first: failed photos, then validation, then the count', () => {
    expect(issue(3, 2, 4)).toBe('someInvalid');
    expect(issue(3, 0, 4)).toBe('validating');
  });

  it('gives the specification messages', () => {
    const message = (rule: ReturnType<typeof photoContinueRule>) =>
      rule.canContinue ? null : rule.message;
    expect(message(photoContinueRule(counts(5)))).toBe(
      'At least 8 images are needed to train your AI model. Please add more images.',
    );
    expect(message(photoContinueRule(counts(13)))).toBe(
      'You can add a maximum of 12 images. Please remove some of the images.',
    );
    expect(message(photoContinueRule(counts(8, 4)))).toBe(
      'Make sure all images are clear and have one face on them. Please replace images with a warning and try again.',
    );
  });
});

describe('validationResultsContinue', () => {
  it('needs at least 8 passed, else goes back to the photos (edit mode) with the reason', () => {
    expect(validationResultsContinue(counts(8, 3))).toEqual({ ok: true, to: '/select-gender' });
    expect(validationResultsContinue(counts(7, 0, 1))).toEqual({
      ok: false,
      to: '/upload-photos?edit=1',
      message: 'You need at least 8 valid photos to continue.',
    });
    expect(editPhotosPath).toBe('/upload-photos?edit=1');
  });
});

describe('shouldSkipToGender', () => {
  it('skips to the gender screen on arrival when validation is complete, unless editing', () => {
    expect(shouldSkipToGender('VALIDATION_COMPLETE', counts(8), false)).toBe(true);
    expect(shouldSkipToGender('VALIDATION_COMPLETE', counts(12), false)).toBe(true);
    expect(shouldSkipToGender('VALIDATION_COMPLETE', counts(8), true)).toBe(false);
    expect(shouldSkipToGender('VALIDATING', counts(8, 0, 1), false)).toBe(false);
    expect(shouldSkipToGender('UPLOADING', counts(8), false)).toBe(false);
    expect(shouldSkipToGender(null, counts(0), false)).toBe(false);
  });

  it('does not skip when the photos break the rule, although validation is complete', () => {
    expect(shouldSkipToGender('VALIDATION_COMPLETE', counts(3), false)).toBe(false);
    expect(shouldSkipToGender('VALIDATION_COMPLETE', counts(8, 1), false)).toBe(false);
  });
});

describe('hasPendingPhotos', () => {
  it('is true while any photo awaits validation', () => {
    expect(hasPendingPhotos(undefined)).toBe(false);
    expect(hasPendingPhotos(counts(3))).toBe(false);
    expect(hasPendingPhotos(counts(3, 0, 1))).toBe(true);
  });
});

describe('selectFiles', () => {
  const image = (name: string) => ({ name, type: 'image/jpeg' });
  const files = Array.from({ length: 14 }, (_, index) => image(`p-${index}.jpg`));

  it('keeps image files only', () => {
    const result = selectFiles(
      [image('a.jpg'), { name: 'notes.txt', type: 'text/plain' }, { name: 'x', type: '' }],
      { uploaded: 0, selected: 0 },
    );
    expect(result.accepted.map((file) => file.name)).toEqual(['a.jpg']);
    expect(result.notImages).toBe(2);
    expect(result.overCap).toBe(0);
  });

  it('caps the draft at 12 photos, counting uploaded and already selected ones', () => {
    expect(selectFiles(files, { uploaded: 0, selected: 0 })).toMatchObject({
      overCap: 2,
      room: 12,
    });
    expect(selectFiles(files, { uploaded: 0, selected: 0 }).accepted).toHaveLength(12);
    const later = selectFiles(files, { uploaded: 8, selected: 2 });
    expect(later.accepted.map((file) => file.name)).toEqual(['p-0.jpg', 'p-1.jpg']);
    expect(later).toMatchObject({ overCap: 12, room: 2 });
    expect(selectFiles(files, { uploaded: 12, selected: 0 })).toMatchObject({
      accepted: [],
      room: 0,
      overCap: 14,
    });
    expect(selectFiles(files, { uploaded: 13, selected: 0 }).room).toBe(0);
  });
});
