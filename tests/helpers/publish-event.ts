// Publishes events from a process of its own, as a worker would, so a test can prove that
// Postgres carries them to SSE streams held by other processes.
//
//   DATABASE_URL=postgres://… node --import tsx tests/helpers/publish-event.ts <userId> '<eventJson>' […]
//
// Pairs of arguments are published in order; without arguments USER_ID and EVENT_JSON are read
// from the environment.
import { appEventSchema } from '../../src/common/api/events.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { createPostgresEventBus } from '../../src/server/features/events/event-bus.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

const args = process.argv.slice(2);
const pairs: [string, string][] = [];
for (let i = 0; i + 1 < args.length; i += 2) pairs.push([args[i]!, args[i + 1]!]);
if (pairs.length === 0) {
  const { USER_ID, EVENT_JSON } = process.env;
  if (!USER_ID || !EVENT_JSON)
    throw new Error('give <userId> <eventJson> or USER_ID and EVENT_JSON');
  pairs.push([USER_ID, EVENT_JSON]);
}

const database = await openDatabase({ url: databaseUrl, poolSize: 1, embeddedDir: '' });
const bus = createPostgresEventBus(database.notifications!);
await bus.start();
try {
  // Sequential on one connection, so the streams see them in this order.
  for (const [userId, json] of pairs)
    await bus.publish(userId, appEventSchema.parse(JSON.parse(json)));
} finally {
  await bus.close();
  await database.close();
}
process.exit(0);
