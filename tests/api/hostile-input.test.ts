import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '../../src/common/api/generation.ts';
import type { UserModel } from '../../src/common/api/studio.ts';
import type { ErrorCode } from '../../src/common/errors.ts';
import { authMessages } from '../../src/common/messages/auth.ts';
import { generationMessages } from '../../src/common/messages/generation.ts';
import { httpMessages } from '../../src/common/messages/http.ts';
import { modelsMessages } from '../../src/common/messages/models.ts';
import { commonMessages } from '../../src/common/messages/shell.ts';
import {
  nameModelMessages,
  uploadMessages,
  validationMessages,
} from '../../src/common/messages/studio.ts';
import { modelName, prompt as promptRules } from '../../src/common/product/limits.ts';
import { photos as photoRules } from '../../src/common/product/photos.ts';
import { user as users } from '../../src/server/db/schema/index.ts';
import { type FakeFashn, startFakeFashn } from '../fakes/fashn-api.ts';
import {
  type FakeReplicate,
  signReplicateWebhook,
  startFakeReplicate,
} from '../fakes/replicate-api.ts';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe-api.ts';
import {
  addPreset,
  type Answer,
  answerOf,
  changes,
  expectErrorShape,
  expectHealthy,
  generationDone,
  multipartBody,
  type Part,
  settle,
  snapshot,
  trainedUser,
} from '../helpers/hostile.ts';
import { apiCaller, photoFixtures } from '../helpers/studio.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { overTenMegabyteJpeg } from '../helpers/uploads.ts';
import { type SignedInUser, uniqueEmail } from '../helpers/users.ts';

/**
 * A corpus of hostile requests against the real app: broken and oversized JSON, prototype
 * pollution, wrong types, huge strings, unicode tricks, SQL and script payloads, foreign,
 * missing, oversized and traversing ids, bad files on every upload, broken multipart, forged
 * and expired file links, forged webhooks, cross-site writes, wrong methods, bad query strings
 * and smuggled prices, credits and user ids. Each one answers a clear 4xx in our error shape
 * (or, where the product accepts the text, stores it verbatim and echoes it back), the server
 * keeps answering, and nothing is written that the case does not name.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Req {
  method?: Method;
  url: string;
  /** Mallory (the default), another user, or `null` for a signed-out visitor. */
  user?: SignedInUser | null;
  json?: unknown;
  /** A raw body (sent as JSON unless `contentType` says otherwise). */
  raw?: string | Buffer;
  contentType?: string;
  form?: Part[];
  headers?: Record<string, string>;
}

interface Case {
  name: string;
  req: () => Req | Promise<Req>;
  /** The answer expected (several when either is right, e.g. 400 or 404 for a NUL in an id). */
  status: number | number[];
  code?: ErrorCode;
  message?: string;
  /** Tables an accepted request may write, and whether it may store files. */
  writes?: readonly string[];
  files?: boolean;
  check?: (answer: Answer) => void | Promise<void>;
  /** Runs before the "before" snapshot. */
  prepare?: () => Promise<void>;
}

// ── The cast ──────────────────────────────────────────────────────────────────────────────────

let app: TestApp;
let api: ReturnType<typeof apiCaller>;
/** Sends the hostile requests: Pro, with a trained model and a finished generation. */
let mallory: SignedInUser;
let malloryModel: UserModel;
let malloryImage: Generation;
/** Owns the foreign ids: Pro, with a trained model and a finished generation. */
let alice: SignedInUser;
let aliceModel: UserModel;
let aliceImage: Generation;
let presetId: string;
let garment: Buffer;

const fixture = (name: string) => readFileSync(photoFixtures.badFile(name));
const bad = {
  truncated: () => fixture('truncated.jpg'),
  notAnImage: () => fixture('not-an-image.jpg'),
  bomb: () => fixture('bomb.png'),
  svg: () => fixture('svg-with-script.svg'),
  huge: overTenMegabyteJpeg,
};
const portrait = () => readFileSync(photoFixtures.personA(2));

const payloads = {
  sqlDrop: "Robert'); DROP TABLE users; --",
  sqlOr: '1 OR 1=1',
  sqlUnion: "' UNION SELECT password FROM account --",
  script: '<script>alert(document.cookie)</script>',
  img: '<img src=x onerror=alert(1)>',
  rtl: 'Mallory\u202Egpj.exe',
  zeroWidth: 'Ma\u200Bll\u200Do\uFEFFry',
  combining: 'Z\u0351\u0352a\u0353lgo',
  emoji: 'Me 👩🏽‍🚀 and 🇺🇦',
  nul: 'Me\u0000; DROP TABLE users',
  loneHigh: 'Me\uD800',
  loneLow: 'Me\uDC00x',
};

/** Tables a new account writes (sign-up's own rows). */
const accountTables = ['user', 'session', 'account', 'profiles', 'subscriptions', 'verification'];
/** Tables an accepted generation writes. */
const generationTables = ['generations', 'credit_ledger', 'subscriptions', 'bulk_jobs'];

// ── Sending ───────────────────────────────────────────────────────────────────────────────────

