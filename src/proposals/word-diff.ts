import { diffWordsWithSpace } from 'diff';
import type { WordPart } from './types';

/** Above this many characters (removed + inserted) the word diff is skipped: the whole texts are the parts. */
const WORD_DIFF_LIMIT = 20_000;

/**
 * A word-level diff of a changed region, for emphasizing the changed words of a hunk.
 * @param removed the region's text in the base (chars)
 * @param inserted the text the proposal puts there
 * @returns parts in order; `same` + `removed` parts concatenate to `removed`, `same` +
 *   `inserted` parts to `inserted`; adjacent parts of one kind are merged. Above 20,000
 *   chars in all, the whole texts (one `removed`, one `inserted` part, empty ones left out).
 *   Words and whitespace runs are tokens (jsdiff's `diffWordsWithSpace`).
 */
export function wordDiff(removed: string, inserted: string): WordPart[] {
  const raw: WordPart[] = removed.length + inserted.length > WORD_DIFF_LIMIT
    ? [{ kind: 'removed', text: removed }, { kind: 'inserted', text: inserted }]
    : diffWordsWithSpace(removed, inserted).map((c) => ({ kind: c.added ? 'inserted' : c.removed ? 'removed' : 'same', text: c.value }));
  const parts: WordPart[] = [];
  for (const part of raw) {
    if (!part.text) continue;
    const last = parts[parts.length - 1];
    if (last && last.kind === part.kind) last.text += part.text;
    else parts.push({ ...part });
  }
  return parts;
}
