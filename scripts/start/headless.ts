/**
 * The headless runner behind `npm start`: runs the built plugin (main.js) inside the
 * Obsidian host (test/host) over a vault folder and serves MCP on 127.0.0.1 for real
 * clients. Bundled by scripts/start.mjs; `require('obsidian')` in main.js gets the host.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type * as O from 'obsidian';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, type BootablePlugin } from '../../test/harness/boot-plugin';
import { API_KEY_ENV, npmKeptFlags, parseRunOptions, runCwd, shownValue, USAGE, type RunOptions } from './run-options';
import { prepareVault, resolveQuarantine, resolveRoots, stopRun, trustedLinkStates } from './run-vault';
import { inputEndedLine, proposalLine, semanticStatusLine, startupLines } from './run-banner';
import { countNotes, formatCount, reportLoading } from './run-progress';
import { handleStopSignals, PARENT_GONE_LINE, watchParent } from './run-signals';
import type { ProposalStore } from '../../src/proposals/store/proposal-store';
import { applyRunFlags, newToken, readRunSettings, RUN_KEY_LABEL, runSecrets, RunInputError, type RunSettings } from './run-settings';
import type { SemanticIndex, SemanticStatus } from '../../src/search/semantic/semantic-index';
import type { VaultMcpSettings } from '../../src/settings/settings';
import { portTaken, portTakenAdvice } from './port-check';
import { createInterface } from 'node:readline';
import type { SessionAddOn } from '../../src/server/content/session-add-on';
import { conformanceFixtures } from '../../test/conformance-fixtures';
import { runReviewCommand, type ReviewCommandTarget } from '../../src/ui/review/review-commands';
import { ACTIVITY_COMMANDS_HELP, runActivityCommand, type ActivityCommandTarget } from '../../src/ui/activity/activity-commands';
import { rootsShown } from '../../src/vault/paths/paths';
import type { NoteStore } from '../../src/vault/note-store';
import { isWithinRoots } from '../../src/vault/access/access-rules';

async function main(): Promise<void> {
  // A terminal that went away (closed window, `| head`: EIO, EPIPE) must not crash the run before it cleans up.
  for (const stream of [process.stdin, process.stdout, process.stderr]) stream.on('error', () => undefined);
  const argv = process.argv.slice(2);
  const kept = npmKeptFlags(argv, process.env);
  if (kept) {
    console.error(`vault-mcp: ${kept}`);
    process.exit(2);
  }
  // Relative paths are the user's: from where `npm start` was typed, not the repository npm runs it in.
  const cwd = runCwd(process.env);
  let options: RunOptions;
  try {
    options = parseRunOptions(argv, cwd);
  } catch (error) {
    // One sentence, as every refusal of the run (docs/npm-start.md); the options are a --help away, not a screenful under it.
    console.error(`vault-mcp: ${(error as Error).message}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  provideObsidianModule();
  const demo = nodePath.resolve(__dirname, '../test/fixtures/demo-vault');
  const vault = await prepareVault(options.vault, demo, options.configDir, undefined, cwd).catch((error: Error) => {
    console.error(`vault-mcp: ${error.message}`);
    return process.exit(2);
  });
  // From here on a signal stops the run and removes the copy, also while a large vault loads.
  let stopBooted: (() => Promise<boolean>) | null = null;
  const report = (message: string): void => console.error(`vault-mcp: ${message}`);
  const noSteps = { stopServer: async () => undefined, unload: async () => undefined };
  const stopper = handleStopSignals(process, vault, {
    stop: () => (stopBooted ? stopBooted() : stopRun(noSteps, vault, report)),
    print: (line) => console.log(line),
    exit: (code) => process.exit(code),
    quiet: () => {
      // No terminal is left to read output: writes to it would fail (EIO) or block.
      console.log = () => undefined;
      console.error = () => undefined;
    },
  });
  // npm passes a SIGTERM to the script's shell, which dies without passing it on (and SIGHUP not at all): stop with it.
  if (process.env.npm_lifecycle_event) watchParent(process.ppid, () => stopper.stopOnce(PARENT_GONE_LINE));
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
    run = await readRunSettings(options, vault.dir, cwd);
    settings = applyRunFlags(run.settings, options, apiKey, run.source);
  } catch (error) {
    if (!(error instanceof RunInputError)) throw error;
    return refuse(`vault-mcp: ${error.message}`, 2);
  }
  const file = options.settings ?? run.source?.path;
  // Quarantine entries are read as the plugin reads them (an absolute path inside the vault is its folder); one that
  // can name no folder stops the run, so the banner never claims a protection that does not hold.
  const quarantine = await resolveQuarantine(
    vault.dir,
    settings.access.quarantine,
    (entry, i) => `vault-mcp: ${file}: access.quarantine[${i}] ${JSON.stringify(entry)}`,
  );
  settings.access.quarantine = quarantine.folders.map((f) => f.folder);
  const quarantined = settings.access.quarantine;
  // Each root takes the spelling of the folder it names (`projects` → `Projects`), as client MCP roots do.
  // As typed (quoted when it has spaces); its outer spaces too when the refusal is about them (`--roots " Sp "`).
  const namedRoot = (root: string, j: number, spaces?: boolean): string => {
    const typed = options.typedRoots?.[j];
    return `vault-mcp: --roots ${typed === undefined ? rootsShown([root]) : shownValue(spaces ? typed : typed.trim())}`;
  };
  const runRoots = await resolveRoots(vault.dir, options.roots, options.configDir, quarantined, namedRoot, options.exactRoots);
  options.roots = runRoots.roots;
  const badRoots = [...quarantine.problems, ...runRoots.problems];
  // A settings key's roots are checked the same way: a missing or quarantined folder would leave it silently seeing nothing.
  for (const [i, key] of settings.keys.entries()) {
    const keyRoots = await resolveRoots(
      vault.dir,
      key.roots,
      options.configDir,
      quarantined,
      (root, j) => `vault-mcp: ${file}: keys[${i}].roots[${j}] "${root}"`,
    );
    badRoots.push(...keyRoots.problems);
    settings.keys[i] = { ...key, roots: keyRoots.roots };
  }
  if (badRoots.length) return refuse(badRoots.join('\n'), 2);
  const port = options.port ?? settings.server.port;
  // Refused before anything starts, as a bad flag is (exit 2): the port given, or the settings' one, cannot be used.
  if (port !== 0 && (await portTaken(port))) return refuse(`vault-mcp: ${portTakenAdvice(port, argv)}`, 2);
  const mainJs = nodePath.resolve(__dirname, '../main.js');
  const PluginClass = (require(mainJs) as { default: new (app: O.App, manifest: O.PluginManifest) => BootablePlugin }).default;
  const token = options.token ?? newToken();
  const { secrets, tokens } = runSecrets(settings.keys, apiKey);
  const notes = vault.temporary
    ? 0
    : await countNotes(vault.dir, options.configDir, (n) => console.log(`Counting notes in ${vault.dir}: ${formatCount(n)} so far…`));
  const booting = bootPlugin(PluginClass, {
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
      // The plugin's notice on each proposal points to the editor and Pending changes; the run prints its own line instead.
      Object.assign(seeded, structuredClone(settings), { keys, proposals: { ...settings.proposals, notifyOnNew: false } });
    },
  });
  const booted = await reportLoading(notes, vault.dir, (line) => console.log(line), booting).catch(async (error: unknown) => {
    if (vault.temporary) await fsp.rm(vault.dir, { recursive: true, force: true });
    // Taken between the check above and the plugin's listen: the terminal's advice, not the settings tab's.
    if (port !== 0 && (await portTaken(port))) {
      console.error(`vault-mcp: ${portTakenAdvice(port, argv)}`);
      return process.exit(2);
    }
    throw error;
  });
  if (options.conformanceFixtures)
    (booted.plugin as unknown as { server: { addOns: SessionAddOn[] } }).server.addOns.push(conformanceFixtures);
  const trustedLinks = await trustedLinkStates(vault.dir, settings.access.trustedSymlinks);
  // A root whose notes are all private to the key (or none at all) leaves it seeing nothing: the start line says so.
  const noteStore = (booted.plugin as unknown as { notes: NoteStore }).notes;
  const markdown = (booted.plugin as unknown as { app: O.App }).app.vault.getMarkdownFiles();
  const readable = (label: string, root: string): boolean =>
    markdown.some((file) => isWithinRoots(file.path, [root]) && noteStore.canRead(file, { label, roots: [root] }));
  for (const line of startupLines(options, booted.url, token, vault, {
    ...run,
    settings,
    tokens,
    quarantine: quarantine.folders,
    trustedLinks,
    readable,
  }))
    console.log(line);
  reportSemanticIndex((booted.plugin as unknown as { semantic: SemanticIndex }).semantic, settings);
  const terminal = { reading: true };
  if (settings.proposals.notifyOnNew) reportProposals((booted.plugin as unknown as { proposals: ProposalStore }).proposals, terminal);
  reviewFromStdin(booted.plugin as unknown as ReviewCommandTarget & ActivityCommandTarget, () => {
    terminal.reading = false;
    console.log(inputEndedLine(vault));
  });
  const stop = async (): Promise<boolean> => {
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
    return stopRun({ stopServer: () => server.stop(), unload }, vault, report);
  };
  stopBooted = stop;
}

/**
 * Prints {@link proposalLine} each time an agent stages a proposal (the run's stand-in for the plugin's notice);
 * once standard input has ended (`terminal.reading` false), without the commands this run no longer reads.
 */
function reportProposals(proposals: ProposalStore, terminal: { reading: boolean }): void {
  proposals.onChange((event) => {
    if (event.type === 'staged') console.log(proposalLine(event.proposal, terminal.reading));
  });
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
 * and the Agent activity view. End of input leaves the server running and calls `ended` once
 * the commands read before it are answered (a run started with `< /dev/null`, under a process
 * manager or `nohup`, has no terminal to review in).
 */
function reviewFromStdin(target: ReviewCommandTarget & ActivityCommandTarget, ended: () => void): void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(async () => {
      const answer = (await runActivityCommand(target, line)) ?? (await runReviewCommand(target, line));
      // `help` and an unknown command's answer list the review commands; the activity ones are read here too.
      const listsCommands = line.trim() === 'help' || answer.startsWith('Unknown command');
      if (answer) console.log(listsCommands ? `${answer}\n${ACTIVITY_COMMANDS_HELP}` : answer);
    });
  });
  lines.on('close', () => {
    queue = queue.then(ended);
  });
}

main().catch((error) => {
  console.error(`vault-mcp: ${(error as Error).message}`);
  process.exit(1);
});
