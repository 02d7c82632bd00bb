/**
 * An entry's change as diff lines for people and agents (the Agent activity view, the
 * terminal's `activity`, proposal_status's activity): the line hunks from the text before to
 * the text after (diff/hunks.ts, jsdiff `diffLines`), removed then inserted lines per
 * hunk, capped. Hunks are shown as lines of the note (diff/hunk-lines.ts): after a last line
 * without a line break, the break a hunk brings ends that line and is no empty line of its own,
 * and a change of the final line break alone is said in words. Pure string work.
 */
import { withoutNames, withoutText, type VaultSight } from '../errors';
import { crLines, lfLines, sidesAsLines } from '../diff/hunk-lines';
import { buildHunks } from '../diff/hunks';
import { clusterPrefix } from '../vault/content/text/graphemes';
import type { ActivityEntry, ReverseHunk } from './types';
import { isPatchOnly, textsOf } from './undo-data';

/**
 * One line of a diff preview: `head` starts a hunk ("Line 12": where it is in the text after),
 * `message` says what a whole-entry change did, `context` is a listed path (no sign).
 */
export interface DiffLine {
  kind: 'head' | 'removed' | 'inserted' | 'message' | 'context' | 'more';
  text: string;
}

/**
 * The diff preview of `entry`, at most `maxLines` lines (then one `more` line saying how many
 * were left out). Moves and folders get a `message` line, a move then the notes whose links it
 * rewrote (`context` lines); a damaged entry a `message` saying so.
 */
export function diffPreview(entry: ActivityEntry, maxLines: number): DiffLine[] {
  if (entry.kind === 'move') {
    const linkers = entry.linkers ?? [];
    const lines: DiffLine[] = [{ kind: 'message', text: `${entry.from} → ${entry.path}` }];
    if (linkers.length)
      lines.push({ kind: 'message', text: `Links to it updated in ${linkers.length} note${linkers.length === 1 ? '' : 's'}:` });
    return capped([...lines, ...linkers.map((text): DiffLine => ({ kind: 'context', text }))], maxLines);
  }
  if (entry.kind === 'folder') return [{ kind: 'message', text: entry.removed ? 'An empty folder taken away.' : 'A new folder.' }];
  if (isPatchOnly(entry)) return capped(patchLines(entry.undo.patch ?? []), maxLines);
  let before: string;
  let after: string;
  try {
    const texts = textsOf(entry);
    before = texts.before ?? '';
    after = texts.after ?? '';
    // A note whose lines end in `\r` alone: its lines, as buildHunks diffs them (same offsets).
    if (crLines(before, after)) [before, after] = [lfLines(before), lfLines(after)];
  } catch (err) {
    return [{ kind: 'message', text: (err as Error).message }];
  }
  const lines: DiffLine[] = [];
  let shift = 0;
  for (const hunk of buildHunks(before, after)) {
    const shown = sidesAsLines(hunk.from > 0 && before[hunk.from - 1] !== '\n', hunk.removed, hunk.inserted);
    const line = countLines(after, hunk.from + shift) + (shown.moved ? 2 : 1);
    shift += hunk.inserted.length - hunk.removed.length;
    lines.push({ kind: 'head', text: `Line ${line}` }, ...hunkLines(shown.removed, shown.inserted));
  }
  return capped(lines, maxLines);
}

/** The preview lines of a patch-only entry, from its hunks alone: the text before is each hunk's `inserted`, the text after its `removed`. */
function patchLines(patch: readonly ReverseHunk[]): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const h of patch) {
    // `pre` is the text after's line before the hunk, or the start of the hunk's own line when the hunk starts inside it.
    // On a note whose lines end in `\r` alone, each `\r` is a line break (diff/hunk-lines.ts crLines).
    const lf = crLines(h.pre ?? '', h.inserted, h.removed ?? '', h.post ?? '') ? lfLines : (t: string): string => t;
    const pre = lf(h.pre ?? '');
    const shown = sidesAsLines(pre !== '' && !pre.endsWith('\n'), lf(h.inserted), lf(h.removed ?? ''));
    lines.push({ kind: 'head', text: `Line ${(h.line ?? 1) + (shown.moved ? 1 : 0)}` }, ...hunkLines(shown.removed, shown.inserted));
  }
  return lines;
}

