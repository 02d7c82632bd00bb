import { DocTermLists } from '../postings/doc-term-lists';
import { checkWordRun, encodeWordRun, wordRunBit } from '../postings/posting-codec';
import { grow } from '../postings/typed-growth';

/**
 * A cheap, exact-safe candidate check for phrases (`"a b"` matches where the literal text,
 * case-insensitive, has the parts with whitespace between: text-match.ts's literalPattern):
 * per note, a Bloom filter (Bloom, "Space/time trade-offs in hash coding with allowable
 * errors", CACM 1970) of every pair of neighbouring whitespace-separated chunks of its title
 * and text, each pair keyed by the last {@link WINDOW} characters of the first chunk and the
 * first {@link WINDOW} of the second, ASCII case folded as the `iu` flags fold it. A phrase
 * part ends a chunk and the next part starts the next chunk, so a note whose filter lacks the
 * key of some neighbouring parts (both at least WINDOW long) cannot match: the text pass then
 * skips reading it. A key present may be a false positive (about 5 % at {@link BITS_PER_PAIR}
 * bits and two hashes); the text pass decides those.
 */

/** Characters of each chunk end a pair key holds. */
const WINDOW = 3;
/** Filter bits per chunk pair of a note. */
const BITS_PER_PAIR = 8;

/** True for the characters JavaScript's `\s` matches (ECMA-262 WhiteSpace and LineTerminator). */
export function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** A code unit case folded as the `iu` flags fold an ASCII letter: A–Z to a–z, KELVIN SIGN to k, LONG S to s; others as they are. */
function fold(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c + 0x20;
  if (c === 0x212a) return 0x6b;
  if (c === 0x17f) return 0x73;
  return c;
}

/** FNV-1a over the folded last WINDOW code units of the chunk `text[aStart, aEnd)`, a separator, then the first WINDOW of the chunk `text[bStart, bEnd)`. */
function pairHash(text: string, aEnd: number, aStart: number, bStart: number, bEnd: number): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(aStart, aEnd - WINDOW); i < aEnd; i++) h = Math.imul(h ^ fold(text.charCodeAt(i)), 0x01000193);
  h = Math.imul(h ^ 0x20, 0x01000193);
  const stop = Math.min(bEnd, bStart + WINDOW);
  for (let i = bStart; i < stop; i++) h = Math.imul(h ^ fold(text.charCodeAt(i)), 0x01000193);
  return h >>> 0;
}

/** Pair hashes of the last {@link fillPhraseFilter} call (reused, grown by doubling). */
let scratchHashes = new Uint32Array(4096);
/** The filter words of the last {@link fillPhraseFilter} call (reused, grown by doubling). */
let scratchWords = new Uint32Array(1024);

/**
 * The Bloom filter of the neighbouring chunk pairs of the texts `parts` joined by newlines
 * (a note's title and text), as 32-bit words (at least two). The parts are scanned where they
 * are, not joined: joining a note's text to its title copied every note once more.
 */
export function phraseFilterOf(...parts: string[]): Uint32Array {
  return fillPhraseFilter(parts).slice();
}

/**
 * {@link phraseFilterOf} into a buffer shared by every call: a view valid until the next call,
 * for a caller that copies it (PhraseFilters' store), so a build allocates no array per note.
 */
function fillPhraseFilter(parts: readonly string[]): Uint32Array {
  let hashes = scratchHashes;
  let count = 0;
  // FNV-1a state over the previous chunk's last WINDOW folded code units and the separator; -1 before the first chunk.
  let tail = -1;
  for (const text of parts) {
    let i = 0;
    const n = text.length;
    while (i < n) {
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (i >= n) break;
      const start = i;
      while (i < n && !isSpace(text.charCodeAt(i))) i++;
      if (tail !== -1) {
        let h = tail;
        const stop = Math.min(i, start + WINDOW);
        for (let k = start; k < stop; k++) h = Math.imul(h ^ fold(text.charCodeAt(k)), 0x01000193);
        if (count === hashes.length) hashes = scratchHashes = grow(hashes, count + 1);
        hashes[count++] = h >>> 0;
      }
      let t = 0x811c9dc5;
      for (let k = Math.max(start, i - WINDOW); k < i; k++) t = Math.imul(t ^ fold(text.charCodeAt(k)), 0x01000193);
      tail = Math.imul(t ^ 0x20, 0x01000193) >>> 0;
    }
  }
  const size = Math.max(2, Math.ceil((count * BITS_PER_PAIR) / 32));
  if (scratchWords.length < size) scratchWords = grow(scratchWords, size);
  const words = scratchWords.subarray(0, size);
  words.fill(0);
  const bits = size * 32;
  for (let k = 0; k < count; k++) {
    const h = hashes[k];
    const p1 = h % bits;
    const p2 = secondBit(h, bits);
    words[p1 >>> 5] |= 1 << (p1 & 31);
    words[p2 >>> 5] |= 1 << (p2 & 31);
  }
  return words;
}

