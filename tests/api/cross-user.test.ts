import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkJob, Generation } from '../../src/common/api/generation.ts';
import type { TryOn } from '../../src/common/api/tryon.ts';
import type { UserModel } from '../../src/common/api/studio.ts';
import { setRole } from '../../src/server/features/admin/roles.ts';
import {
  addPreset,
  answerOf,
  changes,
  expectErrorShape,
  generationDone,
  multipartBody,
  settle,
  snapshot,
  trainedUser,
} from '../helpers/hostile.ts';
import { apiCaller, photoFixtures } from '../helpers/studio.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signUp, type SignedInUser } from '../helpers/users.ts';

/**
 * The cross-user matrix, built from the OpenAPI document the running app serves: every route
 * that takes the id of something a user owns (in its path or its body), called by another user
 * with a real id of the owner's, answers 404 in our error shape and changes nothing; the owner
 * reaches the same routes (so the 404s are about ownership, not a broken route). The admin API
 * does not exist for anyone but an admin. A route with an id that this file does not know fails
 * the test, so none can be added without being covered.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Kind = 'photo' | 'model' | 'generation' | 'bulkJob' | 'tryOn' | 'checkout';

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
}

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: JsonSchema }>;
  };
}

interface OpenApiDocument {
  paths: Record<string, Partial<Record<Lowercase<Method>, Operation>>>;
}

/** The user-owned resource each path parameter names. */
const pathKinds: [RegExp, Kind][] = [
  [/^\/api\/studio\/photos\/\{photoId\}/, 'photo'],
  [/^\/api\/studio\/models\/\{modelId\}/, 'model'],
  [/^\/api\/generations\/\{id\}/, 'generation'],
  [/^\/api\/bulk-jobs\/\{id\}/, 'bulkJob'],
  [/^\/api\/tryons\/\{id\}/, 'tryOn'],
  [/^\/api\/billing\/test-checkout\/\{id\}/, 'checkout'],
];

