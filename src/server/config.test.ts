import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, environment, loadConfig } from './config.ts';
import { createStorage } from './adapters/storage/create-storage.ts';
import { LocalStorage } from './adapters/storage/local-storage.ts';
import { S3Storage } from './adapters/storage/s3-storage.ts';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'likeness-config-'));

describe('configuration', () => {
  it('runs offline with no variables at all, on embedded defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.port).toBe(3000);
    expect(config.database.url).toBeUndefined();
    expect(config.role).toBe('all');
    expect(config.email.smtpUrl).toBeUndefined();
    expect(config.google).toBeUndefined();
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('keeps the generated secret across restarts, so sessions survive', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(loadConfig({ DATA_DIR: dir }).authSecret);
  });

  it('refuses to start in production without AUTH_SECRET, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(
      /AUTH_SECRET/,
    );
  });

  it('refuses half a Google configuration, naming the missing variable', () => {
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id', DATA_DIR: dataDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id', DATA_DIR: dataDir() })).toThrow(
      /GOOGLE_CLIENT_SECRET/,
    );
  });

  it('runs web-only and worker-only processes on Postgres only, saying why', () => {
    for (const role of ['web', 'worker'])
      expect(() => loadConfig({ ROLE: role, DATA_DIR: dataDir() })).toThrow(
        `ROLE=${role} needs DATABASE_URL`,
      );
    const postgres = { DATABASE_URL: 'postgres://db.internal/likeness', DATA_DIR: dataDir() };
    expect(loadConfig({ ...postgres, ROLE: 'web' }).role).toBe('web');
    expect(loadConfig({ ...postgres, ROLE: 'worker' }).role).toBe('worker');
  });

  it('rejects a malformed value with a readable message', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dataDir() })).toThrow(/PORT/);
    expect(() => loadConfig({ ROLE: 'both', DATA_DIR: dataDir() })).toThrow(/ROLE/);
  });

  it('trusts the public origin and, outside production, its local aliases', () => {
    const config = loadConfig({
      PORT: '4000',
      DATA_DIR: dataDir(),
      TRUSTED_ORIGINS: 'http://localhost:5173',
    });
    expect(config.trustedOrigins).toEqual([
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://localhost:5173',
    ]);
    const production = loadConfig({
      NODE_ENV: 'production',
      ALLOW_TEST_CHECKOUT: 'true',
      AUTH_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://likeness.example/',
    });
    expect(production.trustedOrigins).toEqual(['https://likeness.example']);
    expect(production.publicUrl).toBe('https://likeness.example');
  });

  it('refuses the free test-mode checkout in production unless a demo opts in', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40), DATA_DIR: dataDir() };
    expect(() => loadConfig(production)).toThrow(/BILLING=local/);
    expect(loadConfig({ ...production, ALLOW_TEST_CHECKOUT: 'true' }).billing.provider).toBe(
      'local',
    );
  });
});

describe('a .env file', () => {
  it('configures the app when present, and the environment overrides it', () => {
    const envFile = path.join(dataDir(), '.env');
    writeFileSync(
      envFile,
      [
        '# copied from .env.example',
        'PORT=4100',
        `DATA_DIR=${dataDir()}`,
        'LOG_LEVEL=debug',
        'PUBLIC_URL=',
      ].join('\n'),
    );
    const config = loadConfig(environment(envFile, { LOG_LEVEL: 'warn' }));
    expect(config.port).toBe(4100);
    expect(config.publicUrl).toBe('http://localhost:4100');
    expect(config.logLevel).toBe('warn');
  });

  it('is optional', () => {
    const processEnv = { PORT: '4200' };
    expect(environment(path.join(dataDir(), '.env'), processEnv)).toBe(processEnv);
  });
});