async function send(target: TestApp, req: Req): Promise<Answer> {
  const who = req.user === null ? undefined : (req.user ?? mallory);
  const headers: Record<string, string> = { origin: target.origin, ...(who?.headers ?? {}) };
  let payload: string | Buffer | undefined;
  if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(req.json);
  } else if (req.raw !== undefined) {
    headers['content-type'] = req.contentType ?? 'application/json';
    payload = req.raw;
  } else if (req.form) {
    const body = multipartBody(req.form);
    headers['content-type'] = body.contentType;
    payload = body.payload;
  }
  Object.assign(headers, req.headers);
  for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
  const response = await target.app!.inject({
    method: req.method ?? (payload === undefined ? 'GET' : 'POST'),
    url: req.url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  return answerOf(response);
}

/** A GET over a real socket, so the path reaches the server exactly as written (no URL clean-up). */
async function rawGet(target: TestApp, pathAndQuery: string): Promise<Answer> {
  const { hostname, port } = new URL(target.url!);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, path: pathAndQuery, method: 'GET' },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve(
            answerOf({
              statusCode: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          ),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function statusesOf(expected: number | number[]): number[] {
  return [expected].flat();
}

/** Apps whose last case did not finish cleanly (it failed, or its work may still be running). */
const unsettled = new Set<TestApp>();

async function runCase(target: TestApp, c: Case, rawPath?: boolean): Promise<void> {
  if (unsettled.has(target)) await settle(target);
  unsettled.add(target);
  await c.prepare?.();
  const before = await snapshot(target);
  const req = await c.req();
  const answer = rawPath ? await rawGet(target, req.url) : await send(target, req);
  const allowed = statusesOf(c.status);
  const where = `${c.name} → ${answer.status} ${answer.body.slice(0, 300)}`;
  // Soft: a wrong answer is reported together with whatever it wrote (checked below).
  expect.soft(allowed, where).toContain(answer.status);
  const expected = allowed.includes(answer.status);
  if (expected && answer.status >= 400) {
    expectErrorShape(answer, answer.status, c.name);
    const error = (answer.json() as { error: { code: string; message: string } }).error;
    if (c.code) expect(error.code, where).toBe(c.code);
    if (c.message) expect(error.message, where).toBe(c.message);
  }
  await expectHealthy(target);
  expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  const accepted = answer.status < 300;
  const after = accepted || c.writes ? await settle(target) : await snapshot(target);
  const written = changes(before, after, { tables: c.writes ?? [], files: c.files ?? false });
  expect.soft(written, `${c.name}: written although it should not be`).toEqual([]);
  if (expected) await c.check?.(answer);
  unsettled.delete(target);
}

/** Cases that wait for validation, training or generation need more than the default. */
const caseTimeout = 180_000;

function json(answer: Answer): Record<string, unknown> {
  return answer.json() as Record<string, unknown>;
}

// ── Setup ─────────────────────────────────────────────────────────────────────────────────────

/** A flat-lay product photo: a red T-shirt on white. */
async function tShirt(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
    <rect width="800" height="800" fill="#ffffff"/>
    <path d="M250 150 L330 110 Q400 160 470 110 L550 150 L680 260 L600 340 L560 300 L560 700 L240 700 L240 300 L200 340 L120 260 Z" fill="#c0392b"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

async function finishedGeneration(user: SignedInUser, model: UserModel): Promise<Generation> {
  const created = await api.call<{ generation: Generation }>(user, 'POST', '/api/generations', {
    userModelId: model.id,
    presetId,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const done = await generationDone(api, user, created.body.generation.id);
  expect(done.status).toBe('complete');
  return done;
}

/** Mallory's draft holds eight passed photos, so refusing a model name cannot be about photos. */
async function fullDraft(): Promise<void> {
  await settle(app);
  const draft = await api.draft(mallory);
  const passed = draft.photos.filter((photo) => photo.status === 'passed').length;
  for (let n = 1; n <= photoRules.min - passed; n += 1) {
    const uploaded = await api.upload(mallory, photoFixtures.personA(n));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  }
  await api.settledDraft(mallory);
  await settle(app);
}

async function credits(user: SignedInUser): Promise<number> {
  return (await api.subscription(user)).credits;
}

beforeAll(async () => {
  app = await createTestApp({ listen: true });
  api = apiCaller(app);
  garment = await tShirt();
  ({ presetId } = await addPreset(app));
  ({ user: alice, model: aliceModel } = await trainedUser(app, api, 'price_pro', 'Alice'));
  aliceImage = await finishedGeneration(alice, aliceModel);
  ({ user: mallory, model: malloryModel } = await trainedUser(app, api, 'price_pro', 'Mallory'));
  malloryImage = await finishedGeneration(mallory, malloryModel);
  // Rows made on first read exist before any case looks.
  for (const url of [
    '/api/studio/photos',
    '/api/studio/draft',
    '/api/studio/settings',
    '/api/studio/models',
    '/api/generations',
    '/api/bulk-jobs',
    '/api/tryons',
    '/api/billing/ledger',
  ])
    await api.call(mallory, 'GET', url);
  await settle(app);
}, 300_000);

afterAll(async () => {
  await app?.stop();
});

// ── The corpus ────────────────────────────────────────────────────────────────────────────────

const draftName = (name: unknown): Req => ({
  method: 'PUT',
  url: '/api/studio/draft',
  json: { name },
});

/** Accepted as text: stored verbatim, echoed verbatim, read back verbatim. */
function echoedDraftName(label: string, name: string): Case {
  return {
    name: `draft name ${label}: stored and echoed verbatim`,
    req: () => draftName(name),
    status: 200,
    writes: ['studio_drafts'],
    check: async (answer) => {
      expect(json(answer).name).toBe(name);
      expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
      expect((await api.call(mallory, 'GET', '/api/studio/draft')).body.name).toBe(name);
    },
  };
}

function customPrompt(prompt: unknown, userModelId?: string): Req {
  return {
    url: '/api/generations/custom',
    json: { userModelId: userModelId ?? malloryModel.id, prompt },
  };
}

function echoedPrompt(label: string, text: string): Case {
  let before = 0;
  return {
    name: `custom prompt ${label}: stored and echoed verbatim, one credit`,
    prepare: async () => {
      before = await credits(mallory);
    },
    req: () => customPrompt(text),
    status: 201,
    writes: generationTables,
    files: true,
    check: async (answer) => {
      const generation = json(answer).generation as Generation;
      expect(generation.promptText).toBe(text);
      const read = await api.call<{ generation: Generation }>(
        mallory,
        'GET',
        `/api/generations/${generation.id}`,
      );
      expect(read.body.generation.promptText).toBe(text);
      expect(await credits(mallory)).toBe(before - 1);
    },
  };
}

const createModel = (body: Record<string, unknown>): Req => ({
  url: '/api/studio/models',
  json: { gender: 'woman', ...body },
});

const jsonCases: Case[] = [
  {
    name: 'malformed JSON',
    req: () => ({ method: 'PUT', url: '/api/studio/draft', raw: '{"name":' }),
    status: 400,
    message: httpMessages.invalidJson,
  },
  {
    name: 'JSON with trailing garbage',
    req: () => ({ method: 'PUT', url: '/api/studio/draft', raw: '{"name":"x"} garbage' }),
    status: 400,
    message: httpMessages.invalidJson,
  },
  {
    name: 'JSON with single quotes',
    req: () => ({ url: '/api/generations/custom', raw: "{'prompt':'x'}" }),
    status: 400,
    message: httpMessages.invalidJson,
  },
  {
    name: 'an empty JSON body',
    req: () => ({ method: 'PUT', url: '/api/studio/draft', raw: '' }),
    status: 400,
    message: httpMessages.emptyBody,
  },
  {
    name: 'a 2 MB JSON body',
    req: () => draftName('x'.repeat(2 * 1024 * 1024)),
    status: 413,
    message: httpMessages.tooLarge,
  },
  {
    name: 'a 2 MB JSON body on an auth route',
    req: () => ({
      url: '/api/auth/sign-in/email',
      user: null,
      json: { email: uniqueEmail(), password: 'x'.repeat(2 * 1024 * 1024) },
    }),
    status: 413,
  },
  {
    name: 'arrays nested 10,000 deep',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/draft',
      raw: `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'objects nested 100,000 deep in an unknown field: ignored',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/draft',
      raw: `{"deep":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    }),
    status: 200,
    writes: ['studio_drafts'],
  },
  {
    name: 'JSON that is a bare string',
    req: () => ({ url: '/api/generations/custom', raw: '"prompt"' }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'JSON as text/plain',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/draft',
      raw: '{"name":"x"}',
      contentType: 'text/plain',
    }),
    status: [400, 415],
  },
  {
    name: 'a form-encoded body where JSON is expected',
    req: () => ({
      url: '/api/generations/custom',
      raw: 'prompt=x',
      contentType: 'application/x-www-form-urlencoded',
    }),
    status: 415,
    message: httpMessages.unsupportedContentType,
  },
];

const pollutionCases: Case[] = [
  {
    name: '__proto__ key in a body',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/draft',
      raw: '{"__proto__":{"polluted":true},"name":"x"}',
    }),
    status: 400,
    message: httpMessages.invalidJson,
  },
  {
    name: 'constructor.prototype keys in a body',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/draft',
      raw: '{"constructor":{"prototype":{"polluted":true}},"name":"x"}',
    }),
    status: 400,
  },
  {
    name: '__proto__ nested deep in a body',
    req: () => ({
      url: '/api/generations/custom',
      raw: '{"prompt":"x","a":{"b":{"__proto__":{"polluted":true}}}}',
    }),
    status: 400,
  },
  {
    name: '__proto__ switching a bulk job kind',
    req: () => ({
      url: '/api/bulk-jobs',
      raw: '{"kind":"custom","prompt":"x","userModelIds":[],"__proto__":{"kind":"presets"}}',
    }),
    status: 400,
  },
  {
    name: '__proto__ with an admin role at sign-up',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      raw: JSON.stringify({
        email: uniqueEmail('proto'),
        password: 'correct-horse-battery',
      }).replace(/}$/, ',"__proto__":{"role":"admin"}}'),
    }),
    status: 400,
  },
  {
    name: '__proto__ and constructor[prototype] in a query string: ignored',
    req: () => ({
      url: '/api/generations?__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__.polluted=1',
    }),
    status: 200,
  },
  {
    name: 'a multipart field named __proto__',
    req: () => ({
      url: '/api/tryons',
      form: [
        { name: '__proto__', value: 'polluted' },
        { name: 'person', file: portrait() },
        { name: 'garment', file: garment },
      ],
    }),
    status: 400,
  },
  {
    name: 'a multipart file named constructor',
    req: () => ({
      url: '/api/studio/photos',
      form: [{ name: 'constructor', file: portrait() }],
    }),
    status: 400,
  },
];

