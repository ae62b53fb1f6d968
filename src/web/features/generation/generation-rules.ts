import type { BadgeVariant } from '../../components/ui/badge.tsx';
import { bulkMessages, generationMessages } from '../../../common/messages/generation.ts';
import { costs } from '../../../common/product/credits.ts';
import { prompt as promptRules } from '../../../common/product/limits.ts';
import { dashboardQuery, routes, subscriptionFrom } from '../../../common/product/routes.ts';
import { canUseBulk, canUseCustomPrompts, type Tier } from '../../../common/product/tiers.ts';

/**
 * The generation screens' rules, kept pure so their order is testable without a page: the custom
 * panel's button and checks (spec §4, §5), which models can be picked, what a bulk costs, the
 * prompt preview, the bulk badge and progress, and which ids are worth asking the server about.
 */

export interface SubscriptionLike {
  active: boolean;
  tier: Tier;
  credits: number;
}

export interface ModelLike {
  id: string;
  status: string;
}

/** Where "View Images" and the detail pages' Back go: the dashboard's generated tab. */
export const generatedTabPath = `${routes.dashboard}?main=${dashboardQuery.defaultMain}&sub=generated`;

/** The plans page, coming from the custom prompt panel (the page tailors its heading to it). */
export const customUpgradePath = `${routes.subscription}?from=${subscriptionFrom.customPrompt}`;

export function hasActivePlan(subscription: SubscriptionLike | null | undefined): boolean {
  return subscription?.active === true && subscription.tier !== 'none';
}

export function canCustom(subscription: SubscriptionLike | null | undefined): boolean {
  return canUseCustomPrompts(subscription?.tier);
}

/**
 * What a plan that cannot start a bulk is told (spec §5, §8): below Pro, the tier message; a
 * Pro-or-better plan that lapsed, that it needs an active subscription (and where to renew it).
 * Null when the plan can start one.
 */
