import { describe, expect, it } from 'vitest';
import type { SubscriptionState } from '../../../common/product/credits.ts';
import {
  countModelsTowardLimit,
  createModelDecision,
  creditsDialogAction,
  readRedirect,
  trainingPayment,
} from './create-model-rules.ts';

const pro: SubscriptionState = {
  active: true,
  tier: 'pro',
  credits: 500,
  monthlyFreeTrainingsLeft: 1,
};

function decide(
  subscription: Partial<SubscriptionState> | null = {},
  modelCount: number | null = 0,
  redirect = '/dashboard',
) {
  return createModelDecision({
    subscription: subscription === null ? null : { ...pro, ...subscription },
    modelCount,
    redirect,
  });
}

describe('createModelDecision', () => {
  it('sends users without an active plan to the plans, with the redirect', () => {
    expect(decide(null)).toEqual({ kind: 'subscribe', to: '/subscription?redirect=%2Fdashboard' });
    expect(decide({ active: false })).toMatchObject({ kind: 'subscribe' });
    expect(decide({ tier: 'none' })).toMatchObject({ kind: 'subscribe' });
    expect(decide({ active: false }, 0, '/model/abc')).toEqual({
      kind: 'subscribe',
      to: '/subscription?redirect=%2Fmodel%2Fabc',
    });
  });

  it('goes on to the example photos while a free training is left', () => {
    expect(decide()).toEqual({ kind: 'proceed', to: '/example-photos' });
    expect(decide({ credits: 0 })).toEqual({ kind: 'proceed', to: '/example-photos' });
  });

  it('asks before using 50 credits, and refuses with fewer', () => {
    expect(decide({ monthlyFreeTrainingsLeft: 0, credits: 50 })).toEqual({
      kind: 'confirmCredits',
      to: '/example-photos',
    });
    expect(decide({ monthlyFreeTrainingsLeft: 0, credits: 49 })).toEqual({
      kind: 'insufficientCredits',
      to: '/buy-credits',
      message:
        'Insufficient Credits: Training a new AI model costs 50 credits, but you only have 49 credits available. Please purchase more credits to continue.',
    });
  });

  it("stops at the plan's model limit (Basic 1, Pro 5, Premium and Enterprise 20)", () => {
    expect(decide({ tier: 'basic' }, 1)).toEqual({
      kind: 'limitReached',
      message:
        'Your Basic plan allows up to 1 AI model. To create another, upgrade your plan or contact us.',
      canUpgrade: true,
    });
    expect(decide({ tier: 'basic' }, 0).kind).toBe('proceed');
    expect(decide({}, 4).kind).toBe('proceed');
    expect(decide({}, 5)).toMatchObject({ kind: 'limitReached', canUpgrade: true });
    expect(decide({ tier: 'premium' }, 19).kind).toBe('proceed');
    expect(decide({ tier: 'premium' }, 20)).toEqual({
      kind: 'limitReached',
      message: 'You have reached the maximum of 20 AI models. Please contact us if you need more.',
      canUpgrade: false,
    });
    expect(decide({ tier: 'enterprise' }, 20)).toMatchObject({ canUpgrade: false });
    // Unknown count (still loading or unreadable): the server has the last word.
    expect(decide({ tier: 'basic' }, null).kind).toBe('proceed');
  });

  it('checks the plan before the limit and the limit before the credits', () => {
    expect(decide({ active: false }, 99).kind).toBe('subscribe');
    expect(decide({ tier: 'basic', monthlyFreeTrainingsLeft: 0, credits: 0 }, 1).kind).toBe(
      'limitReached',
    );
  });
});

describe('creditsDialogAction', () => {
  it('confirms with 50 credits or more, else becomes Buy Credits', () => {
    expect(creditsDialogAction(50)).toEqual({ label: 'Continue', to: '/example-photos' });
    expect(creditsDialogAction(12)).toEqual({ label: 'Buy Credits', to: '/buy-credits' });
  });
});

describe('readRedirect', () => {
  it('keeps paths of this site and defaults to the dashboard', () => {
    expect(readRedirect(null)).toBe('/dashboard');
    expect(readRedirect('')).toBe('/dashboard');
    expect(readRedirect('/model/x')).toBe('/model/x');
    expect(readRedirect('//evil.example')).toBe('/dashboard');
    expect(readRedirect('https://evil.example')).toBe('/dashboard');
  });
});

describe('countModelsTowardLimit', () => {
  it('counts every model except failed ones', () => {
    const models = ['pending', 'training', 'complete', 'failed', 'weird'].map((status) => ({
      status,
    }));
    expect(countModelsTowardLimit(models)).toBe(4);
  });
});

describe('trainingPayment', () => {
  it('uses the free training first, then 50 credits', () => {
    expect(trainingPayment(pro)).toBe('free-training');
    expect(trainingPayment({ ...pro, monthlyFreeTrainingsLeft: 0 })).toBe('credits');
    expect(trainingPayment({ ...pro, monthlyFreeTrainingsLeft: 0, credits: 49 })).toBe(
      'insufficient',
    );
    expect(trainingPayment(null)).toBe('insufficient');
  });
});