const typeCases: Case[] = [
  { name: 'a number for the draft name', req: () => draftName(5), status: 400 },
  { name: 'an array for the draft name', req: () => draftName(['x']), status: 400 },
  { name: 'an object for the draft name', req: () => draftName({ toString: 'x' }), status: 400 },
  {
    name: 'an unknown gender',
    req: () => ({ method: 'PUT', url: '/api/studio/draft', json: { gender: 'admin' } }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'null for the whole body',
    req: () => ({ method: 'PUT', url: '/api/studio/draft', raw: 'null' }),
    status: 400,
  },
  {
    name: 'an array for the whole body',
    req: () => ({ url: '/api/generations', raw: '[]' }),
    status: 400,
  },
  { name: 'null for the prompt', req: () => customPrompt(null), status: 400 },
  { name: 'a number for the prompt', req: () => customPrompt(42), status: 400 },
  {
    name: 'a string for favourite',
    req: () => ({
      method: 'PUT',
      url: `/api/generations/${malloryImage.id}/favourite`,
      json: { favourite: 'true' },
    }),
    status: 400,
  },
  {
    name: 'a number for favourite',
    req: () => ({
      method: 'PUT',
      url: `/api/generations/${malloryImage.id}/favourite`,
      json: { favourite: 1 },
    }),
    status: 400,
  },
  {
    name: 'a string for the keep-photos setting',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/settings',
      json: { keepTrainingPhotos: 'yes' },
    }),
    status: 400,
  },
  {
    name: 'a string for a list of presets',
    req: () => ({
      url: '/api/bulk-jobs',
      json: { kind: 'presets', userModelId: malloryModel.id, presetIds: presetId },
    }),
    status: 400,
  },
  {
    name: 'an object for a list of models',
    req: () => ({
      url: '/api/bulk-jobs',
      json: { kind: 'custom', prompt: 'x', userModelIds: { 0: malloryModel.id } },
    }),
    status: 400,
  },
  {
    name: 'an unknown bulk kind',
    req: () => ({ url: '/api/bulk-jobs', json: { kind: 'everything', prompt: 'x' } }),
    status: 400,
  },
  {
    name: '201 presets in one bulk job',
    req: () => ({
      url: '/api/bulk-jobs',
      json: {
        kind: 'presets',
        userModelId: malloryModel.id,
        presetIds: Array.from({ length: 201 }, () => presetId),
      },
    }),
    status: 400,
  },
  {
    name: 'a number for a plan',
    req: () => ({ url: '/api/billing/checkout', json: { priceId: 12 } }),
    status: 400,
  },
  {
    name: 'an object for an email at sign-in (NoSQL style)',
    req: () => ({
      url: '/api/auth/sign-in/email',
      user: null,
      json: { email: { $ne: '' }, password: 'x' },
    }),
    status: 400,
  },
];

const sizeCases: Case[] = [
  {
    name: `a prompt of ${promptRules.maxLength + 1} characters`,
    req: () => customPrompt('x'.repeat(promptRules.maxLength + 1)),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'a bulk prompt of 100,000 characters',
    req: () => ({
      url: '/api/bulk-jobs',
      json: { kind: 'custom', prompt: 'x'.repeat(100_000), userModelIds: [malloryModel.id] },
    }),
    status: 400,
  },
  {
    name: 'a draft name of 241 characters',
    req: () => draftName('x'.repeat(modelName.maxLength * 4 + 1)),
    status: 400,
  },
  {
    name: `a model name of ${modelName.maxLength + 1} characters (over the limit)`,
    prepare: fullDraft,
    req: () => createModel({ name: 'x'.repeat(modelName.maxLength + 1) }),
    status: 400,
  },
  {
    name: 'a model name of blanks only',
    prepare: fullDraft,
    req: () => createModel({ name: ' \t\n ' }),
    status: 400,
    message: nameModelMessages.nameRequired,
  },
  {
    name: 'a password of 100,000 characters at sign-up',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      json: { email: uniqueEmail(), password: 'x'.repeat(100_000) },
    }),
    status: 400,
  },
  {
    name: 'a sign-up name of 10,000 characters',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      json: { email: uniqueEmail(), password: 'correct-horse-battery', name: 'x'.repeat(10_000) },
    }),
    status: 400,
  },
];

const unicodeCases: Case[] = [
  echoedDraftName('with a right-to-left override', payloads.rtl),
  echoedDraftName('with zero-width characters', payloads.zeroWidth),
  echoedDraftName('with combining marks', payloads.combining),
  echoedDraftName('with emoji and flags', payloads.emoji),
  {
    name: 'draft name with a NUL byte: refused',
    req: () => draftName(payloads.nul),
    status: 400,
  },
  {
    name: 'draft name with a lone high surrogate: refused (it cannot be stored as written)',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/draft',
      raw: '{"name":"Me\\ud800"}',
    }),
    status: 400,
  },
  {
    name: 'draft name with a lone low surrogate: refused',
    req: () => draftName(payloads.loneLow),
    status: 400,
  },
  echoedPrompt(
    'with RTL override and zero-width characters',
    `${payloads.rtl} ${payloads.zeroWidth}`,
  ),
  echoedPrompt('with emoji', `a portrait, ${payloads.emoji}`),
  {
    name: 'custom prompt with a NUL byte: refused',
    req: () => customPrompt(`a portrait${payloads.nul}`),
    status: 400,
  },
  {
    name: 'custom prompt with a lone surrogate: refused',
    req: () => ({
      url: '/api/generations/custom',
      raw: `{"userModelId":"${malloryModel.id}","prompt":"a portrait \\udfff"}`,
    }),
    status: 400,
  },
  {
    name: 'bulk prompt with a NUL byte: refused',
    req: () => ({
      url: '/api/bulk-jobs',
      json: { kind: 'custom', prompt: payloads.nul, userModelIds: [malloryModel.id] },
    }),
    status: 400,
  },
  {
    name: 'model name with a NUL byte: refused',
    prepare: fullDraft,
    req: () => createModel({ name: payloads.nul }),
    status: 400,
  },
  {
    name: 'model name with a lone surrogate: refused',
    prepare: fullDraft,
    req: () => createModel({ name: payloads.loneHigh }),
    status: 400,
  },
  {
    name: 'sign-up name with a NUL byte: refused with words about the name',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      json: { email: uniqueEmail(), password: 'correct-horse-battery', name: payloads.nul },
    }),
    status: 400,
    check: (answer) => {
      const { message } = (answer.json() as { error: { message: string } }).error;
      expect(message, 'a generic message does not say what is wrong').not.toBe(
        commonMessages.unexpectedError,
      );
    },
  },
  {
    name: 'sign-up name with a lone surrogate: refused',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      raw: `{"email":"${uniqueEmail()}","password":"correct-horse-battery","name":"Me\\ud800"}`,
    }),
    status: 400,
  },
  {
    name: 'an email with a NUL byte at sign-in',
    req: () => ({
      url: '/api/auth/sign-in/email',
      user: null,
      json: { email: `${mallory.email}\u0000`, password: mallory.password },
    }),
    status: 400,
  },
];

