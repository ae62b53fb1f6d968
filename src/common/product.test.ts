import { describe, expect, it } from 'vitest';
import { signupMessages } from './messages/auth.ts';
import { billingMessages } from './messages/billing.ts';
import { catalogMessages } from './messages/catalog.ts';
import { bulkMessages, generationMessages } from './messages/generation.ts';
import { trainingMessages } from './messages/models.ts';
import { offerMessages, quizMessages } from './messages/quiz.ts';
import { createModelMessages, uploadMessages, validationMessages } from './messages/studio.ts';
import { creditPackById, creditPacks } from './product/credit-packs.ts';
import { costs } from './product/credits.ts';
import { formatUsd, usdToCents } from './product/money.ts';
import { planByPriceId, plans, PLANS_ON_SALE, PRICE_IDS, yearlyOffer } from './product/plans.ts';
import { quizFeedbackLevel, quizPercentage } from './product/quiz.ts';
import { isProtectedPath } from './product/routes.ts';
import {
  canUseBulk,
  canUseCustomPrompts,
  canUseTryOn,
  modelLimit,
  tierGates,
  TIERS,
  toTier,
} from './product/tiers.ts';
import { paymentPollDelayMs } from './product/timings.ts';

describe('tier gates', () => {
  it('keeps custom prompts, bulk and try-on from none and basic', () => {
    for (const tier of ['none', 'basic'] as const) {
      expect(canUseCustomPrompts(tier)).toBe(false);
      expect(canUseBulk(tier)).toBe(false);
      expect(canUseTryOn(tier)).toBe(false);
    }
    expect(canUseCustomPrompts(undefined)).toBe(false);
    expect(canUseCustomPrompts(null)).toBe(false);
  });

  it('gives pro, premium and enterprise all three features', () => {
    for (const tier of ['pro', 'premium', 'enterprise'] as const) {
      expect(canUseCustomPrompts(tier)).toBe(true);
      expect(canUseBulk(tier)).toBe(true);
      expect(canUseTryOn(tier)).toBe(true);
    }
  });

  it('limits models per tier', () => {
    expect(modelLimit('none')).toBe(0);
    expect(modelLimit('basic')).toBe(1);
    expect(modelLimit('pro')).toBe(5);
    expect(modelLimit('premium')).toBe(20);
    expect(modelLimit('enterprise')).toBe(20);
  });

  it('gates enterprise exactly as premium', () => {
    expect(tierGates.enterprise).toEqual(tierGates.premium);
  });

  it('normalises stored tier names', () => {
    expect(toTier('Premium')).toBe('premium');
    expect(toTier(' PRO ')).toBe('pro');
    expect(toTier('gold')).toBe('none');
    expect(toTier(null)).toBe('none');
    expect(TIERS).toContain(toTier('enterprise'));
  });
});

describe('plans and price ids', () => {
  it('sells Basic, Pro and Premium at the resolved prices and credits', () => {
    expect(PLANS_ON_SALE.map((p) => [p.id, p.priceUsd, p.monthlyCredits])).toEqual([
      ['basic', 19, 50],
      ['pro', 49, 500],
      ['premium', 79, 2500],
    ]);
    expect(PLANS_ON_SALE.filter((p) => p.popular).map((p) => p.id)).toEqual(['pro']);
    expect(plans.enterprise.onSale).toBe(false);
  });

  it('lists try-on, custom prompts and bulk only on plans that have them', () => {
    for (const plan of Object.values(plans)) {
      expect(plan.features.includes('AI Virtual Try-On')).toBe(canUseTryOn(plan.tier));
      expect(plan.features.includes('Custom prompts')).toBe(canUseCustomPrompts(plan.tier));
      expect(plan.features.includes('Bulk generation')).toBe(canUseBulk(plan.tier));
    }
  });

  it('maps every known price id to a plan of that id', () => {
    expect(PRICE_IDS).toHaveLength(5);
    for (const priceId of PRICE_IDS) {
      expect(planByPriceId(priceId)?.priceId).toBe(priceId);
    }
    expect(planByPriceId('price_yearly_premium')).toBe(yearlyOffer);
    expect(planByPriceId('price_enterprise')?.tier).toBe('enterprise');
    expect(planByPriceId('price_unknown')).toBeUndefined();
    expect(planByPriceId(undefined)).toBeUndefined();
  });

  it('keeps the yearly offer arithmetic consistent', () => {
    expect(yearlyOffer.monthlyCredits * 12).toBe(yearlyOffer.creditsPerYear);
    expect(yearlyOffer.creditsPerYear).toBe(2400);
    expect(yearlyOffer.monthlyEquivalentUsd).toBeCloseTo(yearlyOffer.priceUsd / 12, 2);
    expect(yearlyOffer.regularMonthlyUsd * 12).toBe(yearlyOffer.strikethroughYearlyUsd);
    expect(yearlyOffer.strikethroughYearlyUsd - yearlyOffer.priceUsd).toBe(yearlyOffer.savingsUsd);
    expect(Math.round((yearlyOffer.savingsUsd / yearlyOffer.strikethroughYearlyUsd) * 100)).toBe(
      yearlyOffer.savingsPercent,
    );
  });
});

