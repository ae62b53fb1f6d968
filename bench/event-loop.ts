// How long the event loop of a process that validates photos stalls (issue 20, decision 031):
// event-loop lag p50/p99/max (perf_hooks.monitorEventLoopDelay) while 12 photos are validated,
// with the image analysis on the event loop (ANALYSIS_THREADS=0, as before decision 031, the
// floor) and on 1 and 2 worker threads, side by side in one run; with the total time for the
// 12 photos and the process's memory each way.
//
//   npm run bench event-loop
//   BENCH_ROUNDS=3      times the 12 photos are validated per configuration (all rounds' lag
//                       counts; the median round's time is reported)
//   BENCH_THREADS=0,1,2 the configurations (0 = on the event loop)
//   BENCH_PHOTOS=12     the first N of the 12 photos (npm test's smoke run takes 3: the large
//                       one, a-01, a copy of its shot, and a-02, so a round still has both
//                       verdicts, passed and sameShot)
//
// Each configuration runs in a child process of its own (this file with --child), so one's
// models and heaps do not weigh on the next one's memory. A child does what a ROLE=all process
// (the default `npm start`) does for a photo, through `src/server/images/analysis.ts`: the
// upload's NSFW check, then the validation job's analysis (analyzePhoto, judgePhoto, the
// small-face search when no face is found, the variety score against every photo finished
// before); photos one after another with one thread or none, two at a time with two threads (the
// validation job's concurrency is one per thread). The models are loaded first (warm-up, not
// measured). The verdicts must be the same in every configuration; the script exits non-zero
// otherwise.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { machine, writeResults } from './support/results.ts';

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const configurations = (process.env.BENCH_THREADS ?? '0,1,2')
  .split(',')
  .map((value) => Number(value.trim()));
const repo = fileURLToPath(new URL('../', import.meta.url));
/** The lag monitor's timer period: a stall shorter than this is not seen. */
const resolutionMs = 2;

const photoFiles = [
  'tests/fixtures/photos/quality/large-12mp.jpg',
  ...Array.from({ length: 8 }, (_, i) => `assets/seed/person-a/a-0${i + 1}.jpg`),
  ...['a-09', 'a-10', 'a-11'].map((name) => `tests/fixtures/photos/person-a/${name}.jpg`),
].slice(0, Math.max(1, Number(process.env.BENCH_PHOTOS ?? 12)));

interface Lag {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface ChildResult {
  threads: number;
  warmUpMs: number;
  idleLag: Lag;
  lag: Lag;
  /** Per round, the 12 photos' total. */
  roundMs: number[];
  rssAfterWarmUpMb: number;
  peakRssMb: number;
  verdicts: string[];
}

/** The histogram holds the time between the monitor's ticks: lag is what exceeds the period. */
const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 100) / 100);

