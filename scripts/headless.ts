/**
 * The headless runner behind `npm start`: runs the built plugin (main.js) inside the
 * Obsidian host (test/host) over a vault folder and serves MCP on 127.0.0.1 for real
 * clients. Bundled by scripts/start.mjs; `require('obsidian')` in main.js gets the host.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type * as O from 'obsidian';
import { provideObsidianModule } from './obsidian-module';
import { bootPlugin, type BootablePlugin } from '../test/harness/boot-plugin';
import { parseRunOptions, USAGE, type RunOptions } from './run-options';
import { portTaken, portTakenAdvice } from './port-check';
import { clientSnippets } from '../src/ui/settings/client-snippets';
import { createInterface } from 'node:readline';
import type { SessionAddOn } from '../src/server/content/session-add-on';
import { conformanceFixtures } from '../test/conformance-fixtures';
import { REVIEW_COMMANDS_HELP, runReviewCommand, type ReviewCommandTarget } from '../src/ui/review/review-commands';

async function prepareVault(options: RunOptions): Promise<{ dir: string; temporary: boolean }> {
  if (options.vault) {
    const dir = nodePath.resolve(options.vault);
    const stat = await fsp.stat(dir).catch(() => null);
    if (!stat?.isDirectory()) throw new Error(`--vault ${options.vault}: no such folder; pass the folder that holds your notes.`);
    return { dir, temporary: false };
  }
  const source = nodePath.resolve(__dirname, '../test/fixtures/demo-vault');
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-demo-'));
  await fsp.cp(source, dir, { recursive: true });
  return { dir, temporary: true };
}

/** Every client's setup from the settings tab's "Connect a client" section, indented for a terminal. */
function clientLines(url: string, token: string): string[] {
  return clientSnippets(url, token).flatMap((snippet) => [
    `${snippet.title}: ${snippet.where}`,
    ...snippet.text.split('\n').map((line) => `  ${line}`),
  ]);
}

async function main(): Promise<void> {
  let options: RunOptions;
  try {
    options = parseRunOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  if (options.port !== 0 && (await portTaken(options.port))) {
    console.error(`vault-mcp: ${portTakenAdvice(options.port)}`);
    process.exit(1);
  }
  provideObsidianModule();
  const vault = await prepareVault(options);
  const mainJs = nodePath.resolve(__dirname, '../main.js');
  const PluginClass = (require(mainJs) as { default: new (app: O.App, manifest: O.PluginManifest) => BootablePlugin }).default;
  const token = options.token ?? `vmcp_${randomBytes(32).toString('base64url')}`;
  const booted = await bootPlugin(PluginClass, {
    vaultPath: vault.dir,
    port: options.port,
    token,
    label: 'npm start',
    mode: options.mode,
    allowWrites: options.allowWrites,
    roots: options.roots,
  }).catch(async (error: unknown) => {
    if (vault.temporary) await fsp.rm(vault.dir, { recursive: true, force: true });
    // Taken between the check above and the plugin's listen: the terminal's advice, not the settings tab's.
    if (options.port !== 0 && (await portTaken(options.port))) throw new Error(portTakenAdvice(options.port));
    throw error;
  });
  if (options.conformanceFixtures) (booted.plugin as unknown as { server: { addOns: SessionAddOn[] } }).server.addOns.push(conformanceFixtures);
  console.log(`MCP server listening on ${booted.url}`);
  console.log(`Vault: ${vault.dir}${vault.temporary ? ' (a temporary copy of the demo vault)' : ''}`);
  console.log(`Key "npm start": mode ${options.mode}, writes ${options.allowWrites ? 'allowed' : 'off'}${options.roots.length ? `, roots ${options.roots.join(', ')}` : ''}`);
  if (!options.token) console.log(`Token (shown once): ${token}`);
  for (const line of clientLines(booted.url, token)) console.log(line);
  console.log(`Review proposals here (propose mode). ${REVIEW_COMMANDS_HELP}`);
  console.log('Press Ctrl-C to stop.');
  reviewFromStdin(booted.plugin as unknown as ReviewCommandTarget);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await booted.stop();
    if (vault.temporary) await fsp.rm(vault.dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/**
 * Reads review commands from standard input, one per line (`proposals`, `show <id>`,
 * `accept <id> [hunk]`, `reject <id> [hunk]`), and prints each answer: the terminal stand-in
 * for the editor's inline review. End of input leaves the server running.
 */
function reviewFromStdin(target: ReviewCommandTarget): void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(async () => {
      const answer = await runReviewCommand(target, line);
      if (answer) console.log(answer);
    });
  });
}

main().catch((error) => {
  console.error(`vault-mcp: ${(error as Error).message}`);
  process.exit(1);
});
