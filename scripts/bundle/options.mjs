// esbuild options for main.js, shared by esbuild.config.mjs (npm run build / dev) and
// scripts/check-bundle.mjs (the size budget in npm test), so both measure the same bundle.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The MCP SDK's server package imports its runtime shim, `@modelcontextprotocol/server/_shims`,
 * whose Node build brings an ajv-backed JSON Schema validator (ajv, ajv-formats, fast-uri:
 * about 150 KB minified) that the SDK only uses to check a client's answer to a form
 * elicitation or to compile a raw JSON Schema. Vault MCP does neither, so the bundle resolves
 * that shim to scripts/bundle/elicitation-validator.mjs, which keeps the shim's exports and
 * refuses with a clear error. Tests under Jest still load the real shim.
 * @type {import('esbuild').Plugin}
 */
const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: path.join(root, 'scripts', 'bundle', 'elicitation-validator.mjs'),
    }));
  },
};

/**
 * Options for bundling src/main.ts to main.js (CommonJS, as Obsidian loads community plugins).
 * Obsidian, Electron, the CodeMirror/Lezer packages listed below and Node builtins are
 * provided by the app. Production is minified and tree-shaken without a source map; dev
 * keeps names and an inline source map.
 * @param {boolean} production
 * @returns {import('esbuild').BuildOptions}
 */
export function mainBundleOptions(production) {
  return {
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'es2022',
    outfile: 'main.js',
    sourcemap: production ? false : 'inline',
    minify: production,
    treeShaking: true,
    logLevel: 'warning',
    plugins: [withoutAjv],
    external: [
      'obsidian',
      'electron',
      // The CodeMirror and Lezer packages Obsidian provides at runtime (one shared copy with
      // its editor), one by one; anything else is bundled.
      '@codemirror/autocomplete',
      '@codemirror/collab',
      '@codemirror/commands',
      '@codemirror/language',
      '@codemirror/lint',
      '@codemirror/search',
      '@codemirror/state',
      '@codemirror/view',
      '@lezer/common',
      '@lezer/highlight',
      '@lezer/lr',
      ...builtinModules,
      ...builtinModules.map((m) => `node:${m}`),
    ],
  };
}
