import { growBytes } from './typed-growth';

/**
 * Encodings for the saved index: posting lists as their varint bytes ({@link PostingBytes}, saved
 * as they are in a part's binary file), phrase filters as 32-bit words in the base64url alphabet
 * ({@link encodeWordRun}: text, read bit by bit where a query needs it, no Buffer, works on mobile).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
const ALPHABET_BYTES = Uint8Array.from(ALPHABET, (ch) => ch.charCodeAt(0));
/** The encoded text is ASCII, which UTF-8 decodes byte for byte (TextDecoder's fast path); made on first use. */
let ascii: TextDecoder | null = null;

/** What {@link PostingBytes} reads: a posting list in doc order (PostingLists' PostingCursor). */
export interface PostingSource {
  /** Reads the next posting into `doc` and `code`; false at the end. */
  next(): boolean;
  doc: number;
  code: number;
}

/** Bytes a posting takes at most: two base-128 varints of 32-bit values, 5 bytes each. */
const MAX_POSTING_BYTES = 10;

/**
 * Writes `v` (0 ≤ v < 2^32) as a base-128 varint (7 bits a byte, low bits first, high bit "more
 * follows") at `bytes[at]`.
 * @returns the offset after it
 */
export function writeVarint(bytes: Uint8Array, at: number, v: number): number {
  while (v > 127) {
    bytes[at++] = (v & 127) | 128;
    v >>>= 7;
  }
  bytes[at++] = v;
  return at;
}

/**
 * Encodes posting lists for the saved index, several at a time, as PostingLists holds them:
 * each posting `[doc, code]` as two base-128 varints, `doc` the difference to the previous
 * written posting's doc (lists are sorted by doc). The bytes of every list {@link add}ed go
 * into one reused buffer that {@link take} copies out, and a save writes them as they are into
 * its part's binary file, so a load hands them to PostingLists as views of the bytes it read
 * (PostingLists.loadLists), with nothing decoded between. Format 9 wrote them as base64url text
 * in the part's lines: reading, joining and decoding 60 MB of it was 0.4-0.6 s of a 100k-note
 * warm start (docs/performance.md); format 5 wrote base-32 varints of the numbers.
 */
export class PostingBytes {
  private bytes = new Uint8Array(1 << 16);
  private at = 0;
  /** The byte length of each list added since the last {@link take}. */
  private sizes: number[] = [];
  /** Where the list {@link add} has begun but not finished starts (-1 when none is open), and the doc id of its last posting written. */
  private listStart = -1;
  private prev = 0;

  /**
   * Encodes one list after those added before; with `maxBytes`, in parts: a call stops once it
   * has written that many bytes, and the next call (with the same `postings`) goes on.
   * @param postings the list, read to its end over the calls
   * @param renumber maps an old doc id to its saved id (monotonic), or -1 to leave the posting out
   * @param maxBytes bytes one call writes at most, about (a posting past it is written whole); above 0
   * @returns -1 when the call stopped at `maxBytes` with postings left; else the list's length in
   *   bytes; 0 when every posting was left out, and then the list is not added ({@link take} has
   *   no size for it)
   */
  add(postings: PostingSource, renumber: Int32Array, maxBytes = Infinity): number {
    if (this.listStart < 0) {
      this.listStart = this.at;
      this.prev = 0;
    }
    const stop = this.at + maxBytes;
    let at = this.at;
    let bytes = this.bytes;
    let prev = this.prev;
    let more = true;
    while (at < stop && (more = postings.next())) {
      const doc = renumber[postings.doc];
      if (doc < 0) continue;
      if (at + MAX_POSTING_BYTES > bytes.length) bytes = this.bytes = growBytes(bytes, at + MAX_POSTING_BYTES);
      at = writeVarint(bytes, writeVarint(bytes, at, doc - prev), postings.code);
      prev = doc;
    }
    this.at = at;
    this.prev = prev;
    if (more) return -1;
    const n = at - this.listStart;
    this.listStart = -1;
    if (n > 0) this.sizes.push(n);
    return n;
  }

  /**
   * Adds one list given as the bytes {@link add} would write for it: a list of PostingLists
   * (the same varints) whose doc ids are their saved ids, copied as it is.
   * @returns its length in bytes; 0 adds nothing
   */
  copy(list: Uint8Array): number {
    const n = list.length;
    if (n === 0) return 0;
    if (this.at + n > this.bytes.length) this.bytes = growBytes(this.bytes, this.at + n);
    this.bytes.set(list, this.at);
    this.at += n;
    this.sizes.push(n);
    return n;
  }

  /**
   * The lists added since the last call: their byte lengths in order, and all their bytes, one
   * list after another, as a new array of exactly their length; the buffer then starts over.
   */
  take(): { sizes: number[]; bytes: Uint8Array } {
    const out = { sizes: this.sizes, bytes: this.bytes.slice(0, this.at) };
    this.at = 0;
    this.sizes = [];
    return out;
  }
}

