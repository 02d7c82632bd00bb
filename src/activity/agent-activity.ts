/**
 * What a key sees of the activity log (docs/architecture.md#agent-activity: a key sees only its own
 * activity): its own entries and the user's reverts of them, newest first. An entry whose note
 * the key may not see now (private, quarantined, out of its roots, or a hidden note at that
 * path) shows no path, hash or text, only that it is hidden; a move's list of notes whose links
 * it rewrote leaves out those the key may not see now. The diff follows the key's tool set as its
 * refusals do (AccessScope.sight, docs/security.md#keys): note text only to a key that reads notes,
 * the linking notes only to one that lists them; the others are told how many lines or notes.
 */
import type { AccessScope } from '../vault/access/access';
import type { NoteStore } from '../vault/note-store';
import type { ActivityLog } from './activity-log';
import { diffText } from './activity-diff';
import type { ActivityEntry } from './types';

/** Diff lines an agent gets per entry. */
const AGENT_DIFF_LINES = 12;
/** Characters of each diff line shown to an agent (diffText's maxLineChars): a one-line note of megabytes made a megabyte diff. */
const AGENT_DIFF_LINE_CHARS = 240;

/**
 * The key's own entries (at most `limit`, newest first), as plain data for a tool result.
 * @param keyId the calling key; @param scope its access scope now (what it may see).
 */
export function agentActivity(
  log: ActivityLog,
  notes: NoteStore,
  keyId: string,
  scope: AccessScope,
  limit: number,
): Record<string, unknown> {
  const mine = log.all().filter((e) => e.key_id === keyId);
  const shown = mine.slice(0, limit).map((e) => agentEntry(log, notes, e, scope));
  return {
    activity: shown,
    total: mine.length,
    ...(mine.length > shown.length ? { note: `Showing the ${shown.length} newest of ${mine.length}.` } : {}),
  };
}

/** One entry as the key sees it. */
function agentEntry(log: ActivityLog, notes: NoteStore, e: ActivityEntry, scope: AccessScope): Record<string, unknown> {
  const base = {
    id: e.id,
    at: e.at,
    tool: e.tool,
    kind: e.kind,
    via: e.via,
    status: log.isReverted(e) ? 'reverted' : 'applied',
    ...(e.reverts ? { reverts: e.reverts } : {}),
    ...(e.reverted_by ? { reverted_by: e.reverted_by } : {}),
  };
  const paths = e.from ? [e.path, e.from] : [e.path];
  if (!paths.every((p) => visibleTo(notes, p, e.kind === 'widget', scope)))
    return { ...base, hidden: 'Its note is no longer visible to this key.' };
  return {
    ...base,
    path: e.path,
    ...(e.from ? { from: e.from } : {}),
    ...(e.hunks ? { hunks: e.hunks } : {}),
    hash_before: e.hash_before,
    hash_after: e.hash_after,
    diff: diffText(
      e.linkers ? { ...e, linkers: e.linkers.filter((p) => visibleTo(notes, p, false, scope)) } : e,
      AGENT_DIFF_LINES,
      scope.sight ?? { names: true, text: true },
      AGENT_DIFF_LINE_CHARS,
    ),
  };
}

/**
 * Whether `scope` may see what is at `path`: the path passes quarantine and roots, and a note
 * there now is one it may read (a widget: the widgets folder is open to it).
 */
function visibleTo(notes: NoteStore, path: string, widget: boolean, scope: AccessScope): boolean {
  try {
    if (widget) return path.startsWith(`${notes.policy.widgetsFolderFor(scope)}/`);
    notes.policy.checkedPath(path, scope);
  } catch {
    return false;
  }
  const file = notes.fileByPath(path);
  return file === null || notes.canRead(file, scope);
}
