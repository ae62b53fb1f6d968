import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
    TRUSTED_ORIGINS: optionalText,
    TRUST_PROXY: flag,
    RATE_LIMIT_DISABLED: flag,
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).default(3600),
    SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(25_000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(1),
    STORAGE: z.enum(['local']).default('local'),
    EMAIL_FROM: z.string().default('Likeness <no-reply@likeness.example>'),
    SMTP_URL: optionalText,
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    // Google's own endpoints by default; tests point them at a local fake of the same contract.
    GOOGLE_AUTHORIZATION_URL: urlOr('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: urlOr('https://oauth2.googleapis.com/token'),
    GOOGLE_USERINFO_URL: urlOr('https://openidconnect.googleapis.com/v1/userinfo'),
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
  database: { url: string | undefined; poolSize: number; embeddedDir: string };
  authSecret: string;
  trustProxy: boolean;
  rateLimit: { enabled: boolean; perMinute: number };
  signedUrlTtlSeconds: number;
  sseHeartbeatMs: number;
  shutdownTimeoutMs: number;
  jobPollSeconds: number;
  storage: { driver: 'local'; localDir: string };
  email: { from: string; smtpUrl: string | undefined; outboxDir: string };
  google: GoogleConfig | undefined;
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
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
    trustProxy: e.TRUST_PROXY,
    rateLimit: { enabled: !e.RATE_LIMIT_DISABLED, perMinute: e.RATE_LIMIT_PER_MINUTE },
    signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    jobPollSeconds: e.JOB_POLL_SECONDS,
    storage: { driver: e.STORAGE, localDir: path.join(dataDir, 'storage') },
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