describe('image engine configuration', () => {
  const version = 'a'.repeat(64);
  const replicate = {
    IMAGE_ENGINE: 'replicate',
    REPLICATE_API_TOKEN: 'r8_token',
    REPLICATE_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    REPLICATE_TRAINER_VERSION: version,
    REPLICATE_OWNER: 'likeness-studio',
  };

  it('is local by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).engine).toEqual({ provider: 'local', draft: false });
  });

  it('reads Replicate with its defaults', () => {
    expect(loadConfig({ ...replicate, DATA_DIR: dataDir() }).engine).toEqual({
      provider: 'replicate',
      replicate: {
        apiToken: 'r8_token',
        webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        baseUrl: 'https://api.replicate.com/v1',
        trainer: { owner: 'ostris', name: 'flux-dev-lora-trainer', version },
        owner: 'likeness-studio',
        upscaler: {
          owner: 'nightmareai',
          name: 'real-esrgan',
          version: '42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b',
        },
        previewer: {
          owner: 'bytedance',
          name: 'flux-pulid',
          version: '8baa7ef2255075b46f4d91cd238c21d31181b3e6a864463f967960bb0112525b',
        },
      },
    });
    const custom = loadConfig({
      ...replicate,
      REPLICATE_BASE_URL: 'http://127.0.0.1:4010/v1/',
      REPLICATE_TRAINER: 'our-org/trainer',
      DATA_DIR: dataDir(),
    }).engine;
    expect(custom).toMatchObject({
      replicate: {
        baseUrl: 'http://127.0.0.1:4010/v1',
        trainer: { owner: 'our-org', name: 'trainer', version },
      },
    });
  });

  it('refuses Replicate without each required variable, naming it', () => {
    for (const name of Object.keys(replicate).filter((key) => key !== 'IMAGE_ENGINE')) {
      const env = { ...replicate, [name]: '', DATA_DIR: dataDir() };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        new RegExp(`${name} is required when IMAGE_ENGINE=replicate`),
      );
    }
  });

  it('refuses a malformed webhook secret, trainer version or trainer', () => {
    const load = (extra: Record<string, string>) => () =>
      loadConfig({ ...replicate, ...extra, DATA_DIR: dataDir() });
    expect(load({ REPLICATE_WEBHOOK_SECRET: 'not-a-secret' })).toThrow(/REPLICATE_WEBHOOK_SECRET/);
    expect(load({ REPLICATE_TRAINER_VERSION: 'latest' })).toThrow(/REPLICATE_TRAINER_VERSION/);
    expect(load({ REPLICATE_TRAINER: 'no-slash' })).toThrow(/REPLICATE_TRAINER/);
    expect(load({ REPLICATE_BASE_URL: 'not a url' })).toThrow(/REPLICATE_BASE_URL/);
  });

  it('reads fal with its defaults and refuses it without FAL_KEY', () => {
    expect(
      loadConfig({ IMAGE_ENGINE: 'fal', FAL_KEY: 'id:secret', DATA_DIR: dataDir() }).engine,
    ).toEqual({
      provider: 'fal',
      fal: {
        key: 'id:secret',
        queueBaseUrl: 'https://queue.fal.run',
        webhookJwksUrl: 'https://rest.alpha.fal.ai/.well-known/jwks.json',
        apiBaseUrl: 'https://api.fal.ai/v1',
        upscaler: { endpoint: 'fal-ai/esrgan', model: 'RealESRGAN_x4plus' },
        previewer: { endpoint: 'fal-ai/flux-pulid' },
      },
    });
    expect(() => loadConfig({ IMAGE_ENGINE: 'fal', DATA_DIR: dataDir() })).toThrow(
      /FAL_KEY is required when IMAGE_ENGINE=fal/,
    );
  });

  it('leaves the engines without an upscaler with PROVIDER_HD=false, and refuses a malformed one', () => {
    const fal = { IMAGE_ENGINE: 'fal', FAL_KEY: 'id:secret', DATA_DIR: dataDir() };
    expect(loadConfig({ ...fal, PROVIDER_HD: 'false' }).engine).not.toHaveProperty('fal.upscaler');
    expect(
      loadConfig({ ...replicate, PROVIDER_HD: '0', DATA_DIR: dataDir() }).engine,
    ).not.toHaveProperty('replicate.upscaler');
    expect(loadConfig({ ...fal, FAL_UPSCALER_MODEL: 'RealESRGAN_x2plus' }).engine).toMatchObject({
      fal: { upscaler: { model: 'RealESRGAN_x2plus' } },
    });
    expect(() => loadConfig({ ...fal, FAL_UPSCALER_MODEL: 'bicubic' })).toThrow(
      /FAL_UPSCALER_MODEL/,
    );
    expect(() =>
      loadConfig({ ...replicate, REPLICATE_UPSCALER_VERSION: 'latest', DATA_DIR: dataDir() }),
    ).toThrow(/REPLICATE_UPSCALER_VERSION/);
  });

  it('leaves the engines without a previewer with TRAINING_PREVIEWS=false, and refuses a malformed one', () => {
    const fal = { IMAGE_ENGINE: 'fal', FAL_KEY: 'id:secret', DATA_DIR: dataDir() };
    expect(loadConfig({ ...fal, TRAINING_PREVIEWS: 'false' }).engine).not.toHaveProperty(
      'fal.previewer',
    );
    expect(
      loadConfig({ ...replicate, TRAINING_PREVIEWS: '0', DATA_DIR: dataDir() }).engine,
    ).not.toHaveProperty('replicate.previewer');
    expect(loadConfig({ ...fal, FAL_PREVIEWER: 'fal-ai/pulid' }).engine).toMatchObject({
      fal: { previewer: { endpoint: 'fal-ai/pulid' } },
    });
    expect(() =>
      loadConfig({ ...replicate, REPLICATE_PREVIEWER_VERSION: 'latest', DATA_DIR: dataDir() }),
    ).toThrow(/REPLICATE_PREVIEWER_VERSION/);
    expect(() =>
      loadConfig({ ...replicate, REPLICATE_PREVIEWER: 'flux-pulid', DATA_DIR: dataDir() }),
    ).toThrow(/REPLICATE_PREVIEWER/);
  });

  it('ignores provider variables for another engine, and refuses an unknown engine', () => {
    expect(loadConfig({ FAL_KEY: 'id:secret', DATA_DIR: dataDir() }).engine.provider).toBe('local');
    expect(() => loadConfig({ IMAGE_ENGINE: 'astria', DATA_DIR: dataDir() })).toThrow(
      /IMAGE_ENGINE/,
    );
  });
});

