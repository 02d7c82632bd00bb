// `npm start`: runs the headless runner (scripts/headless.ts) over the built main.js.
import { runBundled } from './run-bundled.mjs';

await runBundled('headless.ts');
