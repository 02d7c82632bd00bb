/**
 * Runs one example call per tool against the real plugin and returns what docs/tools.md
 * shows. The plugin runs in the Obsidian host (test/host) over a temporary copy of the demo
 * vault (test/fixtures/demo-vault) plus one skill and one widget, with "Allow writes" on and a `force` key;
 * calls go through the official MCP SDK client over HTTP, in tools/list order, with the
 * arguments of {@link EXAMPLE_CALLS}.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { REGISTRY_DIR_ENV } from '../../src/server/vaults/vault-registry';
import type { PluginClass } from '../bench/plugin-class';
import { EXAMPLE_CALLS, missingExamples, type ExampleArguments } from './example-calls';

/**
 * The demo vault shipped with the repo: `test/fixtures/demo-vault` in the nearest folder above
 * this module that has one (this file runs from scripts/tool-examples/ under Jest and from
 * build/ once bundled).
 * @throws Error when no folder above has it
 */
function demoVault(): string {
  for (let dir = __dirname; ; dir = nodePath.dirname(dir)) {
    const candidate = nodePath.join(dir, 'test', 'fixtures', 'demo-vault');
    if (existsSync(candidate)) return candidate;
    if (nodePath.dirname(dir) === dir)
      throw new Error(`No test/fixtures/demo-vault above ${__dirname}: run from a checkout of the repository.`);
  }
}

/** Every file of the vault copy gets this modification time, so "newest first" lists keep one order (ms since epoch). */
const FIXED_MTIME = new Date('2026-02-02T09:00:00Z');

/** The skill added to the vault copy, so `skills_list` and `skill_read` have one to show. */
const SKILL_PATH = 'Skills/weekly-review/SKILL.md';
const SKILL_TEXT = [
  '---',
  'name: Weekly review',
  "description: Sort the Inbox into projects and areas, then write the week's review note.",
  '---',
  '1. `list_notes` with `folder: "Inbox"`; for each capture, decide its project or area.',
  '2. Write `Inbox/Weekly review.md` with what was done and what comes next.',
  '',
].join('\n');

/** The widget added to the vault copy, so `widget_list` has one to show. */
const WIDGET_PATH = 'Widgets/reading-board.html';
const WIDGET_TEXT = [
  '<!doctype html><html><head>',
  '<script type="application/json" id="vault-mcp-widget">',
  '{"name": "Reading board", "description": "Books on the reading list with their status.", "query": "WHERE file.folder under \\"Reference\\" SORT file.name LIMIT 20 COLUMNS title, status"}',
  '</script></head><body><ul id="books"></ul></body></html>',
  '',
].join('\n');

/** The note the user has open in the editor during the `active_note` example, and the text selected in it. */
const ACTIVE_NOTE = 'Home.md';
const ACTIVE_SELECTION = 'New captures go to [[Inbox]].';

/** One tool's example: its tools/list entry and the call's outcome. */
export interface ToolExample {
  name: string;
  description: string;
  arguments: ExampleArguments;
  /** The tools/list `outputSchema`, for the tools that declare one. */
  outputSchema?: unknown;
  /** `structuredContent` of the result (else the parsed text content). */
  result: unknown;
}

/** The outcome of a run: the examples in tools/list order and the vault copy's folder (to mask in results). */
export interface ToolExampleRun {
  examples: ToolExample[];
  vaultDir: string;
}

/**
 * Copies the demo vault to a new temp folder, adds the example skill and widget and sets every file's
 * modification time to {@link FIXED_MTIME}.
 * @returns the folder
 */