describe('try-on engine configuration', () => {
  const secret = 'a'.repeat(40);

  it('is local by default, whatever the image engine', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).tryOn).toEqual({ provider: 'local' });
    expect(loadConfig({ FASHN_API_KEY: 'fa-key', DATA_DIR: dataDir() }).tryOn).toEqual({
      provider: 'local',
    });
  });

  it('reads FASHN with its defaults, the webhook secret derived from AUTH_SECRET', () => {
    const config = loadConfig({
      TRYON_ENGINE: 'fashn',
      FASHN_API_KEY: 'fa-key',
      AUTH_SECRET: secret,
      DATA_DIR: dataDir(),
    });
    expect(config.tryOn).toEqual({
      provider: 'fashn',
      fashn: {
        apiKey: 'fa-key',
        baseUrl: 'https://api.fashn.ai',
        webhookSecret: expect.any(String),
      },
    });
    const derived = config.tryOn.provider === 'fashn' ? config.tryOn.fashn.webhookSecret : '';
    // Stable for one AUTH_SECRET, different for another, and never AUTH_SECRET itself.
    const again = loadConfig({
      TRYON_ENGINE: 'fashn',
      FASHN_API_KEY: 'fa-key',
      AUTH_SECRET: secret,
      DATA_DIR: dataDir(),
    }).tryOn;
    const other = loadConfig({
      TRYON_ENGINE: 'fashn',
      FASHN_API_KEY: 'fa-key',
      AUTH_SECRET: 'b'.repeat(40),
      DATA_DIR: dataDir(),
    }).tryOn;
    expect(again).toMatchObject({ fashn: { webhookSecret: derived } });
    expect(other).not.toMatchObject({ fashn: { webhookSecret: derived } });
    expect(derived.length).toBeGreaterThanOrEqual(32);
    expect(derived).not.toContain(secret);
  });

  it('derives the webhook secret from the generated AUTH_SECRET when none is set', () => {
    const dir = dataDir();
    const env = { TRYON_ENGINE: 'fashn', FASHN_API_KEY: 'fa-key', DATA_DIR: dir };
    expect(loadConfig(env).tryOn).toEqual(loadConfig(env).tryOn);
  });

  it('takes an explicit URL and webhook secret', () => {
    expect(
      loadConfig({
        TRYON_ENGINE: 'fashn',
        FASHN_API_KEY: 'fa-key',
        FASHN_BASE_URL: 'http://127.0.0.1:4020/',
        FASHN_WEBHOOK_SECRET: 'our-own-webhook-secret',
        DATA_DIR: dataDir(),
      }).tryOn,
    ).toEqual({
      provider: 'fashn',
      fashn: {
        apiKey: 'fa-key',
        baseUrl: 'http://127.0.0.1:4020',
        webhookSecret: 'our-own-webhook-secret',
      },
    });
  });

  it('refuses FASHN without its key, naming it, and refuses an unknown engine', () => {
    expect(() => loadConfig({ TRYON_ENGINE: 'fashn', DATA_DIR: dataDir() })).toThrow(
      /FASHN_API_KEY is required when TRYON_ENGINE=fashn/,
    );
    expect(() =>
      loadConfig({ TRYON_ENGINE: 'fashn', FASHN_API_KEY: '', DATA_DIR: dataDir() }),
    ).toThrow(/FASHN_API_KEY/);
    expect(() => loadConfig({ TRYON_ENGINE: 'kolors', DATA_DIR: dataDir() })).toThrow(
      /TRYON_ENGINE/,
    );
    expect(() =>
      loadConfig({
        TRYON_ENGINE: 'fashn',
        FASHN_API_KEY: 'fa-key',
        FASHN_BASE_URL: 'not a url',
        DATA_DIR: dataDir(),
      }),
    ).toThrow(/FASHN_BASE_URL/);
  });
});