/**
 * A hunk's removed then inserted lines; a side that is the final line break alone (buildHunks
 * gives it its own hunk) is said in words, not shown as an empty line.
 */
function hunkLines(removed: string, inserted: string): DiffLine[] {
  if (removed === '' && /^\r?\n$/.test(inserted)) return [{ kind: 'message', text: '\\ adds the line break at the end of the note' }];
  if (inserted === '' && /^\r?\n$/.test(removed)) return [{ kind: 'message', text: '\\ removes the line break at the end of the note' }];
  return [
    ...splitLines(removed).map((text): DiffLine => ({ kind: 'removed', text })),
    ...splitLines(inserted).map((text): DiffLine => ({ kind: 'inserted', text })),
  ];
}

/**
 * `lines` cut to `maxLines` (then one `more` line), each line's text to `maxLineChars` (on a grapheme
 * cluster boundary, then how many characters were left out), or the no-change message when empty.
 */
function capped(lines: DiffLine[], maxLines: number, maxLineChars = Infinity): DiffLine[] {
  if (lines.length === 0) return [{ kind: 'message', text: 'No change to the text.' }];
  const shown = lines.slice(0, maxLines).map((line): DiffLine => {
    if (line.text.length <= maxLineChars) return line;
    const start = clusterPrefix(line.text, maxLineChars);
    return { kind: line.kind, text: `${start}… (${line.text.length - start.length} more characters)` };
  });
  if (lines.length <= maxLines) return shown;
  return [...shown, { kind: 'more', text: `… ${lines.length - maxLines} more lines` }];
}

/**
 * {@link diffPreview} as unified-diff-like text (`@@ Line n`, `-`, `+` prefixes), for terminals and
 * agents; with `sight` (an agent key's, ToolError.messageFor's rule, docs/security.md#keys) without
 * what that key may not be shown ({@link withheldFrom}).
 * @param maxLineChars each line cut to this many characters (UTF-16 units), saying how many were left
 *   out: for an agent's context (a one-line note of megabytes made a megabyte "short" diff in
 *   proposal_status, session 43). The user's views show every line whole: a line padded out of
 *   sight may hide what an agent wrote at its end.
 */
export function diffText(entry: ActivityEntry, maxLines: number, sight?: VaultSight, maxLineChars = Infinity): string {
  const prefix = { head: '@@ ', removed: '-', inserted: '+', message: '', context: '  ', more: '' } as const;
  const lines = capped(sight === undefined ? diffPreview(entry, Infinity) : withheldFrom(entry, sight), maxLines, maxLineChars);
  return lines.map((l) => `${prefix[l.kind]}${l.text}`).join('\n');
}

/**
 * The whole preview of `entry` (uncapped) as a key that may see `sight` of the vault is shown it:
 * without `text`, each hunk's removed and inserted lines (the note's text around the key's change,
 * a deleted note's text) become one line counting them; without `names`, a move's notes whose links
 * it rewrote become one line counting them. Hunk heads (line numbers) and worded changes stay.
 */
function withheldFrom(entry: ActivityEntry, sight: VaultSight): DiffLine[] {
  const linkers = entry.kind === 'move' ? (entry.linkers ?? []) : [];
  if (!sight.names && linkers.length) {
    const count = `Links to it updated in ${linkers.length} note${linkers.length === 1 ? '' : 's'}`;
    return [...diffPreview({ ...entry, linkers: [] }, Infinity), { kind: 'message', text: withoutNames(count).message }];
  }
  const lines = diffPreview(entry, Infinity);
  if (sight.text) return lines;
  const out: DiffLine[] = [];
  for (let i = 0; i < lines.length;) {
    if (lines[i].kind !== 'removed' && lines[i].kind !== 'inserted') {
      out.push(lines[i++]);
      continue;
    }
    let removed = 0;
    let inserted = 0;
    for (; i < lines.length && (lines[i].kind === 'removed' || lines[i].kind === 'inserted'); i++)
      lines[i].kind === 'removed' ? removed++ : inserted++;
    out.push({ kind: 'message', text: withoutText(`${removed} line${removed === 1 ? '' : 's'} removed, ${inserted} added`).message });
  }
  return out;
}

/** Line breaks in `text` before offset `end`. */
function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The lines of a hunk's text, without their line breaks. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}
