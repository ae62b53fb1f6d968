// Every product number of the specification, written once. Imported by the browser and the
// server, so nothing here may touch Node or DOM APIs. Where the two specification documents
// disagree, the resolutions in spec/README.md are what is written here.

export const brand = {
  name: 'Likeness',
} as const;

export const contact = {
  infoEmail: 'info@likeness.example',
  company: 'Likeness Oy',
  companyCountry: 'Finland',
  companyLine: 'Likeness Oy, a company registered in Finland',
} as const;

// ---------------------------------------------------------------------------------------------
// Tiers and their gates
// ---------------------------------------------------------------------------------------------

export const TIERS = ['none', 'basic', 'pro', 'premium', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const PAID_TIERS = ['basic', 'pro', 'premium', 'enterprise'] as const;
export type PaidTier = (typeof PAID_TIERS)[number];

export const tierNames = {
  none: 'No plan',
  basic: 'Basic',
  pro: 'Pro',
  premium: 'Premium',
  enterprise: 'Enterprise',
} as const satisfies Record<Tier, string>;

export interface TierGate {
  readonly customPrompts: boolean;
  readonly bulk: boolean;
  readonly tryOn: boolean;
  readonly modelLimit: number;
  readonly extendedHistory: boolean;
  readonly prioritySupport: boolean;
}

// Enterprise is assigned by an operator and gates exactly as Premium.
export const tierGates = {
  none: {
    customPrompts: false,
    bulk: false,
    tryOn: false,
    modelLimit: 0,
    extendedHistory: false,
    prioritySupport: false,
  },
  basic: {
    customPrompts: false,
    bulk: false,
    tryOn: false,
    modelLimit: 1,
    extendedHistory: false,
    prioritySupport: false,
  },
  pro: {
    customPrompts: true,
    bulk: true,
    tryOn: true,
    modelLimit: 5,
    extendedHistory: false,
    prioritySupport: false,
  },
  premium: {
    customPrompts: true,
    bulk: true,
    tryOn: true,
    modelLimit: 20,
    extendedHistory: true,
    prioritySupport: true,
  },
  enterprise: {
    customPrompts: true,
    bulk: true,
    tryOn: true,
    modelLimit: 20,
    extendedHistory: true,
    prioritySupport: true,
  },
} as const satisfies Record<Tier, TierGate>;

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function isPaidTier(value: unknown): value is PaidTier {
  return typeof value === 'string' && (PAID_TIERS as readonly string[]).includes(value);
}

/** Accepts any casing ('Premium', 'PRO'); anything unknown, empty or missing is 'none'. */
export function toTier(value: string | null | undefined): Tier {
  const lower = (value ?? '').trim().toLowerCase();
  return isTier(lower) ? lower : 'none';
}

function gateOf(tier: Tier | null | undefined): TierGate {
  return tierGates[tier ?? 'none'] ?? tierGates.none;
}

export function canUseCustomPrompts(tier: Tier | null | undefined): boolean {
  return gateOf(tier).customPrompts;
}

export function canUseBulk(tier: Tier | null | undefined): boolean {
  return gateOf(tier).bulk;
}

export function canUseTryOn(tier: Tier | null | undefined): boolean {
  return gateOf(tier).tryOn;
}

export function modelLimit(tier: Tier | null | undefined): number {
  return gateOf(tier).modelLimit;
}

export function tierName(tier: Tier | null | undefined): string {
  return tierNames[tier ?? 'none'] ?? tierNames.none;
}

// ---------------------------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------------------------

export const CURRENCY = 'usd' as const;

export function usdToCents(usd: number): number {
  return Math.round(usd * 100);
}

/**
 * '$19', '$4.92', '$1,299': whole amounts without decimals, as the pages show them. Written out
 * rather than with Intl.NumberFormat, whose first use costs a phone tens of milliseconds (it loads
 * the locale's data) while the landing page's prices render.
 */
export function formatUsd(usd: number): string {
  const [whole = '0', cents] = Math.abs(usd)
    .toFixed(Number.isInteger(usd) ? 0 : 2)
    .split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${usd < 0 ? '-' : ''}$${grouped}${cents ? `.${cents}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Plans and the yearly offer
// ---------------------------------------------------------------------------------------------

export const priceIds = {
  basic: 'price_basic',
  pro: 'price_pro',
  premium: 'price_premium',
  enterprise: 'price_enterprise',
  yearlyPremium: 'price_yearly_premium',
} as const;

export const PRICE_IDS = [
  priceIds.basic,
  priceIds.pro,
  priceIds.premium,
  priceIds.enterprise,
  priceIds.yearlyPremium,
] as const;
export type PriceId = (typeof PRICE_IDS)[number];

export function isPriceId(value: unknown): value is PriceId {
  return typeof value === 'string' && (PRICE_IDS as readonly string[]).includes(value);
}

export type BillingInterval = 'month' | 'year';

/** What a price id buys: the fields billing needs, shared by the monthly plans and the yearly offer. */
export interface SubscriptionProduct {
  readonly id: string;
  readonly tier: PaidTier;
  readonly title: string;
  readonly priceId: PriceId;
  readonly priceUsd: number;
  readonly interval: BillingInterval;
  /** Credits granted at each monthly grant (the yearly offer grants monthly too). */
  readonly monthlyCredits: number;
}

export interface Plan extends SubscriptionProduct {
  readonly id: PaidTier;
  readonly interval: 'month';
  readonly description: string;
  readonly features: readonly string[];
  readonly popular: boolean;
  /** Enterprise is a valid tier but is never sold on the plan page. */
  readonly onSale: boolean;
}

const monthlyCredits = { basic: 50, pro: 500, premium: 2500 } as const;

function modelsFeature(tier: PaidTier): string {
  const n = tierGates[tier].modelLimit;
  return n === 1 ? '1 AI model' : `Up to ${n} AI models`;
}

const proFeatures = [
  'HD images',
  'All style presets',
  modelsFeature('pro'),
  'Custom prompts',
  'Bulk generation',
  'AI Virtual Try-On',
] as const;

const premiumFeatures = [
  'HD images',
  'All style presets',
  modelsFeature('premium'),
  'Custom prompts',
  'Bulk generation',
  'AI Virtual Try-On',
  'Extended history',
  'Priority support',
] as const;

export const plans = {
  basic: {
    id: 'basic',
    tier: 'basic',
    title: tierNames.basic,
    priceId: priceIds.basic,
    priceUsd: 19,
    interval: 'month',
    monthlyCredits: monthlyCredits.basic,
    description: 'Get started with your own AI photos from our style presets.',
    features: ['HD images', 'All style presets', modelsFeature('basic'), 'One photo at a time'],
    popular: false,
    onSale: true,
  },
  pro: {
    id: 'pro',
    tier: 'pro',
    title: tierNames.pro,
    priceId: priceIds.pro,
    priceUsd: 49,
    interval: 'month',
    monthlyCredits: monthlyCredits.pro,
    description: 'For creators: custom prompts, bulk generation and virtual try-on.',
    features: proFeatures,
    popular: true,
    onSale: true,
  },
  premium: {
    id: 'premium',
    tier: 'premium',
    title: tierNames.premium,
    priceId: priceIds.premium,
    priceUsd: 79,
    interval: 'month',
    monthlyCredits: monthlyCredits.premium,
    description: 'For professionals creating at scale, with priority support.',
    features: premiumFeatures,
    popular: false,
    onSale: true,
  },
  // Only the studio checkout reading names an Enterprise amount (its conversion value); the tier
  // is assigned by an operator and its credits follow Premium.
  enterprise: {
    id: 'enterprise',
    tier: 'enterprise',
    title: tierNames.enterprise,
    priceId: priceIds.enterprise,
    priceUsd: 69,
    interval: 'month',
    monthlyCredits: monthlyCredits.premium,
    description: 'For teams and businesses, arranged with our team.',
    features: premiumFeatures,
    popular: false,
    onSale: false,
  },
} as const satisfies Record<PaidTier, Plan>;

/** The three cards of the plan page, landing pricing and account page, in display order. */
export const PLANS_ON_SALE = [plans.basic, plans.pro, plans.premium] as const;

/** The value reported for a completed studio checkout (analytics), per the studio reading. */
export const checkoutConversionValuesUsd = {
  basic: 19,
  premium: 39,
  enterprise: 69,
} as const;

export const yearlyOffer = {
  id: 'premium_yearly',
  tier: 'premium',
  title: 'Premium Yearly',
  priceId: priceIds.yearlyPremium,
  priceUsd: 59,
  interval: 'year',
  monthlyCredits: 200,
  creditsPerYear: 2400,
  monthlyEquivalentUsd: 4.92,
  strikethroughYearlyUsd: 468,
  regularMonthlyUsd: 39,
  savingsPercent: 87,
  savingsUsd: 409,
  signupSavingsPercent: 67,
  features: [
    '2400 AI detection credits per year',
    'Priority email support',
    'Extended detection history',
    'Priority access to new features',
    'Advanced detection algorithms',
  ],
} as const satisfies SubscriptionProduct & Record<string, unknown>;

export type PlanOrOffer = (typeof plans)[PaidTier] | typeof yearlyOffer;

export function planByPriceId(priceId: string | null | undefined): PlanOrOffer | undefined {
  if (priceId === yearlyOffer.priceId) return yearlyOffer;
  return Object.values(plans).find((plan) => plan.priceId === priceId);
}

export function planByTier(tier: Tier | null | undefined): (typeof plans)[PaidTier] | undefined {
  return isPaidTier(tier) ? plans[tier] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Credit packs
// ---------------------------------------------------------------------------------------------

export interface CreditPack {
  readonly id: string;
  readonly credits: number;
  readonly priceUsd: number;
  readonly originalPriceUsd: number;
  readonly discountPercent: number;
  readonly popular: boolean;
}

export const creditPacks = [
  {
    id: 'pack_200',
    credits: 200,
    priceUsd: 19,
    originalPriceUsd: 25,
    discountPercent: 24,
    popular: false,
  },
  {
    id: 'pack_500',
    credits: 500,
    priceUsd: 39,
    originalPriceUsd: 50,
    discountPercent: 22,
    popular: true,
  },
  {
    id: 'pack_1500',
    credits: 1500,
    priceUsd: 89,
    originalPriceUsd: 125,
    discountPercent: 29,
    popular: false,
  },
  {
    id: 'pack_3000',
    credits: 3000,
    priceUsd: 169,
    originalPriceUsd: 250,
    discountPercent: 32,
    popular: false,
  },
] as const satisfies readonly CreditPack[];

export type CreditPackId = (typeof creditPacks)[number]['id'];
export const CREDIT_PACK_IDS = creditPacks.map((pack) => pack.id) as readonly CreditPackId[];

export function creditPackById(
  id: string | null | undefined,
): (typeof creditPacks)[number] | undefined {
  return creditPacks.find((pack) => pack.id === id);
}

// ---------------------------------------------------------------------------------------------
// Credits, subscription record, training
// ---------------------------------------------------------------------------------------------

export const costs = {
  creditsPerImage: 1,
  /** Bulk costs one image per selected model. */
  creditsPerBulkImage: 1,
  creditsPerTryOn: 1,
  trainingCredits: 50,
} as const;

export interface SubscriptionState {
  readonly active: boolean;
  readonly tier: Tier;
  readonly credits: number;
  readonly monthlyFreeTrainingsLeft: number;
}

/** The record created on a user's first subscription read. */
export const defaultSubscription = {
  active: false,
  tier: 'none',
  credits: 0,
  monthlyFreeTrainingsLeft: 1,
} as const satisfies SubscriptionState;

/** What the browser assumes when the subscription cannot be read. */
export const unreadableSubscription = {
  active: false,
  tier: 'none',
  credits: 0,
  monthlyFreeTrainingsLeft: 0,
} as const satisfies SubscriptionState;

export const training = {
  steps: 1000,
  /** Each paid renewal resets the monthly free training to this. */
  freeTrainingsPerRenewal: 1,
  estimateMinutes: 10,
  /** The login side panel's marketing claim, kept as written. */
  loginPanelReadyMinutes: 30,
  /** A training with no news for this long is failed and refunded by the reconciler. */
  timeoutMinutes: 120,
} as const;

export const genders = ['man', 'woman', 'other'] as const;
export type Gender = (typeof genders)[number];

// ---------------------------------------------------------------------------------------------
// Photos and uploads
// ---------------------------------------------------------------------------------------------

export const photos = {
  min: 8,
  max: 12,
  maxUploadBytes: 10 * 1024 * 1024,
  maxUploadMegabytes: 10,
  minShortSidePx: 512,
  // A face must be at least this big to train on: its box's short side in pixels and as a share
  // of the photo's short side (calibrated on the fixtures in src/server/images/photo-checks.ts).
  minFacePx: 128,
  minFaceSharePercent: 15,
  // Decoding is refused above this, so a small file cannot expand into a huge bitmap. A 48 MP
  // phone photo (8064 x 6048) still fits.
  maxPixels: 50_000_000,
  // HEIC is what iPhones take: the server converts it (sharp's prebuilt libvips cannot decode
  // HEVC, so a WebAssembly build of libheif does).
  acceptedMimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'],
  acceptedTypeNames: ['JPEG', 'PNG', 'WebP', 'HEIC'],
} as const;

// ---------------------------------------------------------------------------------------------
// Face identity (measured by bench/embeddings.ts; see docs/decisions/022)
// ---------------------------------------------------------------------------------------------

/**
 * Thresholds on `faceSimilarity` of two MobileFace descriptors (src/server/images/identity.ts),
 * from bench/results/embeddings.md. On the London Set (102 people, 20,604 impostor pairs, one
 * studio) the equal-error rate is 0.09% at 0.51 and 0.1% false accepts needs 0.56; but one real
 * person over two sessions, a 15 cm close-up and mirrored copies (person A) goes down to 0.369,
 * while different people in one studio set-up (the real portraits) reach 0.342 and person B
 * 0.021. A user's own photo refused is worse than a stranger let through a draft (the training
 * still rests on the majority), so the threshold keeps all of person A together: midway between
 * 0.342 and 0.369. There the London Set has 2.49% false accepts and no false rejects (the old
 * faceres threshold, 0.57, let 5.5% through).
 */
const samePersonMinSimilarity = 0.355;

export const identity = {
  samePersonMinSimilarity,
  /**
   * The likeness score shown on a generated picture (`likenessPercent`): 0% at the London
   * impostors' median (a typical stranger), 50% at the same-person threshold, 100% at the London
   * genuine pairs' median (the same person, another expression).
   */
  likeness: { strangerSimilarity: 0.09, samePersonSimilarity: 0.83 },
  /**
   * A finished picture whose face scores below this against the user's profile is made again
   * with a new seed, and if every try stays below, the user keeps the most alike and gets the
   * credit back: the same-person threshold, below which the face measures as someone else's
   * (a 50% likeness badge). Measured on the London Set there: no genuine pair below it, 2.49% of
   * strangers above it.
   */
  rerollBelowSimilarity: samePersonMinSimilarity,
  /**
   * A face whose colour spread at equal lightness (`chromaSpread` in
   * src/server/images/colourfulness.ts, on the descriptor's crop) is below this has no colour of
   * its own: black and white, sepia, a duotone, a pencil sketch. Its likeness is measured in grey
   * (decision 033). Measured: the photos (person A, person B, assets/people; 40) 3.29-16.06 and
   * the same greyed 0.00; the default pack's pictures 2.26-16.68 in colour (156; the lowest a
   * pale Runway Flash) and 0.01-1.00 in its black-and-white and sepia presets (12); the offline
   * studio's treatments of 14 of those photos 2.59 and up in colour, 0.60-1.39 in sepia, duotone
   * and sketch. The threshold sits between 1.39 and 2.26.
   */
  colourlessMaxChromaSpread: 1.8,
} as const;

/** A face similarity as the likeness percentage shown to users (0-100), see `identity.likeness`. */
export function likenessPercent(similarity: number): number {
  const { strangerSimilarity, samePersonSimilarity } = identity.likeness;
  const threshold = identity.samePersonMinSimilarity;
  const share =
    similarity < threshold
      ? (0.5 * (similarity - strangerSimilarity)) / (threshold - strangerSimilarity)
      : 0.5 + (0.5 * (similarity - threshold)) / (samePersonSimilarity - threshold);
  return Math.round(100 * Math.min(1, Math.max(0, share)));
}

export const tryOn = {
  /** Person and garment uploads use the same size rule as training photos. */
  maxUploadBytes: photos.maxUploadBytes,
  acceptedMimeTypes: photos.acceptedMimeTypes,
  durationSecondsMin: 30,
  durationSecondsMax: 60,
  publicSliderStartPercent: 50,
  engineOptions: { category: 'auto', mode: 'balanced', garmentPhotoType: 'auto' },
  // An in-process engine (local) finishes in about a second, so the start answer waits this long
  // for it and can already say "completed"; past it, the answer says "started".
  startAnswerWaitMs: 8000,
  // The job behind an in-process run the start answer waits for starts this much later: it only
  // matters when that process stopped before the run ended.
  inProcessJobDelaySeconds: 60,
  // A try-on with no outcome this long after its start is settled by the sweep (every 5 minutes):
  // the provider is asked once more, else it fails and its credit is refunded. Longer than a
  // job's attempts with their pauses (4 x 4 minutes).
  staleAfterMinutes: 30,
  // Results per page of the list (newest first); older ones load on demand.
  listPageSize: 50,
} as const;

// ---------------------------------------------------------------------------------------------
// Auth, prompts, lists, storage
// ---------------------------------------------------------------------------------------------

export const passwordMinLength = 6;
// Bounds the hashing work per request; better-auth's own default maximum.
export const passwordMaxLength = 128;

export const auth = {
  passwordMinLength,
  passwordMaxLength,
  passwordResetTokenTtlSeconds: 3600,
} as const;

export const prompt = {
  previewChars: 50,
  minHeightPx: 120,
  // Not in the specification: bounds what a request may carry to the engine.
  maxLength: 2000,
} as const;

export const modelName = {
  // Not in the specification: keeps cards and headings readable.
  maxLength: 60,
} as const;

export const lists = {
  generationsPage: 50,
  bulkJobs: 20,
  tryOnPicker: 20,
  presetsPerCategory: 8,
} as const;

export const storage = {
  signedUrlTtlSeconds: 3600,
  trainingZipUrlTtlSeconds: 60,
} as const;

// Not in the specification; the design asks for limits on these endpoints.
export const rateLimits = {
  signIn: { max: 10, windowMs: 60_000 },
  signUp: { max: 5, windowMs: 60_000 },
  passwordReset: { max: 5, windowMs: 15 * 60_000 },
  // After `max` failed sign-ins for one email, each with less than `windowMs` since the one
  // before, sign-in for that email waits baseDelayMs, doubling per further failure, up to maxDelayMs.
  signInFailures: { max: 5, windowMs: 15 * 60_000, baseDelayMs: 30_000, maxDelayMs: 15 * 60_000 },
  uploads: { max: 30, windowMs: 60_000 },
  generation: { max: 30, windowMs: 60_000 },
} as const;

// ---------------------------------------------------------------------------------------------
// Catalog: categories, presets, example photos, quiz images
// ---------------------------------------------------------------------------------------------

export const catalog = {
  /**
   * Every catalog picture is kept as WebP at these widths (never enlarged): cards are 320 px
   * wide (640 on dense screens), the preset detail page shows up to 1280.
   */
  imageWidths: [320, 640, 1280],
  /** The width an image's plain `src` points at; `srcset` offers the others. */
  defaultImageWidth: 640,
  /** Not in the specification: smaller pictures look broken on a 320 px card. */
  minImageSidePx: 320,
  maxUploadBytes: photos.maxUploadBytes,
  maxUploadMegabytes: photos.maxUploadMegabytes,
  maxPixels: photos.maxPixels,
  // Pictures the site shows as they are sent: the web's own formats.
  acceptedMimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
  acceptedTypeNames: ['JPEG', 'PNG', 'WebP'],
  // Not in the specification: bounds for what an operator types.
  manualIdMaxLength: 64,
  displayNameMaxLength: 80,
  descriptionMaxLength: 1000,
  promptMaxLength: 2000,
  captionMaxLength: 200,
  emojiMaxLength: 16,
  /** The word in a preset prompt that the engine replaces with the user model's trigger word. */
  triggerPlaceholder: '{trigger}',
} as const;

// ---------------------------------------------------------------------------------------------
// Quiz funnel and offer
// ---------------------------------------------------------------------------------------------

export const quiz = {
  imageCount: 16,
  aiImageCount: 9,
  realImageCount: 7,
  answerPauseMs: 1500,
  redirectDelayMs: 2000,
  /** Below lowBelow: 'most people struggle'; below highFrom: 'good skills'; else 'impressive'. */
  thresholds: { lowBelow: 40, highFrom: 70 },
  sessionKeys: { score: 'quizScore', redirectAfterAuth: 'redirectAfterAuth' },
} as const;

export type QuizFeedbackLevel = 'low' | 'medium' | 'high';

export function quizPercentage(correct: number, total: number): number {
  return total > 0 ? Math.round((correct / total) * 100) : 0;
}

export function quizFeedbackLevel(percentage: number): QuizFeedbackLevel {
  if (percentage < quiz.thresholds.lowBelow) return 'low';
  if (percentage < quiz.thresholds.highFrom) return 'medium';
  return 'high';
}

export const offer = {
  countdownMinutes: 15,
  countdownSeconds: 15 * 60,
  moneyBackGuaranteeDays: 30,
} as const;

// ---------------------------------------------------------------------------------------------
// Landing page
// ---------------------------------------------------------------------------------------------

export const landingCarouselCategories = [
  { id: 'professional', label: 'Professional' },
  { id: '80s-nostalgia', label: '80s' },
  { id: 'classy', label: 'Classy' },
  { id: 'fantasy-personas', label: 'Fantasy' },
  { id: 'fashion', label: 'Fashion' },
] as const;

export const landing = {
  demoPrompts: [
    'A confident professional headshot in a modern office, soft window light',
    'Walking down a neon-lit Tokyo street at night, cinematic style',
    'An 80s yearbook portrait with a laser background and big hair',
    'A fantasy knight in ornate silver armour on a misty mountain',
    'A fashion editorial on a Paris rooftop at golden hour',
  ],
  demoGeneratedSeconds: 3,
  stepThreeImageCount: 4,
  marketingStyleCount: 50,
  marketingPhotoCount: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Timings (ms) and layout (px)
// ---------------------------------------------------------------------------------------------

export const timings = {
  carousel: { slideMs: 6000, tickMs: 50, transitionMs: 300 },
  demo: { typingMsPerChar: 25, pauseMs: 300, holdMs: 2500 },
  stepThreeRotationMs: 2000,
  paymentPolling: { maxAttempts: 10, baseDelayMs: 2000, perAttemptMs: 500 },
  creditVerification: { maxAttempts: 10, intervalMs: 2000 },
  dashboardPaymentRefreshMs: 2000,
  validationPoll: { uploadMs: 2000, resultsMs: 3000 },
  /** A model name being typed is saved to the draft after this pause (a reload keeps it). */
  draftNameSaveMs: 500,
  tryOnReloadMs: 2000,
  /** A picture shown where the user asked for it re-reads itself this often (a missed event). */
  generationResultPollMs: 15_000,
  toast: { shortMs: 2000, longMs: 5000 },
  sseHeartbeatMs: 25_000,
  requestTimeoutMs: 10_000,
  /** A job retried after an engine's 429 waits its Retry-After, but never longer than this. */
  engineRetryAfterMaxSeconds: 600,
  trainingEstimateMs: training.estimateMinutes * 60_000,
  offerCountdownTickMs: 1000,
} as const;

/** Delay before payment-status poll number `attempt` (0-based): 2000 ms plus 500 ms per attempt. */
export function paymentPollDelayMs(attempt: number): number {
  return timings.paymentPolling.baseDelayMs + timings.paymentPolling.perAttemptMs * attempt;
}

export const network = {
  retryStatuses: [502, 503, 504],
  queryRetries: 1,
  refetchOnWindowFocus: false,
} as const;

export const layout = {
  mobileBreakpointPx: 768,
  presetCardWidthPx: 320,
  cardsPerView: { small: 2, medium: 4 },
} as const;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

export const routes = {
  home: '/',
  login: '/login',
  signup: '/signup',
  resetPassword: '/reset-password',
  terms: '/terms',
  privacy: '/privacy',
  contact: '/contact',
  tryOn: '/tryon',
  quiz: '/quiz',
  quizResults: '/quiz-results',
  dashboard: '/dashboard',
  myModels: '/my-models',
  category: '/category/:categoryId',
  bulkGenerate: '/bulk-generate',
  bulkGeneration: '/bulk-generation/:id',
  createModel: '/create-model',
  customPrompt: '/custom-prompt',
  examplePhotos: '/example-photos',
  uploadPhotos: '/upload-photos',
  validationResults: '/validation-results',
  selectGender: '/select-gender',
  nameModel: '/name-model',
  subscription: '/subscription',
  model: '/model/:id',
  buyCredits: '/buy-credits',
  generation: '/generations/:id',
  account: '/account',
  paymentSuccess: '/payment-success',
  // Both redirect to the dashboard's generated tab.
  history: '/history',
  generations: '/generations',
} as const;

export const paths = {
  category: (categoryId: string) => `/category/${encodeURIComponent(categoryId)}`,
  model: (id: string) => `/model/${encodeURIComponent(id)}`,
  generation: (id: string) => `/generations/${encodeURIComponent(id)}`,
  bulkGeneration: (id: string) => `/bulk-generation/${encodeURIComponent(id)}`,
} as const;

/** The signed-in routes (React Router patterns); anyone else is sent to /login and brought back. */
export const protectedRoutes = [
  routes.dashboard,
  routes.myModels,
  routes.category,
  routes.bulkGenerate,
  routes.bulkGeneration,
  routes.createModel,
  routes.customPrompt,
  routes.examplePhotos,
  routes.uploadPhotos,
  routes.validationResults,
  routes.selectGender,
  routes.nameModel,
  routes.subscription,
  routes.model,
  routes.buyCredits,
  routes.generation,
  routes.account,
  routes.paymentSuccess,
] as const;

export function isProtectedPath(pathname: string): boolean {
  return protectedRoutes.some((pattern) => {
    const source = pattern.replace(/:[A-Za-z]+/g, '[^/]+');
    return new RegExp(`^${source}/?$`).test(pathname);
  });
}

export const defaultRedirectAfterHowItWorks = routes.dashboard;

export const dashboardQuery = {
  main: ['generation', 'tryon'],
  sub: ['presets', 'custom', 'generated'],
  defaultMain: 'generation',
  defaultSub: 'presets',
} as const;

/**
 * Added to the address a checkout's Cancel returns to, so the page there can say the checkout was
 * left and nothing was charged (the provider itself says nothing).
 */
export const checkoutCancelled = { param: 'checkout', value: 'cancelled' } as const;

export function withCheckoutCancelled(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${checkoutCancelled.param}=${checkoutCancelled.value}`;
}

export const subscriptionFrom = {
  customPrompt: 'custom-prompt',
  tryOn: 'tryon',
} as const;

export const signupOffer = {
  yearly: 'yearly',
} as const;
