import { isRecord, parseListFile, stringFieldProblem } from '../vault/plugin-files/list-file-codec';
import type { ActivityEntry, ActivityKind, ActivityRoute } from './types';

/**
 * The activity file format (`activity.json` in the plugin folder):
 * `{"version": 1, "entries": [ActivityEntry, ...]}`, oldest first, one entry per line so a
 * user can read it. Parsing is strict, so a damaged file is noticed (and kept aside by the
 * log) instead of half-loaded.
 */

/** The format version written; a file with another version is not read as activity. */
const ACTIVITY_FILE_VERSION = 1;

const KINDS: readonly ActivityKind[] = ['edit', 'properties', 'create', 'delete', 'move', 'folder', 'widget'];
const ROUTES: readonly ActivityRoute[] = ['agent', 'proposal', 'revert'];

/** The file's text for `entries`. */
export function serializeActivity(entries: readonly ActivityEntry[]): string {
  return `{"version":${ACTIVITY_FILE_VERSION},"entries":[\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}

/** Bytes one entry takes in the file (its JSON line, UTF-8), for the size limit. */
export function entryBytes(entry: ActivityEntry): number {
  return utf8.encode(JSON.stringify(entry)).length + 2;
}

const utf8 = new TextEncoder();

/**
 * Reads an activity file.
 * @returns its entries, oldest first.
 * @throws Error naming the first problem (not JSON, wrong version, a malformed entry and its
 *   position) when the text is not a valid activity file.
 */
export function parseActivity(text: string): ActivityEntry[] {
  return parseListFile<ActivityEntry>(text, { version: ACTIVITY_FILE_VERSION, list: 'entries', item: 'entry', problemOf: entryProblem });
}

/** What is wrong with a parsed entry, or null when every field has the right type. */
function entryProblem(e: unknown): string | null {
  if (!isRecord(e)) return 'not an object';
  const strings = stringFieldProblem(e, ['id', 'at', 'key_id', 'key_label', 'tool', 'path'], 'required');
  if (strings) return strings;
  if (Number.isNaN(Date.parse(e.at as string))) return '"at" must be a time';
  if (!KINDS.includes(e.kind as ActivityKind)) return `unknown kind ${JSON.stringify(e.kind)}`;
  if (!ROUTES.includes(e.via as ActivityRoute)) return `unknown route ${JSON.stringify(e.via)}`;
  if (!Array.isArray(e.key_roots) || !e.key_roots.every((r) => typeof r === 'string')) return '"key_roots" must be a list of folders';
  if (e.session !== null && typeof e.session !== 'string') return '"session" must be a string or null';
  const optional =
    stringFieldProblem(e, ['hash_before', 'hash_after'], 'nullable') ??
    stringFieldProblem(e, ['from', 'proposal_id', 'reverts', 'reverted_by'], 'optional');
  if (optional) return optional;
  if (e.hunks !== undefined && !(Array.isArray(e.hunks) && e.hunks.every((h) => Number.isInteger(h))))
    return '"hunks" must be a list of hunk numbers';
  if (e.left !== undefined && !Number.isInteger(e.left)) return '"left" must be a whole number';
  if (e.linkers !== undefined && !(Array.isArray(e.linkers) && e.linkers.every((p) => typeof p === 'string')))
    return '"linkers" must be a list of note paths';
  if (!isRecord(e.undo)) return '"undo" must be an object';
  const undoText = stringFieldProblem(e.undo, ['after', 'before'], 'optional');
  if (undoText) return undoText.replace(/^"/, '"undo.');
  if (e.undo.not_utf8 !== undefined && typeof e.undo.not_utf8 !== 'boolean') return '"undo.not_utf8" must be true or false';
  const patch = e.undo.patch;
  if (patch !== undefined && !(Array.isArray(patch) && patch.every(isReverseHunk)))
    return '"undo.patch" must be a list of {from, to, inserted, removed?, pre?, post?, line?, unique?}';
  const sums = e.undo.after_sums;
  if (
    sums !== undefined &&
    !(
      isRecord(sums) &&
      Number.isInteger(sums.k) &&
      (sums.k as number) >= 1 &&
      typeof sums.sums === 'string' &&
      (sums.cut === undefined || sums.cut === 'mix')
    )
  )
    return '"undo.after_sums" must be {k, sums, cut?}';
  if (e.created !== undefined && !Number.isFinite(e.created)) return '"created" must be a time in ms';
  if (e.inode !== undefined && !(typeof e.inode === 'string' && /^\d+$/.test(e.inode))) return '"inode" must be a whole number in a string';
  const writer = e.writer_before;
  if (
    writer !== undefined &&
    writer !== null &&
    !(isRecord(writer) && !stringFieldProblem(writer, ['key_id', 'key_label', 'written_at'], 'required'))
  )
    return '"writer_before" must be null or {key_id, key_label, written_at}';
  if (e.kind === 'move' && typeof e.from !== 'string') return 'a move needs "from"';
  return null;
}

function isReverseHunk(h: unknown): boolean {
  if (!isRecord(h) || !Number.isInteger(h.from) || !Number.isInteger(h.to) || typeof h.inserted !== 'string') return false;
  if (h.line !== undefined && !Number.isInteger(h.line)) return false;
  if (h.unique !== undefined && typeof h.unique !== 'boolean') return false;
  return ['removed', 'pre', 'post'].every((k) => h[k] === undefined || typeof h[k] === 'string');
}
