import * as path from 'node:path';
import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Node builtins are not in a browser; modules the tab imports only for types or lazily
 * (node:crypto in hashes, node:http in the server) get an empty module instead.
 */
const stubNodeBuiltins: Plugin = {
  name: 'stub-node-builtins',
  setup(build) {
    const names = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    build.onResolve({ filter: /.*/ }, (args) => (names.has(args.path) ? { path: args.path, namespace: 'node-stub' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'node-stub' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/**
 * Bundles test/browser/tab-entry.ts for Chromium with esbuild: `obsidian` resolves to the
 * host (test/host/index.ts), as under Jest.
 * @returns the bundled script (an IIFE)
 * @throws esbuild's error when the bundle does not build
 */
export async function bundleSettingsTab(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(ROOT, 'test/browser/tab-entry.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    alias: { obsidian: path.join(ROOT, 'test/host/index.ts') },
    define: { 'process.env.JEST_WORKER_ID': '"browser"', 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    plugins: [stubNodeBuiltins],
    // Host modules read `process` (platform, env) at load; a browser has none.
    banner: { js: "var process = { env: { JEST_WORKER_ID: 'browser' }, platform: 'linux', versions: {}, cwd: () => '/', nextTick: (f, ...a) => queueMicrotask(() => f(...a)) };" },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
