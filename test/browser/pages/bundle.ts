import * as path from 'node:path';
import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * `randomBytes(n).toString('hex')` over the browser's Web Crypto, the one node:crypto call
 * made on the pages (ProposalStore's proposal ids). Other encodings throw.
 */
const CRYPTO_STUB = `module.exports = {
  randomBytes(n) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(n));
    return { toString(encoding) {
      if (encoding !== 'hex') throw new Error('The browser stand-in for node:crypto gives hex only.');
      return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    } };
  },
};`;

/**
 * Node builtins are not in a browser; modules the pages import only for types or lazily
 * (node:http in the server, createHash in hashes) get an empty module instead, except
 * node:crypto's randomBytes (CRYPTO_STUB).
 */
const stubNodeBuiltins: Plugin = {
  name: 'stub-node-builtins',
  setup(build) {
    const names = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    build.onResolve({ filter: /.*/ }, (args) => (names.has(args.path) ? { path: args.path, namespace: 'node-stub' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'node-stub' }, (args) => ({
      contents: args.path.replace(/^node:/, '') === 'crypto' ? CRYPTO_STUB : 'module.exports = {};',
      loader: 'js',
    }));
  },
};

/**
 * Bundles test/browser/tab-entry.ts (the settings tab) for Chromium; see {@link bundleHostPage}.
 * @returns the bundled script (an IIFE)
 * @throws esbuild's error when the bundle does not build
 */
export function bundleSettingsTab(): Promise<string> {
  return bundleHostPage('tab-entry.ts');
}

/**
 * Bundles a browser entry of test/browser for Chromium with esbuild: `obsidian` resolves to
 * the host (test/host/index.ts), as under Jest, and Node builtins to stubs.
 * @param entry the entry's file name in test/browser, e.g. `pending-entry.ts`.
 * @returns the bundled script (an IIFE)
 * @throws esbuild's error when the bundle does not build
 */
export async function bundleHostPage(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    alias: { obsidian: path.join(ROOT, 'test/host/index.ts') },
    define: { 'process.env.JEST_WORKER_ID': '"browser"', 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    plugins: [stubNodeBuiltins],
    // Host modules read `process` (platform, env) at load; a browser has none.
    banner: {
      js: "var process = { env: { JEST_WORKER_ID: 'browser' }, platform: 'linux', versions: {}, cwd: () => '/', nextTick: (f, ...a) => queueMicrotask(() => f(...a)) };",
    },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