describe('credit packs', () => {
  it('has the four packs at their prices', () => {
    expect(creditPacks.map((p) => [p.id, p.credits, p.priceUsd, p.originalPriceUsd])).toEqual([
      ['pack_200', 200, 19, 25],
      ['pack_500', 500, 39, 50],
      ['pack_1500', 1500, 89, 125],
      ['pack_3000', 3000, 169, 250],
    ]);
    expect(creditPacks.filter((p) => p.popular).map((p) => p.id)).toEqual(['pack_500']);
    expect(creditPackById('pack_1500')?.credits).toBe(1500);
    expect(creditPackById('pack_999')).toBeUndefined();
  });

  it('states discounts that match the prices', () => {
    for (const pack of creditPacks) {
      expect(Math.round((1 - pack.priceUsd / pack.originalPriceUsd) * 100)).toBe(
        pack.discountPercent,
      );
    }
  });

  it('converts and formats money', () => {
    expect(usdToCents(169)).toBe(16900);
    expect(usdToCents(4.92)).toBe(492);
    expect(formatUsd(59)).toBe('$59');
    expect(formatUsd(4.92)).toBe('$4.92');
    // As Intl.NumberFormat('en-US', { style: 'currency' }) writes them, without its start-up cost.
    expect(formatUsd(0.5)).toBe('$0.50');
    expect(formatUsd(1299)).toBe('$1,299');
    expect(formatUsd(1234567.8)).toBe('$1,234,567.80');
    expect(formatUsd(-5.5)).toBe('-$5.50');
    for (const cents of [0, 1, 99, 492, 1900, 16900, 129999, 123456789]) {
      const usd = cents / 100;
      const intl = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: Number.isInteger(usd) ? 0 : 2,
      }).format(usd);
      expect(formatUsd(usd)).toBe(intl);
    }
  });
});

describe('helpers', () => {
  it('backs off payment polling by 500 ms per attempt', () => {
    expect(paymentPollDelayMs(0)).toBe(2000);
    expect(paymentPollDelayMs(3)).toBe(3500);
  });

  it('scores the quiz and picks the feedback line', () => {
    expect(quizPercentage(7, 16)).toBe(44);
    expect(quizPercentage(0, 0)).toBe(0);
    expect(quizFeedbackLevel(39)).toBe('low');
    expect(quizFeedbackLevel(40)).toBe('medium');
    expect(quizFeedbackLevel(69)).toBe('medium');
    expect(quizFeedbackLevel(70)).toBe('high');
    expect(quizMessages.results.feedback.high.startsWith('Impressive!')).toBe(true);
  });

  it('recognises protected paths', () => {
    expect(isProtectedPath('/dashboard')).toBe(true);
    expect(isProtectedPath('/category/professional')).toBe(true);
    expect(isProtectedPath('/generations/abc-123')).toBe(true);
    expect(isProtectedPath('/tryon')).toBe(false);
    expect(isProtectedPath('/category')).toBe(false);
    expect(isProtectedPath('/')).toBe(false);
  });
});

describe('messages', () => {
  it('interpolates numbers and names', () => {
    expect(createModelMessages.insufficientCreditsForTraining(12)).toBe(
      `Insufficient Credits: Training a new AI model costs ${costs.trainingCredits} credits, but you only have 12 credits available. Please purchase more credits to continue.`,
    );
    expect(billingMessages.invalidPlan('gold')).toBe('Invalid plan: gold');
    expect(billingMessages.currentPlanNotice('Pro')).toBe('You are currently on the Pro plan');
    expect(billingMessages.creditsPerMonth(500)).toBe('500 Credits / Month');
    expect(bulkMessages.queuedWithFailures(3, 2)).toBe(
      'Queued 3 images for generation with 2 failures.',
    );
    expect(bulkMessages.allQueued(5)).toBe('All 5 images queued for generation!');
    expect(uploadMessages.someFailed(2)).toBe('Some uploads failed (2). See details.');
    expect(uploadMessages.failedToUpload('a.jpg', 'too big')).toBe(
      'Failed to upload a.jpg: too big',
    );
    expect(catalogMessages.loadModelsFailed('timeout')).toBe('Failed to load models: timeout');
    expect(quizMessages.progress(3, 16)).toBe('Question 3 of 16');
    expect(quizMessages.score(2, 3)).toBe('Score: 2 / 3');
    expect(quizMessages.results.outOf(9, 16)).toBe('9 out of 16 correct');
  });

  it('writes the numbers of the specification into fixed texts', () => {
    expect(signupMessages.offerBadge).toBe('Limited time: $59/year (save 67%)');
    expect(signupMessages.passwordTooShort).toBe('Password must be at least 6 characters long');
    expect(uploadMessages.tooFewPassed).toBe(
      'At least 8 images are needed to train your AI model. Please add more images.',
    );
    expect(uploadMessages.tooMany).toBe(
      'You can add a maximum of 12 images. Please remove some of the images.',
    );
    expect(trainingMessages.bannerEstimate).toBe('Estimated time left: 10 minutes');
    expect(generationMessages.needAtLeastOneCredit).toBe(
      'You need at least 1 credit to generate images',
    );
    expect(validationMessages.reasons.tooSmall).toBe(
      'Photo is too small (the short side must be at least 512 px)',
    );
    expect(validationMessages.reasons.fileTooLarge).toBe('File is larger than 10 MB');
    expect(offerMessages.claims[0]).toBe('30-Day Money-Back Guarantee');
    expect(createModelMessages.modelLimitReached('Basic', 1)).toContain('up to 1 AI model.');
  });
});