const injectionCases: Case[] = [
  echoedDraftName('with a SQL DROP', payloads.sqlDrop),
  echoedDraftName('with 1 OR 1=1', payloads.sqlOr),
  echoedDraftName('with a SQL UNION', payloads.sqlUnion),
  echoedDraftName('with a <script>', payloads.script),
  echoedDraftName('with an <img onerror>', payloads.img),
  echoedPrompt('with SQL and a <script>', `${payloads.sqlDrop} ${payloads.script}`),
  echoedPrompt('with a SQL UNION', payloads.sqlUnion),
  {
    name: 'a model named with SQL and a <script>, and smuggled status, engine, weights and owner: stored verbatim, nothing smuggled honoured',
    prepare: fullDraft,
    req: () =>
      createModel({
        name: `${payloads.sqlDrop} <script>alert(1)</script>`,
        status: 'complete',
        engine: 'replicate',
        weights: 'https://evil.example/lora.safetensors',
        paidWith: 'free-training',
        userId: alice.id,
      }),
    status: 201,
    writes: [
      'user_models',
      'model_previews',
      'training_photos',
      'studio_drafts',
      'profiles',
      'credit_ledger',
      'subscriptions',
    ],
    files: true,
    check: async (answer) => {
      const model = json(answer).model as UserModel;
      expect(model.name).toBe(`${payloads.sqlDrop} <script>alert(1)</script>`);
      expect(model.status).not.toBe('complete');
      expect(model.engine).toBe('local');
      expect((await api.models(mallory)).models.map((m) => m.id)).toContain(model.id);
      expect((await api.models(alice)).models.map((m) => m.id)).not.toContain(model.id);
    },
  },
  {
    name: 'sign-up named with a <script> and SQL: stored verbatim',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      json: {
        email: uniqueEmail('script'),
        password: 'correct-horse-battery',
        name: `${payloads.script} ${payloads.sqlOr}`,
      },
    }),
    status: 200,
    writes: accountTables,
    check: (answer) => {
      expect((json(answer).user as { name: string }).name).toBe(
        `${payloads.script} ${payloads.sqlOr}`,
      );
    },
  },
  {
    name: 'sign-in with a SQL payload for the email',
    req: () => ({
      url: '/api/auth/sign-in/email',
      user: null,
      json: { email: "' OR 1=1 --", password: "' OR '1'='1" },
    }),
    status: 400,
  },
  {
    name: 'sign-in with a SQL payload for the password of a real account',
    req: () => ({
      url: '/api/auth/sign-in/email',
      user: null,
      json: { email: mallory.email, password: "' OR '1'='1' --" },
    }),
    status: 401,
  },
  {
    name: 'a catalog category of SQL',
    req: () => ({ url: `/api/catalog/presets?category=${encodeURIComponent("' OR 1=1 --")}` }),
    status: 404,
  },
];

const uuid = () => randomUUID();

