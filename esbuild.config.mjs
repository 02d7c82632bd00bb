// `npm run build` (production: minified, tree-shaken main.js) and `npm run dev` (watch, with
// an inline source map). The options live in scripts/bundle/options.mjs, shared with the size
// budget check (scripts/check-bundle.mjs).
import esbuild from 'esbuild';
import { buildAtomically } from './scripts/bundle/build-atomically.mjs';
import { mainBundleOptions } from './scripts/bundle/options.mjs';

const production = process.argv[2] === 'production';
const options = mainBundleOptions(production);

if (production) {
  await buildAtomically(options);
} else {
  const ctx = await esbuild.context(options);
  await ctx.watch();
}
