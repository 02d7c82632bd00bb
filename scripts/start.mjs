// `npm start`: bundles the headless runner (the Obsidian host + harness) and runs it.
// main.js is built by esbuild.config.mjs before this script runs (see package.json).
import esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'build', 'headless.cjs');
await esbuild.build({
  entryPoints: [path.join(root, 'scripts', 'headless.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile,
  logLevel: 'warning',
  // The runner's own imports of 'obsidian' (harness, registry) get the same host module.
  alias: { obsidian: path.join(root, 'test', 'host', 'index.ts') },
  external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
});
createRequire(import.meta.url)(outfile);
