// The entry of an image analysis worker thread (faces, NSFW, variety; see analysis.ts). As with
// upscale-worker-entry.mjs: Node 20 does not run TypeScript, and tsx's loader only hooks the main
// thread there; registering tsx again inside the thread makes `analysis-worker.ts` loadable
// whether the process runs under tsx, `npm start` or vitest.
import { register } from 'tsx/esm/api';

register();
await import('./analysis-worker.ts');
