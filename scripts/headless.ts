/**
 * The headless runner behind `npm start`: runs the built plugin (main.js) inside the
 * Obsidian host (test/host) over a vault folder and serves MCP on 127.0.0.1 for real
 * clients. Bundled by scripts/start.mjs; `require('obsidian')` in main.js gets the host.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type * as O from 'obsidian';
import { provideObsidianModule } from './obsidian-module';
import { bootPlugin, type BootablePlugin } from '../test/harness/boot-plugin';
import { API_KEY_ENV, parseRunOptions, USAGE, type RunOptions } from './run-options';
import { prepareVault, rootProblems, stopRun } from './run-vault';
import { semanticStatusLine, startupLines } from './run-banner';
import { applyRunFlags, newToken, readRunSettings, RUN_KEY_LABEL, runSecrets, RunInputError, type RunSettings } from './run-settings';
import type { SemanticIndex, SemanticStatus } from '../src/search/semantic/semantic-index';
import type { VaultMcpSettings } from '../src/settings/settings';
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
  provideObsidianModule();
  const vault = await prepareVault(options.vault, nodePath.resolve(__dirname, '../test/fixtures/demo-vault'));
  /** Ends a run that never started: the temporary copy goes, the message is printed. */
  const refuse = async (message: string, code: number): Promise<never> => {
    if (vault.temporary) await fsp.rm(vault.dir, { recursive: true, force: true });
    console.error(message);
    process.exit(code);
  };
  const apiKey = process.env[API_KEY_ENV]?.trim() || null;
  let run: RunSettings;
  let settings: VaultMcpSettings;
  try {
    run = await readRunSettings(options, vault.dir);
    settings = applyRunFlags(run.settings, options, apiKey, run.source);
  } catch (error) {
    if (!(error instanceof RunInputError)) throw error;
    return refuse(`vault-mcp: ${error.message}`, 2);
  }
  const badRoots = await rootProblems(vault.dir, options.roots, options.configDir, settings.access.quarantine);
  if (badRoots.length) return refuse(badRoots.join('\n'), 2);
  const port = options.port ?? settings.server.port;
  if (port !== 0 && (await portTaken(port))) return refuse(`vault-mcp: ${portTakenAdvice(port)}`, 1);
  const mainJs = nodePath.resolve(__dirname, '../main.js');
  const PluginClass = (require(mainJs) as { default: new (app: O.App, manifest: O.PluginManifest) => BootablePlugin }).default;
  const token = options.token ?? newToken();
  const { secrets, tokens } = runSecrets(settings.keys, apiKey);
  const booted = await bootPlugin(PluginClass, {
    vaultPath: vault.dir,
    configDir: options.configDir,
    port,
    token,
    label: RUN_KEY_LABEL,
    mode: options.mode,
    roots: options.roots,
    secrets,
    configure: (seeded) => {
      // The run's own key first (made by bootPlugin from --token, --mode, --roots), then the settings' keys.
      const keys = [...seeded.keys, ...settings.keys];
      Object.assign(seeded, structuredClone(settings), { keys });
    },
  }).catch(async (error: unknown) => {
    if (vault.temporary) await fsp.rm(vault.dir, { recursive: true, force: true });
    // Taken between the check above and the plugin's listen: the terminal's advice, not the settings tab's.
    if (port !== 0 && (await portTaken(port))) throw new Error(portTakenAdvice(port));
    throw error;
  });
  if (options.conformanceFixtures) (booted.plugin as unknown as { server: { addOns: SessionAddOn[] } }).server.addOns.push(conformanceFixtures);
  for (const line of startupLines(options, booted.url, token, vault, { ...run, settings, tokens })) console.log(line);
  reportSemanticIndex((booted.plugin as unknown as { semantic: SemanticIndex }).semantic, settings);
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
 * Prints a line each time the semantic index reaches another state a user acts on (built,
 * paused, off; see semanticStatusLine), when the settings turn it on; its current state first,
 * since it may have changed before the server listened.
 */
function reportSemanticIndex(semantic: SemanticIndex, settings: VaultMcpSettings): void {
  if (!settings.ai.enabled || !settings.ai.semanticIndex) return;
  let last = '';
  const print = (status: SemanticStatus): void => {
    const line = semanticStatusLine(status);
    if (line === null || status.state === last) return;
    last = status.state;
    console.log(line);
  };
  print(semantic.current);
  semantic.onStatus(print);
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