/**
 * The pair keys a phrase's note must hold (see the file comment), or null when the check
 * cannot rule anything out: text outside ASCII (its case folding is not the ASCII one above)
 * or no two neighbouring parts both {@link WINDOW} characters long.
 */
export function phraseKeys(phrase: string): number[] | null {
  for (let i = 0; i < phrase.length; i++) if (phrase.charCodeAt(i) > 0x7f) return null;
  const parts = phrase.trim().split(/\s+/);
  const keys: number[] = [];
  for (let k = 0; k + 1 < parts.length; k++) {
    const a = parts[k];
    const b = parts[k + 1];
    if (a.length < WINDOW || b.length < WINDOW) continue;
    const joined = `${a} ${b}`;
    keys.push(pairHash(joined, a.length, 0, a.length + 1, joined.length));
  }
  return keys.length === 0 ? null : keys;
}

/**
 * The second of a key's two bit positions in a filter of `bits` bits (the first is `h % bits`):
 * double hashing, the step an odd multiple of the golden ratio's 32-bit constant. One rule for
 * {@link phraseFilterOf}, which sets the bits, and the tests that read them.
 */
function secondBit(h: number, bits: number): number {
  return (h + ((Math.imul(h, 0x9e3779b1) | 1) >>> 0)) % bits;
}

/**
 * True when the filter `words` may hold every key of `keys` (false: certainly not). Each key's
 * two bit positions as {@link phraseFilterOf} sets them, computed in place: this runs once per
 * candidate note of a phrase, tens of thousands of times at 100k notes.
 */
export function mayHoldAll(words: Uint32Array, keys: readonly number[]): boolean {
  const bits = words.length * 32;
  for (let k = 0; k < keys.length; k++) {
    const h = keys[k];
    const p1 = h % bits;
    if ((words[p1 >>> 5] & (1 << (p1 & 31))) === 0) return false;
    const p2 = secondBit(h, bits);
    if ((words[p2 >>> 5] & (1 << (p2 & 31))) === 0) return false;
  }
  return true;
}

/**
 * True when the filter of `words` words starting at word `first` of a saved run's text (see
 * PhraseFilters' loaded lines) may hold every key of `keys`: {@link mayHoldAll}, each bit read
 * from the one character that holds it (posting-codec's wordRunBit; a damaged character reads as
 * set, so it never rules a note out).
 */
export function textMayHoldAll(text: string, first: number, words: number, keys: readonly number[]): boolean {
  const bits = words * 32;
  for (let k = 0; k < keys.length; k++) {
    const h = keys[k];
    const p1 = h % bits;
    if (!wordRunBit(text, first + (p1 >>> 5), p1 & 31)) return false;
    const p2 = secondBit(h, bits);
    if (!wordRunBit(text, first + (p2 >>> 5), p2 & 31)) return false;
  }
  return true;
}

/** `lineOf` of a document without a loaded filter. */
const NO_LINE = 0xffffffff;
/** Characters per filter word in a saved line's text (posting-codec's encodeWordRun). */
const WORD_CHARS = 6;

/**
 * The phrase filters of every indexed document, by doc id. A filter made here ({@link add}) is
 * kept in the paged store of DocTermLists; one loaded from a saved line ({@link loadSavedLine})
 * stays that line's base64url text (a slice of the saved part, on the JS heap), its bits read from
 * the text where a query tests them: decoding a 100k-note save's lines made 31 MB of typed arrays
 * at the warm start, memory outside the heap whose count set off a full marking of the host's
 * 1.2 GB heap during the load, with main-thread steps of up to 185 ms in its slices
 * (docs/performance.md, "store" and "filters" rounds, sessions 18 and 19).
 */
export class PhraseFilters {
  private readonly store = new DocTermLists();
  /** The text of each loaded line that still holds a live filter ('' once none is left). */
  private readonly lines: string[] = [];
  /** Live filters per loaded line. */
  private readonly lineLive: number[] = [];
  /** Characters of the loaded lines kept. */
  private textChars = 0;
  /** Each doc id's loaded line ({@link NO_LINE} for none), its filter's first word in that line's text, and its words. */
  private lineOf = new Uint32Array(0);
  private wordAt = new Uint32Array(0);
  private wordCount = new Uint32Array(0);

  /** Sets document `doc`'s filter from the text a phrase is tested on (title, newline, full text); `doc` has none yet (doc ids are never reused). */
  add(doc: number, title: string, text: string): void {
    this.store.set(doc, fillPhraseFilter([title, text]));
  }

  /** Makes room for the filters of doc ids below `docs` at once, before a load restores them: three arrays, not a dozen growths by doubling. */
  expectDocs(docs: number): void {
    if (docs > this.lineOf.length) this.growDocs(docs);
  }

  /** Drops document `doc`'s filter. */
  remove(doc: number): void {
    this.store.take(doc);
    this.dropLoaded(doc);
  }

