// `node scripts/profile-chromium.mjs [notes] [--only node|chromium] [--trace-gc]`: see scripts/profile/profile-chromium.ts.
// The probe's page bundle (build/runtime-probe-page.js: an IIFE exposing `runtimeProbe.runProbe`, with
// `node:vm` and `node:util` stubbed, which a page lacks and the probe never reaches (scripts/profile/stubs/),
// and `obsidian` the test host's frontmatter functions) is built here first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAtomically } from './bundle/build-atomically.mjs';
import { runBundled } from './run-bundled.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await buildAtomically({
  entryPoints: [path.join(root, 'scripts', 'profile', 'runtime-probe.ts')],
  bundle: true,
  platform: 'browser',
  format: 'iife',
  globalName: 'runtimeProbe',
  target: 'es2022',
  outfile: path.join(root, 'build', 'runtime-probe-page.js'),
  logLevel: 'warning',
  alias: {
    'node:vm': path.join(root, 'scripts', 'profile', 'stubs', 'node-vm.ts'),
    'node:util': path.join(root, 'scripts', 'profile', 'stubs', 'node-util.ts'),
    // Obsidian's functions the engine's text code calls (getFrontMatterInfo), as the test host has them.
    obsidian: path.join(root, 'test', 'host', 'markdown', 'frontmatter.ts'),
  },
});
await runBundled('profile/profile-chromium.ts', ['profile/runtime-probe-node.ts']);
