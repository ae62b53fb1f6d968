import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import type { DatabaseOptions } from './db/client.ts';
import { smallPoolSize } from './images/thread-pool.ts';
import type { CreditPackId } from '../common/product/credit-packs.ts';
import type { PriceId } from '../common/product/plans.ts';
import { timings } from '../common/product/timings.ts';
import { training as trainingRules } from '../common/product/training.ts';

/**
 * The only module that reads `process.env` (lint enforces it). Everything has an offline-safe
 * default, so `npm start` works on a fresh clone with no `.env`; choosing a real provider
 * without its secret fails at start and names the missing variable.
 */

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** An optional URL setting; empty counts as unset, so `.env` lines may be left blank. */
const urlOr = (fallback: string) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.url().default(fallback));

/**
 * How sure the NSFW classifier must be before a picture is refused (an upload) or blocked (an
 * engine's output); the rule is `isFlagged` in src/server/images/nsfw.ts. Ordinary pictures stay
 * under 0.25 (bench/results/nsfw.md), so 0.7 keeps a wide margin against false refusals.
 */
export const defaultNsfwThreshold = 0.7;

/**
 * One variable per price id (product/plans.ts) and credit pack (product/credit-packs.ts), holding
 * the Stripe price it maps to.
 */
const stripePriceVariableByPriceId = {
  price_basic: 'STRIPE_PRICE_BASIC',
  price_pro: 'STRIPE_PRICE_PRO',
  price_premium: 'STRIPE_PRICE_PREMIUM',
  price_enterprise: 'STRIPE_PRICE_ENTERPRISE',
  price_yearly_premium: 'STRIPE_PRICE_YEARLY_PREMIUM',
} as const satisfies Record<PriceId, string>;
const stripePriceVariableByPackId = {
  pack_200: 'STRIPE_PRICE_PACK_200',
  pack_500: 'STRIPE_PRICE_PACK_500',
  pack_1500: 'STRIPE_PRICE_PACK_1500',
  pack_3000: 'STRIPE_PRICE_PACK_3000',
} as const satisfies Record<CreditPackId, string>;
const stripePriceVariableNames = [
  ...Object.values(stripePriceVariableByPriceId),
  ...Object.values(stripePriceVariableByPackId),
];
const stripePriceVariables = Object.fromEntries(
  stripePriceVariableNames.map((name) => [name, optionalText]),
) as Record<(typeof stripePriceVariableNames)[number], typeof optionalText>;

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: optionalText,
    DATA_DIR: z.string().default('./data'),
    ROLE: z.enum(['all', 'web', 'worker']).default('all'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    DATABASE_URL: optionalText,
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
    AUTH_SECRET: optionalText,
    SESSION_CACHE_SECONDS: z.coerce.number().min(0).default(30),
    TRUSTED_ORIGINS: optionalText,
    TRUST_PROXY: flag,
    RATE_LIMIT_DISABLED: flag,
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).default(3600),
    SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(timings.sseHeartbeatMs),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(1),
    // When set, GET /metrics needs `Authorization: Bearer <token>` (else keep it off the public network).
    METRICS_TOKEN: optionalText,
    // A job whose worker stopped confirming it is alive (killed mid-job) goes to another worker
    // after this many seconds; the supervisor looks every JOB_MONITOR_SECONDS.
    JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(30),
    JOB_MONITOR_SECONDS: z.coerce.number().int().min(1).default(30),
    // Scales every job type's pause before a retry (1 = as declared; never under a second).
    JOB_RETRY_DELAY_FACTOR: z.coerce.number().positive().default(1),
    // How often a training without news is asked about, and when it is given up (and refunded).
    TRAINING_POLL_SECONDS: z.coerce.number().min(1).default(60),
    // Four quick preview pictures from the user's photos when a training starts, with an engine
    // that can make them (decision 039), at the operator's cost; false turns them off.
    TRAINING_PREVIEWS: z
      .enum(['true', 'false', '1', '0', ''])
      .optional()
      .transform((value) => value !== 'false' && value !== '0'),
    // What each paid provider call costs the operator in US dollars, over the defaults in
    // features/costs/prices.ts (decision 037): JSON such as {"fal.picture": 0.03}.
    PROVIDER_PRICES_USD: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (!text) return {};
        try {
          const prices = z
            .record(z.string().regex(/^[a-z]+\.[a-z]+$/), z.number().min(0))
            .safeParse(JSON.parse(text));
          if (prices.success) return prices.data;
        } catch {
          // Not JSON: the same message below.
        }
        ctx.addIssue({
          code: 'custom',
          message:
            'PROVIDER_PRICES_USD must be a JSON object of "engine.kind" to dollars, such as {"fal.picture": 0.03}',
        });
        return z.NEVER;
      }),
    // Images made at once per worker process (the engine's concurrency limit), and how long a
    // started generation may go without news before the sweep reconciles it (decision 016).
    GENERATION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    GENERATION_STALE_MINUTES: z.coerce.number().min(1).default(30),
    // Pictures made again, at the operator's cost, when one does not look enough like the user
    // (issue 17); 0 turns the re-roll off (the likeness refund stays).
    GENERATION_LIKENESS_REROLLS: z.coerce.number().int().min(0).max(3).default(1),
    TRAINING_TIMEOUT_MINUTES: z.coerce.number().min(0.05).default(trainingRules.timeoutMinutes),
    // Lower refuses and blocks more pictures (see defaultNsfwThreshold); above 0, at most 1.
    NSFW_THRESHOLD: z.coerce.number().gt(0).max(1).default(defaultNsfwThreshold),
    // Worker threads for the face and NSFW analysis (decision 031); 0 runs it on the event loop.
    ANALYSIS_THREADS: z.coerce.number().int().min(0).max(16).optional(),
    // Fill an empty catalog with the default content at start. Default: on, except in tests.
    SEED_CONTENT: z.enum(['true', 'false', '1', '0', '']).optional(),
    // Files: `local` disk behind our own signed URLs, or an S3-compatible bucket (AWS S3, R2,
    // MinIO) with presigned URLs. The bucket and its keys are required with `s3`.
    STORAGE: z.enum(['local', 's3']).default('local'),
    S3_BUCKET: optionalText,
    S3_REGION: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().default('us-east-1'),
    ),
    // Unset: AWS S3 itself. R2: https://<account>.r2.cloudflarestorage.com; MinIO: its URL.
    S3_ENDPOINT: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^https?$/ }).optional(),
    ),
    // Address browsers and engines reach the endpoint at, when it differs from S3_ENDPOINT (a
    // bucket behind a proxy); presigned URLs are signed for this host.
    S3_PUBLIC_URL: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^https?$/ }).optional(),
    ),
    // Bucket in the path (`endpoint/bucket/key`) instead of the host name; MinIO needs it.
    S3_FORCE_PATH_STYLE: flag,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    EMAIL_FROM: z.string().default('Likeness <no-reply@likeness.example>'),
    SMTP_URL: optionalText,
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    // Google's own endpoints by default; tests point them at a local fake of the same contract.
    GOOGLE_AUTHORIZATION_URL: urlOr('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: urlOr('https://oauth2.googleapis.com/token'),
    GOOGLE_USERINFO_URL: urlOr('https://openidconnect.googleapis.com/v1/userinfo'),
    // Payments: `local` is the built-in test-mode checkout; `stripe` needs the key, the webhook
    // secret and every price mapped to a Stripe price id (never a price from the browser).
    BILLING: z.enum(['local', 'stripe']).default('local'),
    // The test-mode checkout hands out plans for free; production must opt in to it on purpose (demos).
    ALLOW_TEST_CHECKOUT: flag,
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    // Unset: api.stripe.com. Tests point the SDK at a local fake of the same contract.
    STRIPE_API_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url().optional()),
    ...stripePriceVariables,
    // The image engine: `local` (in-process likeness previews, no GPU) or a GPU service.
    IMAGE_ENGINE: z.enum(['local', 'replicate', 'fal']).default('local'),
    // The local engine's pictures at composition size (512×640) without super-resolution: for
    // development machines and tests that do not look at pictures. Unset: HD (2048×2560).
    LOCAL_ENGINE_DRAFT: flag,
    // Replicate (IMAGE_ENGINE=replicate): token, webhook secret, the pinned trainer version and the
    // account that owns the trained models are required; the URL and trainer have defaults.
    REPLICATE_API_TOKEN: optionalText,
    REPLICATE_WEBHOOK_SECRET: optionalText,
    REPLICATE_BASE_URL: urlOr('https://api.replicate.com/v1'),
    REPLICATE_TRAINER: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
        .default('ostris/flux-dev-lora-trainer'),
    ),
    REPLICATE_TRAINER_VERSION: optionalText,
    REPLICATE_OWNER: optionalText,
    // Provider HD (decision 040): a GPU engine's picture is enlarged to at least 2048 px on its
    // long side by the provider's ESRGAN in the same job; false keeps the engine's own size.
    PROVIDER_HD: z
      .enum(['true', 'false', '1', '0', ''])
      .optional()
      .transform((value) => value !== 'false' && value !== '0'),
    // The upscaler on Replicate (owner/name) and its pinned version (docs/providers.md).
    REPLICATE_UPSCALER: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
        .default('nightmareai/real-esrgan'),
    ),
    REPLICATE_UPSCALER_VERSION: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'must be a version id (64 hexadecimal characters)')
        .default('42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b'),
    ),
    // Training previews on Replicate (decision 041): the zero-shot identity model (owner/name)
    // and its pinned version; made only while TRAINING_PREVIEWS is on.
    REPLICATE_PREVIEWER: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
        .default('bytedance/flux-pulid'),
    ),
    REPLICATE_PREVIEWER_VERSION: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'must be a version id (64 hexadecimal characters)')
        .default('8baa7ef2255075b46f4d91cd238c21d31181b3e6a864463f967960bb0112525b'),
    ),
    // fal (IMAGE_ENGINE=fal): the key is required; the URLs default to fal's own.
    FAL_KEY: optionalText,
    FAL_QUEUE_BASE_URL: urlOr('https://queue.fal.run'),
    FAL_WEBHOOK_JWKS_URL: urlOr('https://rest.alpha.fal.ai/.well-known/jwks.json'),
    // fal's Platform API (deleting a deleted model's LoRA: docs/providers.md).
    FAL_API_BASE_URL: urlOr('https://api.fal.ai/v1'),
    // fal's upscaler endpoint and its ESRGAN weights (`model`), for PROVIDER_HD.
    FAL_UPSCALER: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?$/, 'must be an endpoint id (owner/app[/path])')
        .default('fal-ai/esrgan'),
    ),
    FAL_UPSCALER_MODEL: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .enum([
          'RealESRGAN_x4plus',
          'RealESRGAN_x2plus',
          'RealESRGAN_x4plus_anime_6B',
          'RealESRGAN_x4_v3',
          'RealESRGAN_x4_wdn_v3',
          'RealESRGAN_x4_anime_v3',
        ])
        .default('RealESRGAN_x4plus'),
    ),
    // fal's zero-shot identity endpoint for training previews (decision 041; TRAINING_PREVIEWS).
    FAL_PREVIEWER: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?$/, 'must be an endpoint id (owner/app[/path])')
        .default('fal-ai/flux-pulid'),
    ),
    // The try-on engine: `local` (in-process previews) or `fashn` (FASHN's tryon model; the key is
    // required, the URL defaults to FASHN's and the webhook secret to one derived from AUTH_SECRET).
    TRYON_ENGINE: z.enum(['local', 'fashn']).default('local'),
    FASHN_API_KEY: optionalText,
    FASHN_BASE_URL: urlOr('https://api.fashn.ai'),
    FASHN_WEBHOOK_SECRET: optionalText,
  })
  .superRefine((env, ctx) => {
    const requireWith = (when: boolean, name: keyof typeof env, reason: string) => {
      if (when && !env[name]) {
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required ${reason}` });
      }
    };
    requireWith(env.NODE_ENV === 'production', 'AUTH_SECRET', 'in production');
    requireWith(
      Boolean(env.GOOGLE_CLIENT_ID),
      'GOOGLE_CLIENT_SECRET',
      'when GOOGLE_CLIENT_ID is set',
    );
    requireWith(
      Boolean(env.GOOGLE_CLIENT_SECRET),
      'GOOGLE_CLIENT_ID',
      'when GOOGLE_CLIENT_SECRET is set',
    );
    if (env.NODE_ENV === 'production' && env.BILLING === 'local' && !env.ALLOW_TEST_CHECKOUT) {
      ctx.addIssue({
        code: 'custom',
        path: ['BILLING'],
        message:
          'BILLING=local is the free test-mode checkout; set BILLING=stripe in production (or ALLOW_TEST_CHECKOUT=true for a demo)',
      });
    }
    if (env.BILLING === 'stripe') {
      requireWith(true, 'STRIPE_SECRET_KEY', 'when BILLING=stripe');
      requireWith(true, 'STRIPE_WEBHOOK_SECRET', 'when BILLING=stripe');
      for (const name of stripePriceVariableNames) requireWith(true, name, 'when BILLING=stripe');
      // Webhooks map a Stripe price back to ours; two of ours on one Stripe price would be ambiguous.
      const seen = new Map<string, string>();
      for (const name of stripePriceVariableNames) {
        const value = env[name];
        if (!value) continue;
        const earlier = seen.get(value);
        if (earlier)
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `${name} is the same Stripe price as ${earlier}; each needs its own`,
          });
        seen.set(value, name);
      }
    }
    if (env.IMAGE_ENGINE === 'replicate') {
      for (const name of [
        'REPLICATE_API_TOKEN',
        'REPLICATE_WEBHOOK_SECRET',
        'REPLICATE_TRAINER_VERSION',
        'REPLICATE_OWNER',
      ] as const)
        requireWith(true, name, 'when IMAGE_ENGINE=replicate');
      const secret = env.REPLICATE_WEBHOOK_SECRET;
      if (secret && !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))
        ctx.addIssue({
          code: 'custom',
          path: ['REPLICATE_WEBHOOK_SECRET'],
          message: 'REPLICATE_WEBHOOK_SECRET must be the whsec_... key Replicate gives',
        });
      const version = env.REPLICATE_TRAINER_VERSION;
      if (version && !/^[0-9a-f]{64}$/.test(version))
        ctx.addIssue({
          code: 'custom',
          path: ['REPLICATE_TRAINER_VERSION'],
          message: 'REPLICATE_TRAINER_VERSION must be a version id (64 hexadecimal characters)',
        });
    }
    requireWith(env.IMAGE_ENGINE === 'fal', 'FAL_KEY', 'when IMAGE_ENGINE=fal');
    requireWith(env.TRYON_ENGINE === 'fashn', 'FASHN_API_KEY', 'when TRYON_ENGINE=fashn');
    if (env.STORAGE === 's3') {
      for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
        requireWith(true, name, 'when STORAGE=s3');
      if (env.S3_BUCKET && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(env.S3_BUCKET))
        ctx.addIssue({
          code: 'custom',
          path: ['S3_BUCKET'],
          message:
            'S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots, hyphens)',
        });
      // A presigned URL lives at most 7 days (SigV4's limit).
      if (env.SIGNED_URL_TTL_SECONDS > 604_800)
        ctx.addIssue({
          code: 'custom',
          path: ['SIGNED_URL_TTL_SECONDS'],
          message: 'SIGNED_URL_TTL_SECONDS is at most 604800 (7 days) when STORAGE=s3',
        });
    }
    // The embedded database lives inside one process: a web-only or worker-only process on it
    // would have no partner to share it with (and a web one would wait forever on its jobs).
    if (env.ROLE !== 'all' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['ROLE'],
        message: `ROLE=${env.ROLE} needs DATABASE_URL (a Postgres server shared by the processes); the embedded database runs ROLE=all`,
      });
    }
    if (env.AUTH_SECRET && env.AUTH_SECRET.length < 32) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_SECRET'],
        message: 'AUTH_SECRET must be at least 32 characters',
      });
    }
  });

export type Role = 'all' | 'web' | 'worker';

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  trustedOrigins: string[];
  dataDir: string;
  role: Role;
  logLevel: string;
  database: DatabaseOptions;
  authSecret: string;
  /** How long a process trusts a session it read without reading it again; 0 reads every time. */
  sessionCacheSeconds: number;
  trustProxy: boolean;
  rateLimit: { enabled: boolean; perMinute: number };
  signedUrlTtlSeconds: number;
  sseHeartbeatMs: number;
  shutdownTimeoutMs: number;
  jobPollSeconds: number;
  metricsToken: string | undefined;
  jobs: { heartbeatSeconds: number; monitorSeconds: number; retryDelayFactor: number };
  /** `previews`: quick previews when a training starts (TRAINING_PREVIEWS, decision 039). */
  training: { pollSeconds: number; timeoutMinutes: number; previews: boolean };
  generation: { concurrency: number; staleAfterMinutes: number; likenessRerolls: number };
  /** The operator's prices per provider call over the defaults (PROVIDER_PRICES_USD, decision 037). */
  providerPricesUsd: Record<string, number>;
  /** Uploads and engine outputs the NSFW classifier flags at this threshold are refused or blocked. */
  nsfwThreshold: number;
  /**
   * Worker threads that run the face and NSFW analysis off the event loop (decision 031); 0 runs
   * it on the calling thread. Default: one per core but one, at most two, at least one.
   */
  analysisThreads: number;
  /** Fill an empty catalog (categories, presets, example photos, quiz) with default content at start. */
  seedContent: boolean;
  storage: StorageConfig;
  email: { from: string; smtpUrl: string | undefined; outboxDir: string };
  google: GoogleConfig | undefined;
  billing: BillingConfig;
  engine: EngineConfig;
  tryOn: TryOnConfig;
}

/**
 * `localDir` is where the local driver keeps files. The s3 variant keeps it too (nothing is stored
 * there) so code and tests that look at the local disk compile without narrowing first.
 */
export type StorageConfig =
  { driver: 'local'; localDir: string } | { driver: 's3'; localDir: string; s3: S3Config };

export interface S3Config {
  bucket: string;
  region: string;
  /** Unset: AWS S3 itself. */
  endpoint: string | undefined;
  /** Where presigned URLs point when browsers reach the endpoint at another address. */
  publicBaseUrl: string | undefined;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

export type EngineConfig =
  | { provider: 'local'; draft: boolean }
  | { provider: 'replicate'; replicate: ReplicateConfig }
  | { provider: 'fal'; fal: FalConfig };

export interface ReplicateConfig {
  apiToken: string;
  /** `whsec_...`: verifies webhook signatures. */
  webhookSecret: string;
  /** Up to and including `/v1`, no trailing slash. */
  baseUrl: string;
  /** The trainer model and its pinned version id. */
  trainer: { owner: string; name: string; version: string };
  /** The account that owns the destination models trainings write to. */
  owner: string;
  /** The upscaler model and its pinned version (provider HD); absent when PROVIDER_HD is off. */
  upscaler?: { owner: string; name: string; version: string };
  /** The training previews' model and pinned version; absent when TRAINING_PREVIEWS is off. */
  previewer?: { owner: string; name: string; version: string };
}

export interface FalConfig {
  key: string;
  /** No trailing slash. */
  queueBaseUrl: string;
  webhookJwksUrl: string;
  /** fal's Platform API, e.g. https://api.fal.ai/v1; no trailing slash. */
  apiBaseUrl: string;
  /** The upscaler endpoint and its `model` (provider HD); absent when PROVIDER_HD is off. */
  upscaler?: { endpoint: string; model: string };
  /** The training previews' endpoint; absent when TRAINING_PREVIEWS is off. */
  previewer?: { endpoint: string };
}

export type TryOnConfig = { provider: 'local' } | { provider: 'fashn'; fashn: FashnConfig };

export interface FashnConfig {
  apiKey: string;
  /** e.g. https://api.fashn.ai: the host, without `/v1`, no trailing slash. */
  baseUrl: string;
  /** Keys the tokens in our webhook URLs (FASHN does not sign its webhooks). */
  webhookSecret: string;
}

export type BillingConfig =
  | { provider: 'local'; testClock: boolean }
  | { provider: 'stripe'; testClock: false; stripe: StripeConfig };

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Set only when the SDK must talk to another host than api.stripe.com (a test fake). */
  api: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
  /** Our price ids and pack ids → the Stripe price each one is sold as. */
  prices: Record<PriceId, string>;
  packs: Record<CreditPackId, string>;
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

export class ConfigError extends Error {}

/**
 * The process environment over the variables of `.env` (in the working folder) when that file
 * exists: a variable set in the environment wins, as with Node's --env-file. `.env.example`
 * lists them all.
 */
export function environment(
  envFile = '.env',
  processEnv: Record<string, string | undefined> = process.env,
): Record<string, string | undefined> {
  if (!existsSync(envFile)) return processEnv;
  return { ...parseEnv(readFileSync(envFile, 'utf8')), ...processEnv };
}

export function loadConfig(env: Record<string, string | undefined> = environment()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const localDir = path.join(dataDir, 'storage');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const extraOrigins = (e.TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    trustedOrigins: [
      ...new Set([new URL(publicUrl).origin, ...localOrigins(e.NODE_ENV, e.PORT), ...extraOrigins]),
    ],
    dataDir,
    role: e.ROLE,
    logLevel: e.LOG_LEVEL,
    database: {
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      embeddedDir: path.join(dataDir, 'db'),
    },
    authSecret: e.AUTH_SECRET ?? embeddedSecret(dataDir),
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    trustProxy: e.TRUST_PROXY,
    rateLimit: { enabled: !e.RATE_LIMIT_DISABLED, perMinute: e.RATE_LIMIT_PER_MINUTE },
    signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    jobPollSeconds: e.JOB_POLL_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    jobs: {
      heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS,
      monitorSeconds: e.JOB_MONITOR_SECONDS,
      retryDelayFactor: e.JOB_RETRY_DELAY_FACTOR,
    },
    training: {
      pollSeconds: e.TRAINING_POLL_SECONDS,
      timeoutMinutes: e.TRAINING_TIMEOUT_MINUTES,
      previews: e.TRAINING_PREVIEWS,
    },
    generation: {
      concurrency: e.GENERATION_CONCURRENCY,
      staleAfterMinutes: e.GENERATION_STALE_MINUTES,
      likenessRerolls: e.GENERATION_LIKENESS_REROLLS,
    },
    providerPricesUsd: e.PROVIDER_PRICES_USD,
    nsfwThreshold: e.NSFW_THRESHOLD,
    analysisThreads: e.ANALYSIS_THREADS ?? smallPoolSize(),
    // Seeding makes pictures (seconds of work), so tests ask for it explicitly.
    seedContent: e.SEED_CONTENT
      ? e.SEED_CONTENT === 'true' || e.SEED_CONTENT === '1'
      : e.NODE_ENV !== 'test',
    storage:
      e.STORAGE === 's3'
        ? {
            driver: 's3',
            localDir,
            s3: {
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              endpoint: e.S3_ENDPOINT,
              publicBaseUrl: e.S3_PUBLIC_URL,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              accessKeyId: e.S3_ACCESS_KEY_ID!,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            },
          }
        : { driver: 'local', localDir },
    email: { from: e.EMAIL_FROM, smtpUrl: e.SMTP_URL, outboxDir: path.join(dataDir, 'outbox') },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            authorizationUrl: e.GOOGLE_AUTHORIZATION_URL,
            tokenUrl: e.GOOGLE_TOKEN_URL,
            userInfoUrl: e.GOOGLE_USERINFO_URL,
          }
        : undefined,
    billing: billingConfig(e),
    engine: engineConfig(e),
    tryOn: tryOnConfig(e, () => e.AUTH_SECRET ?? embeddedSecret(dataDir)),
  };
}

function tryOnConfig(e: z.infer<typeof envSchema>, authSecret: () => string): TryOnConfig {
  if (e.TRYON_ENGINE !== 'fashn') return { provider: 'local' };
  return {
    provider: 'fashn',
    fashn: {
      apiKey: e.FASHN_API_KEY!,
      baseUrl: e.FASHN_BASE_URL.replace(/\/+$/, ''),
      // Unset: derived from AUTH_SECRET, so webhook URLs stay valid across restarts.
      webhookSecret:
        e.FASHN_WEBHOOK_SECRET ??
        createHmac('sha256', authSecret())
          .update('likeness:fashn-webhook-token')
          .digest('base64url'),
    },
  };
}

function engineConfig(e: z.infer<typeof envSchema>): EngineConfig {
  const withoutSlash = (url: string) => url.replace(/\/+$/, '');
  if (e.IMAGE_ENGINE === 'replicate') {
    const [owner, name] = e.REPLICATE_TRAINER.split('/') as [string, string];
    return {
      provider: 'replicate',
      replicate: {
        apiToken: e.REPLICATE_API_TOKEN!,
        webhookSecret: e.REPLICATE_WEBHOOK_SECRET!,
        baseUrl: withoutSlash(e.REPLICATE_BASE_URL),
        trainer: { owner, name, version: e.REPLICATE_TRAINER_VERSION! },
        owner: e.REPLICATE_OWNER!,
        ...(e.PROVIDER_HD && { upscaler: upscalerOf(e) }),
        ...(e.TRAINING_PREVIEWS && { previewer: previewerOf(e) }),
      },
    };
  }
  if (e.IMAGE_ENGINE === 'fal')
    return {
      provider: 'fal',
      fal: {
        key: e.FAL_KEY!,
        queueBaseUrl: withoutSlash(e.FAL_QUEUE_BASE_URL),
        webhookJwksUrl: e.FAL_WEBHOOK_JWKS_URL,
        apiBaseUrl: withoutSlash(e.FAL_API_BASE_URL),
        ...(e.PROVIDER_HD && {
          upscaler: { endpoint: e.FAL_UPSCALER, model: e.FAL_UPSCALER_MODEL },
        }),
        ...(e.TRAINING_PREVIEWS && { previewer: { endpoint: e.FAL_PREVIEWER } }),
      },
    };
  return { provider: 'local', draft: e.LOCAL_ENGINE_DRAFT };
}

function upscalerOf(e: z.infer<typeof envSchema>): NonNullable<ReplicateConfig['upscaler']> {
  const [owner, name] = e.REPLICATE_UPSCALER.split('/') as [string, string];
  return { owner, name, version: e.REPLICATE_UPSCALER_VERSION };
}

function previewerOf(e: z.infer<typeof envSchema>): NonNullable<ReplicateConfig['previewer']> {
  const [owner, name] = e.REPLICATE_PREVIEWER.split('/') as [string, string];
  return { owner, name, version: e.REPLICATE_PREVIEWER_VERSION };
}

function billingConfig(e: z.infer<typeof envSchema>): BillingConfig {
  // The test clock (advance a subscription to its renewal) exists only for the local provider,
  // and never in production.
  if (e.BILLING === 'local') return { provider: 'local', testClock: e.NODE_ENV !== 'production' };
  const api = e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : undefined;
  const protocol = api?.protocol === 'http:' ? 'http' : 'https';
  const pick = <K extends string>(variables: Record<K, string>) =>
    Object.fromEntries(
      Object.entries(variables).map(([id, name]) => [id, e[name as keyof typeof e] as string]),
    ) as Record<K, string>;
  return {
    provider: 'stripe',
    testClock: false,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY!,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
      api: api
        ? {
            host: api.hostname,
            port: api.port ? Number(api.port) : protocol === 'http' ? 80 : 443,
            protocol,
          }
        : undefined,
      prices: pick(stripePriceVariableByPriceId),
      packs: pick(stripePriceVariableByPackId),
    },
  };
}

/** Outside production the app may be opened as localhost or 127.0.0.1; both are the same site to us. */
function localOrigins(env: string, port: number): string[] {
  return env === 'production' ? [] : [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

/**
 * Outside production a missing AUTH_SECRET is generated once and kept beside the data, so
 * sessions and signed URLs survive a restart without anyone configuring anything.
 */
function embeddedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secrets', 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
