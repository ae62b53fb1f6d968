import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  DraftPhotosResponse,
  TrainingPhoto,
  UserModel,
  UserModelsResponse,
} from '../../src/common/api/studio.ts';
import type { PriceId } from '../../src/common/product/plans.ts';
import { categories, presets } from '../../src/server/db/schema/index.ts';
import type { TestApp } from './test-app.ts';
import { multipart } from './uploads.ts';
import type { SignedInUser } from './users.ts';

/** Helpers for tests of model creation: real photos, plans bought through the test checkout. */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A real fixture photo by folder and name. Photos the default content also uses live in
 * assets/seed/, the others in tests/fixtures/photos/ (licences in the README of each).
 */
export function fixturePhoto(folder: string, name: string): string {
  const seeded = path.join(repoRoot, 'assets/seed', folder, name);
  return existsSync(seeded) ? seeded : path.join(repoRoot, 'tests/fixtures/photos', folder, name);
}

export const photoFixtures = {
  personA: (n: number) => fixturePhoto('person-a', `a-${String(n).padStart(2, '0')}.jpg`),
  personB: (n: number) => fixturePhoto('person-b', `b-0${n}.jpg`),
  notAFace: fixturePhoto('not-a-face', 'coffee.jpg'),
  twoFaces: fixturePhoto('two-faces', 'pair-1.jpg'),
  blurry: fixturePhoto('quality', 'blurry.jpg'),
  upright: fixturePhoto('quality', 'exif-orientation-6.jpg'),
  badFile: (name: string) => fixturePhoto('bad-files', name),
};

export interface ApiResult<T> {
  status: number;
  body: T & { error?: { code: string; message: string } };
}

export function apiCaller(app: TestApp) {
  async function call<T = Record<string, unknown>>(
    user: SignedInUser | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<ApiResult<T>> {
    const response = await app.app!.inject({
      method,
      url,
      headers: {
        origin: app.origin,
        ...(user?.headers ?? {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return {
      status: response.statusCode,
      body: (response.body ? response.json() : {}) as ApiResult<T>['body'],
    };
  }

  async function upload(user: SignedInUser, file: Buffer | string, filename?: string) {
    const bytes = typeof file === 'string' ? readFileSync(file) : file;
    const name = filename ?? (typeof file === 'string' ? path.basename(file) : 'photo.jpg');
    const body = multipart(bytes, { filename: name });
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/studio/photos',
      headers: { ...user.headers, ...body.headers },
      payload: body.payload,
    });
    return {
      status: response.statusCode,
      body: response.json() as { photo?: TrainingPhoto; error?: { code: string; message: string } },
    };
  }

  /** Buys a plan through the test-mode checkout, as a browser would. */
  async function buyPlan(user: SignedInUser, priceId: PriceId) {
    const started = await call<{ url: string }>(user, 'POST', '/api/billing/checkout', { priceId });
    if (started.status !== 200) throw new Error(`checkout: ${JSON.stringify(started.body)}`);
    const id = decodeURIComponent(/\/test-checkout\/([^/?]+)$/.exec(started.body.url)![1]!);
    const paid = await call(user, 'POST', `/api/billing/test-checkout/${id}/pay`);
    if (paid.status !== 200) throw new Error(`pay: ${JSON.stringify(paid.body)}`);
  }

  const draft = async (user: SignedInUser) =>
    (await call<DraftPhotosResponse>(user, 'GET', '/api/studio/photos')).body;
  const models = async (user: SignedInUser) =>
    (await call<UserModelsResponse>(user, 'GET', '/api/studio/models')).body;
  const subscription = async (user: SignedInUser) =>
    (
      await call<{ credits: number; monthlyFreeTrainingsLeft: number }>(
        user,
        'GET',
        '/api/billing/subscription',
      )
    ).body;

  /** Waits until no photo of the draft is pending (validation runs in the app's worker). */
  async function settledDraft(user: SignedInUser, timeoutMs = 60_000) {
    return waitFor(
      () => draft(user),
      (value) => value.counts.pending === 0,
      timeoutMs,
    );
  }

  async function modelWhen(
    user: SignedInUser,
    modelId: string,
    done: (model: UserModel) => boolean,
    timeoutMs = 60_000,
  ) {
    const list = await waitFor(
      () => models(user),
      (value) => value.models.some((model) => model.id === modelId && done(model)),
      timeoutMs,
    );
    return list.models.find((model) => model.id === modelId)!;
  }

  return { call, upload, buyPlan, draft, models, subscription, settledDraft, modelWhen };
}

export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting; last value: ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Catalog categories named `names`, in that catalog order (`orderIndex`), each with two presets
 * `{name}-1` and `{name}-2` whose prompts `prompt` writes. `insertLastFirst` inserts them in the
 * reverse order, to show the catalog's order does not come from the insertion's.
 */
export async function addCategoriesWithPresets(
  app: TestApp,
  names: string[],
  options: { prompt(name: string, n: number): string; insertLastFirst?: boolean },
) {
  const db = app.deps.database.db;
  for (const name of options.insertLastFirst ? [...names].reverse() : names) {
    await db.insert(categories).values({
      manualId: name,
      displayName: name,
      orderIndex: names.indexOf(name),
    });
    for (const n of [1, 2])
      await db.insert(presets).values({
        id: `${name}-${n}`,
        manualId: `${name}-${n}`,
        categoryId: name,
        displayName: `${name} ${n}`,
        description: 'A portrait',
        prompt: options.prompt(name, n),
        orderIndex: n,
      });
  }
}
