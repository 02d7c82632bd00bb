// `npm run lint`: Obsidian's review rules (eslint-plugin-obsidianmd's recommended config, which
// brings @eslint/js, typescript-eslint's type-checked recommended rules and the plugin's own,
// such as no-unsupported-api against manifest.json's minAppVersion) on src/, with zero warnings
// allowed (`eslint --max-warnings 0`). scripts/ and test/ get the untyped recommended rules
// only: they run in Node and the test host, not in Obsidian.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Code that also runs outside Obsidian, in plain Node (npm start, npm run bench, Jest's node environment). */
const RUNS_IN_NODE_TOO = ['src/server/**', 'src/search/**', 'src/vault/**', 'src/ai/**', 'src/activity/**'];

export default defineConfig([
  { ignores: ['main.js', 'build/**', 'coverage/**', 'node_modules/**', 'docs/**', 'types/**', 'jest.config.js'] },
  {
    files: ['src/**/*.ts'],
    extends: [obsidianmd.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'obsidianmd/ui/sentence-case': [
        'warn',
        {
          enforceCamelCaseLower: true,
          brands: ['Vault MCP', 'Claude Code', 'Obsidian', 'OpenAI', 'Ollama', 'Anthropic', 'Cursor'],
          acronyms: ['MCP', 'AI', 'API', 'URL'],
        },
      ],
      // Zod's named `z` export drags every locale into main.js (about +350 KB, past the size budget).
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message: "Write `import * as z from 'zod'`: the named z export bundles every Zod locale (+350 KB).",
        },
      ],
    },
  },
  {
    // Timers here are not tied to a window's DOM, and `window` does not exist when this code
    // runs in Node, so obsidianmd/prefer-window-timers' `window.setTimeout` would break it.
    files: RUNS_IN_NODE_TOO,
    rules: { 'obsidianmd/prefer-window-timers': 'off' },
  },
  {
    // The MCP SDK marks its low-level `Server` deprecated in favour of McpServer "for the
    // high-level API"; we need the low-level one (our own tools/list and tools/call with
    // per-key filtering and checked request schemas), which the SDK keeps supported.
    files: [
      'src/server/session/checked-server.ts',
      'src/server/http/mcp-http-server.ts',
      'src/server/session/mcp-session.ts',
      'src/server/content/session-content.ts',
    ],
    rules: { '@typescript-eslint/no-deprecated': 'off' },
  },
  {
    // minAppVersion is 1.11.4, so the tab must keep display() (obsidianmd/settings-tab/require-display);
    // the declarative getSettingDefinitions() API is 1.13.0+. Revisit when minAppVersion reaches 1.13.
    files: ['src/ui/settings/settings-tab.ts'],
    rules: { '@typescript-eslint/no-deprecated': 'off', 'obsidianmd/settings-tab/prefer-setting-definitions': 'off' },
  },
  {
    // delete_note deliberately sends an agent's deletion to the system trash (else .trash), never a
    // permanent delete even when the user's own preference is "permanently delete" (README, tools).
    // Reverting an agent's create (the removed empty folder, the removed widget) goes the same way.
    files: ['src/vault/writes/entry-writer.ts', 'src/vault/writes/folder-removal.ts', 'src/vault/widgets/widget-store.ts'],
    rules: { 'obsidianmd/prefer-file-manager-trash-file': 'off' },
  },
  {
    // editor/ draws with plain DOM calls so it needs no Obsidian globals (its unit tests run on bare
    // jsdom, issue 21); the element is made in the editor's own document, so popouts still work.
    files: ['src/editor/dom.ts'],
    rules: { 'obsidianmd/prefer-create-el': 'off' },
  },
  {
    // The activity hint's refresh timer and the log's look at another instance's writes
    // and at the proposals another instance staged (the two register.ts), and the save-back of a
    // data.json a sync left without settings (external-change.ts), also run in Node hosts (npm start's,
    // the tests'), where `window` does not exist.
    files: [
      'src/ui/activity/activity-status-bar.ts',
      'src/ui/activity/register.ts',
      'src/ui/review/register.ts',
      'src/ui/settings/external-change.ts',
    ],
    rules: { 'obsidianmd/prefer-window-timers': 'off' },
  },
  {
    files: ['scripts/**/*.{ts,mjs}', 'test/**/*.ts', '*.mjs'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      // Parameters kept for a signature's sake (the host mirrors obsidian.d.ts) start with _.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The bench and the headless runner require the built main.js by a computed path at run time.
    files: ['scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The host implements obsidian.d.ts, whose signatures use `any`; tests read JSON results freely.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
]);
