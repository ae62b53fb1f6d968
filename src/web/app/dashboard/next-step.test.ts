import { describe, expect, it } from 'vitest';
import type { SubscriptionState } from '../../../common/product/credits.ts';
import { routes } from '../../../common/product/routes.ts';
import type { Tier } from '../../../common/product/tiers.ts';
import { dashboardNextStep, presetsTabPath } from './next-step.ts';

const plan = (tier: Tier, active = true): SubscriptionState => ({
  active,
  tier,
  credits: 40,
  monthlyFreeTrainingsLeft: 0,
});
const models = (...statuses: string[]) => statuses.map((status) => ({ status }));
const creates = (step: ReturnType<typeof dashboardNextStep>) =>
  step.kind === 'loading'
    ? false
    : [step.primary, ...step.secondary].some((link) => link.to === routes.createModel);

describe('the dashboard main action', () => {
  it('without an active plan, leads to the plans', () => {
    for (const subscription of [null, plan('none', false), plan('pro', false)]) {
      const step = dashboardNextStep({ subscription, models: [] });
      expect(step.kind).toBe('noPlan');
      if (step.kind !== 'loading') expect(step.primary.to).toBe(routes.subscription);
    }
  });

  it('waits for the models before choosing, once there is a plan', () => {
    expect(dashboardNextStep({ subscription: plan('basic'), models: null }).kind).toBe('loading');
  });

  it('with no model (a failed one does not count), creates one', () => {
    const step = dashboardNextStep({ subscription: plan('basic'), models: models('failed') });
    expect(step).toMatchObject({ kind: 'noModel', primary: { to: routes.createModel } });
  });

  it('while the only model trains, shows it and never offers a second one to a Basic plan', () => {
    const step = dashboardNextStep({ subscription: plan('basic'), models: models('training') });
    expect(step).toMatchObject({ kind: 'training', primary: { to: routes.myModels } });
    expect(creates(step)).toBe(false);
  });

  it('a Basic user with their one model generates, and is told why there is no second', () => {
    const step = dashboardNextStep({ subscription: plan('basic'), models: models('complete') });
    expect(step).toMatchObject({ kind: 'atLimit', primary: { to: presetsTabPath } });
    expect(creates(step)).toBe(false);
    if (step.kind === 'atLimit') {
      expect(step.note?.text).toBe('Your Basic plan includes 1 AI model, and it is in use.');
      expect(step.note?.link?.to).toBe(routes.subscription);
    }
  });

  it('a Pro user below the limit generates, and may create another', () => {
    const step = dashboardNextStep({
      subscription: plan('pro'),
      models: models('complete', 'failed', 'training'),
    });
    expect(step).toMatchObject({ kind: 'hasModel', primary: { to: presetsTabPath } });
    expect(creates(step)).toBe(true);
  });

  it('a Premium user at 20 models is not offered an upgrade that does not exist', () => {
    const step = dashboardNextStep({
      subscription: plan('premium'),
      models: models(...Array<string>(20).fill('complete')),
    });
    expect(step.kind).toBe('atLimit');
    if (step.kind === 'atLimit') expect(step.note?.link).toBeUndefined();
  });
});
