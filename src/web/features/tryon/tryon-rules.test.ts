import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import {
  checkTryOnStart,
  fileProblem,
  hasProcessing,
  isTryOnLocked,
  publicCtaTarget,
  resultDate,
  startFailureMessage,
  startedMessage,
  statusBadge,
  type TryOnSubject,
} from './tryon-rules.ts';

const pro: TryOnSubject = { active: true, tier: 'pro', credits: 10 };
const both = { hasPerson: true, hasGarment: true };

describe('checkTryOnStart', () => {
  it('passes a Pro, Premium or Enterprise subscriber with both pictures and a credit', () => {
    expect(checkTryOnStart({ subject: pro, ...both })).toEqual({ ok: true });
    for (const tier of ['premium', 'enterprise'] as const)
      expect(checkTryOnStart({ subject: { ...pro, tier, credits: 1 }, ...both }).ok).toBe(true);
  });

  it('asks a signed-out visitor to sign in first, whatever else is missing', () => {
    const check = checkTryOnStart({ subject: null, hasPerson: false, hasGarment: false });
    expect(check).toMatchObject({ ok: false, issue: 'signIn', message: 'You must be logged in' });
  });

  it('names the tier before the missing pictures', () => {
    for (const tier of ['none', 'basic'] as const) {
      const check = checkTryOnStart({
        subject: { active: true, tier, credits: 50 },
        hasPerson: false,
        hasGarment: false,
      });
      expect(check).toMatchObject({
        ok: false,
        issue: 'tier',
        message: 'AI Try-On is only available for Pro and Premium subscribers',
        to: '/subscription?from=tryon',
      });
    }
  });

  it('asks for both pictures when either is missing, before the subscription and credits', () => {
    const inactiveBroke = { active: false, tier: 'pro' as const, credits: 0 };
    for (const pictures of [
      { hasPerson: false, hasGarment: true },
      { hasPerson: true, hasGarment: false },
      { hasPerson: false, hasGarment: false },
    ]) {
      expect(checkTryOnStart({ subject: inactiveBroke, ...pictures })).toMatchObject({
        ok: false,
        issue: 'images',
        message: 'Please select both a person image and a garment image',
      });
    }
  });

  it('then the active subscription, then at least one credit', () => {
    expect(
      checkTryOnStart({ subject: { active: false, tier: 'pro', credits: 0 }, ...both }),
    ).toMatchObject({
      ok: false,
      issue: 'subscription',
      message: 'You need an active subscription',
      to: '/subscription?from=tryon',
    });
    expect(checkTryOnStart({ subject: { ...pro, credits: 0 }, ...both })).toMatchObject({
      ok: false,
      issue: 'credits',
      message: 'You need more credits to generate images',
      to: '/buy-credits',
    });
  });
});

describe('isTryOnLocked', () => {
  it('locks on the tier alone: below Pro, or signed out', () => {
    expect(isTryOnLocked(null)).toBe(true);
    expect(isTryOnLocked({ tier: 'none' })).toBe(true);
    expect(isTryOnLocked({ tier: 'basic' })).toBe(true);
    expect(isTryOnLocked({ tier: 'pro' })).toBe(false);
    expect(isTryOnLocked({ tier: 'enterprise' })).toBe(false);
  });

  it('leaves a lapsed Premium plan open, so Start asks for an active subscription', () => {
    const lapsed = { active: false, tier: 'premium', credits: 10 } as const;
    expect(isTryOnLocked(lapsed)).toBe(false);
    expect(checkTryOnStart({ subject: lapsed, ...both })).toMatchObject({
      ok: false,
      issue: 'subscription',
      message: 'You need an active subscription',
      to: '/subscription?from=tryon',
    });
  });
});

