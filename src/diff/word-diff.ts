/**
 * Word-level diff inside one changed region, for the editor widget that highlights the
 * changed words of a hunk's changed lines. Pure string work on jsdiff `diffWordsWithSpace`
 * (tokens: words, punctuation marks, newlines, runs of other whitespace).
 */
import { diffWordsWithSpace } from 'diff';
import type { WordPart } from './types';

/**
 * Above this many chars (UTF-16 code units) of `removed.length + inserted.length`, the word
 * diff is skipped and the region is shown as one removed part and one inserted part: the
 * diff is quadratic in the worst case and a word-by-word highlight of that much text does
 * not help a reader.
 */
export const WORD_DIFF_MAX_CHARS = 20_000;

/**
 * The most changed tokens (words, punctuation, whitespace runs; removed plus added) the
 * word diff works through before giving up on highlighting: ~50 ms in the worst case on a
 * shared 2-core machine, where an uncapped 20,000-char region can take ~3 s.
 */
export const WORD_DIFF_MAX_EDIT = 500;

/**
 * The word-level parts of replacing `removed` by `inserted` (a hunk's `removed`/`inserted`
 * text), in order. Within each run of changes between two unchanged parts, the removed
 * text comes first, then the inserted text; adjacent parts of the same kind are merged and
 * no part is empty. Joining the `same` and `removed` parts gives `removed`; joining the
 * `same` and `inserted` parts gives `inserted`. Beyond `WORD_DIFF_MAX_CHARS` in total, or when more
 * than `WORD_DIFF_MAX_EDIT` tokens change, returns just `{removed}` then `{inserted}` (each
 * only when non-empty). Does not throw.
 */
export function wordDiff(removed: string, inserted: string): WordPart[] {
  const whole = withoutEmpty([
    { kind: 'removed', text: removed },
    { kind: 'inserted', text: inserted },
  ]);
  if (removed.length + inserted.length > WORD_DIFF_MAX_CHARS) return whole;
  const changes = diffWordsWithSpace(removed, inserted, { maxEditLength: WORD_DIFF_MAX_EDIT });
  if (!changes) return whole;
  const parts: WordPart[] = [];
  let run = { removed: '', inserted: '' };
  const flush = (): void => {
    parts.push(
      ...withoutEmpty([
        { kind: 'removed', text: run.removed },
        { kind: 'inserted', text: run.inserted },
      ]),
    );
    run = { removed: '', inserted: '' };
  };
  for (const change of changes) {
    if (change.removed) run.removed += change.value;
    else if (change.added) run.inserted += change.value;
    else {
      flush();
      const last = parts[parts.length - 1];
      if (last?.kind === 'same') last.text += change.value;
      else if (change.value !== '') parts.push({ kind: 'same', text: change.value });
    }
  }
  flush();
  return parts;
}

/** The parts with non-empty text. */
function withoutEmpty(parts: WordPart[]): WordPart[] {
  return parts.filter((p) => p.text !== '');
}