async function prepareVault(): Promise<string> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-examples-'));
  try {
    await fsp.cp(demoVault(), dir, { recursive: true });
    await fsp.mkdir(nodePath.join(dir, nodePath.dirname(SKILL_PATH)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, SKILL_PATH), SKILL_TEXT);
    await fsp.mkdir(nodePath.join(dir, nodePath.dirname(WIDGET_PATH)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, WIDGET_PATH), WIDGET_TEXT);
    for (const entry of await fsp.readdir(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) await fsp.utimes(nodePath.join(entry.parentPath, entry.name), FIXED_MTIME, FIXED_MTIME);
    }
  } catch (error) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/**
 * Boots `Plugin` on a prepared copy of the demo vault, lists the tools and calls each with its
 * example arguments, then stops the plugin and removes the copy.
 * @param Plugin the plugin class (src/main's VaultMcpPlugin, or main.js's default export)
 * @param calls example arguments by tool name (default {@link EXAMPLE_CALLS})
 * @throws Error naming the tools of tools/list that have no example (add them to
 *   scripts/tool-examples/example-calls.ts), or the tool whose example call failed with its error text
 */
export async function runToolExamples(
  Plugin: PluginClass,
  calls: Readonly<Record<string, ExampleArguments>> = EXAMPLE_CALLS,
): Promise<ToolExampleRun> {
  const vaultDir = await prepareVault();
  // A registry of open vaults of its own, so `vaults` lists this vault alone whatever else ran in this process.
  const previousRegistry = process.env[REGISTRY_DIR_ENV];
  const registryDir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-examples-registry-'));
  process.env[REGISTRY_DIR_ENV] = registryDir;
  const cleanup = async (): Promise<void> => {
    if (previousRegistry === undefined) delete process.env[REGISTRY_DIR_ENV];
    else process.env[REGISTRY_DIR_ENV] = previousRegistry;
    await fsp.rm(registryDir, { recursive: true, force: true });
    await fsp.rm(vaultDir, { recursive: true, force: true });
  };
  const booted = await bootPlugin(Plugin, {
    vaultPath: vaultDir,
    mode: 'force',
    allowWrites: true,
    label: 'Docs examples',
    token: 'docs-examples-token-0000',
  }).catch(async (error: unknown) => {
    await cleanup();
    throw error;
  });
  let client: Client | null = null;
  try {
    client = await connectClient(booted.url, booted.token, 'vault-mcp-docs');
    const { tools } = await client.listTools();
    const missing = missingExamples(
      tools.map((t) => t.name),
      calls,
    );
    if (missing.length > 0) {
      throw new Error(
        `No example call for tool${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')}: add a line \`${missing[0]}: { ...arguments },\` to EXAMPLE_CALLS in scripts/tool-examples/example-calls.ts.`,
      );
    }
    const active = booted.app.vault.getFileByPath(ACTIVE_NOTE);
    if (!active) throw new Error(`The demo vault has no ${ACTIVE_NOTE} to open for the active_note example.`);
    const start = (await booted.app.vault.read(active)).indexOf(ACTIVE_SELECTION);
    if (start < 0)
      throw new Error(
        `${ACTIVE_NOTE} no longer contains "${ACTIVE_SELECTION}", the text the active_note example selects: update ACTIVE_SELECTION in scripts/tool-examples/generate.ts.`,
      );
    await booted.app.workspace.setActiveNote(active, { anchor: start, head: start + ACTIVE_SELECTION.length });
    const examples: ToolExample[] = [];
    for (const tool of tools) {
      const args = calls[tool.name]!;
      const result = await client.callTool({ name: tool.name, arguments: args });
      const content = result.content as Array<{ type: string; text?: string }>;
      const text = content.find((c) => c.type === 'text')?.text ?? '';
      if (result.isError)
        throw new Error(`The example call of "${tool.name}" failed (fix its arguments in scripts/tool-examples/example-calls.ts): ${text}`);
      examples.push({
        name: tool.name,
        description: tool.description ?? '',
        arguments: args,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        result: result.structuredContent ?? JSON.parse(text),
      });
    }
    return { examples, vaultDir };
  } finally {
    await client?.close();
    await booted.stop();
    await cleanup();
  }
}
