import { describe, expect, it } from 'vitest';
import { presetGenerateState } from './preset-generate-state.ts';

const subscription = {
  active: true,
  tier: 'pro' as const,
  credits: 5,
  monthlyFreeTrainingsLeft: 1,
};

function kind(input: Partial<Parameters<typeof presetGenerateState>[0]>) {
  return presetGenerateState({
    sessionStatus: 'signed-in',
    subscription,
    hasCompleteModel: true,
    returnTo: '/model/x',
    ...input,
  }).kind;
}

describe('presetGenerateState', () => {
  it('follows the specification order', () => {
    expect(kind({ sessionStatus: 'loading', hasCompleteModel: false })).toBe('loading');
    expect(kind({ sessionStatus: 'signed-out', hasCompleteModel: false })).toBe('login');
    expect(kind({ hasCompleteModel: false, subscription: null })).toBe('createModelFirst');
    expect(kind({ subscription: { ...subscription, active: false } })).toBe('getSubscription');
    expect(kind({ subscription: { ...subscription, tier: 'none' } })).toBe('getSubscription');
    expect(kind({ subscription: { ...subscription, credits: 0 } })).toBe('buyCredits');
    expect(kind({})).toBe('generate');
  });

  it('sends a signed-out visitor to sign in, to come back to the preset', () => {
    expect(
      presetGenerateState({
        sessionStatus: 'signed-out',
        subscription: null,
        hasCompleteModel: false,
        returnTo: '/model/x',
      }),
    ).toEqual({ kind: 'login', to: '/login', returnTo: '/model/x' });
  });
});
