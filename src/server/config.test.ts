import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