/** Bits of a posting's code that hold the field number: fields are 0 ≤ f < 2^FIELD_BITS. */
export const FIELD_BITS = 3;
const FIELD_MASK = (1 << FIELD_BITS) - 1;

/**
 * A posting's code: the field number in the low {@link FIELD_BITS} bits, the term's frequency
 * in that field above them.
 * @param field 0 ≤ field < 2^FIELD_BITS; @param frequency ≥ 1, below 2^(32 − FIELD_BITS)
 */
export function packPosting(field: number, frequency: number): number {
  return (field | (frequency << FIELD_BITS)) >>> 0;
}

/** The field number of a code made by {@link packPosting}. */
export function postingField(code: number): number {
  return code & FIELD_MASK;
}

/** The term frequency of a code made by {@link packPosting}. */
export function postingFrequency(code: number): number {
  return code >>> FIELD_BITS;
}

/** Characters per 32-bit word in {@link encodeWordRun}: 6 bits each. */
const WORD_CHARS = 6;

/**
 * Encodes word lists (phrase filters) as one run: each word as {@link WORD_CHARS} base64url
 * characters, low bits first, the lists one after another, with each list's length apart. One
 * byte buffer for all of them, turned into one string by TextDecoder (a string built character by
 * character, or a buffer and a `String.fromCharCode` per list, made saving 14k notes' filters take
 * hundreds of ms).
 * @param lists the word lists; null stands for an empty one, and a string for a list already
 *   encoded (whole words of a run {@link checkWordRun} accepted: a loaded filter saved again as it is)
 * @returns `sizes[i]`, the words of list i, and `text`, their characters ({@link WORD_CHARS} × the sum of `sizes`)
 */
export function encodeWordRun(lists: readonly (Uint32Array | string | null)[]): { sizes: number[]; text: string } {
  const sizes = lists.map((words) => (words === null ? 0 : typeof words === 'string' ? words.length / WORD_CHARS : words.length));
  const bytes = new Uint8Array(sizes.reduce((sum, n) => sum + n, 0) * WORD_CHARS);
  let at = 0;
  for (const words of lists) {
    if (words === null) continue;
    if (typeof words === 'string') {
      for (let i = 0; i < words.length; i++) bytes[at++] = words.charCodeAt(i);
      continue;
    }
    for (let i = 0; i < words.length; i++, at += WORD_CHARS) {
      const w = words[i];
      bytes[at] = ALPHABET_BYTES[w & 63];
      bytes[at + 1] = ALPHABET_BYTES[(w >>> 6) & 63];
      bytes[at + 2] = ALPHABET_BYTES[(w >>> 12) & 63];
      bytes[at + 3] = ALPHABET_BYTES[(w >>> 18) & 63];
      bytes[at + 4] = ALPHABET_BYTES[(w >>> 24) & 63];
      bytes[at + 5] = ALPHABET_BYTES[w >>> 30];
    }
  }
  return { sizes, text: (ascii ??= new TextDecoder()).decode(bytes) };
}

/** {@link asciiCopy}'s buffer, grown by doubling and kept (one phrase filter line's text: a few hundred KB at 100k notes). */
let asciiScratch = new Uint8Array(0);
/** {@link asciiCopy}'s encoder, made on first use. */
let asciiEncoder: TextEncoder | null = null;

/**
 * `text` as bytes, one a character, in a reused buffer (valid until the next call), or null when
 * it holds a character outside ASCII (which takes more than one byte: the text then does not fit).
 */
function asciiCopy(text: string): Uint8Array | null {
  const length = text.length;
  if (asciiScratch.length < length) asciiScratch = new Uint8Array(Math.max(length, 2 * asciiScratch.length));
  const chars = asciiScratch.subarray(0, length);
  const { read, written } = (asciiEncoder ??= new TextEncoder()).encodeInto(text, chars);
  return read === length && written === length ? chars : null;
}

/**
 * Checks a run written by {@link encodeWordRun} without decoding it (a loaded phrase filter line
 * is kept as its text and its bits read from it where a query needs them: decoding the run into
 * typed arrays made 31 MB of memory outside the JS heap at a 100k-note warm start, whose count
 * started a full marking of the host's heap and put its steps in the load's slices; see
 * docs/performance.md, "filters" round, session 19). The characters are copied as bytes into a
 * reused buffer by `TextEncoder.encodeInto` (native): the text is a slice of a saved part
 * (index-file.ts), and reading a slice character by character costs more than that copy; the
 * check allocates nothing once the buffer has grown.
 * @param sizes the words of each list, as encodeWordRun gave them
 * @returns the words of the run (the sum of `sizes`)
 * @throws Error when `sizes` is not a list of whole numbers ≥ 0, the text's length is not theirs,
 *   or the text holds a character outside the alphabet or a word above 32 bits
 */