describe('storage configuration', () => {
  const s3 = {
    STORAGE: 's3',
    S3_BUCKET: 'likeness-files',
    S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-example',
  };

  it('is local disk under the data directory by default', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).storage).toEqual({
      driver: 'local',
      localDir: path.join(dir, 'storage'),
    });
  });

  it('reads an S3 bucket with its defaults: AWS itself, us-east-1, virtual-host style', () => {
    const dir = dataDir();
    expect(loadConfig({ ...s3, DATA_DIR: dir }).storage).toEqual({
      driver: 's3',
      localDir: path.join(dir, 'storage'),
      s3: {
        bucket: 'likeness-files',
        region: 'us-east-1',
        endpoint: undefined,
        publicBaseUrl: undefined,
        forcePathStyle: false,
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret-example',
      },
    });
  });

  it('reads an R2 or MinIO endpoint, path style, region and public address', () => {
    const config = loadConfig({
      ...s3,
      S3_REGION: 'auto',
      S3_ENDPOINT: 'http://minio:9000',
      S3_PUBLIC_URL: 'https://files.likeness.example',
      S3_FORCE_PATH_STYLE: 'true',
      DATA_DIR: dataDir(),
    });
    expect(config.storage).toMatchObject({
      driver: 's3',
      s3: {
        region: 'auto',
        endpoint: 'http://minio:9000',
        publicBaseUrl: 'https://files.likeness.example',
        forcePathStyle: true,
      },
    });
    // Blank lines in .env count as unset.
    expect(
      loadConfig({ ...s3, S3_REGION: '', S3_ENDPOINT: '', S3_PUBLIC_URL: '', DATA_DIR: dataDir() })
        .storage,
    ).toMatchObject({ s3: { region: 'us-east-1', endpoint: undefined, publicBaseUrl: undefined } });
  });

  it('refuses s3 without the bucket or either key, naming each variable', () => {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      expect(() => loadConfig({ ...s3, [name]: '', DATA_DIR: dataDir() }), name).toThrow(
        new RegExp(`${name} is required when STORAGE=s3`),
      );
    }
    expect(() => loadConfig({ STORAGE: 's3', DATA_DIR: dataDir() })).toThrow(
      /S3_BUCKET is required[\s\S]*S3_ACCESS_KEY_ID is required[\s\S]*S3_SECRET_ACCESS_KEY is required/,
    );
  });

  it('refuses a malformed bucket, endpoint or path-style flag, a link life S3 cannot sign, and an unknown driver', () => {
    const refused = (env: Record<string, string>, pattern: RegExp) =>
      expect(() => loadConfig({ ...s3, ...env, DATA_DIR: dataDir() })).toThrow(pattern);
    refused({ S3_BUCKET: 'Not_A_Bucket' }, /S3_BUCKET must be a bucket name/);
    refused({ S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT/);
    refused({ S3_PUBLIC_URL: 'files' }, /S3_PUBLIC_URL/);
    refused({ S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE/);
    refused({ SIGNED_URL_TTL_SECONDS: '604801' }, /SIGNED_URL_TTL_SECONDS is at most 604800/);
    expect(() => loadConfig({ STORAGE: 'gcs', DATA_DIR: dataDir() })).toThrow(/STORAGE/);
    // The s3 variables mean nothing to local storage.
    expect(loadConfig({ S3_BUCKET: 'Not_A_Bucket', DATA_DIR: dataDir() }).storage.driver).toBe(
      'local',
    );
  });

  it('picks the implementation from the driver', () => {
    const dir = dataDir();
    expect(createStorage(loadConfig({ DATA_DIR: dir }))).toBeInstanceOf(LocalStorage);
    expect(
      createStorage(loadConfig({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:9', DATA_DIR: dir })),
    ).toBeInstanceOf(S3Storage);
  });
});
