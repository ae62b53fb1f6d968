import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { getTableName, inArray, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { expect } from 'vitest';
import type { Generation } from '../../src/common/api/generation.ts';
import type { UserModel } from '../../src/common/api/studio.ts';
import { errorCodes } from '../../src/common/errors.ts';
import { photos as photoRules } from '../../src/common/product/photos.ts';
import { storeImage } from '../../src/server/features/catalog/images.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import { apiCaller, fixturePhoto, photoFixtures, waitFor } from './studio.ts';
import type { TestApp } from './test-app.ts';
import { signUp, type SignedInUser } from './users.ts';

/**
 * Helpers for the hostile-input corpus and the cross-user matrix: what the database and the
 * storage folder hold (to prove a refused request wrote nothing), the error shape, users with a
 * trained model, presets to generate from, and multipart bodies of any shape.
 */

type Api = ReturnType<typeof apiCaller>;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: () => unknown;
}

// ── What was written ──────────────────────────────────────────────────────────────────────────

/** Tables that change without any request of ours (bookkeeping), left out of snapshots. */
const notUserData = new Set(['rate_limit_buckets']);

export const dataTables: PgTable[] = (Object.values(schema) as unknown[]).filter(
  (value): value is PgTable => is(value, PgTable) && !notUserData.has(getTableName(value)),
);

export interface Snapshot {
  /** Per table: its row count and a digest of every row (so an UPDATE shows too). */
  tables: Record<string, { rows: number; digest: string }>;
  /** Every file under the storage folder, with its size. */
  files: string[];
}

export async function snapshot(app: TestApp): Promise<Snapshot> {
  // One round trip: per table, its row count and an md5 of its rows as text in a stable order.
  const parts = dataTables.map((table) => {
    const name = getTableName(table);
    return sql`select ${name} as name, count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${table} t`;
  });
  const result = (await app.deps.database.db.execute(
    sql.join(parts, sql` union all `),
  )) as unknown as {
    rows: { name: string; rows: number; digest: string }[];
  };
  const tables: Snapshot['tables'] = {};
  for (const row of result.rows) tables[row.name] = { rows: Number(row.rows), digest: row.digest };
  return { tables, files: storedFiles(app) };
}

/** Files under the app's storage folder (relative paths with sizes), sorted. */
export function storedFiles(app: TestApp): string[] {
  const root = app.config.storage.localDir;
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return `${path.relative(root, full)} (${statSync(full).size})`;
    })
    .sort();
}

/**
 * What changed between two snapshots, in words ("generations: 3 → 4 rows"), leaving out the
 * tables a case is allowed to write (and the files, when it may store some).
 */
export function changes(
  before: Snapshot,
  after: Snapshot,
  allowed: { tables?: readonly string[]; files?: boolean } = {},
): string[] {
  const found: string[] = [];
  for (const [name, was] of Object.entries(before.tables)) {
    if (allowed.tables?.includes(name)) continue;
    const now = after.tables[name];
    if (!now) found.push(`${name}: gone`);
    else if (now.rows !== was.rows) found.push(`${name}: ${was.rows} → ${now.rows} rows`);
    else if (now.digest !== was.digest) found.push(`${name}: a row changed`);
  }
  if (!allowed.files) {
    const added = after.files.filter((file) => !before.files.includes(file));
    const removed = before.files.filter((file) => !after.files.includes(file));
    if (added.length) found.push(`files added: ${added.join(', ')}`);
    if (removed.length) found.push(`files removed: ${removed.join(', ')}`);
  }
  return found;
}

/** Waits until nothing is in progress (photos, trainings, generations, try-ons) and the data holds still. */
export async function settle(app: TestApp, timeoutMs = 90_000): Promise<Snapshot> {
  const db = app.deps.database.db;
  await waitFor(
    async () => {
      const busy = await Promise.all([
        db
          .select({ id: schema.trainingPhotos.id })
          .from(schema.trainingPhotos)
          .where(inArray(schema.trainingPhotos.status, ['pending'])),
        db
          .select({ id: schema.userModels.id })
          .from(schema.userModels)
          .where(inArray(schema.userModels.status, ['pending', 'training'])),
        db
          .select({ id: schema.generations.id })
          .from(schema.generations)
          .where(inArray(schema.generations.status, ['processing'])),
        db
          .select({ id: schema.tryOns.id })
          .from(schema.tryOns)
          .where(inArray(schema.tryOns.status, ['processing'])),
      ]);
      // Jobs due now (file deletions, clean-ups) count as work in progress too.
      const jobs = (await db.execute(
        sql`select count(*)::int as count from pgboss.job
            where state in ('created', 'retry', 'active') and start_after <= now()`,
      )) as unknown as { rows: { count: number }[] };
      return busy.flat().length + Number(jobs.rows[0]?.count ?? 0);
    },
    (count) => count === 0,
    timeoutMs,
  );
  // Follow-up work (previews, privacy clean-up, counters) may still land: wait for a quiet moment.
  let previous = await snapshot(app);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    const current = await snapshot(app);
    if (changes(previous, current).length === 0) return current;
    if (Date.now() > deadline)
      throw new Error(`still changing: ${changes(previous, current).join('; ')}`);
    previous = current;
  }
}

