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
import { ASCII_HASH_SEED, asciiHashFinish, asciiHashStep } from '../postings/ascii-hash';
import { grow } from '../postings/typed-growth';

/** One term and where it came from: `start`/`end` are UTF-16 offsets into the input text. */
export interface TermSpan {
  term: string;
  start: number;
  end: number;
}

const UNSEGMENTED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

/** True when `text` has a character of a script written without spaces (Han, kana, Hangul, Thai...). */
export function hasUnsegmented(text: string): boolean {
  return UNSEGMENTED.test(text);
}

/** Only ASCII (no UTF-16 unit above U+007F; astral characters are surrogate pairs, above it too). */
const ASCII = /^[^\u0080-\uffff]*$/;

/** Combining diacritical marks (U+0300–U+036F): accents on Latin, Greek and Cyrillic letters. */
const DIACRITICS = /[\u0300-\u036f]/g;

/**
 * The comparable form of one term: compatibility-folded (NFKC), lower-cased, and with the
 * diacritics of Latin, Greek and Cyrillic letters removed ("Café" and "cafe" match). Marks of
 * other scripts (Japanese dakuten, Arabic harakat) are kept: they change the word there.
 */
export function normalizeTerm(term: string): string {
  // ASCII has no diacritics and NFKC leaves it as it is: skip the Unicode pass.
  if (ASCII.test(term)) return term.toLowerCase();
  return term.normalize('NFKD').replace(DIACRITICS, '').normalize('NFC').toLowerCase();
}

/**
 * Every term of `text` with its offsets, in text order.
 * @param mode `'index'`: runs in unsegmented scripts give their bigrams and their last
 *   character (so every character starts some term and a one-character query can match by
 *   prefix); `'query'`: such runs give bigrams only (a one-character run gives itself).
 * @returns spans sorted by `start`, then `end`; an empty array for text without letters or digits.
 */
export function termSpans(text: string, mode: 'index' | 'query' = 'index'): TermSpan[] {
  return scanTerms(text, mode, null);
}

/**
 * The spans of `text`'s index terms that are in `terms`, in text order: what
 * `termSpans(text, 'index').filter((s) => terms.has(s.term))` gives, without building a term
 * for every word of a long note (an ASCII word of a length no wanted term has is skipped).
 */
export function matchedTermSpans(text: string, terms: ReadonlySet<string>): TermSpan[] {
  if (terms.size === 0) return [];
  const ascii = [...terms].filter((t) => !NON_ASCII.test(t));
  if (ascii.length < terms.size || NON_ASCII.test(text)) return scanTerms(text, 'index', terms);
  // ASCII text and terms: one native case-insensitive regex pass over the text, each term whole.
  const words = new RegExp(`(?<![A-Za-z0-9])(?:${ascii.join('|')})(?![A-Za-z0-9])`, 'gi');
  const spans: TermSpan[] = [];
  for (const m of text.matchAll(words)) {
    const start = m.index ?? 0;
    spans.push({ term: m[0].toLowerCase(), start, end: start + m[0].length });
  }
  return spans;
}

/** The scanner behind {@link termSpans} and {@link matchedTermSpans}; `wanted` null keeps every term. */
function scanTerms(text: string, mode: 'index' | 'query', wanted: ReadonlySet<string> | null): TermSpan[] {
  const spans: TermSpan[] = [];
  let lengths: Set<number> | null = null;
  if (wanted !== null) {
    lengths = new Set();
    for (const t of wanted) lengths.add(t.length);
  }
  // ASCII letter/digit runs are cut by hand; a run touching a non-ASCII character goes
  // through the Unicode regex from its start (same terms, several times faster on prose).
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && !isAsciiWordChar(c)) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && isAsciiWordChar(text.charCodeAt(j))) j++;
    if (j > i && (j === n || text.charCodeAt(j) < 128)) {
      if (lengths === null || lengths.has(j - i)) {
        const term = text.slice(i, j).toLowerCase();
        if (wanted === null || wanted.has(term)) spans.push({ term, start: i, end: j });
      }
      i = j;
      continue;
    }
    WORD_RUN_AT.lastIndex = i;
    const run = WORD_RUN_AT.exec(text);
    if (run === null) {
      i = Math.max(j, i + 1);
      continue;
    }
    if (wanted === null) splitRun(run[0], i, mode, spans);
    else {
      const parts: TermSpan[] = [];
      splitRun(run[0], i, mode, parts);
      for (const part of parts) if (wanted.has(part.term)) spans.push(part);
    }
    i += run[0].length;
  }
  return spans;
}