export function bulkPlanGate(
  subscription: SubscriptionLike | null | undefined,
): { kind: 'tier' | 'inactive'; message: string; redirectTo?: string } | null {
  if (!canUseBulk(subscription?.tier)) return { kind: 'tier', message: bulkMessages.proOnly };
  if (!hasActivePlan(subscription))
    return {
      kind: 'inactive',
      message: generationMessages.needSubscription,
      redirectTo: routes.subscription,
    };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

/** Only a trained (complete) model can make images. */
export function isUsableModel(model: ModelLike): boolean {
  return model.status === 'complete';
}

/** A model still training: shown greyed with a spinner, never selectable. */
export function isTrainingModel(model: ModelLike): boolean {
  return model.status === 'training' || model.status === 'TRAINING_IN_PROGRESS';
}

/**
 * What Select All selects and counts: the models not in training that can make images (a
 * pending or failed model cannot, so it is left out as well).
 */
export function selectableModelIds(models: readonly ModelLike[]): string[] {
  return models.filter((model) => !isTrainingModel(model) && isUsableModel(model)).map((m) => m.id);
}

/** Select All toggles: everything selectable, or nothing when all of it is already selected. */
export function toggleSelectAll(
  models: readonly ModelLike[],
  selected: ReadonlySet<string>,
): Set<string> {
  const ids = selectableModelIds(models);
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  return allSelected ? new Set() : new Set(ids);
}

/** Drops selections that are no longer selectable (a model deleted, or a list refetched). */
export function keepSelectable(
  models: readonly ModelLike[],
  selected: ReadonlySet<string>,
): Set<string> {
  const ids = new Set(selectableModelIds(models));
  return new Set([...selected].filter((id) => ids.has(id)));
}

/**
 * The model a single-model picker starts on: the one the user chose on My Models when it can
 * make images, else the newest usable one (the list is newest first), else none.
 */
export function defaultModelId(
  models: readonly ModelLike[],
  preferredId: string | null | undefined,
): string | null {
  const usable = models.filter(isUsableModel);
  return usable.find((model) => model.id === preferredId)?.id ?? usable[0]?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Custom prompts
// ---------------------------------------------------------------------------------------------

export type CustomButtonKind =
  'createModelFirst' | 'upgrade' | 'generating' | 'needCredits' | 'generate';

export interface CustomButtonInput {
  subscription: SubscriptionLike | null | undefined;
  /** The user has at least one complete model. */
  hasUsableModel: boolean;
  submitting: boolean;
  /** How many models are selected (each is one image). */
  selectedCount: number;
}

/** The credits a custom request needs: one per selected model, at least one. */
export function customCost(selectedCount: number): number {
  return Math.max(1, selectedCount) * costs.creditsPerImage;
}

/**
 * The custom panel's button (spec §4, in this order): Create AI Model First, Upgrade to Generate,
 * Generating..., Need Credits, Generate Image.
 */
export function customButtonState({
  subscription,
  hasUsableModel,
  submitting,
  selectedCount,
}: CustomButtonInput): { kind: CustomButtonKind; label: string } {
  const labels = generationMessages.customButton;
  if (!hasUsableModel) return { kind: 'createModelFirst', label: labels.createModelFirst };
  if (!canCustom(subscription)) return { kind: 'upgrade', label: labels.upgrade };
  if (submitting) return { kind: 'generating', label: labels.generating };
  if ((subscription?.credits ?? 0) < customCost(selectedCount))
    return { kind: 'needCredits', label: labels.needCredits };
  return { kind: 'generate', label: labels.generate };
}

/** The outcome of the checks a Generate click runs before anything is sent. */
export type CheckOutcome =
  | { ok: true; kind: 'single'; userModelId: string; prompt: string }
  | { ok: true; kind: 'bulk'; userModelIds: string[]; prompt: string }
  | { ok: false; message: string; redirectTo?: string };

export interface CustomCheckInput {
  signedIn: boolean;
  subscription: SubscriptionLike | null | undefined;
  prompt: string;
  /** Selected model ids, in the order shown. */
  selected: readonly string[];
}

/**
 * The custom generation checks in the specification's order (§5): logged in; tier Pro, Premium
 * or Enterprise (to the plans); a prompt after trimming; a model selected; an active
 * subscription (to the plans); enough credits (to /buy-credits). Several selected models make
 * one custom bulk, which costs one credit each.
 */
export function checkCustomGeneration({
  signedIn,
  subscription,
  prompt,
  selected,
}: CustomCheckInput): CheckOutcome {
  const text = generationMessages;
  if (!signedIn) return { ok: false, message: text.mustBeLoggedIn, redirectTo: routes.login };
  if (!canCustom(subscription))
    return { ok: false, message: text.customPromptsProOnly, redirectTo: customUpgradePath };
  const trimmed = prompt.trim();
  if (!trimmed) return { ok: false, message: text.enterPrompt };
  if (trimmed.length > promptRules.maxLength)
    return { ok: false, message: text.promptTooLong(promptRules.maxLength) };
  if (selected.length === 0) return { ok: false, message: text.selectModel };
  if (!hasActivePlan(subscription))
    return { ok: false, message: text.needSubscription, redirectTo: routes.subscription };
  const credits = subscription?.credits ?? 0;
  if (credits < costs.creditsPerImage)
    return { ok: false, message: text.needAtLeastOneCredit, redirectTo: routes.buyCredits };
  if (credits < customCost(selected.length))
    return { ok: false, message: text.needMoreCredits, redirectTo: routes.buyCredits };
  if (selected.length === 1)
    return { ok: true, kind: 'single', userModelId: selected[0]!, prompt: trimmed };
  return { ok: true, kind: 'bulk', userModelIds: [...selected], prompt: trimmed };
}

// ---------------------------------------------------------------------------------------------
// Bulk from a category
// ---------------------------------------------------------------------------------------------

export type PresetBulkCheck =
  | { ok: true; userModelId: string; presetIds: string[] }
  | { ok: false; message: string; redirectTo?: string };

/**
 * The preset bulk checks (spec §5): an active Pro-or-better plan, at least one preset selected,
 * a chosen user model, one credit per preset.
 */
export function checkPresetBulk({
  subscription,
  presetIds,
  userModelId,
}: {
  subscription: SubscriptionLike | null | undefined;
  presetIds: readonly string[];
  userModelId: string | null;
}): PresetBulkCheck {
  const gate = bulkPlanGate(subscription);
  if (gate)
    return gate.redirectTo
      ? { ok: false, message: gate.message, redirectTo: gate.redirectTo }
      : { ok: false, message: gate.message };
  if (presetIds.length === 0) return { ok: false, message: bulkMessages.selectAtLeastOne };
  if (!userModelId) return { ok: false, message: bulkMessages.chooseUserModel };
  if ((subscription?.credits ?? 0) < bulkCost(presetIds.length))
    return {
      ok: false,
      message: generationMessages.needMoreCredits,
      redirectTo: routes.buyCredits,
    };
  return { ok: true, userModelId, presetIds: [...presetIds] };
}

/** One credit per selected preset (or model). */
export function bulkCost(selectedCount: number): number {
  return selectedCount * costs.creditsPerBulkImage;
}

/** The toast after a bulk request was accepted. */
export function bulkQueuedMessage({
  queued,
  failures,
}: {
  queued: number;
  failures: number;
}): string {
  return failures > 0
    ? bulkMessages.queuedWithFailures(queued, failures)
    : bulkMessages.allQueued(queued);
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/** The prompt as the generation modal previews it: cut at 50 characters, with an ellipsis. */
export function promptPreview(text: string | null | undefined): string {
  const value = (text ?? '').trim();
  if (value.length <= promptRules.previewChars) return value;
  return `${value.slice(0, promptRules.previewChars).trimEnd()}...`;
}

/**
 * What a generation is called in lists, the modal and its page: a custom one by its prompt (cut
 * as the prompt preview is), so twenty of them can be told apart; a preset one by the preset's
 * name. The stored name ("Custom: {model}", the specification's model_name) would be the same
 * for every custom picture of a model.
 */
export function generationTitle(generation: {
  modelName: string;
  promptText: string | null;
}): string {
  return promptPreview(generation.promptText) || generation.modelName;
}

/** A bulk job's badge (spec §4): completed, processing, anything else is a failure. */
export function bulkBadge(status: string): { label: string; variant: BadgeVariant } {
  const labels = bulkMessages.status;
  if (status === 'completed') return { label: labels.completed, variant: 'success' };
  if (status === 'processing') return { label: labels.processing, variant: 'accent' };
  return { label: labels.failed, variant: 'danger' };
}

/** Progress = completed / total as a whole percent (0 for an empty job). */
export function bulkProgressPercent(job: { completedImages: number; totalImages: number }): number {
  if (job.totalImages <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((job.completedImages / job.totalImages) * 100)));
}

/** How a generation shows: its status, or blocked (complete but flagged, no image). */
export type GenerationView = 'processing' | 'failed' | 'blocked' | 'complete';

export function generationView(generation: {
  status: string;
  hasNsfwContent: boolean;
}): GenerationView {
  if (generation.status === 'processing') return 'processing';
  if (generation.status === 'complete') return generation.hasNsfwContent ? 'blocked' : 'complete';
  return 'failed';
}

/** A finished image the user has not opened yet gets a "New" badge. */
export function isNew(generation: { status: string; viewed: boolean }): boolean {
  return generation.status === 'complete' && !generation.viewed;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Generation and bulk job ids are UUIDs; anything else in the address is shown as an invalid id
 * at once, without asking the server.
 */
export function isValidRecordId(id: string | undefined): id is string {
  return typeof id === 'string' && uuidPattern.test(id);
}