/** Paths with a parameter that is not a user's resource, and why. */
const notOwned: [RegExp, string][] = [
  [/^\/api\/catalog\//, 'public catalog content: the same for everyone'],
  [/^\/api\/auth\/callback\/\{providerId\}$/, 'a sign-in provider name, not a resource'],
  [/^\/api\/auth\/reset-password\/\{token\}$/, 'a secret reset token, not an id'],
];

/** Body fields that carry the id of something a user owns. */
const ownedBodyFields: Record<string, Kind> = {
  userModelId: 'model',
  userModelIds: 'model',
  modelId: 'model',
  sessionId: 'checkout',
};
/** Body fields with ids of public things (catalog, products): anyone may name them. */
const publicBodyFields = new Set(['presetId', 'presetIds', 'categoryId', 'priceId', 'packId']);

/** Every id-taking route under these prefixes must be covered by the matrix. */
const ownedPrefixes = ['/api/studio', '/api/generations', '/api/bulk-jobs', '/api/tryons'];

interface Row {
  method: Method;
  /** The OpenAPI path, e.g. /api/generations/{id}. */
  path: string;
  kind: Kind;
  /** Where the foreign id goes. */
  where: 'path' | `body.${string}`;
  /** A valid body (with the id to test in place), or undefined. */
  body?: (id: string) => unknown;
  multipart?: (id: string) => { payload: Buffer; contentType: string };
}

let app: TestApp;
let api: ReturnType<typeof apiCaller>;
let doc: OpenApiDocument;
let owner: SignedInUser;
let stranger: SignedInUser;
let ownerModel: UserModel;
let presetId: string;
let categoryId: string;
let garment: Buffer;
const owned: Partial<Record<Exclude<Kind, 'checkout'>, string>> = {};
let rows: Row[] = [];
const excluded: string[] = [];
const unknownRoutes: string[] = [];
const unclassifiedFields: string[] = [];

/** A flat-lay product photo: a red T-shirt on white. */
async function tShirt(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
    <rect width="800" height="800" fill="#ffffff"/>
    <path d="M250 150 L330 110 Q400 160 470 110 L550 150 L680 260 L600 340 L560 300 L560 700 L240 700 L240 300 L200 340 L120 260 Z" fill="#c0392b"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** A new open checkout (a credit pack) of the owner's: pay and cancel each need their own. */
async function ownerCheckout(): Promise<string> {
  const started = await api.call<{ url: string }>(owner, 'POST', '/api/billing/credit-checkout', {
    packId: 'pack_200',
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return decodeURIComponent(/\/test-checkout\/([^/?]+)$/.exec(started.body.url)![1]!);
}

async function idOf(kind: Kind): Promise<string> {
  return kind === 'checkout' ? ownerCheckout() : owned[kind]!;
}

/** A value that satisfies a (zod-made) JSON schema, with ids and words that make sense here. */
function exampleOf(
  schema: JsonSchema,
  field: string,
  id: string,
  idField: string | undefined,
): unknown {
  if (idField !== undefined && field === idField) return schema.type === 'array' ? [id] : id;
  const known: Record<string, unknown> = {
    presetId,
    presetIds: [presetId],
    categoryId,
    userModelId: ownerModel.id,
    userModelIds: [ownerModel.id],
    modelId: ownerModel.id,
    prompt: 'a portrait in a garden, soft light',
    favourite: true,
  };
  if (field in known) return known[field];
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return 1;
    case 'array':
      return schema.items ? [exampleOf(schema.items, `${field}[]`, id, idField)] : [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [
          name,
          exampleOf(property, name, id, idField),
        ]),
      );
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** The alternatives of a body schema (a discriminated union gives one per branch). */
function alternatives(schema: JsonSchema): JsonSchema[] {
  return schema.oneOf ?? schema.anyOf ?? [schema];
}

function bodySchema(operation: Operation): JsonSchema | undefined {
  return operation.requestBody?.content?.['application/json']?.schema;
}

/** Builds the matrix from the document: path ids, then body ids. */
function buildMatrix(document: OpenApiDocument): Row[] {
  const matrix: Row[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    if (path.startsWith('/api/admin')) continue;
    for (const [lower, operation] of Object.entries(operations) as [
      Lowercase<Method>,
      Operation,
    ][]) {
      const method = lower.toUpperCase() as Method;
      const schema = bodySchema(operation);
      if (path.includes('{')) {
        const kind = pathKinds.find(([pattern]) => pattern.test(path))?.[1];
        const reason = notOwned.find(([pattern]) => pattern.test(path))?.[1];
        if (reason) {
          excluded.push(`${method} ${path}: ${reason}`);
        } else if (!kind) {
          unknownRoutes.push(`${method} ${path}`);
        } else {
          matrix.push({
            method,
            path,
            kind,
            where: 'path',
            ...(schema ? { body: (id: string) => exampleOf(schema, '', id, undefined) } : {}),
          });
        }
      }
      // Ids in the body: each field that names something a user owns gets its own row.
      for (const alternative of schema ? alternatives(schema) : []) {
        for (const field of Object.keys(alternative.properties ?? {})) {
          if (!/Ids?$/.test(field)) continue;
          const kind = ownedBodyFields[field];
          if (!kind) {
            if (!publicBodyFields.has(field))
              unclassifiedFields.push(`${method} ${path}: ${field}`);
            continue;
          }
          matrix.push({
            method,
            path,
            kind,
            where: `body.${field}`,
            body: (id: string) => exampleOf(alternative, '', id, field),
          });
        }
      }
      // Multipart bodies are not described field by field in the document: listed by hand.
      if (method === 'POST' && path === '/api/tryons') {
        matrix.push({
          method,
          path,
          kind: 'generation',
          where: 'body.personGenerationId',
          multipart: (id: string) =>
            multipartBody([
              { name: 'personGenerationId', value: id },
              { name: 'garment', file: garment },
            ]),
        });
      }
    }
  }
  return matrix;
}

function label(row: Row): string {
  return `${row.method} ${row.path} (${row.where} = ${row.kind})`;
}

async function send(user: SignedInUser | undefined, row: Row, id: string) {
  const url = row.path.replace(/\{[^}]+\}/g, row.where === 'path' ? encodeURIComponent(id) : 'x');
  const form = row.multipart?.(id);
  const body = row.body?.(id);
  const response = await app.app!.inject({
    method: row.method,
    url,
    headers: {
      origin: app.origin,
      ...(user?.headers ?? {}),
      ...(form ? { 'content-type': form.contentType } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(form ? { payload: form.payload } : {}),
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return answerOf(response);
}

beforeAll(async () => {
  app = await createTestApp();
  api = apiCaller(app);
  garment = await tShirt();
  ({ presetId, categoryId } = await addPreset(app));

  // The owner: a Pro user with a trained model, a generation, a bulk job, a try-on and a photo.
  ({ user: owner, model: ownerModel } = await trainedUser(app, api, 'price_pro', 'Owner'));
  owned.model = ownerModel.id;
  const generation = await api.call<{ generation: Generation }>(owner, 'POST', '/api/generations', {
    userModelId: ownerModel.id,
    presetId,
  });
  expect(generation.status, JSON.stringify(generation.body)).toBe(201);
  const done = await generationDone(api, owner, generation.body.generation.id);
  expect(done.status).toBe('complete');
  owned.generation = done.id;
  const bulk = await api.call<{ bulkJob: BulkJob }>(owner, 'POST', '/api/bulk-jobs', {
    kind: 'presets',
    userModelId: ownerModel.id,
    presetIds: [presetId],
    categoryId,
  });
  expect(bulk.status, JSON.stringify(bulk.body)).toBe(201);
  owned.bulkJob = bulk.body.bulkJob.id;
  const tryOnBody = multipartBody([
    { name: 'personGenerationId', value: done.id },
    { name: 'garment', file: garment },
  ]);
  const tryOn = await app.app!.inject({
    method: 'POST',
    url: '/api/tryons',
    headers: { ...owner.headers, 'content-type': tryOnBody.contentType },
    payload: tryOnBody.payload,
  });
  expect(tryOn.statusCode, tryOn.body).toBe(201);
  owned.tryOn = (tryOn.json() as { tryOn: TryOn }).tryOn.id;
  const photo = await api.upload(owner, photoFixtures.personA(1));
  expect(photo.status, JSON.stringify(photo.body)).toBe(201);
  owned.photo = photo.body.photo!.id;

  // The stranger: Pro too (so tier gates do not answer before the id is looked up), no content.
  stranger = await signUp(app);
  await api.buyPlan(stranger, 'price_pro');

  const served = await app.app!.inject({ method: 'GET', url: '/api/docs/json' });
  expect(served.statusCode).toBe(200);
  doc = served.json();
  rows = buildMatrix(doc);
  await settle(app);
  // A training, a generation, a bulk job and a try-on on the offline engine: 77 s in one full CI
  // run, past 240 s in another (the machine shared with the browser tests).
}, 480_000);

afterAll(async () => {
  await app?.stop();
});

describe('the matrix built from the OpenAPI document', () => {
  it('knows every route that takes an id, and every id field of a body', () => {
    expect(unknownRoutes, 'routes with a path parameter this matrix does not cover').toEqual([]);
    expect(unclassifiedFields, 'body id fields this matrix does not know').toEqual([]);
    const covered = new Set(rows.map((row) => `${row.method} ${row.path}`));
    const required = Object.entries(doc.paths).flatMap(([path, operations]) =>
      path.includes('{') && ownedPrefixes.some((prefix) => path.startsWith(prefix))
        ? Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)
        : [],
    );
    expect(required.length).toBeGreaterThanOrEqual(9);
    expect(
      required.filter((route) => !covered.has(route)),
      'id-taking routes left out of the matrix',
    ).toEqual([]);
    // Written down, so a reader sees what is public on purpose.
    expect(excluded).toEqual(
      expect.arrayContaining([
        'GET /api/catalog/categories/{manualId}: public catalog content: the same for everyone',
        'GET /api/catalog/presets/{id}: public catalog content: the same for everyone',
      ]),
    );
  });
});

describe("another user's ids", () => {
  it('answer 404 on every route, in our error shape, and change nothing', async () => {
    // The stranger's own rows that appear on first read exist before the snapshot.
    for (const url of ['/api/studio/photos', '/api/studio/models', '/api/studio/draft'])
      await api.call(stranger, 'GET', url);
    const ids: string[] = [];
    for (const row of rows) ids.push(await idOf(row.kind));
    const before = await settle(app);
    const failures: string[] = [];
    const oracles: string[] = [];
    for (const [index, row] of rows.entries()) {
      const answer = await send(stranger, row, ids[index]!);
      try {
        expectErrorShape(answer, 404, label(row));
      } catch {
        failures.push(`${label(row)} → ${answer.status} ${answer.body.slice(0, 200)}`);
      }
      // The answer must not tell a foreign id from one that does not exist.
      const missing = await send(stranger, row, `no-such-${row.kind}-${'0'.repeat(20)}`);
      if (missing.status !== answer.status || missing.body !== answer.body)
        oracles.push(
          `${label(row)}: ${answer.status} ${answer.body} vs ${missing.status} ${missing.body}`,
        );
    }
    expect(changes(before, await settle(app))).toEqual([]);
    expect(failures, 'routes that did not answer 404').toEqual([]);
    expect(oracles, 'answers that tell a foreign id from a missing one').toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(15);
  });

  it('answer 404 to a signed-out visitor too (401 would do), never the resource', async () => {
    for (const row of rows.filter((r) => r.where === 'path' && r.method === 'GET')) {
      const answer = await send(undefined, row, await idOf(row.kind));
      expect([401, 404], label(row)).toContain(answer.status);
    }
  });

  it("never appear in the stranger's own lists", async () => {
    const lists = await Promise.all(
      [
        '/api/studio/photos',
        '/api/studio/models',
        '/api/generations',
        '/api/generations?filter=complete',
        '/api/bulk-jobs',
        '/api/tryons',
        '/api/billing/ledger',
      ].map(async (url) => [url, JSON.stringify((await api.call(stranger, 'GET', url)).body)]),
    );
    for (const [url, body] of lists) {
      for (const id of Object.values(owned)) expect(body, url).not.toContain(id);
      expect(body, url).not.toContain(ownerModel.id);
    }
  });

  it('leave everything of the owner in place', async () => {
    for (const [url, key] of [
      [`/api/generations/${owned.generation}`, 'generation'],
      [`/api/bulk-jobs/${owned.bulkJob}`, 'bulkJob'],
      [`/api/tryons/${owned.tryOn}`, 'tryOn'],
    ] as const) {
      const answer = await api.call(owner, 'GET', url);
      expect(answer.status, url).toBe(200);
      expect(answer.body[key]).toBeTruthy();
    }
    const models = await api.models(owner);
    expect(models.models.map((m) => m.id)).toContain(ownerModel.id);
    const draft = await api.draft(owner);
    expect(draft.photos.map((p) => p.id)).toContain(owned.photo);
    const generation = await api.call<{ generation: Generation }>(
      owner,
      'GET',
      `/api/generations/${owned.generation}`,
    );
    expect(generation.body.generation).toMatchObject({ favourite: false, viewed: false });
  });
});

describe('the owner', () => {
  it('reaches every route of the matrix with their own ids (so the 404s are about ownership)', async () => {
    // Deletions last, the model (which takes everything made from it) at the very end.
    const rank = (row: Row) =>
      row.method !== 'DELETE' ? 0 : row.kind === 'model' ? 3 : row.kind === 'photo' ? 2 : 1;
    const ordered = [...rows].sort((a, b) => rank(a) - rank(b));
    const failures: string[] = [];
    for (const row of ordered) {
      if (rank(row) > 0) await settle(app);
      const answer = await send(owner, row, await idOf(row.kind));
      if (answer.status < 200 || answer.status >= 300)
        failures.push(`${label(row)} → ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    await settle(app);
    // Every route once, waiting for the jobs each deletion starts: 20-30 s under a full CI run,
    // whose load varies; the margin keeps a slow run from retrying on a half-deleted matrix.
  }, 120_000);
});

describe('the admin API', () => {
  function adminRoutes(): { method: Method; url: string; path: string; body?: unknown }[] {
    const ids: Record<string, string> = { manualId: categoryId, id: presetId, imageId: 'x' };
    return Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/admin'))
      .flatMap(([path, operations]) =>
        (Object.entries(operations) as [Lowercase<Method>, Operation][]).map(
          ([method, operation]) => {
            const schema = bodySchema(operation);
            return {
              method: method.toUpperCase() as Method,
              path,
              url: path.replace(/\{([^}]+)\}/g, (_m, name: string) => ids[name] ?? 'x'),
              ...(schema ? { body: exampleOf(schema, '', '', undefined) } : {}),
            };
          },
        ),
      );
  }

  it('answers 404 to a signed-in non-admin and to a visitor on every method and path, and changes nothing', async () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const before = await settle(app);
    const failures: string[] = [];
    for (const route of routes) {
      for (const user of [stranger, undefined]) {
        const response = await app.app!.inject({
          method: route.method,
          url: route.url,
          headers: {
            origin: app.origin,
            ...(user?.headers ?? {}),
            ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(route.body !== undefined ? { payload: JSON.stringify(route.body) } : {}),
        });
        const answer = answerOf(response);
        try {
          expectErrorShape(answer, 404, `${route.method} ${route.url}`);
        } catch {
          failures.push(
            `${user ? 'non-admin' : 'visitor'} ${route.method} ${route.url} → ${answer.status} ${answer.body.slice(0, 160)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(changes(before, await snapshot(app))).toEqual([]);
  });

  it('answers 404, not 405, to a wrong method or an unknown path below it', async () => {
    for (const [method, url] of [
      ['DELETE', '/api/admin/categories'],
      ['PUT', '/api/admin/presets'],
      ['GET', '/api/admin/nothing-here'],
      ['POST', '/api/admin/presets/x/images/y/feature/z'],
    ] as const) {
      const response = await app.app!.inject({
        method,
        url,
        headers: { ...stranger.headers },
      });
      expectErrorShape(answerOf(response), 404, `${method} ${url}`);
      expect(response.headers.allow).toBeUndefined();
    }
  });

  it('exists for an admin (so the 404s are not vacuous)', async () => {
    const admin = await signUp(app);
    await setRole(app.deps.database.db, admin.email, 'admin');
    const listed = await api.call(admin, 'GET', '/api/admin/categories');
    expect(listed.status).toBe(200);
    const preset = await api.call(admin, 'GET', `/api/admin/presets/${presetId}`);
    expect(preset.status).toBe(200);
  });
});

describe('the public catalog', () => {
  it('serves its ids to anyone, on purpose', async () => {
    const preset = await api.call(stranger, 'GET', `/api/catalog/presets/${presetId}`);
    expect(preset.status).toBe(200);
    const category = await api.call(undefined, 'GET', `/api/catalog/categories/${categoryId}`);
    expect(category.status).toBe(200);
  });
});