const idCases: Case[] = [
  {
    name: "another user's generation",
    req: () => ({ url: `/api/generations/${aliceImage.id}` }),
    status: 404,
    message: generationMessages.detail.notFound,
  },
  {
    name: "deleting another user's generation",
    req: () => ({ method: 'DELETE', url: `/api/generations/${aliceImage.id}` }),
    status: 404,
  },
  {
    name: "making another user's generation a favourite",
    req: () => ({
      method: 'PUT',
      url: `/api/generations/${aliceImage.id}/favourite`,
      json: { favourite: true },
    }),
    status: 404,
  },
  {
    name: "marking another user's generation viewed",
    req: () => ({ method: 'POST', url: `/api/generations/${aliceImage.id}/viewed` }),
    status: 404,
  },
  {
    name: "deleting another user's model",
    req: () => ({ method: 'DELETE', url: `/api/studio/models/${aliceModel.id}` }),
    status: 404,
    message: modelsMessages.notFound,
  },
  {
    name: "selecting another user's model",
    req: () => ({
      method: 'PUT',
      url: '/api/studio/models/selected',
      json: { modelId: aliceModel.id },
    }),
    status: 404,
  },
  {
    name: "generating with another user's model",
    req: () => ({ url: '/api/generations', json: { userModelId: aliceModel.id, presetId } }),
    status: 404,
  },
  {
    name: "a custom prompt with another user's model",
    req: () => customPrompt('a portrait', aliceModel.id),
    status: 404,
  },
  {
    name: "a bulk job with another user's model",
    req: () => ({
      url: '/api/bulk-jobs',
      json: { kind: 'presets', userModelId: aliceModel.id, presetIds: [presetId] },
    }),
    status: 404,
  },
  {
    name: "a try-on of another user's generation",
    req: () => ({
      url: '/api/tryons',
      form: [
        { name: 'personGenerationId', value: aliceImage.id },
        { name: 'garment', file: garment },
      ],
    }),
    status: 404,
    message: generationMessages.detail.notFound,
  },
  {
    name: 'a generation that does not exist',
    req: () => ({ url: `/api/generations/${uuid()}` }),
    status: 404,
  },
  {
    name: 'a try-on that does not exist',
    req: () => ({ url: `/api/tryons/${uuid()}` }),
    status: 404,
  },
  {
    name: 'a bulk job that does not exist',
    req: () => ({ url: `/api/bulk-jobs/${uuid()}` }),
    status: 404,
  },
  {
    name: 'the zip of a bulk job that does not exist',
    req: () => ({ url: `/api/bulk-jobs/${uuid()}/zip` }),
    status: 404,
  },
  {
    name: 'deleting a photo that does not exist',
    req: () => ({ method: 'DELETE', url: `/api/studio/photos/${uuid()}` }),
    status: 404,
  },
  {
    name: 'a test checkout that does not exist',
    req: () => ({ url: `/api/billing/test-checkout/${uuid()}` }),
    status: 404,
  },
  {
    name: 'an id of 65 characters in a path',
    req: () => ({ url: `/api/generations/${'a'.repeat(65)}` }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'an id of 65 characters in a DELETE',
    req: () => ({ method: 'DELETE', url: `/api/studio/models/${'a'.repeat(65)}` }),
    status: 400,
  },
  {
    name: 'an id of 65 characters in a body',
    req: () => ({ url: '/api/generations', json: { userModelId: 'a'.repeat(65), presetId } }),
    status: 400,
  },
  {
    name: 'an id of 5,000 characters',
    req: () => ({ url: `/api/tryons/${'a'.repeat(5000)}` }),
    status: 400,
  },
  {
    name: 'a path traversal id (../../etc/passwd, encoded)',
    req: () => ({ url: '/api/generations/..%2F..%2Fetc%2Fpasswd' }),
    status: 404,
  },
  {
    name: 'a path traversal id (%2e%2e%2f)',
    req: () => ({ method: 'DELETE', url: '/api/studio/photos/%2e%2e%2f%2e%2e%2fetc' }),
    status: 404,
  },
  {
    name: 'a path traversal id with backslashes',
    req: () => ({ url: '/api/tryons/..%5C..%5Cwindows%5Cwin.ini' }),
    status: 404,
  },
  {
    name: "a SQL id (' OR '1'='1)",
    req: () => ({ url: `/api/generations/${encodeURIComponent("' OR '1'='1")}` }),
    status: 404,
  },
  {
    name: 'a SQL id in a DELETE (1 OR 1=1)',
    req: () => ({ method: 'DELETE', url: `/api/studio/models/${encodeURIComponent('1 OR 1=1')}` }),
    status: 404,
  },
  {
    name: 'a NUL byte in a path id',
    req: () => ({ url: '/api/generations/a%00b' }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a test checkout id',
    req: () => ({ url: '/api/billing/test-checkout/x%00' }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a catalog preset id',
    req: () => ({ url: '/api/catalog/presets/x%00' }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a catalog category',
    req: () => ({ url: '/api/catalog/presets?category=x%00' }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a body id (generation)',
    req: () => ({ url: '/api/generations', json: { userModelId: 'x\u0000', presetId } }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a body id (select model)',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/models/selected',
      json: { modelId: 'x\u0000' },
    }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a body id (bulk models)',
    req: () => ({
      url: '/api/bulk-jobs',
      json: { kind: 'custom', prompt: 'x', userModelIds: ['x\u0000'] },
    }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a checkout session id',
    req: () => ({ url: '/api/billing/verify-credit-purchase', json: { sessionId: 'x\u0000' } }),
    status: [400, 404],
  },
  {
    name: 'a NUL byte in a try-on generation id',
    req: () => ({
      url: '/api/tryons',
      form: [
        { name: 'personGenerationId', value: 'x\u0000' },
        { name: 'garment', file: garment },
      ],
    }),
    status: [400, 404],
  },
  {
    name: 'a malformed percent-encoding in a path',
    req: () => ({ url: '/api/tryons/%E0%A4%A' }),
    status: 400,
    message: httpMessages.invalidAddress,
  },
];

function photoUpload(file: () => Buffer, filename = 'upload.jpg'): () => Req {
  return () => ({ url: '/api/studio/photos', form: [{ name: 'file', file: file(), filename }] });
}

function tryOnWith(part: 'person' | 'garment', file: () => Buffer): () => Req {
  return () => ({
    url: '/api/tryons',
    form: [
      { name: 'person', file: part === 'person' ? file() : portrait() },
      { name: 'garment', file: part === 'garment' ? file() : garment },
    ],
  });
}

const reasons = validationMessages.reasons;
const badFiles: [string, () => Buffer, number, string][] = [
  ['a truncated JPEG', bad.truncated, 400, reasons.unreadable],
  ['text named .jpg', bad.notAnImage, 415, reasons.unsupportedType],
  ['a decompression bomb', bad.bomb, 400, reasons.dimensionsTooLarge],
  ['an SVG with a script', bad.svg, 415, reasons.unsupportedType],
  ['a file over 10 MB', bad.huge, 413, reasons.fileTooLarge],
];

const uploadCases: Case[] = [
  ...badFiles.map(([label, file, status, message]): Case => ({
    name: `training photo: ${label}`,
    req: photoUpload(file),
    status,
    message,
  })),
  ...badFiles.map(([label, file, status, message]): Case => ({
    name: `try-on garment: ${label}`,
    req: tryOnWith('garment', file),
    status,
    message,
  })),
  ...badFiles
    .filter(([label]) => /bomb|SVG|10 MB/.test(label))
    .map(([label, file, status, message]): Case => ({
      name: `try-on person: ${label}`,
      req: tryOnWith('person', file),
      status,
      message,
    })),
  {
    name: 'training photo: an empty file',
    req: photoUpload(() => Buffer.alloc(0)),
    status: 400,
    message: uploadMessages.fileMissing,
  },
  {
    name: 'training photo: the SVG named .svg with its own type',
    req: () => ({
      url: '/api/studio/photos',
      form: [{ name: 'file', file: bad.svg(), filename: 'x.svg', contentType: 'image/svg+xml' }],
    }),
    status: 415,
  },
  {
    name: 'training photo: two files',
    req: () => ({
      url: '/api/studio/photos',
      form: [
        { name: 'file', file: portrait() },
        { name: 'file', file: portrait() },
      ],
    }),
    status: 400,
    message: uploadMessages.oneFileOnly,
  },
  {
    name: 'training photo: the wrong field name',
    req: () => ({ url: '/api/studio/photos', form: [{ name: 'photo', file: portrait() }] }),
    status: 400,
  },
  {
    name: 'training photo: an extra text field',
    req: () => ({
      url: '/api/studio/photos',
      form: [
        { name: 'userId', value: 'someone-else' },
        { name: 'file', file: portrait() },
      ],
    }),
    status: 400,
  },
  {
    name: 'training photo: multipart without a boundary',
    req: () => ({
      url: '/api/studio/photos',
      raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc\r\n--x--\r\n',
      contentType: 'multipart/form-data',
    }),
    status: 400,
  },
  {
    name: 'training photo: a multipart body cut short',
    req: () => ({
      url: '/api/studio/photos',
      raw: Buffer.concat([
        Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n'),
        portrait().subarray(0, 5000),
      ]),
      contentType: 'multipart/form-data; boundary=x',
    }),
    status: 400,
    message: uploadMessages.malformed,
  },
  {
    name: 'training photo: an empty multipart body',
    req: () => ({
      url: '/api/studio/photos',
      raw: '',
      contentType: 'multipart/form-data; boundary=x',
    }),
    status: 400,
  },
  {
    name: 'training photo: JSON instead of a file',
    req: () => ({ url: '/api/studio/photos', json: { file: 'x' } }),
    status: 415,
  },
  {
    name: 'training photo: signed out',
    req: () => ({ ...photoUpload(portrait)(), user: null }),
    status: 401,
  },
  {
    name: 'training photo named ../../etc/passwd with control and bidi characters: stored under a name of ours, shown by its bare name',
    req: photoUpload(
      () => readFileSync(photoFixtures.personA(9)),
      '../../etc/pass\u202Ewd\u0007.jpg',
    ),
    status: 201,
    writes: ['training_photos', 'studio_drafts'],
    files: true,
    check: (answer) => {
      const photo = json(answer).photo as { fileName: string; thumbnailUrl: string };
      expect(photo.fileName).toBe('passwd.jpg');
      expect(photo.thumbnailUrl).toMatch(new RegExp(`^/api/files/users/${mallory.id}/`));
      expect(photo.thumbnailUrl).not.toContain('..');
    },
  },
  {
    name: 'try-on: two person files',
    req: () => ({
      url: '/api/tryons',
      form: [
        { name: 'person', file: portrait() },
        { name: 'person', file: portrait() },
        { name: 'garment', file: garment },
      ],
    }),
    status: 400,
  },
  {
    name: 'try-on: an unknown file field',
    req: () => ({
      url: '/api/tryons',
      form: [
        { name: 'person', file: portrait() },
        { name: 'result', file: garment },
      ],
    }),
    status: 400,
  },
  {
    name: 'try-on: multipart without a boundary',
    req: () => ({
      url: '/api/tryons',
      raw: '--x\r\nContent-Disposition: form-data; name="garment"; filename="a.jpg"\r\n\r\nabc\r\n--x--\r\n',
      contentType: 'multipart/form-data',
    }),
    status: 400,
  },
  {
    name: 'try-on: an id of 5,000 characters for the person',
    req: () => ({
      url: '/api/tryons',
      form: [
        { name: 'personGenerationId', value: 'a'.repeat(5000) },
        { name: 'garment', file: garment },
      ],
    }),
    status: [400, 404],
  },
  {
    name: 'admin picture upload by a non-admin',
    req: () => ({
      url: `/api/admin/presets/${presetId}/images?as=featured`,
      form: [{ name: 'file', file: portrait() }],
    }),
    status: 404,
    message: httpMessages.nothingHere,
  },
  {
    name: 'admin example photo upload (a bomb) by a non-admin',
    req: () => ({
      url: '/api/admin/example-photos?goodOrBad=good',
      form: [{ name: 'file', file: bad.bomb(), filename: 'bomb.png' }],
    }),
    status: 404,
  },
  {
    name: 'admin quiz image upload (an SVG) by a signed-out visitor',
    req: () => ({
      url: '/api/admin/quiz-images?isAi=true',
      user: null,
      form: [{ name: 'file', file: bad.svg(), filename: 'x.svg' }],
    }),
    status: 404,
  },
];

const originCases: Case[] = [
  {
    name: 'a cross-site draft change (Origin evil.example)',
    req: () => ({ ...draftName('pwned'), headers: { origin: 'https://evil.example' } }),
    status: 403,
    message: authMessages.crossSiteRefused,
  },
  {
    name: 'a cross-site generation',
    req: () => ({ ...customPrompt('pwned'), headers: { origin: 'https://evil.example' } }),
    status: 403,
  },
  {
    name: 'a cross-site model deletion',
    req: () => ({
      method: 'DELETE',
      url: `/api/studio/models/${malloryModel.id}`,
      headers: { origin: 'https://evil.example' },
    }),
    status: 403,
  },
  {
    name: 'a cross-site try-on upload',
    req: () => ({
      ...tryOnWith('garment', () => garment)(),
      headers: { origin: 'https://evil.example' },
    }),
    status: 403,
  },
  {
    name: 'a cross-site checkout (Sec-Fetch-Site: cross-site, no Origin)',
    req: () => ({
      url: '/api/billing/checkout',
      json: { priceId: 'price_premium' },
      headers: { origin: '', 'sec-fetch-site': 'cross-site' },
    }),
    status: 403,
  },
  {
    name: 'a write from Origin: null',
    req: () => ({ ...draftName('pwned'), headers: { origin: 'null' } }),
    status: 403,
  },
  {
    name: 'a write from a look-alike origin',
    req: () => ({ ...draftName('pwned'), headers: { origin: `${app.origin}.evil.example` } }),
    status: 403,
  },
  {
    name: 'a cross-site sign-out',
    req: () => ({
      url: '/api/account/sign-out',
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    }),
    status: 403,
  },
  {
    name: 'a cross-site account deletion',
    req: () => ({
      method: 'DELETE',
      url: '/api/account',
      json: { confirm: 'DELETE' },
      headers: { origin: 'https://evil.example' },
    }),
    status: 403,
  },
  {
    name: 'a cross-site sign-up',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      json: { email: uniqueEmail(), password: 'correct-horse-battery' },
      headers: { origin: 'https://evil.example' },
    }),
    status: 403,
  },
];

const routeCases: Case[] = [
  {
    name: 'PATCH on the draft: 405 with Allow',
    req: () => ({ method: 'PATCH', url: '/api/studio/draft', json: { name: 'x' } }),
    status: 405,
    check: (answer) => {
      expect(String(answer.headers.allow)).toMatch(/GET/);
      expect(String(answer.headers.allow)).toMatch(/PUT/);
    },
  },
  {
    name: 'DELETE on the generations list: 405 with Allow',
    req: () => ({ method: 'DELETE', url: '/api/generations' }),
    status: 405,
    check: (answer) => expect(String(answer.headers.allow)).toMatch(/POST/),
  },
  {
    name: 'PUT on a try-on: 405 with Allow',
    req: () => ({ method: 'PUT', url: `/api/tryons/${uuid()}`, json: {} }),
    status: 405,
    check: (answer) => expect(String(answer.headers.allow)).toMatch(/GET/),
  },
  {
    name: 'POST on the settings: 405',
    req: () => ({
      method: 'POST',
      url: '/api/studio/settings',
      json: { keepTrainingPhotos: true },
    }),
    status: 405,
  },
  { name: 'an unknown API route', req: () => ({ url: '/api/nope' }), status: 404 },
  {
    name: 'an unknown API write',
    req: () => ({ url: '/api/studio/nope', json: {} }),
    status: 404,
  },
  {
    name: 'an address below a generation',
    req: () => ({ url: `/api/generations/${malloryImage.id}/x/y` }),
    status: 404,
  },
  {
    name: 'the webhook of a billing provider that is not configured',
    req: () => ({
      url: '/api/billing/webhook',
      user: null,
      raw: '{"type":"checkout.session.completed"}',
    }),
    status: 404,
  },
  {
    name: 'the webhook of a training engine that is not configured',
    req: () => ({
      url: '/api/webhooks/training/replicate',
      user: null,
      raw: '{"id":"x","status":"succeeded"}',
    }),
    status: 404,
  },
  {
    name: 'the webhook of a try-on engine that is not configured',
    req: () => ({ url: '/api/webhooks/tryon/fashn?tryon=x&token=y', user: null, raw: '{}' }),
    status: 404,
  },
];

const queryCases: Case[] = [
  { name: 'limit=-1', req: () => ({ url: '/api/generations?limit=-1' }), status: 400 },
  { name: 'limit=abc', req: () => ({ url: '/api/generations?limit=abc' }), status: 400 },
  { name: 'limit=0', req: () => ({ url: '/api/generations?limit=0' }), status: 400 },
  { name: 'limit=1e9', req: () => ({ url: '/api/generations?limit=1e9' }), status: 400 },
  { name: 'limit=1.5', req: () => ({ url: '/api/generations?limit=1.5' }), status: 400 },
  {
    name: 'limit given twice',
    req: () => ({ url: '/api/generations?limit=1&limit=2' }),
    status: 400,
  },
  {
    name: 'cursor=garbage',
    req: () => ({ url: '/api/generations?cursor=garbage' }),
    status: 400,
    message: generationMessages.invalidCursor,
  },
  {
    name: 'a cursor of 201 characters',
    req: () => ({ url: `/api/generations?cursor=${'a'.repeat(201)}` }),
    status: 400,
  },
  {
    name: 'a well-formed cursor hiding a NUL byte',
    req: () => ({
      url: `/api/generations?cursor=${Buffer.from('2020-01-01T00:00:00Z|x\u0000').toString('base64url')}`,
    }),
    status: 400,
  },
  {
    name: 'a cursor hiding SQL',
    req: () => ({
      url: `/api/generations?cursor=${Buffer.from("2020-01-01T00:00:00Z|' OR 1=1 --").toString('base64url')}`,
    }),
    // Not a position this server ever handed out: refused as such, never run as SQL.
    status: 400,
  },
  { name: 'filter=evil', req: () => ({ url: '/api/generations?filter=evil' }), status: 400 },
  {
    name: 'ledger cursor=abc',
    req: () => ({ url: '/api/billing/ledger?cursor=abc' }),
    status: 400,
  },
  {
    name: 'a ledger cursor past any integer',
    req: () => ({ url: `/api/billing/ledger?cursor=${'9'.repeat(30)}` }),
    status: 400,
  },
  { name: 'ledger limit=101', req: () => ({ url: '/api/billing/ledger?limit=101' }), status: 400 },
  {
    name: 'a test-portal return address on another site',
    req: () => ({ url: '/api/billing/test-portal?return=//evil.example' }),
    status: 400,
    check: (answer) => {
      const { message } = (answer.json() as { error: { message: string } }).error;
      expect(message, 'a regular expression is not words for a user').not.toMatch(
        /\/\^|\$\/|\(\?!/,
      );
    },
  },
];

let aliceCreditsBefore = 0;
let malloryCreditsBefore = 0;

const smuggleCases: Case[] = [
  {
    name: 'a price in a checkout',
    req: () => ({ url: '/api/billing/checkout', json: { priceId: 'price_premium', price: 0 } }),
    status: 400,
    code: 'VALIDATION_ERROR',
  },
  {
    name: 'an amount in a checkout',
    req: () => ({ url: '/api/billing/checkout', json: { priceId: 'price_premium', amount: 1 } }),
    status: 400,
  },
  {
    name: "another user's id in a checkout",
    req: () => ({
      url: '/api/billing/checkout',
      json: { priceId: 'price_premium', userId: alice.id },
    }),
    status: 400,
  },
  {
    name: 'credits in a credit-pack checkout',
    req: () => ({
      url: '/api/billing/credit-checkout',
      json: { packId: 'pack_200', credits: 999_999 },
    }),
    status: 400,
  },
  {
    name: 'a plan that is not for sale',
    req: () => ({ url: '/api/billing/checkout', json: { priceId: 'price_free_forever' } }),
    status: 400,
  },
  {
    name: 'credits in a purchase verification',
    req: () => ({
      url: '/api/billing/verify-credit-purchase',
      json: { sessionId: uuid(), credits: 1500 },
    }),
    status: 400,
  },
  {
    name: 'a price in a plan switch',
    req: () => ({
      url: '/api/billing/test-portal/switch',
      json: { priceId: 'price_premium', amountCents: 0 },
    }),
    status: 400,
  },
  {
    name: 'a return address on another site in a checkout',
    req: () => ({
      url: '/api/billing/checkout',
      json: { priceId: 'price_premium', returnPath: 'https://evil.example/' },
    }),
    status: 400,
  },
  {
    name: "a generation with another user's id, a cost and credits smuggled in: made for the sender, one credit, nothing honoured",
    prepare: async () => {
      aliceCreditsBefore = await credits(alice);
      malloryCreditsBefore = await credits(mallory);
    },
    req: () => ({
      url: '/api/generations',
      json: {
        userModelId: malloryModel.id,
        presetId,
        userId: alice.id,
        cost: 0,
        credits: 1000,
        status: 'complete',
      },
    }),
    status: 201,
    writes: generationTables,
    files: true,
    check: async (answer) => {
      const generation = json(answer).generation as Generation;
      expect(generation.status).toBe('processing');
      expect(await credits(mallory)).toBe(malloryCreditsBefore - 1);
      expect(await credits(alice)).toBe(aliceCreditsBefore);
      expect((await api.call(mallory, 'GET', `/api/generations/${generation.id}`)).status).toBe(
        200,
      );
      expect((await api.call(alice, 'GET', `/api/generations/${generation.id}`)).status).toBe(404);
    },
  },
  {
    name: 'credits and a tier smuggled into the settings: ignored',
    req: () => ({
      method: 'PUT',
      url: '/api/studio/settings',
      json: { keepTrainingPhotos: false, credits: 100_000, tier: 'enterprise', role: 'admin' },
    }),
    status: 200,
    writes: ['studio_drafts'],
    check: (answer) => expect(json(answer)).toEqual({ keepTrainingPhotos: false }),
  },
  {
    name: 'an admin role smuggled into a sign-up: ignored',
    req: () => ({
      url: '/api/auth/sign-up/email',
      user: null,
      json: {
        email: uniqueEmail('role'),
        password: 'correct-horse-battery',
        role: 'admin',
        emailVerified: true,
      },
    }),
    status: [200, 400],
    writes: accountTables,
    check: async (answer) => {
      if (answer.status !== 200) return;
      const id = (json(answer).user as { id: string }).id;
      const [row] = await app.deps.database.db.select().from(users).where(eq(users.id, id));
      expect(row?.role).not.toBe('admin');
      expect(row?.emailVerified).toBe(false);
    },
  },
];

/** Parts of a signed file URL, to tamper with one at a time. */
function signedParts(url: string) {
  const parsed = new URL(url, 'http://localhost');
  return {
    path: parsed.pathname,
    expires: parsed.searchParams.get('expires')!,
    signature: parsed.searchParams.get('signature')!,
  };
}

function flipLast(text: string): string {
  return `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
}

function malloryFile() {
  return signedParts(malloryImage.imageUrl!);
}

const fileCases: Case[] = [
  {
    name: 'a valid signed link (the control: it serves the picture)',
    req: () => ({ url: malloryImage.imageUrl!, user: null }),
    status: 200,
    check: (answer) => expect(String(answer.headers['content-type'])).toBe('image/jpeg'),
  },
  {
    name: 'a signed link with a tampered signature',
    req: () => {
      const { path, expires, signature } = malloryFile();
      return { url: `${path}?expires=${expires}&signature=${flipLast(signature)}`, user: null };
    },
    status: 403,
    message: httpMessages.linkInvalid,
  },
  {
    name: 'a signed link without its signature',
    req: () => {
      const { path, expires } = malloryFile();
      return { url: `${path}?expires=${expires}`, user: null };
    },
    status: 403,
  },
  {
    name: 'a signed link with a later expiry',
    req: () => {
      const { path, expires, signature } = malloryFile();
      return {
        url: `${path}?expires=${Number(expires) + 86_400}&signature=${signature}`,
        user: null,
      };
    },
    status: 403,
    message: httpMessages.linkInvalid,
  },
  {
    name: 'a signed link with a non-numeric expiry',
    req: () => {
      const { path, signature } = malloryFile();
      return { url: `${path}?expires=never&signature=${signature}`, user: null };
    },
    status: 403,
  },
  {
    name: "a signed link with the key changed to another user's file",
    req: () => {
      const { expires, signature } = malloryFile();
      return {
        url: `${signedParts(aliceImage.imageUrl!).path}?expires=${expires}&signature=${signature}`,
        user: null,
      };
    },
    status: 403,
  },
  {
    name: "another user's file with its own expiry and a signature of another file",
    req: () => {
      const theirs = signedParts(aliceImage.imageUrl!);
      return {
        url: `${theirs.path}?expires=${theirs.expires}&signature=${malloryFile().signature}`,
        user: null,
      };
    },
    status: 403,
  },
  {
    name: 'an expired signed link',
    req: async () => {
      const key = decodeURIComponent(malloryFile().path.replace('/api/files/', ''));
      return { url: await app.deps.storage.signedUrl(key, { expiresIn: -60 }), user: null };
    },
    status: 403,
    message: httpMessages.linkExpired,
  },
  {
    name: 'a signed link with the signature given twice',
    req: () => {
      const { path, expires, signature } = malloryFile();
      return {
        url: `${path}?expires=${expires}&signature=${signature}&signature=${signature}`,
        user: null,
      };
    },
    status: 403,
  },
  {
    name: 'a signed link with a download name (header injection) added',
    req: () => {
      const { path, expires, signature } = malloryFile();
      return {
        url: `${path}?expires=${expires}&signature=${signature}&download=${encodeURIComponent('x"\r\nSet-Cookie: a=b')}`,
        user: null,
      };
    },
    status: 403,
  },
  {
    name: 'a signed link to a file that does not exist',
    req: async () => ({
      url: await app.deps.storage.signedUrl(`users/${mallory.id}/generations/${uuid()}.jpg`),
      user: null,
    }),
    status: 404,
  },
  {
    name: 'a signed-looking link that climbs out of the storage folder (encoded)',
    req: () => {
      const { expires, signature } = malloryFile();
      return {
        url: `/api/files/users/${mallory.id}/..%2F..%2F..%2F..%2Fetc%2Fpasswd?expires=${expires}&signature=${signature}`,
        user: null,
      };
    },
    status: [403, 404],
  },
];

const rawPathCases: Case[] = [
  {
    name: 'a file link that climbs with ../ over a real socket',
    req: () => {
      const { expires, signature } = malloryFile();
      return {
        url: `/api/files/users/${mallory.id}/../../../../../../etc/passwd?expires=${expires}&signature=${signature}`,
      };
    },
    status: [400, 403, 404],
  },
  {
    name: 'a file link that climbs with %2e%2e/ over a real socket',
    req: () => ({
      url: '/api/files/%2e%2e/%2e%2e/%2e%2e/etc/passwd?expires=9999999999&signature=x',
    }),
    status: [400, 403, 404],
  },
  {
    name: 'an id that climbs with ../ over a real socket',
    req: () => ({ url: `/api/generations/../../../etc/passwd` }),
    status: [400, 404],
  },
];

// ── Running it ────────────────────────────────────────────────────────────────────────────────

const groups: [string, Case[]][] = [
  ['malformed and oversized JSON', jsonCases],
  ['prototype pollution', pollutionCases],
  ['wrong types', typeCases],
  ['huge strings', sizeCases],
  ['unicode tricks', unicodeCases],
  ['SQL and script payloads', injectionCases],
  ['foreign, missing, oversized and traversing ids', idCases],
  ['bad files and broken multipart on every upload', uploadCases],
  ['cross-site writes', originCases],
  ['wrong methods, unknown routes and absent webhooks', routeCases],
  ['query strings of the wrong type', queryCases],
  ['smuggled prices, credits, roles and user ids', smuggleCases],
  ['forged, expired and climbing file links', fileCases],
];

describe.each(groups)('%s', (_group, cases) => {
  it.each(cases)('$name', (c) => runCase(app, c), caseTimeout);
});

describe('paths exactly as written (over a real socket)', () => {
  it.each(rawPathCases)(
    '$name',
    async (c) => {
      await runCase(app, c, true);
      const answer = await rawGet(app, (await c.req()).url);
      expect(answer.body).not.toMatch(/root:.*:0:0:/);
    },
    caseTimeout,
  );
});

// ── Forged webhooks, against an app wired to Replicate, FASHN and Stripe (their fakes) ─────────

describe('forged webhooks', () => {
  let replicate: FakeReplicate;
  let fashn: FakeFashn;
  let stripe: FakeStripe;
  let remote: TestApp;

  const stripePrices = {
    STRIPE_PRICE_BASIC: { id: 'price_1Basic', unitAmount: 1900, interval: 'month' },
    STRIPE_PRICE_PRO: { id: 'price_1Pro', unitAmount: 4900, interval: 'month' },
    STRIPE_PRICE_PREMIUM: { id: 'price_1Premium', unitAmount: 7900, interval: 'month' },
    STRIPE_PRICE_ENTERPRISE: { id: 'price_1Enterprise', unitAmount: 6900, interval: 'month' },
    STRIPE_PRICE_YEARLY_PREMIUM: { id: 'price_1Yearly', unitAmount: 5900, interval: 'year' },
    STRIPE_PRICE_PACK_200: { id: 'price_1Pack200', unitAmount: 1900 },
    STRIPE_PRICE_PACK_500: { id: 'price_1Pack500', unitAmount: 3900 },
    STRIPE_PRICE_PACK_1500: { id: 'price_1Pack1500', unitAmount: 8900 },
    STRIPE_PRICE_PACK_3000: { id: 'price_1Pack3000', unitAmount: 16900 },
  } as const;

  beforeAll(async () => {
    [replicate, fashn, stripe] = await Promise.all([
      startFakeReplicate(),
      startFakeFashn(),
      startFakeStripe({ prices: Object.values(stripePrices) }),
    ]);
    remote = await createTestApp({
      env: {
        ...replicate.env,
        ...fashn.env,
        ...stripe.env,
        ...Object.fromEntries(
          Object.entries(stripePrices).map(([name, price]) => [name, price.id]),
        ),
      },
    });
    await settle(remote);
  }, 120_000);
  afterAll(async () => {
    await remote?.stop();
    await Promise.all([replicate?.close(), fashn?.close(), stripe?.close()]);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const trainingBody = JSON.stringify({
    id: 'r8-training-that-is-not-ours',
    status: 'succeeded',
    output: { version: 'owner/model:abc' },
  });

  function replicateDelivery(
    body: string,
    sign: { secret?: string; timestamp?: number; signedBody?: string; signature?: string } = {},
  ): Req {
    const id = `msg_${randomBytes(6).toString('hex')}`;
    const timestamp = sign.timestamp ?? now();
    const signature =
      sign.signature ??
      signReplicateWebhook(
        sign.secret ?? replicate.webhookSecret,
        id,
        timestamp,
        sign.signedBody ?? body,
      );
    return {
      url: '/api/webhooks/training/replicate',
      user: null,
      raw: body,
      headers: {
        origin: '',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
    };
  }

  function stripeDelivery(body: string, secret: string, timestamp = now()): Req {
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    return {
      url: '/api/billing/webhook',
      user: null,
      raw: body,
      headers: { origin: '', 'stripe-signature': `t=${timestamp},v1=${signature}` },
    };
  }

  const stripeEvent = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type: 'invoice.paid',
    data: {
      object: { id: 'in_forged', object: 'invoice', customer: 'cus_forged', amount_paid: 0 },
    },
  });

  const webhookCases: Case[] = [
    {
      name: 'Replicate: no signature headers',
      req: () => ({ url: '/api/webhooks/training/replicate', user: null, raw: trainingBody }),
      status: 401,
      message: httpMessages.webhookNotVerified,
    },
    {
      name: 'Replicate: a signature that is not one',
      req: () => replicateDelivery(trainingBody, { signature: 'v1,bm90IGEgc2lnbmF0dXJl' }),
      status: 401,
    },
    {
      name: 'Replicate: signed with another secret',
      req: () =>
        replicateDelivery(trainingBody, { secret: `whsec_${randomBytes(24).toString('base64')}` }),
      status: 401,
    },
    {
      name: 'Replicate: correctly signed but an hour old (replay)',
      req: () => replicateDelivery(trainingBody, { timestamp: now() - 3600 }),
      status: 401,
    },
    {
      name: 'Replicate: correctly signed, then the body changed',
      req: () =>
        replicateDelivery(trainingBody.replace('succeeded', 'failed'), {
          signedBody: trainingBody,
        }),
      status: 401,
    },
    {
      name: 'Replicate: correctly signed malformed JSON',
      req: () => replicateDelivery('{"id":'),
      status: 401,
    },
    {
      name: 'Replicate: correctly signed news of a training that is not ours: received, nothing changes',
      req: () => replicateDelivery(trainingBody),
      status: 200,
    },
    {
      name: 'Replicate: a 2 MB delivery',
      req: () => replicateDelivery(JSON.stringify({ id: 'x', logs: 'x'.repeat(2 * 1024 * 1024) })),
      status: 413,
    },
    {
      name: 'fal: the webhook of an engine that is not configured',
      req: () => ({ url: '/api/webhooks/training/fal', user: null, raw: trainingBody }),
      status: 404,
    },
    {
      name: 'FASHN: no token',
      req: () => ({ url: `/api/webhooks/tryon/fashn?tryon=${uuid()}`, user: null, raw: '{}' }),
      status: 401,
      message: httpMessages.webhookNotVerified,
    },
    {
      name: 'FASHN: a forged token',
      req: () => ({
        url: `/api/webhooks/tryon/fashn?tryon=${uuid()}&token=forged`,
        user: null,
        raw: '{"status":"completed"}',
      }),
      status: 401,
    },
    {
      name: "FASHN: another try-on's token",
      req: () => {
        const secret =
          remote.config.tryOn.provider === 'fashn' ? remote.config.tryOn.fashn.webhookSecret : '';
        const token = createHmac('sha256', secret).update('another-try-on').digest('base64url');
        return {
          url: `/api/webhooks/tryon/fashn?tryon=${uuid()}&token=${token}`,
          user: null,
          raw: '{"status":"completed"}',
        };
      },
      status: 401,
    },
    {
      name: 'FASHN: the token given twice',
      req: () => ({
        url: `/api/webhooks/tryon/fashn?tryon=x&token=a&token=b`,
        user: null,
        raw: '{}',
      }),
      status: 401,
    },
    {
      name: 'Stripe: no signature',
      req: () => ({
        url: '/api/billing/webhook',
        user: null,
        raw: stripeEvent,
        headers: { origin: '' },
      }),
      status: 400,
    },
    {
      name: 'Stripe: a garbage signature',
      req: () => ({
        url: '/api/billing/webhook',
        user: null,
        raw: stripeEvent,
        headers: { origin: '', 'stripe-signature': 't=1,v1=deadbeef' },
      }),
      status: 400,
    },
    {
      name: 'Stripe: signed with another secret',
      req: () => stripeDelivery(stripeEvent, `whsec_${randomBytes(16).toString('hex')}`),
      status: 400,
    },
    {
      name: 'Stripe: correctly signed but an hour old (replay)',
      req: () => stripeDelivery(stripeEvent, stripe.env.STRIPE_WEBHOOK_SECRET!, now() - 3600),
      status: 400,
    },
    {
      name: 'Stripe: correctly signed, then the body changed',
      req: () => {
        const signed = stripeDelivery(stripeEvent, stripe.env.STRIPE_WEBHOOK_SECRET!);
        return { ...signed, raw: stripeEvent.replace('"amount_paid":0', '"amount_paid":1') };
      },
      status: 400,
    },
  ];

  it.each(webhookCases)('$name', (c) => runCase(remote, c), caseTimeout);
});
