// Server memory (issue #10): the resident set of a real server process idle, and while 12 photos
// of about 10 MB each are uploaded to POST /api/studio/photos. The upload is streamed to a
// temporary file, so the process must not grow by the upload's size.
//
//   npm run bench memory
//   BENCH_DATABASE_URL=postgres://…   a Postgres server; a scratch database is created on it and
//                                     dropped at the end (without it: postgres://postgres:postgres@
//                                     127.0.0.1:5432/postgres when `pg_isready -h 127.0.0.1`
//                                     answers, else PGlite; `pglite` forces PGlite)
//   BENCH_UPLOADS=12                  photos per user in a row (at most 12, a draft's limit; npm
//                                     test's smoke run sends 2, enough to show the row runs)
//   BENCH_WARM_UP=true                false: no warm-up upload, requests or rest before idle is
//                                     sampled (npm test's smoke run, whose figures are not read)
//
// The server is a child process, `node dist/server/main.mjs` as `npm start` runs it
// (NODE_ENV=production, ROLE=web so no validation job runs, rate limits off, SEED_CONTENT off,
// UV_THREADPOOL_SIZE left at its default), one fresh process per row. Its RSS is read from
// /proc/<pid>/status every 50 ms; the kernel's own high-water mark (VmHWM, reset before the
// uploads through /proc/<pid>/clear_refs) catches a peak between two samples.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { photos as photoRules } from '../src/common/product/photos.ts';
import { signUpOverHttp } from './support/accounts.ts';
import {
  adminQuery,
  createScratchDatabase,
  dropScratchDatabase,
  serverUrl,
} from './support/scratch-database.ts';
import { writeResults } from './support/results.ts';
import { startServer } from './support/server-process.ts';
import { warmUpEnabled } from './support/warm-up.ts';

const uploads = Math.min(
  photoRules.max,
  Math.max(1, Number(process.env.BENCH_UPLOADS ?? photoRules.max)),
);
const repo = fileURLToPath(new URL('../', import.meta.url));
const mib = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// The database: a scratch one on a Postgres server, or PGlite
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// The photo: a real 12 MP JPEG re-encoded with noise to just under the 10 MiB limit
// ---------------------------------------------------------------------------------------------

async function tenMegabytePhoto(): Promise<{ bytes: Buffer; width: number; height: number }> {
  const source = path.join(repo, 'tests/fixtures/photos/quality/large-12mp.jpg');
  const { data, info } = await sharp(source).raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const encode = async (amplitude: number) => {
    const noisy = Buffer.from(data);
    let seed = 7;
    for (let i = 0; i < noisy.length; i += 1) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const value = noisy[i]! + ((seed >>> 16) % (2 * amplitude + 1)) - amplitude;
      noisy[i] = value < 0 ? 0 : value > 255 ? 255 : value;
    }
    return sharp(noisy, raw).jpeg({ quality: 97 }).toBuffer();
  };
  // Noise amplitude by bisection: the largest file under the limit, at least 96% of it.
  const limit = photoRules.maxUploadBytes - 16 * 1024;
  let [low, high] = [0, 96];
  let best: Buffer | undefined;
  while (high - low > 1) {
    const amplitude = Math.floor((low + high) / 2);
    const bytes = await encode(amplitude);
    if (bytes.length > limit) high = amplitude;
    else {
      low = amplitude;
      best = bytes;
      if (bytes.length > limit * 0.96) break;
    }
  }
  if (!best) throw new Error('could not make a photo under the upload limit');
  return { bytes: best, width: info.width, height: info.height };
}

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

/** VmRSS and VmHWM of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

/** Resets the process's VmHWM to its current RSS; false where the kernel does not allow it. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function signUp(url: string): Promise<string> {
  return (await signUpOverHttp(url)).cookie;
}

async function upload(
  url: string,
  cookie: string,
  bytes: Buffer,
  name: string,
  expectedStatus = 201,
): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const response = await fetch(`${url}/api/studio/photos`, {
    method: 'POST',
    headers: { origin: url, cookie },
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (response.status !== expectedStatus)
    throw new Error(`upload answered ${response.status}: ${text}`);
}

// ---------------------------------------------------------------------------------------------
// One row: a fresh server, warmed up, idle, then the uploads (12 of each user by default)
// ---------------------------------------------------------------------------------------------

interface Row {
  name: string;
  diagnostic: boolean;
  idleRssMiB: number;
  /** The highest 50 ms sample during the uploads. */
  peakSampledMiB: number;
  /** The kernel's high-water mark over the uploads (reset just before). */
  peakHwmMiB: number | null;
  growthMiB: number;
  uploadedMiB: number;
  /** Growth (from idle to the higher of the two peaks) over the bytes uploaded. */
  growthPerUploaded: number;
  afterRssMiB: number;
  /** Sequential rows: RSS right after each upload answered (a plateau or a climb). */
  afterEachMiB: number[];
  seconds: number;
  samples: number;
}

