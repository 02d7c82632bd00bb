// Bundles a TypeScript entry of scripts/ together with the Obsidian host (test/host, which
// the entry's own 'obsidian' imports resolve to) and runs it in this Node process. Entries
// the runner forks as child processes are bundled beside it into build/ first.
import { buildAtomically } from './bundle/build-atomically.mjs';
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {string} entry file under scripts/, e.g. "start/headless.ts" or "bench/scaling/scaling-row.ts"
 * @returns {Promise<string>} the bundle's absolute path, build/<its name>.cjs
 */
export async function bundle(entry) {
  const outfile = path.join(root, 'build', path.basename(entry).replace(/\.ts$/, '.cjs'));
  await buildAtomically({
    entryPoints: [path.join(root, 'scripts', entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    alias: {
      obsidian: path.join(root, 'test', 'host', 'index.ts'),
      // jsonc-parser's `main` is a UMD build that requires its parts at run time, which a bundle cannot resolve: its ES build.
      'jsonc-parser': path.join(root, 'node_modules', 'jsonc-parser', 'lib', 'esm', 'main.js'),
    },
    // playwright-core (the browser tests' Chromium driver, which a profiler launches too) is loaded from node_modules as it is.
    external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'playwright-core'],
  });
  return outfile;
}

/**
 * @param {string} entry file name under scripts/, e.g. "start/headless.ts"
 * @param {string[]} [children] entries under scripts/ that the runner forks (each to build/<name>.cjs)
 */
export async function runBundled(entry, children = []) {
  for (const child of children) await bundle(child);
  createRequire(import.meta.url)(await bundle(entry));
}
