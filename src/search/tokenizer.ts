/**
 * Splitting note text and queries into search terms.
 *
 * A term is a run of letters, digits and combining marks (Unicode classes L, N, M), folded
 * with NFKC and lower-cased, so non-ASCII words ("Über", "café", "Ελληνικά") stay whole.
 * Scripts written without spaces between words (Han, Hiragana, Katakana, Hangul, Thai, Lao,
 * Khmer, Myanmar) have no word boundaries a regex can see, so a run in those scripts is
 * indexed as overlapping character bigrams (the scheme of Lucene's CJKBigramFilter) plus its
 * last character alone, and a query run of two or more characters is searched as its
 * bigrams. A one-character query matches by prefix (every bigram starting with it, plus the
 * run-final single characters). A Japanese query therefore finds a Japanese note whatever
 * the surrounding particles; callers check that the characters are adjacent on the text.
 */

/** One term and where it came from: `start`/`end` are UTF-16 offsets into the input text. */
export interface TermSpan {
  term: string;
  start: number;
  end: number;
}

const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const UNSEGMENTED =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

/** True when `text` has a character of a script written without spaces (Han, kana, Hangul, Thai...). */
export function hasUnsegmented(text: string): boolean {
  return UNSEGMENTED.test(text);
}

const ASCII = /^[\x00-\x7f]*$/;

/** NFKC-folds and lower-cases one term. Takes any string, returns the comparable form. */
export function normalizeTerm(term: string): string {
  // NFKC leaves ASCII as it is: skip the Unicode pass for the common case.
  return ASCII.test(term) ? term.toLowerCase() : term.normalize('NFKC').toLowerCase();
}

/**
 * Every term of `text` with its offsets, in text order.
 * @param mode `'index'`: runs in unsegmented scripts give their bigrams and their last
 *   character (so every character starts some term and a one-character query can match by
 *   prefix); `'query'`: such runs give bigrams only (a one-character run gives itself).
 * @returns spans sorted by `start`, then `end`; an empty array for text without letters or digits.
 */
export function termSpans(text: string, mode: 'index' | 'query' = 'index'): TermSpan[] {
  const spans: TermSpan[] = [];
  for (const run of text.matchAll(WORD_RUN)) {
    splitRun(run[0], run.index ?? 0, mode, spans);
  }
  return spans;
}

/** The terms of `text` for the index (see {@link termSpans} `'index'` mode). */
export function indexTerms(text: string): string[] {
  return termSpans(text, 'index').map((s) => s.term);
}

/** The terms of a query word or phrase (see {@link termSpans} `'query'` mode). */
export function queryTerms(text: string): string[] {
  return termSpans(text, 'query').map((s) => s.term);
}

/** Splits one letter/digit run into segmented parts (kept whole) and unsegmented parts (n-grams). */
function splitRun(run: string, offset: number, mode: 'index' | 'query', out: TermSpan[]): void {
  if (!UNSEGMENTED.test(run)) {
    out.push({ term: normalizeTerm(run), start: offset, end: offset + run.length });
    return;
  }
  // Code points with their UTF-16 offsets, so surrogate pairs (CJK Extension B) stay whole.
  const chars: { ch: string; at: number }[] = [];
  let at = 0;
  for (const ch of run) {
    chars.push({ ch, at: offset + at });
    at += ch.length;
  }
  let i = 0;
  while (i < chars.length) {
    const unsegmented = UNSEGMENTED.test(chars[i].ch);
    let j = i + 1;
    while (j < chars.length && UNSEGMENTED.test(chars[j].ch) === unsegmented) j++;
    const part = chars.slice(i, j);
    const end = part[part.length - 1].at + part[part.length - 1].ch.length;
    if (!unsegmented) {
      out.push({ term: normalizeTerm(part.map((c) => c.ch).join('')), start: part[0].at, end });
    } else {
      pushGrams(part, mode, out);
    }
    i = j;
  }
}

/** Bigrams of an unsegmented run, and single characters where they end a run (index mode) or form it, in text order. */
function pushGrams(part: { ch: string; at: number }[], mode: 'index' | 'query', out: TermSpan[]): void {
  for (let k = 0; k < part.length; k++) {
    const c = part[k];
    if (part.length === 1 || (mode === 'index' && k === part.length - 1)) {
      out.push({ term: normalizeTerm(c.ch), start: c.at, end: c.at + c.ch.length });
    }
    if (k + 1 < part.length) {
      const n = part[k + 1];
      out.push({ term: normalizeTerm(c.ch + n.ch), start: c.at, end: n.at + n.ch.length });
    }
  }
}