// ── Answers ───────────────────────────────────────────────────────────────────────────────────

/** Words a user can read: not a stack, not a driver's or a framework's internals. */
export function expectReadableMessage(message: unknown, context = ''): void {
  expect(typeof message, context).toBe('string');
  const text = message as string;
  expect(text.length, context).toBeGreaterThan(0);
  expect(text.length, context).toBeLessThanOrEqual(300);
  expect(text, context).not.toMatch(
    /internal|exception|stack|\n|\bat \S+:\d+|\.ts:\d+|sql|postgres|pglite|relation "|ECONN|\[object|FST_|undefined/i,
  );
}

/** Our error shape `{ error: { code, message } }` with a known code and readable words. */
export function expectErrorShape(answer: Answer, status: number, context = ''): void {
  const where = `${context} → ${answer.status} ${answer.body.slice(0, 300)}`;
  expect(answer.status, where).toBe(status);
  expect(String(answer.headers['content-type']), where).toMatch(/^application\/json/);
  const body = answer.json() as { error?: { code?: unknown; message?: unknown } };
  expect(Object.keys(body), where).toEqual(['error']);
  expect(Object.keys(body.error ?? {}).sort(), where).toEqual(['code', 'message']);
  expect(errorCodes, where).toContain(body.error!.code);
  expect(body.error!.code, where).not.toBe('INTERNAL');
  expectReadableMessage(body.error!.message, where);
}

export async function expectHealthy(app: TestApp): Promise<void> {
  const health = await app.app!.inject({ method: 'GET', url: '/healthz' });
  expect(health.statusCode, `healthz: ${health.body}`).toBe(200);
}

export function answerOf(response: {
  statusCode: number;
  headers: Answer['headers'];
  body: string;
}): Answer {
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
    json: () => JSON.parse(response.body) as unknown,
  };
}

// ── Bodies ────────────────────────────────────────────────────────────────────────────────────

export interface Part {
  name: string;
  /** A file part (with a filename) when set, else a text field. */
  file?: Buffer;
  filename?: string;
  contentType?: string;
  value?: string;
}

/** A multipart/form-data body of any parts, as a browser's FormData (or a forger) would send it. */
export function multipartBody(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----likeness${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.file
      ? `form-data; name="${part.name}"; filename="${part.filename ?? `${part.name}.jpg`}"\r\nContent-Type: ${part.contentType ?? 'image/jpeg'}`
      : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(part.file ?? Buffer.from(part.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

// ── Users and content ─────────────────────────────────────────────────────────────────────────

/** A user on a plan with eight validated photos of person A and a model trained by the local engine. */
export async function trainedUser(
  app: TestApp,
  api: Api,
  priceId: 'price_pro' | 'price_basic' | 'price_premium' = 'price_pro',
  name = 'Me',
): Promise<{ user: SignedInUser; model: UserModel }> {
  const user = await signUp(app);
  await api.buyPlan(user, priceId);
  for (let n = 1; n <= photoRules.min; n += 1) {
    const uploaded = await api.upload(user, photoFixtures.personA(n));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  }
  await api.settledDraft(user);
  const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
    name,
    gender: 'woman',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const model = await api.modelWhen(
    user,
    created.body.model.id,
    (m) => m.status !== 'pending' && m.status !== 'training',
    90_000,
  );
  expect(model.status, JSON.stringify(model)).toBe('complete');
  return { user, model };
}

/** A category and a preset with a real portrait (generation needs one), inserted as an operator would. */
export async function addPreset(app: TestApp): Promise<{ categoryId: string; presetId: string }> {
  const db = app.deps.database.db;
  await db
    .insert(schema.categories)
    .values({ manualId: 'portraits', displayName: 'Portraits', orderIndex: 0 });
  const image = await storeImage(app.deps.storage, ['presets', 'hopper'], {
    bytes: readFileSync(fixturePhoto('real-portraits', 'hopper.jpg')),
  });
  await db.insert(schema.presets).values({
    id: 'preset-hopper',
    manualId: 'portrait-hopper',
    categoryId: 'portraits',
    displayName: 'Portrait',
    description: 'An official portrait, studio light',
    prompt: 'official portrait photo of {trigger}, studio light',
    featuredImage: image,
    orderIndex: 0,
  });
  return { categoryId: 'portraits', presetId: 'preset-hopper' };
}

/** Waits for a generation to finish (complete or failed) and answers it. */
export async function generationDone(
  api: Api,
  user: SignedInUser,
  id: string,
): Promise<Generation> {
  return (
    await waitFor(
      () => api.call<{ generation: Generation }>(user, 'GET', `/api/generations/${id}`),
      (response) => response.body.generation?.status !== 'processing',
      90_000,
    )
  ).body.generation;
}
