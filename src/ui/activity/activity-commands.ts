import type { ActivityLog } from '../../activity/activity-log';
import { diffText } from '../../activity/activity-diff';
import type { ActivityRevert, RevertOutcome } from '../../activity/activity-revert';
import type { ActivityEntry } from '../../activity/types';
import { visibleText } from '../../diff/visible-text';
import { trailingArgument } from '../command-words';

/**
 * The agent activity log as text commands, for the standard input of the headless runner
 * behind `npm start` and the Obsidian CLI handlers (`vault-mcp:activity`, `vault-mcp:revert`):
 * list the log grouped by key and session, show one entry with its diff, revert one entry or
 * every entry of a key or a session. Each answers with text for a terminal and never throws for a
 * user mistake; agent-written text (diff lines, paths) has its control and bidi characters
 * written out (diff/visible-text.ts), so a terminal shows it instead of acting on it.
 */

/** The log and its reverts, as the commands need them. */
export interface ActivityCommandTarget {
  activity: ActivityLog;
  reverts: ActivityRevert;
}

/** Entries `activity` lists, newest first. */
const LIST_LIMIT = 100;
/** Diff lines `activity <id>` prints at once; the rest is one `activity <id> <line>` away. */
const SHOW_DIFF_LINES = 80;

/** The commands, for `help`. */
export const ACTIVITY_COMMANDS_HELP =
  'Agent activity: activity (list what agents changed), activity <id> [line] (one change with its diff), revert <id>, revert key "<label>", revert session <session>.';

/**
 * The newest {@link LIST_LIMIT} entries, newest first, grouped by key and MCP session (a group per key and session, in
 * the order of their newest entry); or a sentence when the log is empty.
 */
export function listActivity(log: ActivityLog): string {
  const entries = log.all();
  if (entries.length === 0) return 'No agent activity yet.';
  const shown = entries.slice(0, LIST_LIMIT);
  const lines: string[] = [];
  for (const group of groupEntries(shown)) {
    lines.push(
      `"${group.label}", ${group.session ? `session ${group.session}` : 'no session (reverts, stateless calls, older proposals)'}:`,
    );
    for (const e of group.entries) lines.push(`  ${describeEntry(log, e)}`);
  }
  if (entries.length > shown.length)
    lines.push(`... and ${entries.length - shown.length} older changes; revert key "<label>" and revert session <session> cover them too.`);
  return visibleText(lines.join('\n'));
}

/**
 * One entry: its line and {@link SHOW_DIFF_LINES} lines of its diff from diff line `fromLine`
 * (1-based), ending with the `activity <id> <line>` that shows the rest.
 */
export function showActivity(log: ActivityLog, id: string, fromLine = 1): string {
  const entry = log.get(id);
  if (!entry) return noSuchEntry(id);
  const lines = diffText(entry, Infinity).split('\n');
  if (fromLine > lines.length)
    return `Entry ${id} has ${lines.length} diff line${lines.length === 1 ? '' : 's'}; give a line from 1 to ${lines.length}.`;
  const page = lines.slice(fromLine - 1, fromLine - 1 + SHOW_DIFF_LINES).map((l) => `  ${l}`);
  const rest = lines.length - (fromLine - 1) - page.length;
  if (rest > 0) page.push(`  … ${rest} more line${rest === 1 ? '' : 's'}: activity ${id} ${fromLine + SHOW_DIFF_LINES}`);
  return visibleText([describeEntry(log, entry), ...page].join('\n'));
}

/** Reverts entry `id`, or every entry of a key (by label) or a session. @returns one line per revert, control and bidi characters written out. */
export async function revertActivity(
  target: ActivityCommandTarget,
  what: { id: string } | { key: string } | { session: string },
): Promise<string> {
  return visibleText(await revertAnswer(target, what));
}

/** {@link revertActivity} before its answer is made safe to print. */
async function revertAnswer(target: ActivityCommandTarget, what: { id: string } | { key: string } | { session: string }): Promise<string> {
  if ('id' in what) return (await target.reverts.revert(what.id)).message;
  await target.activity.refresh();
  const entries = target.activity.all();
  let outcomes: RevertOutcome[];
  if ('key' in what) {
    const keyIds = [...new Set(entries.filter((e) => e.key_label === what.key).map((e) => e.key_id))];
    if (keyIds.length === 0) return `No activity from a key labelled "${what.key}"; "activity" lists the keys that changed something.`;
    outcomes = [];
    for (const keyId of keyIds) outcomes.push(...(await target.reverts.revertKey(keyId)));
  } else {
    if (!entries.some((e) => e.session === what.session)) return `No activity in session ${what.session}; "activity" lists the sessions.`;
    outcomes = await target.reverts.revertSession(what.session);
  }
  if (outcomes.length === 0) return 'Nothing to revert: every change there is already reverted.';
  const done = outcomes.filter((o) => o.reverted).length;
  return [...outcomes.map((o) => o.message), `${done} of ${outcomes.length} reverted.`].join('\n');
}

