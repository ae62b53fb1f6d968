// The entry of an image thread (see image-threads.ts). Node 20 does not run TypeScript, and
// tsx's loader (`--import tsx`, or `register()` as scripts/start.mjs does) only hooks the main
// thread there; registering tsx again inside the thread makes `image-worker.ts` loadable whether
// the process runs under tsx or vitest. The server's build compiles `image-worker.ts` to this
// file's name instead (scripts/build-server.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./image-worker.ts');
