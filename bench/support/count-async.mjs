// Preloaded (`node --import`) into a server the request-work benchmark measures: counts every
// async resource the process creates, by type (PROMISE, TickObject, Timeout…), and writes the
// totals as JSON to $COUNT_ASYNC_FILE on SIGUSR2. It loads before the server's own modules, so
// its hook sees every resource from the first.
import { createHook } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';

const counts = {};
createHook({
  init(_id, type) {
    counts[type] = (counts[type] ?? 0) + 1;
  },
}).enable();
process.on('SIGUSR2', () => {
  writeFileSync(process.env.COUNT_ASYNC_FILE, JSON.stringify(counts));
});
