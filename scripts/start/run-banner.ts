import type { SemanticStatus } from '../../src/search/semantic/semantic-index';
import type { KeyMode, KeyRecord } from '../../src/settings/key-record';
import { formatRootList } from '../../src/settings/key-roots';
import type { Proposal } from '../../src/proposals/types';
import type { VaultMcpSettings } from '../../src/settings/settings';
import { clientSnippets } from '../../src/ui/settings/client-snippets';
import { REVIEW_COMMANDS_HELP } from '../../src/ui/review/review-commands';
import { visibleText } from '../../src/diff/visible-text';
import { inputExcerpt, listWithMore } from '../../src/errors';
import { ACTIVITY_COMMANDS_HELP } from '../../src/ui/activity/activity-commands';
import { enabledTools, toolsForKey } from '../../src/tools/registry';
import type { RunOptions } from './run-options';
import { RUN_KEY_LABEL, type SettingsSource } from './run-settings';
import type { RunVault, TrustedLinkState } from './run-vault';

/** What a run started with, beyond its flags: its settings, where they came from, and the tokens it made. */
export interface RunDetails {
  /** The settings the plugin runs with (file or defaults, flags applied), without the run's own key. */
  settings: VaultMcpSettings;
  source: SettingsSource | null;
  /** The vault's own data.json that `--settings` replaced, if it has one. */
  ignored?: string;
  /** The token made for each key of the settings, by key id. */
  tokens: ReadonlyMap<string, string>;
  /** The quarantine as applied (run-vault.ts resolveQuarantine): vault folders, and whether each exists; default: the settings' list, all existing. */
  quarantine?: ReadonlyArray<{ folder: string; exists: boolean }>;
  /** What lies at each trusted-link entry (run-vault.ts trustedLinkStates); default: none printed. */
  trustedLinks?: readonly TrustedLinkState[];
  /**
   * Whether the key labelled `label` may read at least one note below its root `root` (a folder of
   * private notes alone leaves it none); default: every root has one. A root without one is marked
   * `(no note readable there)`, so no key silently sees nothing (newcomer report s29, L3).
   */
  readable?: (label: string, root: string) => boolean;
}

/** A key's roots for its start line, each marked when the key may read no note there ({@link RunDetails.readable}). */
function rootsWord(label: string, roots: readonly string[], run: RunDetails): string {
  if (roots.length === 0) return '';
  const shown = roots.map(
    (root) => `${inputExcerpt(formatRootList([root]))}${run.readable?.(label, root) === false ? ' (no note readable there)' : ''}`,
  );
  return `, roots ${listWithMore(shown, MOST_LISTED)}`;
}

/** Most items a start line lists (errors.ts listWithMore); each is cut at 80 characters first. */
const MOST_LISTED = 20;

/**
 * The lines `npm start` prints once the server listens. The first,
 * `MCP server listening on <url>`, is read by scripts and outside checks: keep it stable.
 * Then the vault, where the settings came from, every key (the run's own first, its token on the
 * next line; a token is printed only when the run made it), the semantic index, and the run key's client setups.
 * With writes off, a line says how to turn them on (agents can only read until then, and a
 * write call is refused); with writes on, the review hint is printed only for a propose key (a
 * force key writes at once, so there is nothing to review). The activity hint always (accepted
 * proposals are logged too). A control character, bidi control or line feed in a label, folder or path
 * is written out (`\x1b`, `\n`: diff/visible-text.ts visibleText), so the terminal shows it and does not act on it.
 * @param options the parsed run options. @param url the MCP endpoint. @param token the run key's bearer token.
 * @param vault the folder served. @param run the settings and tokens of the run.
 * @returns the lines, without newlines.
 */