const toMiB = (bytes: number) => Math.round((bytes / mib) * 10) / 10;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RowOptions {
  name: string;
  mode: 'sequential' | 'concurrent';
  file: Buffer;
  /** 201 for a photo; a diagnostic row sends bytes that are refused after they were received. */
  expectedStatus: number;
  databaseUrl: string | undefined;
  role: 'web' | 'all';
  env?: Record<string, string>;
  /** Sets of 12 (one user each: a draft holds 12); 1 unless a diagnostic row asks for more. */
  rounds?: number;
  /** Not the measure itself: a row that says what the growth is made of. */
  diagnostic?: boolean;
}

async function measureRow(options: RowOptions): Promise<Row> {
  const { name, mode, file, expectedStatus } = options;
  const server = await startServer(options.databaseUrl, options.role, options.env);
  try {
    // Warm-up: the routes, the session lookup, sharp and the upload path, with a small photo
    // from another user (so the measured user has room for 12), then a rest.
    if (warmUpEnabled)
      await upload(
        server.url,
        await signUp(server.url),
        readFileSync(path.join(repo, 'assets/seed/person-a/a-01.jpg')),
        'warm.jpg',
      );
    const cookies: string[] = [];
    for (let round = 0; round < (options.rounds ?? 1); round += 1)
      cookies.push(await signUp(server.url));
    const cookie = cookies[0]!;
    if (warmUpEnabled) {
      for (let i = 0; i < 20; i += 1) {
        await fetch(`${server.url}/api/me`, { headers: { cookie } }).then((r) => r.arrayBuffer());
      }
      await sleep(2000);
    }
    const idleSamples: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      idleSamples.push(memoryOf(server.pid).rss);
      await sleep(100);
    }
    const idle = median(idleSamples);

    const hwmReset = resetPeak(server.pid);
    const samples: number[] = [];
    const afterEach: number[] = [];
    const sampler = setInterval(() => samples.push(memoryOf(server.pid).rss), 50);
    const started = performance.now();
    const count = uploads * cookies.length;
    const send = (i: number) =>
      upload(server.url, cookies[Math.floor(i / uploads)]!, file, `big-${i}.jpg`, expectedStatus);
    if (mode === 'sequential') {
      for (let i = 0; i < count; i += 1) {
        await send(i);
        afterEach.push(memoryOf(server.pid).rss);
      }
    } else {
      await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const { rss: after, hwm } = memoryOf(server.pid);
    samples.push(after);
    const peakSampled = Math.max(...samples);
    const peak = Math.max(peakSampled, hwmReset ? hwm : 0);
    const uploaded = file.length * count;
    const row: Row = {
      name,
      diagnostic: options.diagnostic ?? false,
      idleRssMiB: toMiB(idle),
      peakSampledMiB: toMiB(peakSampled),
      peakHwmMiB: hwmReset ? toMiB(hwm) : null,
      growthMiB: toMiB(peak - idle),
      uploadedMiB: toMiB(uploaded),
      growthPerUploaded: Math.round(((peak - idle) / uploaded) * 100) / 100,
      afterRssMiB: toMiB(after),
      afterEachMiB: afterEach.map(toMiB),
      seconds: Math.round(seconds * 10) / 10,
      samples: samples.length,
    };
    console.log(
      `  ${name}: idle ${row.idleRssMiB} MiB, peak ${toMiB(peak)} MiB, growth ${row.growthMiB} MiB for ${row.uploadedMiB} MiB uploaded (${row.growthPerUploaded}×)` +
        (afterEach.length ? `; RSS after each: ${row.afterEachMiB.join(', ')}` : ''),
    );
    return row;
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

console.log(`memory: ${uploads} uploads of about 10 MB, sequential and concurrent`);
const photo = await tenMegabytePhoto();
console.log(
  `  photo: ${photo.width}x${photo.height} JPEG, ${photo.bytes.length} bytes (limit ${photoRules.maxUploadBytes})`,
);
let databaseUrl: string | undefined;
let serverVersion = '';
if (serverUrl) {
  serverVersion = await adminQuery('show server_version');
  databaseUrl = await createScratchDatabase();
}
// The embedded database runs ROLE=all only (one process): there the server has its workers, and
// validation runs during the uploads.
const role = databaseUrl ? 'web' : 'all';
const loads: number[] = [os.loadavg()[0]!];
const rows: Row[] = [];
// As `npm start` and the Docker image run the server: glibc keeps 2 malloc arenas, not one per
// libvips thread (the row "without MALLOC_ARENA_MAX" below shows the difference).
const common = {
  file: photo.bytes,
  expectedStatus: 201,
  databaseUrl,
  role,
  env: { MALLOC_ARENA_MAX: '2' },
} as const;
// The diagnostic rows explain the figures; npm test's smoke run (BENCH_DIAGNOSTICS=false) skips them.
const diagnostics = process.env.BENCH_DIAGNOSTICS !== 'false';
const plan: RowOptions[] = [
  { ...common, name: `${uploads} photos one after another`, mode: 'sequential' },
  { ...common, name: `${uploads} photos at once`, mode: 'concurrent' },
  // What the growth is made of: receiving alone, the allocator, and whether it keeps climbing.
  {
    ...common,
    name: `${uploads} × the same size of random bytes, one after another (received in full, then refused 415: nothing decoded)`,
    mode: 'sequential',
    file: randomBytes(photo.bytes.length),
    expectedStatus: 415,
    diagnostic: true,
  },
  {
    ...common,
    name: `${uploads} photos one after another, glibc's default arenas (no MALLOC_ARENA_MAX)`,
    mode: 'sequential',
    env: {},
    diagnostic: true,
  },
  {
    ...common,
    name: `${uploads * 3} photos one after another (3 users of ${uploads})`,
    mode: 'sequential',
    rounds: 3,
    diagnostic: true,
  },
];
try {
  for (const options of plan.filter((row) => diagnostics || !row.diagnostic)) {
    rows.push(await measureRow(options));
    loads.push(os.loadavg()[0]!);
  }
} finally {
  await dropScratchDatabase();
}

const cpus = os.cpus();
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.availableParallelism()} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
  memory: `${Math.round(os.totalmem() / mib / 1024)} GiB`,
  database: databaseUrl
    ? `Postgres ${serverVersion} on the same machine (scratch database)`
    : `PGlite in the server process (${process.env.BENCH_DATABASE_URL === 'pglite' ? 'BENCH_DATABASE_URL=pglite' : 'no Postgres server answered'}), so ROLE=all: validation jobs run during the uploads`,
  server: `node dist/server/main.mjs, NODE_ENV=production, ROLE=${role}, MALLOC_ARENA_MAX=2 unless the row says otherwise, a fresh process per row`,
  photo: `tests/fixtures/photos/quality/large-12mp.jpg (${photo.width}x${photo.height}) with noise, JPEG q97, ${photo.bytes.length} bytes; the same file ${uploads} times`,
  // Numbers from a machine busy with other work are lower; this says how busy it was.
  'load average (1 min) during the run': `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
};

const header = [
  '| uploads | idle RSS | peak RSS (50 ms samples) | peak RSS (VmHWM) | growth | uploaded | growth / uploaded | RSS after | time |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];
const line = (row: Row) =>
  `| ${row.name} | ${row.idleRssMiB} MiB | ${row.peakSampledMiB} MiB | ${row.peakHwmMiB ?? '–'} MiB | ${row.growthMiB} MiB | ${row.uploadedMiB} MiB | ${row.growthPerUploaded.toFixed(2)}× | ${row.afterRssMiB} MiB | ${row.seconds} s |`;
const markdown = [
  '# Memory benchmark',
  '',
  'Written by `npm run bench memory` (`bench/memory.ts`); see `bench/README.md`.',
  '',
  ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
  '',
  `## Server RSS during ${uploads} uploads of about 10 MB to \`POST /api/studio/photos\``,
  '',
  ...header,
  ...rows.filter((row) => !row.diagnostic).map(line),
  '',
  '## What the growth is made of',
  '',
  ...header,
  ...rows.filter((row) => row.diagnostic).map(line),
  '',
  'RSS right after each upload answered (MiB), sequential rows:',
  '',
  ...rows
    .filter((row) => row.afterEachMiB.length > 0)
    .map((row) => `- ${row.name}: ${row.afterEachMiB.join(', ')}`),
  '',
].join('\n');

console.table(
  Object.fromEntries(
    rows.map((row) => [
      row.name,
      {
        'idle MiB': row.idleRssMiB,
        'peak MiB': Math.max(row.peakSampledMiB, row.peakHwmMiB ?? 0),
        'growth MiB': row.growthMiB,
        'uploaded MiB': row.uploadedMiB,
        'growth/uploaded': row.growthPerUploaded,
      },
    ]),
  ),
);
writeResults('memory', markdown, { ...meta, rows });
