// The CPU the Postgres backends of one database spend, read from /proc (the server runs on this
// machine in the benchmarks): what a request costs the database, next to the Node CPU the
// event loop's utilisation gives. Linux only; elsewhere it measures nothing (undefined).
import { readFileSync } from 'node:fs';
import pg from 'pg';

const ticksPerSecond = 100; // USER_HZ on Linux

function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** Starts counting; `stop()` answers the milliseconds of CPU the database's backends used since. */
export async function postgresCpu(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const backends = async () =>
    (
      await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
    ).rows.map((row) => row.pid);
  const start = new Map<number, number>();
  for (const pid of await backends()) {
    const ms = cpuMsOf(pid);
    if (ms !== undefined) start.set(pid, ms);
  }
  return {
    async stop(): Promise<number | undefined> {
      try {
        let total = 0;
        let seen = 0;
        for (const pid of await backends()) {
          const ms = cpuMsOf(pid);
          if (ms === undefined) continue;
          seen += 1;
          // A backend that began during the run counts from zero.
          total += ms - (start.get(pid) ?? 0);
        }
        return seen > 0 ? total : undefined;
      } finally {
        await client.end();
      }
    },
  };
}