export function checkWordRun(text: string, sizes: readonly unknown[]): number {
  let words = 0;
  for (const n of sizes) {
    if (!Number.isSafeInteger(n) || (n as number) < 0) throw new Error('saved search index has a malformed phrase filter line');
    words += n as number;
  }
  if (text.length !== words * WORD_CHARS) throw new Error('saved search index has a truncated phrase filter line');
  const chars = asciiCopy(text);
  if (chars === null) throw new Error('saved search index has a damaged phrase filter');
  // A negative value is a character outside the alphabet; a last character of a word above 3 a word above 32 bits.
  let bad = 0;
  let last = 0;
  for (let j = 0; j < chars.length; j += WORD_CHARS) {
    bad |= VALUE[chars[j]] | VALUE[chars[j + 1]] | VALUE[chars[j + 2]] | VALUE[chars[j + 3]] | VALUE[chars[j + 4]];
    last |= VALUE[chars[j + 5]];
  }
  if (bad < 0 || last < 0 || last > 3) throw new Error('saved search index has a damaged phrase filter');
  return words;
}

/** For each bit of a 32-bit word (0–31), the one of its {@link WORD_CHARS} characters that holds it ({@link encodeWordRun}: 6 bits a character, low bits first). */
const BIT_CHAR = Uint8Array.from({ length: 32 }, (_, bit) => Math.floor(bit / WORD_CHARS));
/** For each bit of a 32-bit word, its mask in the value of the character {@link BIT_CHAR} names. */
const BIT_MASK = Uint8Array.from({ length: 32 }, (_, bit) => 1 << (bit % WORD_CHARS));

/**
 * Bit `bit` (0–31) of word `word` of a run written by {@link encodeWordRun}, read from the one
 * character that holds it, without decoding the word. A character outside the alphabet, or none
 * (the text cut short), reads as every bit set: a phrase filter read from damaged text then rules
 * nothing out, so no note that holds a phrase is ever dropped for it (a run is checked by
 * {@link checkWordRun} when it is loaded; this is what is left should damage pass that).
 */
export function wordRunBit(text: string, word: number, bit: number): boolean {
  const c = text.charCodeAt(word * WORD_CHARS + BIT_CHAR[bit]);
  return ((c < 128 ? VALUE[c] : -1) & BIT_MASK[bit]) !== 0;
}

/** Words of the last {@link packTermIds} call (reused, grown by doubling). */
let packScratch = new Uint32Array(256);

/**
 * A set of term ids packed for DocTermLists: sorted, each stored as its distance to the one
 * before (the first as itself + 1, so no value is 0) in base-128 varint bytes, four bytes to a
 * 32-bit word (low byte first), zero bytes padding the last word. A document's ~200 distinct
 * terms of a ~30k-term vocabulary take about 2 bytes each instead of 4.
 * @param ids distinct term ids (below 2^32); sorted in place (a typed array sorts numerically
 *   without a comparator: a JS array sorted with one was 6 % of a cold build)
 * @returns `words[0, count)`: a buffer shared by every call, valid until the next one
 */
export function packTermIds(ids: Uint32Array): { words: Uint32Array; count: number } {
  ids.sort();
  const most = Math.ceil((ids.length * 5) / 4) + 1;
  if (packScratch.length < most) packScratch = new Uint32Array(Math.max(most, packScratch.length * 2));
  const words = packScratch;
  // Bytes gather in `word` (low byte first) and go out four at a time.
  let count = 0;
  let word = 0;
  let shift = 0;
  let prev = -1;
  for (let i = 0; i < ids.length; i++) {
    let v = ids[i] - prev;
    prev = ids[i];
    while (v >= 128) {
      word |= ((v & 127) | 128) << shift;
      v = Math.floor(v / 128);
      if ((shift += 8) === 32) {
        words[count++] = word >>> 0;
        word = 0;
        shift = 0;
      }
    }
    word |= v << shift;
    if ((shift += 8) === 32) {
      words[count++] = word >>> 0;
      word = 0;
      shift = 0;
    }
  }
  if (shift > 0) words[count++] = word >>> 0;
  return { words, count };
}

/** The term ids packed by {@link packTermIds}, ascending. */
export function unpackTermIds(words: Uint32Array): number[] {
  const out: number[] = [];
  let prev = -1;
  let value = 0;
  let scale = 1;
  for (let b = 0; b < words.length * 4; b++) {
    const v = (words[b >>> 2] >>> ((b & 3) * 8)) & 255;
    if (v === 0) break;
    value += (v & 127) * scale;
    if (v & 128) {
      scale *= 128;
      continue;
    }
    prev += value;
    out.push(prev);
    value = 0;
    scale = 1;
  }
  return out;
}
