// The entry of a super-resolution worker thread. Node 20 does not run TypeScript, and tsx's
// loader (`--import tsx`, or `register()` as scripts/start.mjs does) only hooks the main thread
// there; registering tsx again inside the thread makes `upscale-worker.ts` loadable whether the
// process runs under tsx, `npm start` or vitest.
import { register } from 'tsx/esm/api';

register();
await import('./upscale-worker.ts');
