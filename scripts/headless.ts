/**
 * The headless runner behind `npm start`: runs the built plugin (main.js) inside the
 * Obsidian host (test/host) over a vault folder and serves MCP on 127.0.0.1 for real
 * clients. Bundled by scripts/start.mjs; `require('obsidian')` in main.js gets the host.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type * as O from 'obsidian';
import { provideObsidianModule } from './obsidian-module';
import { bootPlugin, type BootablePlugin } from '../test/harness/boot-plugin';
import { parseRunOptions, USAGE, type RunOptions } from './run-options';
import { prepareVault, rootProblems, stopRun } from './run-vault';
import { startupLines } from './run-banner';
import { portTaken, portTakenAdvice } from './port-check';
import { createInterface } from 'node:readline';
import type { SessionAddOn } from '../src/server/content/session-add-on';
import { conformanceFixtures } from '../test/conformance-fixtures';
import { runReviewCommand, type ReviewCommandTarget } from '../src/ui/review/review-commands';
import { ACTIVITY_COMMANDS_HELP, runActivityCommand, type ActivityCommandTarget } from '../src/ui/activity/activity-commands';

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
  const vault = await prepareVault(options.vault, nodePath.resolve(__dirname, '../test/fixtures/demo-vault'));
  const badRoots = await rootProblems(vault.dir, options.roots);
  if (badRoots.length) {
    if (vault.temporary) await fsp.rm(vault.dir, { recursive: true, force: true });
    console.error(badRoots.join('\n'));
    process.exit(2);
  }
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
  for (const line of startupLines(options, booted.url, token, vault)) console.log(line);
  reviewFromStdin(booted.plugin as unknown as ReviewCommandTarget & ActivityCommandTarget);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const server = (booted.plugin as unknown as { server: { stop(): Promise<void> } }).server;
    // The server's own stop first and awaited (running calls get its grace, then connections
    // close): the plugin's unload starts it without waiting, so the copy could go while writes land.
    // The activity log writes its file shortly after each change: let the last write land before the process exits.
    const activity = (booted.plugin as unknown as ActivityCommandTarget).activity;
    const unload = async (): Promise<void> => {
      try {
        await activity.whenSaved();
      } finally {
        await booted.stop();
      }
    };
    const ok = await stopRun({ stopServer: () => server.stop(), unload }, vault, (message) => console.error(`vault-mcp: ${message}`));
    process.exit(ok ? 0 : 1);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/**
 * Reads review commands from standard input, one per line (`proposals`, `show <id>`,
 * `accept <id> [hunk]`, `reject <id> [hunk]`; `activity [id]` and `revert ...` for the agent
 * activity log), and prints each answer: the terminal stand-in for the editor's inline review
 * and the Agent activity view. End of input leaves the server running.
 */
function reviewFromStdin(target: ReviewCommandTarget & ActivityCommandTarget): void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(async () => {
      const answer = (await runActivityCommand(target, line)) ?? (await runReviewCommand(target, line));
      if (answer) console.log(line.trim() === 'help' ? `${answer}\n${ACTIVITY_COMMANDS_HELP}` : answer);
    });
  });
}

main().catch((error) => {
  console.error(`vault-mcp: ${(error as Error).message}`);
  process.exit(1);
});