  /** Document `doc`'s filter (a view, valid until the next change, or a decoded copy of a loaded one), or null when it has none. */
  filterOf(doc: number): Uint32Array | null {
    const line = this.loadedLine(doc);
    if (line === NO_LINE) return this.store.peek(doc);
    const words = new Uint32Array(this.wordCount[doc]);
    for (let w = 0; w < words.length; w++)
      for (let bit = 0; bit < 32; bit++) if (wordRunBit(this.lines[line], this.wordAt[doc] + w, bit)) words[w] |= 1 << bit;
    return words;
  }

  /** False when document `doc` certainly cannot hold a phrase of these keys; true when it may (or has no filter). */
  mayHold(doc: number, keys: readonly number[]): boolean {
    const line = this.loadedLine(doc);
    if (line !== NO_LINE) return textMayHoldAll(this.lines[line], this.wordAt[doc], this.wordCount[doc], keys);
    const words = this.store.peek(doc);
    return words === null || mayHoldAll(words, keys);
  }

  /**
   * The filters as saved lines, `perLine` documents of `docs` a line, in the order given: each
   * line one encodeWordRun run (`sizes[i]` the words of the line's document i, 0 for one without
   * a filter; `text` their characters; a loaded filter's characters copied as they are).
   */
  *savedLines(docs: Iterable<number>, perLine: number): Generator<{ sizes: number[]; text: string }> {
    // Views into the store, encoded together before the line is yielded (the store may change after).
    let line: (Uint32Array | string | null)[] = [];
    for (const doc of docs) {
      line.push(this.savedFilter(doc));
      if (line.length === perLine) {
        yield encodeWordRun(line);
        line = [];
      }
    }
    if (line.length > 0) yield encodeWordRun(line);
  }

  /**
   * Restores one line of {@link savedLines} for the documents from `firstDoc` on (those `live`
   * says are still indexed; by default all), keeping its text: the whole line is checked first
   * (posting-codec's checkWordRun, which allocates nothing), then each filter is a place in it.
   * @returns how many documents the line covered
   * @throws Error when `sizes` is not a list of whole numbers ≥ 0, or `text` is not theirs or
   *   holds a character outside the alphabet (the caller then rebuilds; no filter of the line is
   *   restored, those of lines before stay, each right for its document)
   */
  loadSavedLine(sizes: unknown, text: unknown, firstDoc: number, live: (doc: number) => boolean = () => true): number {
    if (!Array.isArray(sizes) || typeof text !== 'string') throw new Error('saved search index has a malformed phrase filter line');
    checkWordRun(text, sizes);
    if (firstDoc + sizes.length > this.lineOf.length) this.growDocs(firstDoc + sizes.length);
    const line = this.lines.length;
    let kept = 0;
    let word = 0;
    for (let i = 0; i < sizes.length; i++) {
      const n = sizes[i] as number;
      const doc = firstDoc + i;
      if (n > 0 && live(doc)) {
        this.lineOf[doc] = line;
        this.wordAt[doc] = word;
        this.wordCount[doc] = n;
        kept++;
      }
      word += n;
    }
    if (kept > 0) {
      this.lines.push(text);
      this.lineLive.push(kept);
      this.textChars += text.length;
    }
    return sizes.length;
  }

  /** Drops spare capacity once a build ends. */
  trim(): void {
    this.store.trim();
  }

  /** Bytes held: the store's, the loaded lines' text (one byte a character: base64url is Latin-1) and their per-document arrays. */
  bytes(): number {
    return this.store.bytes() + this.textChars + this.lineOf.byteLength + this.wordAt.byteLength + this.wordCount.byteLength;
  }

  /** Document `doc`'s loaded line, or {@link NO_LINE}. */
  private loadedLine(doc: number): number {
    return doc < this.lineOf.length ? this.lineOf[doc] : NO_LINE;
  }

  /** Document `doc`'s filter as {@link savedLines} encodes it: a view of the store's, or a loaded one's characters. */
  private savedFilter(doc: number): Uint32Array | string | null {
    const line = this.loadedLine(doc);
    if (line === NO_LINE) return this.store.peek(doc);
    const from = this.wordAt[doc] * WORD_CHARS;
    return this.lines[line].slice(from, from + this.wordCount[doc] * WORD_CHARS);
  }

  /** Forgets document `doc`'s loaded filter; a line none is left in lets go of its text. */
  private dropLoaded(doc: number): void {
    const line = this.loadedLine(doc);
    if (line === NO_LINE) return;
    this.lineOf[doc] = NO_LINE;
    if (--this.lineLive[line] > 0) return;
    this.textChars -= this.lines[line].length;
    this.lines[line] = '';
  }

  private growDocs(docs: number): void {
    const old = this.lineOf.length;
    this.lineOf = grow(this.lineOf, docs);
    this.lineOf.fill(NO_LINE, old);
    this.wordAt = grow(this.wordAt, docs);
    this.wordCount = grow(this.wordCount, docs);
  }
}
