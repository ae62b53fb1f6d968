import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analysisTasks, type AnalysisTaskName } from './analysis-tasks.ts';
import {
  analyzePhoto,
  classifyNsfw,
  closeAnalysis,
  findSmallFaces,
  openAnalysis,
  varietyScore,
  warmUpAnalysis,
  type PhotoAnalysis,
} from './analysis.ts';
import { metrics } from '../observability/metrics.ts';
import { releaseHeldAnalysis } from '../../../tests/helpers/test-app.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(repo, file));
const portrait = read('assets/seed/person-a/a-01.jpg');
const mirroredCopy = read('tests/fixtures/photos/person-a/a-09.jpg');
const pair = read('tests/fixtures/photos/two-faces/pair-1.jpg');
const noFace = read('tests/fixtures/photos/not-a-face/coffee.jpg');
const large = read('tests/fixtures/photos/quality/large-12mp.jpg');

/** Everything the analysis answers for the fixtures, inline or on a thread. */
async function measureAll() {
  const [a, b, two] = [
    await analyzePhoto(portrait),
    await analyzePhoto(mirroredCopy),
    await analyzePhoto(pair),
  ];
  return {
    analyses: [a, b, two],
    smallFaces: await findSmallFaces(noFace),
    variety: await varietyScore(a.faces[0]!.variety!, b.faces[0]!.variety!),
    nsfw: await classifyNsfw(portrait, 0.7),
  };
}

let inline: Awaited<ReturnType<typeof measureAll>>;
let threaded: Awaited<ReturnType<typeof measureAll>>;
/** How late a 10 ms timer came, at most, while the 12 MP photo was analysed on a thread. */
let maxLagMs = 0;
/** Analysis tasks run on this thread while the analysis had a thread of its own. */
let tasksRunHere = -1;

beforeAll(async () => {
  // The thread count is set by the first use: an app's threads kept by an earlier file go first.
  await releaseHeldAnalysis();
  const onEventLoop = openAnalysis({ threads: 0 });
  inline = await measureAll();
  await onEventLoop.close();

  const onThreads = openAnalysis({ threads: 1 });
  // Every task this thread could run, watched while the threads answer.
  const onThisThread = Object.keys(analysisTasks).map((task) =>
    vi.spyOn(analysisTasks, task as AnalysisTaskName),
  );
  await warmUpAnalysis({ faces: true, nsfw: true });
  threaded = await measureAll();
  tasksRunHere = onThisThread.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  for (const spy of onThisThread) spy.mockRestore();
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 10);
    last = now;
  }, 10);
  try {
    await analyzePhoto(large);
  } finally {
    clearInterval(probe);
  }
  await onThreads.close();
}, 180_000);

afterAll(() => closeAnalysis());

describe('the image analysis on a worker thread', () => {
  it('answers exactly what it answers on the event loop', () => {
    expect(threaded).toEqual(inline);
    expect(inline.analyses.map((analysis) => analysis.faces.length)).toEqual([1, 1, 2]);
    // The variety patch comes back as a Buffer, as validation stores it (base64).
    const patch = threaded.analyses[0]!.faces[0]!.variety;
    expect(Buffer.isBuffer(patch)).toBe(true);
    expect(patch!.toString('base64')).toBe(
      inline.analyses[0]!.faces[0]!.variety!.toString('base64'),
    );
    expect(threaded.variety).toBeGreaterThan(0.93);
  });

  it('runs the models off this thread and keeps its event loop free', () => {
    // Not one task ran on this thread while threads were open: the models ran elsewhere.
    expect(tasksRunHere).toBe(0);
    // The analysis of a 12 MP photo takes hundreds of ms on the event loop; here only the
    // posting of its bytes. The bound leaves room for a loaded machine (as upscale.test.ts).
    expect(maxLagMs).toBeLessThan(500);
  });
});

describe('photos analysed before', () => {
  const counted = async (task: string, outcome: string) =>
    (await metrics.analysisMemo.get()).values.find(
      (value) => value.labels.task === task && value.labels.outcome === outcome,
    )?.value ?? 0;

  it('are answered from memory, the same answer, a copy for each caller', async () => {
    const use = openAnalysis({ threads: 1 });
    try {
      const first = await analyzePhoto(pair);
      const [hits, misses] = [
        await counted('analyzePhoto', 'hit'),
        await counted('analyzePhoto', 'miss'),
      ];
      first.faces.pop();
      // The same bytes in another Buffer: remembered by content, not by object.
      const again = await analyzePhoto(Buffer.from(pair));
      expect(await counted('analyzePhoto', 'hit')).toBe(hits + 1);
      expect(await counted('analyzePhoto', 'miss')).toBe(misses);
      expect(again).toEqual(threaded.analyses[2]);
      expect(Buffer.isBuffer(again.faces[0]!.variety)).toBe(true);
      // Other bytes are analysed, and so are the same bytes asked about in grey.
      await analyzePhoto(noFace);
      expect(await counted('analyzePhoto', 'miss')).toBe(misses + 1);
      const inGrey = await analyzePhoto(pair, { grey: true });
      expect(await counted('analyzePhoto', 'miss')).toBe(misses + 2);
      expect(inGrey.faces.every((face) => face.grey !== undefined)).toBe(true);
    } finally {
      await use.close();
    }
  }, 60_000);
});

describe('errors and cancellation', () => {
  it('rejects as the analysis on the event loop does, with the same message', async () => {
    const message = await analyzePhotoError(0);
    expect(message).toMatch(/unsupported image format/);
    expect(await analyzePhotoError(1)).toBe(message);
  }, 60_000);

  it('rejects an abandoned analysis, and one the close stops', async () => {
    const use = openAnalysis({ threads: 1 });
    try {
      await expect(
        analyzePhoto(portrait, { signal: AbortSignal.abort(new Error('abandoned')) }),
      ).rejects.toThrow('abandoned');
      const running = expect(analyzePhoto(large)).rejects.toThrow('the image analysis was closed');
      await closeAnalysis();
      await running;
      // A later analysis starts a thread again.
      expect((await analyzePhoto(portrait)).faces).toHaveLength(1);
    } finally {
      await use.close();
    }
  }, 60_000);
});

async function analyzePhotoError(threads: number): Promise<string> {
  const use = openAnalysis({ threads });
  try {
    const result: PhotoAnalysis | Error = await analyzePhoto(Buffer.from('not a photo')).catch(
      (error: Error) => error,
    );
    if (!(result instanceof Error)) throw new Error('the analysis did not fail');
    return result.message;
  } finally {
    await use.close();
  }
}