describe('fileProblem', () => {
  const mb = 1024 * 1024;
  it('accepts JPEG, PNG and WebP up to 10 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp'])
      expect(fileProblem({ type, size: 10 * mb })).toBeNull();
  });
  it('refuses other types and larger files', () => {
    expect(fileProblem({ type: 'image/gif', size: 1000 })).toMatch(/^Not a supported image type/);
    expect(fileProblem({ type: 'text/plain', size: 10 })).toMatch(/^Not a supported image type/);
    expect(fileProblem({ type: 'image/png', size: 10 * mb + 1 })).toBe('File is larger than 10 MB');
  });
});

describe('startFailureMessage', () => {
  it('says why the server refused, in its words', () => {
    const refusal = new ApiError(402, 'INSUFFICIENT_CREDITS', 'You need more credits');
    expect(startFailureMessage(refusal)).toBe('You need more credits');
  });

  it('names the picture the server could not store', () => {
    for (const words of ['Failed to upload person image', 'Failed to upload garment image'])
      expect(startFailureMessage(new ApiError(500, 'INTERNAL', words))).toBe(words);
  });

  it("falls back to the specification's words without a refusal", () => {
    const serverError = new ApiError(500, 'INTERNAL', 'Something went wrong on our side.');
    const noAnswer = new ApiError(0, 'NETWORK_ERROR', "We couldn't reach the server.");
    for (const error of [serverError, noAnswer, new Error('boom')])
      expect(startFailureMessage(error)).toBe('Failed to start AI try-on');
  });
});

describe('outcomes and results', () => {
  it('says the result is there when the answer is already completed', () => {
    expect(startedMessage('completed')).toBe('AI Try-On completed! View your result below.');
    expect(startedMessage('processing')).toBe(
      'AI Try-On started! Results will appear below when ready.',
    );
  });

  it('labels a completed try-on Ready', () => {
    expect(statusBadge('completed')).toEqual({ label: 'Ready', variant: 'success' });
    expect(statusBadge('processing').label).toBe('Processing');
    expect(statusBadge('failed')).toEqual({ label: 'Failed', variant: 'danger' });
    expect(statusBadge('blocked')).toEqual({ label: 'Blocked', variant: 'danger' });
  });

  it('dates a result relatively under 24 hours and in full from then on', () => {
    const now = new Date(2026, 10, 21, 15, 5);
    const at = (date: Date) => ({ createdAt: date.toISOString() });
    expect(resultDate(at(new Date(2026, 10, 21, 15, 4, 30)), now)).toBe('Just now');
    expect(resultDate(at(new Date(2026, 10, 21, 14, 50)), now)).toBe('15 minutes ago');
    expect(resultDate(at(new Date(2026, 10, 21, 10, 5)), now)).toBe('5 hours ago');
    expect(resultDate(at(new Date(2026, 10, 20, 15, 5)), now)).toBe('Nov 20, 2026 at 3:05 pm');
    expect(resultDate(at(new Date(2026, 0, 3, 9, 7)), now)).toBe('Jan 3, 2026 at 9:07 am');
  });

  it('knows when a list still has work in progress', () => {
    expect(hasProcessing(undefined)).toBe(false);
    expect(hasProcessing([{ status: 'completed' }, { status: 'failed' }])).toBe(false);
    expect(hasProcessing([{ status: 'completed' }, { status: 'processing' }])).toBe(true);
  });
});

describe('publicCtaTarget', () => {
  it('sends visitors to sign-up, people without try-on to the plans, the others to the tab', () => {
    expect(publicCtaTarget(false, null)).toEqual({ to: '/signup', kind: 'signup' });
    expect(publicCtaTarget(true, { active: false, tier: 'none' })).toEqual({
      to: '/subscription?from=tryon',
      kind: 'upgrade',
    });
    expect(publicCtaTarget(true, { active: true, tier: 'basic' }).to).toBe(
      '/subscription?from=tryon',
    );
    expect(publicCtaTarget(true, { active: false, tier: 'pro' }).to).toBe(
      '/subscription?from=tryon',
    );
    expect(publicCtaTarget(true, { active: true, tier: 'premium' })).toEqual({
      to: '/dashboard?main=tryon',
      kind: 'open',
    });
  });
});
