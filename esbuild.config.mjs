// Bundles src/main.ts to main.js (CommonJS), as Obsidian loads community plugins.
// Obsidian, Electron, the CodeMirror/Lezer packages listed below and Node builtins are provided by the app.
import esbuild from 'esbuild';
import { builtinModules } from 'node:module';

const production = process.argv[2] === 'production';
const options = {
  entryPoints: ['src/main.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'es2022',
  outfile: 'main.js',
  sourcemap: production ? false : 'inline',
  treeShaking: true,
  logLevel: 'warning',
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

if (production) {
  await esbuild.build(options);
} else {
  const ctx = await esbuild.context(options);
  await ctx.watch();
}
