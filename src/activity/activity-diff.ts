/**
 * An entry's change as diff lines for people and agents (the Agent activity view, the
 * terminal's `activity`, proposal_status's activity): jsdiff `structuredPatch` from the text
 * before to the text after, one unchanged line of context, capped. Pure string work.
 */
import { structuredPatch } from 'diff';
import type { ActivityEntry } from './types';
import { PATCH_MAX_EDIT, textsOf } from './undo-data';

/** One line of a diff preview: `head` starts a hunk ("Line 12": its first changed line in the text after), `message` says what a whole-entry change did. */
export interface DiffLine {
  kind: 'head' | 'removed' | 'inserted' | 'same' | 'message' | 'more';
  text: string;
}

/** Lines of context around each change. */
const CONTEXT = 1;

/**
 * The diff preview of `entry`, at most `maxLines` lines (then one `more` line saying how many
 * were left out). Moves and folders get a `message` line; a damaged entry a `message` saying so.
 */
export function diffPreview(entry: ActivityEntry, maxLines: number): DiffLine[] {
  if (entry.kind === 'move') return [{ kind: 'message', text: `${entry.from} → ${entry.path}` }];
  if (entry.kind === 'folder') return [{ kind: 'message', text: entry.removed ? 'An empty folder taken away.' : 'A new folder.' }];
  let texts: { before: string | null; after: string | null };
  try {
    texts = textsOf(entry);
  } catch (err) {
    return [{ kind: 'message', text: (err as Error).message }];
  }
  const patch = structuredPatch('', '', texts.before ?? '', texts.after ?? '', '', '', { context: CONTEXT, maxEditLength: PATCH_MAX_EDIT });
  if (patch === undefined) return [{ kind: 'message', text: `More than ${PATCH_MAX_EDIT} lines changed; open the note to see them.` }];
  const lines: DiffLine[] = [];
  for (const hunk of patch.hunks) {
    const leading = hunk.lines.findIndex((line) => line[0] === '-' || line[0] === '+');
    lines.push({ kind: 'head', text: `Line ${Math.max(hunk.newStart + Math.max(leading, 0), 1)}` });
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      lines.push({ kind: line[0] === '-' ? 'removed' : line[0] === '+' ? 'inserted' : 'same', text: line.slice(1) });
    }
  }
  if (lines.length === 0) return [{ kind: 'message', text: 'No change to the text.' }];
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), { kind: 'more', text: `… ${lines.length - maxLines} more lines` }];
}

/** {@link diffPreview} as unified-diff text (`@@ Line n`, `-`, `+`, ` ` prefixes), for terminals and agents. */
export function diffText(entry: ActivityEntry, maxLines: number): string {
  const prefix = { head: '@@ ', removed: '-', inserted: '+', same: ' ', message: '', more: '' } as const;
  return diffPreview(entry, maxLines).map((l) => `${prefix[l.kind]}${l.text}`).join('\n');
}
