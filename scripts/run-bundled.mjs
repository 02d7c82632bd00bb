// Bundles a TypeScript entry of scripts/ together with the Obsidian host (test/host, which
// the entry's own 'obsidian' imports resolve to) and runs it in this Node process.
import esbuild from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string} entry file name under scripts/, e.g. "headless.ts" */
export async function runBundled(entry) {
  const outfile = path.join(root, 'build', entry.replace(/\.ts$/, '.cjs'));
  await esbuild.build({
    entryPoints: [path.join(root, 'scripts', entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    alias: { obsidian: path.join(root, 'test', 'host', 'index.ts') },
    external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
  });
  createRequire(import.meta.url)(outfile);
}
