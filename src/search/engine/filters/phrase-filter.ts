import { DocTermLists } from '../postings/doc-term-lists';
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
 * True when the filter of `count` words from word `first` of `words` (by default all of them)
 * may hold every key of `keys` (false: certainly not). Each key's two bit positions as
 * {@link phraseFilterOf} sets them, computed in place: this runs once per candidate note of a
 * phrase, tens of thousands of times at 100k notes (a loaded filter is a stretch of its saved
 * line's words: no view made per test).
 */
export function mayHoldAll(words: Uint32Array, keys: readonly number[], first = 0, count = words.length): boolean {
  const bits = count * 32;
  for (let k = 0; k < keys.length; k++) {
    const h = keys[k];
    const p1 = h % bits;
    if ((words[first + (p1 >>> 5)] & (1 << (p1 & 31))) === 0) return false;
    const p2 = secondBit(h, bits);
    if ((words[first + (p2 >>> 5)] & (1 << (p2 & 31))) === 0) return false;
  }
  return true;
}

/**
 * Word lists one after another in one array: `sizes[i]` the words of list i (0 for null or an
 * empty one), `words` all of them (a saved phrase filter line's words, index-file.ts).
 */
export function joinWords(lists: readonly (Uint32Array | null)[]): { sizes: number[]; words: Uint32Array } {
  const sizes = lists.map((list) => list?.length ?? 0);
  const words = new Uint32Array(sizes.reduce((sum, n) => sum + n, 0));
  let at = 0;
  for (const list of lists) {
    if (list === null) continue;
    words.set(list, at);
    at += list.length;
  }
  return { sizes, words };
}

/** `lineOf` of a document without a loaded filter. */
const NO_LINE = 0xffffffff;
/** What a loaded line no filter is left in holds. */
const NO_WORDS = new Uint32Array(0);

/**
 * The phrase filters of every indexed document, by doc id. A filter made here ({@link add}) is
 * kept in the paged store of DocTermLists; one loaded from a saved line ({@link loadSavedLine})
 * stays a stretch of that line's words, as the load handed them over (a view of the bytes read
 * from the saved part's binary file: nothing decoded or copied). Format 9 kept them as base64url
 * text checked character by character (1.3 s of CPU after a 100k-note warm start's completeness);
 * before it, decoding them into arrays of their own made thousands of allocations outside the heap
 * (docs/performance.md, "store" and "filters" rounds, sessions 18 and 19).
 */
export class PhraseFilters {
  private readonly store = new DocTermLists();
  /** The words of each loaded line that still holds a live filter (empty once none is left). */
  private readonly lines: Uint32Array[] = [];
  /** Live filters per loaded line. */
  private readonly lineLive: number[] = [];
  /** Words of the loaded lines kept. */
  private lineWords = 0;
  /** Each doc id's loaded line ({@link NO_LINE} for none), its filter's first word in that line, and its words. */
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

  /** Document `doc`'s filter (a view, valid until the next change), or null when it has none. */
  filterOf(doc: number): Uint32Array | null {
    const line = this.loadedLine(doc);
    if (line === NO_LINE) return this.store.peek(doc);
    const first = this.wordAt[doc];
    return this.lines[line].subarray(first, first + this.wordCount[doc]);
  }

  /** False when document `doc` certainly cannot hold a phrase of these keys; true when it may (or has no filter). */
  mayHold(doc: number, keys: readonly number[]): boolean {
    const line = this.loadedLine(doc);
    if (line !== NO_LINE) return mayHoldAll(this.lines[line], keys, this.wordAt[doc], this.wordCount[doc]);
    const words = this.store.peek(doc);
    return words === null || mayHoldAll(words, keys);
  }

  /**
   * The filters as saved lines, `perLine` documents of `docs` a line, in the order given: each
   * line's filters joined ({@link joinWords}: `sizes[i]` the words of the line's document i, 0 for
   * one without a filter; `words` all of them).
   */
  *savedLines(docs: Iterable<number>, perLine: number): Generator<{ sizes: number[]; words: Uint32Array }> {
    // Views into the store, joined before the line is yielded (the store may change after).
    let line: (Uint32Array | null)[] = [];
    for (const doc of docs) {
      line.push(this.filterOf(doc));
      if (line.length === perLine) {
        yield joinWords(line);
        line = [];
      }
    }
    if (line.length > 0) yield joinWords(line);
  }

  /**
   * Restores one line of {@link savedLines} for the documents from `firstDoc` on (those `live`
   * says are still indexed; by default all), keeping its words as they are given (any 32-bit
   * word is a filter's; each filter is a stretch of them).
   * @returns how many documents the line covered
   * @throws Error when `sizes` is not a list of whole numbers ≥ 0 or `words` not a Uint32Array
   *   of their sum (the caller then rebuilds; no filter of the line is restored, those of lines
   *   before stay, each right for its document)
   */
  loadSavedLine(sizes: unknown, words: unknown, firstDoc: number, live: (doc: number) => boolean = () => true): number {
    if (!Array.isArray(sizes) || !(words instanceof Uint32Array)) throw new Error('saved search index has a malformed phrase filter line');
    let total = 0;
    for (const n of sizes) {
      if (!Number.isSafeInteger(n) || (n as number) < 0) throw new Error('saved search index has a malformed phrase filter line');
      total += n as number;
    }
    if (total !== words.length) throw new Error('saved search index has a truncated phrase filter line');
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
      this.lines.push(words);
      this.lineLive.push(kept);
      this.lineWords += words.length;
    }
    return sizes.length;
  }

  /** Drops spare capacity once a build ends. */
  trim(): void {
    this.store.trim();
  }

  /** Bytes held: the store's, the loaded lines' words and their per-document arrays. */
  bytes(): number {
    return this.store.bytes() + 4 * this.lineWords + this.lineOf.byteLength + this.wordAt.byteLength + this.wordCount.byteLength;
  }

  /** Document `doc`'s loaded line, or {@link NO_LINE}. */
  private loadedLine(doc: number): number {
    return doc < this.lineOf.length ? this.lineOf[doc] : NO_LINE;
  }

  /** Forgets document `doc`'s loaded filter; a line none is left in lets go of its words. */
  private dropLoaded(doc: number): void {
    const line = this.loadedLine(doc);
    if (line === NO_LINE) return;
    this.lineOf[doc] = NO_LINE;
    if (--this.lineLive[line] > 0) return;
    this.lineWords -= this.lines[line].length;
    this.lines[line] = NO_WORDS;
  }

  private growDocs(docs: number): void {
    const old = this.lineOf.length;
    this.lineOf = grow(this.lineOf, docs);
    this.lineOf.fill(NO_LINE, old);
    this.wordAt = grow(this.wordAt, docs);
    this.wordCount = grow(this.wordCount, docs);
  }
}