export function startupLines(options: RunOptions, url: string, token: string, vault: RunVault, run: RunDetails): string[] {
  const { settings } = run;
  const lines = [`MCP server listening on ${url}`, `Vault: ${vault.dir}${vault.temporary ? ' (a temporary copy of the demo vault)' : ''}`];
  if (run.source?.kind === 'file')
    lines.push(`Settings: ${run.source.path} (--settings${run.ignored ? `; the vault's own ${run.ignored} is not read` : ''})`);
  if (run.source?.kind === 'vault')
    lines.push(`Settings: ${run.source.path} (the vault's own, read as Obsidian reads it; this run never writes it)`);
  if (!settings.server.enabled)
    lines.push('Warning: server.enabled is false in the settings, so every request gets 403; set it to true to serve clients.');
  lines.push(`Key "${RUN_KEY_LABEL}": mode ${options.mode}, writes ${writesWord(settings)}${rootsWord(RUN_KEY_LABEL, options.roots, run)}`);
  // The run key's token right under its own line, before any other key's: the first token printed is the run's (a
  // newcomer's `grep -m1 vmcp_` got a settings key's, confined to its roots, when this came after them).
  if (!options.token) lines.push(`Token (shown once): ${token}`);
  for (const key of settings.keys) lines.push(keyLine(key, run.tokens.get(key.id), settings, run));
  const quarantine = run.quarantine ?? settings.access.quarantine.map((folder) => ({ folder, exists: true }));
  // A folder not there yet is named so: it is quarantined once created, but it protects nothing now (a typo shows).
  const shown = quarantine.map((q) => {
    // Spaces at a folder's ends are part of its name: quoted, so ` Sp ` cannot pass for `Sp`.
    const folder = inputExcerpt(q.folder.trim() === q.folder ? q.folder : JSON.stringify(q.folder));
    return q.exists ? folder : `${folder} (no such folder yet)`;
  });
  if (shown.length) lines.push(`Quarantined: ${listWithMore(shown, MOST_LISTED)} (besides the config folder, dot-folders and _private)`);
  // A trusted link that is not there, or is no link, trusts nothing: said, so a typo shows.
  const trusted = (run.trustedLinks ?? []).map(({ link, state }) => {
    const name = inputExcerpt(link.trim() === link ? link : JSON.stringify(link));
    if (state === 'missing') return `${name} (no such link yet)`;
    return state === 'not-a-link' ? `${name} (not a symbolic link: trusts nothing)` : name;
  });
  if (trusted.length) lines.push(`Trusted links out of the vault: ${listWithMore(trusted, MOST_LISTED)}`);
  lines.push(semanticLine(settings.ai));
  for (const snippet of clientSnippets(url, token)) {
    lines.push(`${snippet.title}: ${snippet.where}`, ...snippet.text.split('\n').map((line) => `  ${line}`));
  }
  if (!settings.tools.allowWrites) lines.push(writesOffLine(options.mode));
  else if (options.mode === 'propose') lines.push(`Review proposals here (propose mode). ${REVIEW_COMMANDS_HELP}`);
  lines.push(ACTIVITY_COMMANDS_HELP);
  lines.push('Press Ctrl-C to stop.');
  // Labels, folders and paths come from the settings and the disk: a control character or line feed in one is shown, not acted on.
  return lines.map((line) => visibleText(line).replace(/\n/g, '\\n'));
}

/**
 * What the run key's line says of writes: `off` without "Allow writes"; `allowed` when at least one write tool is on
 * too (each has its own toggle, off until turned on: `--allow-writes` turns on all of them, a settings file's
 * `tools.enabled` names them); else that none is on, with what to do.
 */
function writesWord(settings: VaultMcpSettings): string {
  if (!settings.tools.allowWrites) return 'off';
  if (enabledTools(settings).some((tool) => tool.kind === 'write')) return 'allowed';
  return 'allowed, but every write tool is off (name them true under tools.enabled in the settings, or run with --allow-writes)';
}

/**
 * The banner line of a run whose writes are off: what agents may do, and the flags that let
 * them write in the run key's `mode` (with npm's `--` shown, since npm keeps flags without it).
 */
export function writesOffLine(mode: KeyMode): string {
  const what =
    mode === 'propose'
      ? 'propose changes you review here (proposals, show, accept, reject), or add --mode force to let them write at once'
      : 'write at once (mode force; activity lists what they changed, revert undoes it)';
  return `Writes are off: agents can read notes, and a write tool call is refused. Restart with --allow-writes (npm start -- --allow-writes) to let them ${what}.`;
}

/**
 * The line `npm start` prints when an agent stages a proposal, in place of the plugin's notice
 * (which points to the editor and the Pending changes view, not in a terminal): what it
 * changes, why it was held when a force key's write was (Proposal.reason), and the commands
 * that review it here.
 * @param proposal the staged proposal. @returns the line, without a newline.
 */
export function proposalLine(proposal: Proposal, reviewHere = true): string {
  const { id, path } = proposal;
  const change: Record<Proposal['kind'], string> = {
    edit: `changes to ${path}`,
    properties: `property changes to ${path}`,
    create: `a new note ${path}`,
    delete: `deleting ${path}`,
    move: `moving ${path}${proposal.to ? ` to ${proposal.to}` : ''}`,
    folder: `a new folder ${path}`,
  };
  return visibleText(
    `[proposal] "${proposal.key_label}" proposes ${change[proposal.kind]} (id ${id}).${proposal.reason ? ` Held for review: ${proposal.reason}` : ''} ${
      reviewHere
        ? `Review it here: show ${id}, then accept ${id} or reject ${id}; proposals lists every pending one.`
        : 'Standard input has ended, so it cannot be reviewed in this run (see the line above).'
    }`,
  );
}

/**
 * The line `npm start` prints when its standard input ends (started with `< /dev/null`, by a
 * process manager, or its input closed): review and activity commands are no longer read, and
 * where the proposals wait instead. A temporary demo copy goes, proposals and all, when the run stops.
 * @param vault the folder served. @returns the line, without a newline.
 */
export function inputEndedLine(vault: Pick<RunVault, 'dir' | 'temporary'>): string {
  const where = vault.temporary
    ? 'this run serves a temporary copy of the demo vault, removed with its proposals when the run stops: start it from a terminal to review them'
    : `proposals wait in the vault's proposals.json: review them in Obsidian, or in a run started from a terminal (npm start -- --vault ${/\s/.test(vault.dir) ? JSON.stringify(vault.dir) : vault.dir})`;
  return visibleText(`Standard input has ended, so review and activity commands are no longer read here; ${where}.`);
}

/** One key of the settings with the token the run made for it. */
function keyLine(key: KeyRecord, token: string | undefined, settings: VaultMcpSettings, run: RunDetails): string {
  const scope = key.scope === 'cloud' ? 'scope cloud (this loopback server refuses it)' : `scope ${key.scope}`;
  // A chosen tool set that names only tools switched off (write tools while writes are off, say) leaves the key nothing.
  const none =
    toolsForKey(enabledTools(settings), key.tools).length > 0
      ? ''
      : Array.isArray(key.tools) && key.tools.length === 0
        ? ', no tool (its tool set names none: list the tools it may call, or give it "read" or "all")'
        : ', no tool (every tool its tool set names is off)';
  return `Key "${inputExcerpt(key.label)}": mode ${key.mode}, ${scope}${rootsWord(key.label, key.roots, run)}${none}; token (shown once): ${token ?? '(none)'}`;
}

/** Whether semantic search is on for the run, and how to turn it on when it is off. */
function semanticLine(ai: VaultMcpSettings['ai']): string {
  if (ai.enabled && ai.semanticIndex) {
    return `Semantic index: ${ai.embeddingModel || '(no embedding model)'} at ${ai.baseUrl}; semantic and hybrid search use it once it is built (a line says when).`;
  }
  return 'Semantic search: off (hybrid search is lexical); turn it on with --embed-url URL --embed-model NAME.';
}

/**
 * The line `npm start` prints when the semantic index reaches a state a user acts on: built
 * (`ready`), `paused` (provider unreachable, retried) or `off` (the gates refused, with why,
 * and the flags that set it in the terminal, since the plugin's reason names its settings tab).
 * @param status the index's status. @returns the line, or null for `building` progress.
 */
export function semanticStatusLine(status: SemanticStatus): string | null {
  switch (status.state) {
    case 'ready':
      return `Semantic index ready: ${status.notes} notes, ${status.chunks} chunks.`;
    case 'paused':
      return `Semantic index paused at ${status.indexed}/${status.total} notes: ${status.reason.replace(/\.$/, '')}.`;
    case 'off':
      return `Semantic index off: ${status.reason.replace(/\.$/, '')} (from the terminal: --embed-url URL --embed-model NAME).`;
    case 'building':
      return null;
  }
}