function lagOf(histogram: ReturnType<typeof monitorEventLoopDelay>): Lag {
  return {
    p50Ms: ms(histogram.percentile(50)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
  };
}

async function child(threads: number): Promise<void> {
  // Imported here, not at the top: only the children analyse photos, and loading the analysis
  // (tfjs, the face and NSFW code) costs the parent seconds of CPU for nothing.
  const { defaultNsfwThreshold } = await import('../src/server/config.ts');
  const { analyzePhoto, classifyNsfw, findSmallFaces, openAnalysis, varietyScore, warmUpAnalysis } =
    await import('../src/server/images/analysis.ts');
  const { foundOnlySmallFace, judgePhoto, primaryFace, sameShotCopies, varietyRules } =
    await import('../src/server/images/photo-checks.ts');
  const analysis = openAnalysis({ threads });
  const photos = photoFiles.map((file) => ({
    name: path.basename(file),
    bytes: readFileSync(path.join(repo, file)),
  }));

  const idle = monitorEventLoopDelay({ resolution: resolutionMs });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 500));
  idle.disable();

  const warmUpStarted = performance.now();
  await warmUpAnalysis({ faces: true, nsfw: true });
  const warmUpMs = Math.round(performance.now() - warmUpStarted);
  const rssAfterWarmUpMb = Math.round(process.memoryUsage().rss / 2 ** 20);

  /**
   * One photo as the upload route and the validation job see it: its own verdict, and the
   * photos finished before it that are the same shot (the variety score against each). As in the
   * job, the photos finished meanwhile are compared again under the draft's lock (here a promise
   * chain), where the photo joins the finished ones: two photos finishing together still meet.
   */
  const validate = async (
    index: number,
    bytes: Buffer,
    finished: { index: number; patch: Buffer }[],
    underDraftLock: <T>(work: () => Promise<T>) => Promise<T>,
  ): Promise<{ reason: string | null; sameShotAs: number[] }> => {
    if ((await classifyNsfw(bytes, defaultNsfwThreshold)).flagged)
      return { reason: 'explicit', sameShotAs: [] };
    const result = await analyzePhoto(bytes);
    let reason = judgePhoto(result);
    if (reason === 'noFace' && foundOnlySmallFace(await findSmallFaces(bytes)))
      reason = 'faceTooSmall';
    const face = primaryFace(result);
    if (reason || !face?.variety) return { reason: reason ?? 'noFace', sameShotAs: [] };
    const patch = face.variety;
    const sameShotAs: number[] = [];
    const compared = new Set<number>();
    const compare = async () => {
      for (const other of [...finished]) {
        if (compared.has(other.index)) continue;
        compared.add(other.index);
        if ((await varietyScore(other.patch, patch)) >= varietyRules.sameShotMinScore)
          sameShotAs.push(other.index);
      }
    };
    await compare();
    await underDraftLock(async () => {
      await compare();
      finished.push({ index, patch });
    });
    return { reason: null, sameShotAs };
  };

  const lag = monitorEventLoopDelay({ resolution: resolutionMs });
  const roundMs: number[] = [];
  let verdicts: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const finished: { index: number; patch: Buffer }[] = [];
    let settling: Promise<unknown> = Promise.resolve();
    const underDraftLock = <T>(work: () => Promise<T>): Promise<T> => {
      const run = settling.then(work);
      settling = run.catch(() => {});
      return run;
    };
    const outcomes: Awaited<ReturnType<typeof validate>>[] = [];
    let next = 0;
    lag.enable();
    const started = performance.now();
    // The validation job's concurrency: one photo per thread, one at a time without threads.
    await Promise.all(
      Array.from({ length: Math.max(1, threads) }, async () => {
        while (next < photos.length) {
          const index = next++;
          outcomes[index] = await validate(index, photos[index]!.bytes, finished, underDraftLock);
        }
      }),
    );
    roundMs.push(Math.round(performance.now() - started));
    lag.disable();
    // As the validation settles a draft: the first photo of a shot is kept, whatever finished first.
    const sameShot = (a: number, b: number) =>
      outcomes[a]!.sameShotAs.includes(b) || outcomes[b]!.sameShotAs.includes(a);
    const copies = sameShotCopies(
      outcomes.flatMap((outcome, index) =>
        outcome.reason
          ? []
          : [
              {
                id: String(index),
                sameShotAs: outcomes.flatMap((_, other) =>
                  other !== index && sameShot(index, other) ? [String(other)] : [],
                ),
              },
            ],
      ),
    );
    verdicts = outcomes.map((outcome, index) => {
      const copyOf = copies.get(String(index));
      const verdict =
        outcome.reason ?? (copyOf ? `sameShot (of ${photos[Number(copyOf)]!.name})` : 'passed');
      return `${photos[index]!.name}: ${verdict}`;
    });
  }
  await analysis.close();

  const result: ChildResult = {
    threads,
    warmUpMs,
    idleLag: lagOf(idle),
    lag: lagOf(lag),
    roundMs,
    rssAfterWarmUpMb,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    verdicts,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

function runChild(threads: number): ChildResult {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', String(threads)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
  );
  const line = run.stdout.split('\n').find((text) => text.startsWith('RESULT '));
  if (run.status !== 0 || !line) {
    process.stdout.write(run.stdout);
    throw new Error(`the configuration with ${threads} thread(s) failed (exit ${run.status})`);
  }
  return JSON.parse(line.slice('RESULT '.length)) as ChildResult;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  await child(Number(process.argv[childAt + 1]));
} else {
  console.log(
    `event-loop: ${photoFiles.length} photos, ${rounds} round(s) per configuration, threads ${configurations.join(', ')}`,
  );
  const results: ChildResult[] = [];
  for (const threads of configurations) {
    const result = runChild(threads);
    console.log(
      `  ${threads} thread(s): lag p99 ${result.lag.p99Ms} ms, max ${result.lag.maxMs} ms; ${median(result.roundMs)} ms for the ${photoFiles.length}`,
    );
    results.push(result);
  }
  const floor = results.find((result) => result.threads === 0) ?? results[0]!;
  const label = (threads: number) =>
    threads === 0 ? 'on the event loop (0 threads, before)' : `${threads} worker thread(s)`;
  const meta = {
    ...machine(),
    photos: `${photoFiles.map((file) => path.basename(file)).join(', ')} (large-12mp is 4000x3000, person A's 810-1000 px wide), as stored`,
    method: `per photo the upload's NSFW check and the validation job's analysis (analyzePhoto, judgePhoto, the small-face search when no face is found, the variety score against every photo finished before), through src/server/images/analysis.ts; one photo at a time per thread (one at a time with none); models warmed up first; ${rounds} round(s) per configuration, each configuration in a child process of its own; lag from perf_hooks.monitorEventLoopDelay at ${resolutionMs} ms resolution over every round (its tick period subtracted), time = the median round`,
    'idle lag (no work, 0.5 s)': `p99 ${floor.idleLag.p99Ms} ms, max ${floor.idleLag.maxMs} ms`,
  };
  const markdown = [
    '# Event-loop lag during photo validation',
    '',
    'Written by `npm run bench event-loop` (`bench/event-loop.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
    '',
    `| image analysis | lag p50 | lag p99 | lag max | ${photoFiles.length} photos | vs on the event loop | warm-up | RSS after warm-up | peak RSS |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${label(result.threads)} | ${result.lag.p50Ms} ms | ${result.lag.p99Ms} ms | ${result.lag.maxMs} ms | ${median(result.roundMs)} ms | ${(median(result.roundMs) / median(floor.roundMs)).toFixed(2)}× | ${result.warmUpMs} ms | ${result.rssAfterWarmUpMb} MB | ${result.peakRssMb} MB |`,
    ),
    '',
    'Verdicts (the same in every configuration):',
    '',
    ...floor.verdicts.map((verdict) => `- ${verdict}`),
    '',
  ].join('\n');
  console.log(`\n${markdown}`);
  writeResults('event-loop', markdown, { ...meta, results });

  const differing = results.filter(
    (result) => JSON.stringify(result.verdicts) !== JSON.stringify(floor.verdicts),
  );
  if (differing.length > 0) {
    console.error(
      `the verdicts differ between configurations: ${differing.map((result) => result.threads).join(', ')} thread(s)`,
    );
    process.exit(1);
  }
}
