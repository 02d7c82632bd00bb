/**
 * The decorations of the inline review, built from the review field: each hunk's removed
 * lines get a line background and a strike-through mark (changed words emphasized), and a
 * block widget with the proposed text and the ✓ / ✗ buttons follows them. A stale hunk's
 * lines get a warning tint instead, without strike-through.
 */
import { StateField, type EditorState, type Range } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import type { ReviewHunk } from '../proposals/types';
import { wordDiff } from '../diff/word-diff';
import { HunkWidget } from './hunk-widget';
import { reviewHunksField, setReviewHunks } from './review-state';

const removedMark = Decoration.mark({ class: 'vault-mcp-removed' });
const removedWordMark = Decoration.mark({ class: 'vault-mcp-removed-word' });
const removedLine = Decoration.line({ class: 'vault-mcp-removed-line' });
const staleLine = Decoration.line({ class: 'vault-mcp-removed-line is-stale' });

/** The decorations of one hunk, pushed onto `out`. */
function decorateHunk(state: EditorState, hunk: ReviewHunk, out: Array<Range<Decoration>>): void {
  const doc = state.doc;
  const from = Math.min(hunk.from, doc.length);
  const to = Math.min(Math.max(hunk.to, from), doc.length);
  // Word-level emphasis for a changed region while the document still holds its removed
  // text; a pure insertion or deletion is shown by the line tint alone.
  const modified = !hunk.stale && hunk.removed !== '' && hunk.inserted !== '' && doc.sliceString(from, to) === hunk.removed;
  const parts = modified ? wordDiff(hunk.removed, hunk.inserted) : [{ kind: 'same' as const, text: hunk.inserted }];
  if (to > from) {
    const lastLine = doc.lineAt(Math.max(from, to - 1)).number;
    for (let n = doc.lineAt(from).number; n <= lastLine; n++) out.push((hunk.stale ? staleLine : removedLine).range(doc.line(n).from));
    // A stale hunk will never apply: its range (which may hold the user's typing) is not struck through.
    if (!hunk.stale) out.push(removedMark.range(from, to));
    if (parts.some((p) => p.kind === 'removed') && parts.some((p) => p.kind !== 'removed')) {
      let at = from;
      for (const part of parts) {
        if (part.kind === 'inserted') continue;
        if (part.kind === 'removed' && part.text.trim()) out.push(removedWordMark.range(at, at + part.text.length));
        at += part.text.length;
      }
    }
  }
  // Below the removed lines: before the line that starts at `to`, else after the last line.
  const side = doc.lineAt(to).from === to ? -1 : 1;
  out.push(Decoration.widget({ widget: new HunkWidget(hunk, parts), block: true, side }).range(to));
}

/** Builds every review decoration of `state` from its review field (sorted, as `Decoration.set` needs). */
function buildReviewDecorations(state: EditorState): DecorationSet {
  const hunks = state.field(reviewHunksField, false) ?? [];
  if (!hunks.length) return Decoration.none;
  const ranges: Array<Range<Decoration>> = [];
  for (const hunk of hunks) decorateHunk(state, hunk, ranges);
  return Decoration.set(ranges, true);
}

/** True when `b` holds `a`'s hunks with the same staleness (positions are compared by the caller's mapping). */
function sameShape(a: readonly ReviewHunk[], b: readonly ReviewHunk[]): boolean {
  return a.length === b.length && a.every((h, i) => h.proposalId === b[i].proposalId && h.index === b[i].index && h.stale === b[i].stale);
}

/**
 * The review's decorations as a state field (block widgets must come from a field). It
 * rebuilds when hunks are set or leave or turn stale; typing elsewhere maps the existing
 * decorations through the change, which is cheap on a long note.
 */
export const reviewDecorationsField = StateField.define<DecorationSet>({
  create: buildReviewDecorations,
  update(decorations, tr) {
    const before = tr.startState.field(reviewHunksField, false) ?? [];
    const after = tr.state.field(reviewHunksField, false) ?? [];
    const mappedOnly = before === after || (!tr.effects.some((e) => e.is(setReviewHunks)) && sameShape(before, after));
    if (mappedOnly) return tr.docChanged ? decorations.map(tr.changes) : decorations;
    return buildReviewDecorations(tr.state);
  },
  provide: (field) => EditorView.decorations.from(field),
});