/**
 * Runs one typed command line if it is an activity command (`activity [id]`, `revert <id>`,
 * `revert key "<label>"`, `revert session <session>`). @returns the answer, or null for any
 * other command (the review commands answer those). Each takes in what another instance on
 * the vault logged first (ActivityLog.refresh).
 */
export async function runActivityCommand(target: ActivityCommandTarget, line: string): Promise<string | null> {
  const words = line.trim().split(/\s+/);
  const [command, first, ...rest] = words;
  if (command === 'activity') {
    await target.activity.refresh();
    // Any count of digits is a line: one past the entry's diff is told the range (a long one was told only the usage).
    const from = rest.length === 1 && /^[1-9]\d*$/.test(rest[0]) ? Number(rest[0]) : rest.length ? null : 1;
    if (from === null) return 'Usage: activity [entry id [line to start from]]';
    return first === undefined ? listActivity(target.activity) : showActivity(target.activity, first, from);
  }
  if (command !== 'revert') return null;
  const usage = 'Usage: revert <entry id> | revert key "<label>" | revert session <session>';
  if (first === undefined || ((first === 'key' || first === 'session') && rest.length === 0)) return usage;
  if (first === 'key' && rest.length) {
    const key = trailingArgument(line, 2);
    return key === '' ? usage : revertActivity(target, { key });
  }
  if (first === 'session' && rest.length === 1) return revertActivity(target, { session: rest[0] });
  if (rest.length) return usage;
  return revertActivity(target, { id: first });
}

/** A group of the list: one key and one session. */
interface EntryGroup {
  label: string;
  session: string | null;
  entries: ActivityEntry[];
}

/** Entries (newest first) grouped by key id and session, groups in the order of their newest entry. */
export function groupEntries(entries: readonly ActivityEntry[]): EntryGroup[] {
  const groups = new Map<string, EntryGroup>();
  for (const e of entries) {
    const key = JSON.stringify([e.key_id, e.session]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { label: e.key_label, session: e.session, entries: [] }));
    group.entries.push(e);
  }
  return [...groups.values()];
}

/** `a_…  2026-12-01 20:01:02  edit Notes/Ideas.md via edit_note  (reverted by a_…)`. */
function describeEntry(log: ActivityLog, e: ActivityEntry): string {
  const where = e.kind === 'move' ? `${e.from} -> ${e.path}` : e.path;
  const how =
    e.via === 'proposal' ? `accepted proposal ${e.proposal_id}${e.hunks ? ` (hunks ${e.hunks.join(', ')})` : ''}` : `via ${e.tool}`;
  const what = e.reverts ? `revert of ${e.reverts}: ` : '';
  const state = log.isReverted(e)
    ? `  (reverted by ${e.reverted_by})`
    : e.reverted_by
      ? `  (redone: its revert ${e.reverted_by} was reverted)`
      : '';
  const left = e.left ? `  (${e.left} change${e.left === 1 ? '' : 's'} left as the note has ${e.left === 1 ? 'it' : 'them'})` : '';
  return `${e.id}  ${e.at.replace('T', ' ').slice(0, 19)}  ${what}${kindWord(e)} ${where} ${how}${state}${left}`;
}

/** What an entry did, in a word or two. */
export function kindWord(e: ActivityEntry): string {
  if (e.kind === 'folder') return e.removed ? 'folder removed' : 'new folder';
  if (e.kind === 'widget') return e.hash_before === null ? 'new widget' : e.hash_after === null ? 'widget removed' : 'widget replaced';
  return { edit: 'edit', properties: 'properties', create: 'new note', delete: 'delete', move: 'move' }[e.kind];
}

/** The answer for an unknown entry id. */
function noSuchEntry(id: string): string {
  return `No activity entry '${id}'; list them with "activity" (vault-mcp:activity in Obsidian's CLI) or the Agent activity view.`;
}
