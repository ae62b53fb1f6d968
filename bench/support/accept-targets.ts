// What bench/request-work.ts and bench/request-cpu.ts accept generations against: the floor of
// bench/generation.ts as a process of its own, and Pro users with a trained model each.
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { signUpOverHttp } from './accounts.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
export const benchSecret = 'bench-secret-bench-secret-bench-secret-0123';

export interface FloorProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The floor (`generation-floor-main.ts`) through tsx, on `databaseUrl`; `nodeArgs` go to Node
 * first (a probe it `--import`s), `env` adds to its settings. Start it after the product: it
 * reads the product's queue table.
 */
export async function startFloorProcess(
  databaseUrl: string,
  nodeArgs: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<FloorProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'bench/support/generation-floor-main.ts'],
    {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        DATABASE_URL: databaseUrl,
        AUTH_SECRET: benchSecret,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening (\S+)/.exec(output);
      if (listening) resolve(listening[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the floor exited ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const benchPresetId = 'bench-preset';

/**
 * `count` Pro users signed up on the product, each with credits (granted through a ledger row)
 * and a trained model, and the preset they accept (made on the first call).
 */
export async function acceptingUsers(productUrl: string, databaseUrl: string, count: number) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`
      insert into categories (manual_id, display_name, order_index) values ('bench', 'Bench', 0)
        on conflict do nothing;
      insert into presets (id, manual_id, category_id, display_name, prompt)
        values ('${benchPresetId}', '${benchPresetId}', 'bench', 'Bench', 'a portrait')
        on conflict do nothing;`);
    const users: { cookie: string; modelId: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      const user = await signUpOverHttp(productUrl);
      const modelId = randomUUID();
      await db.query(
        `with paid as (
           update subscriptions set active = true, tier = 'pro', credits = credits + 1000000
           where user_id = $1 returning credits)
         insert into credit_ledger (user_id, delta, balance_after, reason, reference)
         select $1, 1000000, credits, 'adjustment', 'bench:' || $1 from paid`,
        [user.id],
      );
      await db.query(
        `insert into user_models (id, user_id, name, gender, status, paid_with, photo_count,
           engine, trigger_word, weights)
         values ($1, $2, 'Me', 'woman', 'complete', 'credits', 8, 'local', 'ohwx', 'users/x/p.json')`,
        [modelId, user.id],
      );
      users.push({ cookie: user.cookie, modelId });
    }
    return users;
  } finally {
    await db.end();
  }
}
