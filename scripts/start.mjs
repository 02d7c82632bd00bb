// `npm start`: runs the headless runner (scripts/start/headless.ts) over the built main.js.
import { runBundled } from './run-bundled.mjs';

await runBundled('start/headless.ts');
