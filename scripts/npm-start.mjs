// `npm start`: builds main.js (as `npm run build` does) and runs the headless runner over it, in
// this one Node process, so no `&&` chain sits between npm and the runner (a shell running one
// command may hand it the process; either way the runner watches npm: scripts/start/run-signals.ts).
import { buildAtomically } from './bundle/build-atomically.mjs';
import { mainBundleOptions } from './bundle/options.mjs';

await buildAtomically(mainBundleOptions(true));
await import('./start.mjs');