const WORD_RUN_AT = /[\p{L}\p{N}\p{M}]+/uy;

/** True for `0-9`, `A-Z`, `a-z` (the ASCII letters and digits). */
function isAsciiWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

const NON_ASCII = /[\u0080-\uffff]/;
const NOT_ASCII_WORD = /[^a-z0-9]+/;

/**
 * The terms of `text` for the index (see {@link termSpans} `'index'` mode), without their
 * offsets. ASCII text and ASCII runs take a fast path (in ASCII, letters and digits are
 * exactly `[A-Za-z0-9]` and NFKC changes nothing), which is most of the cost of an index build.
 */
export function indexTerms(text: string): string[] {
  if (!NON_ASCII.test(text)) {
    const parts = text.toLowerCase().split(NOT_ASCII_WORD);
    const start = parts.length > 0 && parts[0] === '' ? 1 : 0;
    const end = parts.length > start && parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
    return start === 0 && end === parts.length ? parts : parts.slice(start, end);
  }
  return termSpans(text, 'index').map((s) => s.term);
}

/**
 * Where {@link internIndexTerms} puts a text's terms: `internAscii` for a run of ASCII letters
 * and digits (lower-cased by the sink, so no string need be made for a term it already
 * holds), with the run's hash of ascii-hash.ts, `intern` for any other term (already
 * normalized). Both return the term's id.
 */
export interface TermSink {
  internAscii(text: string, start: number, end: number, hash: number): number;
  intern(term: string): number;
}

/** Term ids of the last {@link internIndexTerms} call (reused, grown by doubling). */
let scratchIds = new Uint32Array(1024);

/**
 * The ids of `text`'s index terms, in text order: the ids of `indexTerms(text)`, interned into
 * `sink`, without making a string per word (an ASCII run goes to `sink.internAscii` as offsets).
 * The scan is {@link termSpans}' in `'index'` mode.
 * @returns `ids[0, count)`: a buffer shared by every call, valid until the next one
 */
export function internIndexTerms(text: string, sink: TermSink): { ids: Uint32Array; count: number } {
  let ids = scratchIds;
  let count = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && !isAsciiWordChar(c)) {
      i++;
      continue;
    }
    // The run's hash is made as its end is looked for: the word is read once here, once more by the sink's comparison.
    let j = i;
    let h = ASCII_HASH_SEED;
    for (let d = c; isAsciiWordChar(d); d = ++j < n ? text.charCodeAt(j) : -1) h = asciiHashStep(h, d);
    if (count === ids.length) ids = scratchIds = grow(ids, count + 1);
    if (j > i && (j === n || text.charCodeAt(j) < 128)) {
      ids[count++] = sink.internAscii(text, i, j, asciiHashFinish(h));
      i = j;
      continue;
    }
    WORD_RUN_AT.lastIndex = i;
    const run = WORD_RUN_AT.exec(text);
    if (run === null) {
      i = Math.max(j, i + 1);
      continue;
    }
    const parts: TermSpan[] = [];
    splitRun(run[0], i, 'index', parts);
    if (count + parts.length > ids.length) ids = scratchIds = grow(ids, count + parts.length);
    for (const part of parts) ids[count++] = sink.intern(part.term);
    i += run[0].length;
  }
  return { ids, count };
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
