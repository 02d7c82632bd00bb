// `npm run test:load`: bundles scripts/load/load.ts (the runner) and scripts/load/load-server.ts
// (its server child) with the Obsidian host, then runs the runner over the built main.js.
// autocannon stays external (its worker files are loaded by path).
import esbuild from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  alias: { obsidian: path.join(root, 'test', 'host', 'index.ts') },
  external: ['autocannon', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
};
await esbuild.build({
  ...common,
  entryPoints: [path.join(root, 'scripts', 'load', 'load-server.ts')],
  outfile: path.join(root, 'build', 'load-server.cjs'),
});
await esbuild.build({
  ...common,
  entryPoints: [path.join(root, 'scripts', 'load', 'load.ts')],
  outfile: path.join(root, 'build', 'load.cjs'),
});
createRequire(import.meta.url)(path.join(root, 'build', 'load.cjs'));
