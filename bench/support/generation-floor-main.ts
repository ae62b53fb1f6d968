// The generation floor (support/generation-floor.ts) as a process of its own, for benchmarks that
// measure a server from outside (bench/request-work.ts): DATABASE_URL and AUTH_SECRET from the
// environment; prints `listening <url>` once it answers, and closes on SIGTERM.
import { startGenerationFloor } from './generation-floor.ts';

const floor = await startGenerationFloor({
  databaseUrl: process.env.DATABASE_URL!,
  secret: process.env.AUTH_SECRET!,
  engine: 'local',
  isPreview: true,
});
console.log(`listening ${floor.url}`);
process.once('SIGTERM', () => void floor.close().then(() => process.exit(0)));
