import type { TryOn } from '../../../common/api/tryon.ts';
import { generationMessages } from '../../../common/messages/generation.ts';
import { validationMessages } from '../../../common/messages/studio.ts';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { costs } from '../../../common/product/credits.ts';
import { routes, subscriptionFrom } from '../../../common/product/routes.ts';
import { canUseTryOn, type Tier } from '../../../common/product/tiers.ts';
import { tryOn as tryOnNumbers } from '../../../common/product/tryon.ts';
import { isApiError } from '../../lib/api-client.ts';
import { formatRelativeOrDate } from '../../lib/dates.ts';

const text = tryonMessages;

/** What a signed-in person needs to know about their plan to start a try-on. */
export interface TryOnSubject {
  active: boolean;
  tier: Tier;
  credits: number;
}

/** Why Start Try-On cannot go ahead, in the specification's order (§5). */
export type TryOnIssue = 'signIn' | 'tier' | 'images' | 'subscription' | 'credits';

export type TryOnCheck =
  | { ok: true }
  | {
      ok: false;
      issue: TryOnIssue;
      message: string;
      /** where to fix it, if elsewhere */ to?: string;
    };

export const tryOnUpgradePath = `${routes.subscription}?from=${subscriptionFrom.tryOn}`;
export const tryOnTabPath = `${routes.dashboard}?main=tryon`;

/**
 * The checks before a try-on starts, in the specification's order: signed in; a Pro, Premium or
 * Enterprise tier; both pictures chosen; an active subscription; at least one credit. The first
 * one that fails is reported, with the same message the server gives for it.
 */
export function checkTryOnStart(input: {
  subject: TryOnSubject | null;
  hasPerson: boolean;
  hasGarment: boolean;
}): TryOnCheck {
  const { subject } = input;
  if (!subject)
    return {
      ok: false,
      issue: 'signIn',
      message: generationMessages.mustBeLoggedIn,
      to: routes.login,
    };
  if (!canUseTryOn(subject.tier))
    return { ok: false, issue: 'tier', message: text.proOnly, to: tryOnUpgradePath };
  if (!input.hasPerson || !input.hasGarment)
    return { ok: false, issue: 'images', message: text.selectBoth };
  if (!subject.active)
    return {
      ok: false,
      issue: 'subscription',
      message: generationMessages.needSubscription,
      to: tryOnUpgradePath,
    };
  if (subject.credits < costs.creditsPerTryOn)
    return {
      ok: false,
      issue: 'credits',
      message: generationMessages.needMoreCredits,
      to: routes.buyCredits,
    };
  return { ok: true };
}

/**
 * The tab's gate (spec §2: users without *tier access*): locked below Pro. A Pro-or-better plan
 * that lapsed keeps its tier, so the controls stay open and Start says 'You need an active
 * subscription' (the fourth check, §5).
 */
export function isTryOnLocked(subject: Pick<TryOnSubject, 'tier'> | null): boolean {
  return !canUseTryOn(subject?.tier ?? 'none');
}

/** A chosen file the server would refuse anyway (type sniffed there; size enforced there too). */
export function fileProblem(file: { type: string; size: number }): string | null {
  if (!(tryOnNumbers.acceptedMimeTypes as readonly string[]).includes(file.type))
    return validationMessages.reasons.unsupportedType;
  if (file.size > tryOnNumbers.maxUploadBytes) return validationMessages.reasons.fileTooLarge;
  return null;
}

/**
 * What Start Try-On says when the start did not happen (spec §8): a refusal (4xx) in the server's
 * words, the upload the server could not store, else 'Failed to start AI try-on' (no answer, or
 * the server's own failure).
 */
export function startFailureMessage(error: unknown): string {
  if (!isApiError(error)) return text.startFailed;
  if (error.status >= 400 && error.status < 500) return error.message;
  const uploadFailures: string[] = [text.personUploadFailed, text.garmentUploadFailed];
  return uploadFailures.includes(error.message) ? error.message : text.startFailed;
}

/** The toast after Start Try-On: the result is already there, or it will appear. */
export function startedMessage(status: TryOn['status']): string {
  return status === 'completed' ? text.completed : text.started;
}

/** Badge text and look per status (completed reads "Ready"). */
export function statusBadge(status: TryOn['status']): {
  label: string;
  variant: 'accent' | 'success' | 'danger';
} {
  if (status === 'completed') return { label: text.status.completed, variant: 'success' };
  if (status === 'failed') return { label: text.status.failed, variant: 'danger' };
  if (status === 'blocked') return { label: text.status.blocked, variant: 'danger' };
  return { label: text.status.processing, variant: 'accent' };
}

/** When a result was made: relative under 24 hours, else "Nov 21, 2026 at 3:05 pm". */
export function resultDate(tryOn: Pick<TryOn, 'createdAt'>, now: Date = new Date()): string {
  return formatRelativeOrDate(tryOn.createdAt, now);
}

/** Whether a list still has a try-on in progress (the tab then polls slowly as a fallback). */
export function hasProcessing(tryOns: readonly Pick<TryOn, 'status'>[] | undefined): boolean {
  return (tryOns ?? []).some((tryOn) => tryOn.status === 'processing');
}

/**
 * Where the public page's call to action leads: signed-out visitors to sign-up; signed-in people
 * whose plan does not include try-on to the plans (worded for try-on); the others to the tab.
 */
export function publicCtaTarget(
  signedIn: boolean,
  subject: Pick<TryOnSubject, 'active' | 'tier'> | null,
): { to: string; kind: 'signup' | 'upgrade' | 'open' } {
  if (!signedIn) return { to: routes.signup, kind: 'signup' };
  // A lapsed plan cannot start a try-on either: the way on is the plans.
  if (isTryOnLocked(subject) || subject?.active !== true)
    return { to: tryOnUpgradePath, kind: 'upgrade' };
  return { to: tryOnTabPath, kind: 'open' };
}
