import { grow, growBytes } from './typed-growth';

/**
 * Text encoding of one term's postings for the saved index: unsigned integers as
 * little-endian base-32 varints written in the base64url alphabet (each character carries 5
 * value bits and a "more follows" bit), so a posting list is a short ASCII string that needs
 * no escaping in JSON and decodes with one `charCodeAt` pass — no Buffer, works on mobile.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
const ALPHABET_BYTES = Uint8Array.from(ALPHABET, (ch) => ch.charCodeAt(0));
/** The encoded text is ASCII, which UTF-8 decodes byte for byte (TextDecoder's fast path); made on first use. */
let ascii: TextDecoder | null = null;

/** What {@link PostingText} reads: a posting list in doc order (PostingLists' PostingCursor). */
export interface PostingSource {
  /** Reads the next posting into `doc` and `code`; false at the end. */
  next(): boolean;
  doc: number;
  code: number;
}

/** Characters a varint of a 32-bit value takes at most (5 value bits each). */
const MAX_VARINT_CHARS = 7;

/**
 * Encodes posting lists as text for the saved index, several at a time: each posting `[doc,
 * code]` as two varints, `doc` written as the difference to the previous written posting's doc
 * (lists are sorted by doc). The characters of every list {@link add}ed go into one reused
 * byte buffer that {@link take} turns into one string by TextDecoder and slices per list: a
 * string grown by `+=` two varints at a time was most of a save's time.
 */
export class PostingText {
  private bytes = new Uint8Array(1 << 16);
  private at = 0;
  /** Where each list added since the last {@link take} ends in `bytes`. */
  private ends: number[] = [];

  /**
   * Encodes one list after those added before.
   * @param postings the list, read to its end
   * @param renumber maps an old doc id to its saved id (monotonic), or -1 to leave the posting out
   * @returns the list's length in characters; 0 when every posting was left out, and then the
   *   list is not added ({@link take} has no string for it)
   */
  add(postings: PostingSource, renumber: Int32Array): number {
    const start = this.at;
    let at = start;
    let bytes = this.bytes;
    let prev = 0;
    while (postings.next()) {
      const doc = renumber[postings.doc];
      if (doc < 0) continue;
      if (at + 2 * MAX_VARINT_CHARS > bytes.length) bytes = this.bytes = growBytes(bytes, at + 2 * MAX_VARINT_CHARS);
      at = writeChars(bytes, writeChars(bytes, at, doc - prev), postings.code);
      prev = doc;
    }
    this.at = at;
    if (at > start) this.ends.push(at);
    return at - start;
  }

  /** The lists added since the last call, as text, in order; the buffer then starts over. */
  take(): string[] {
    const text = (ascii ??= new TextDecoder()).decode(this.bytes.subarray(0, this.at));
    const out: string[] = [];
    let from = 0;
    for (const end of this.ends) {
      out.push(text.slice(from, end));
      from = end;
    }
    this.at = 0;
    this.ends = [];
    return out;
  }
}

/** Writes `v` (0 ≤ v < 2^32) as base-32 varint characters of the alphabet at `bytes[at]`; returns the offset after it. */
function writeChars(bytes: Uint8Array, at: number, v: number): number {
  while (v >= 32) {
    bytes[at++] = ALPHABET_BYTES[32 | (v & 31)];
    v >>>= 5;
  }
  bytes[at++] = ALPHABET_BYTES[v];
  return at;
}

/** Decoded postings in reused arrays grown by doubling: posting i < {@link length} is `[docs[i], codes[i]]`. */
export class PostingBuffer {
  docs = new Uint32Array(1024);
  codes = new Uint32Array(1024);
  /** Postings held. */
  length = 0;

  /** Appends the posting `[doc, code]`. */
  push(doc: number, code: number): void {
    if (this.length === this.docs.length) {
      this.docs = grow(this.docs, this.length + 1);
      this.codes = grow(this.codes, this.length + 1);
    }
    this.docs[this.length] = doc;
    this.codes[this.length++] = code;
  }
}

/**
 * Decodes a list's text written by {@link PostingText}, appending its postings (absolute doc ids,
 * in order) to `into`; on damage `into` is left as it was.
 * @returns the number of postings
 * @throws Error when the text holds a character outside the alphabet or ends mid-number or mid-posting
 */
export function decodePostings(text: string, into: PostingBuffer): number {
  const before = into.length;
  let n = 0;
  let doc = 0;
  let value = 0;
  let scale = 1;
  let v = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    v = c < 128 ? VALUE[c] : -1;
    if (v < 0) {
      into.length = before;
      throw new Error('saved search index has a damaged posting list');
    }
    value += (v & 31) * scale;
    if (v & 32) {
      scale *= 32;
      continue;
    }
    if (n++ % 2 === 0) doc += value;
    else into.push(doc, value);
    value = 0;
    scale = 1;
  }
  if ((v & 32) !== 0 || n % 2 !== 0) {
    into.length = before;
    throw new Error('saved search index has a truncated posting list');
  }
  return n / 2;
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

/** Characters per 32-bit word in {@link encodeWords}: 6 bits each. */
const WORD_CHARS = 6;

/** Encodes 32-bit words (a phrase filter) as {@link WORD_CHARS} base64url characters each, low bits first. */
export function encodeWords(words: Uint32Array): string {
  return encodeWordLists([words])[0];
}

/**
 * {@link encodeWords} for many lists at once: one byte buffer for all of them, turned into one
 * string by TextDecoder and sliced per list (a string built character by character, or a
 * buffer and a `String.fromCharCode` per list, made saving 14k notes' filters take hundreds of ms).
 * @param lists the word lists; null encodes as the empty string
 * @returns one string per list, in order
 */
export function encodeWordLists(lists: readonly (Uint32Array | null)[]): string[] {
  let total = 0;
  for (const words of lists) total += (words?.length ?? 0) * WORD_CHARS;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const words of lists) {
    if (words === null) continue;
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
  const text = (ascii ??= new TextDecoder()).decode(bytes);
  const out: string[] = [];
  at = 0;
  for (const words of lists) {
    const end = at + (words?.length ?? 0) * WORD_CHARS;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * Decodes a string written by {@link encodeWords} into the array `into(words)` returns (the
 * words' own place in a store, so loading makes no array per filter).
 * @param into given the number of words, returns where to write them (at least that long)
 * @returns the words written (the start of `into`'s array)
 * @throws Error when its length is not a whole number of words (before `into` is called), or it
 *   holds a character outside the alphabet or a word above 32 bits
 */
export function decodeWords(text: string, into: (words: number) => Uint32Array): Uint32Array {
  if (text.length % WORD_CHARS !== 0) throw new Error('saved search index has a truncated phrase filter');
  const out = into(text.length / WORD_CHARS).subarray(0, text.length / WORD_CHARS);
  // Six characters a word, unrolled, with whole-word checks: a loop over characters summing
  // powers of 2 ** 6 decoded 14k notes' filters in about 400 ms, this in about 10.
  for (let i = 0, j = 0; i < out.length; i++, j += WORD_CHARS) {
    const c0 = text.charCodeAt(j);
    const c1 = text.charCodeAt(j + 1);
    const c2 = text.charCodeAt(j + 2);
    const c3 = text.charCodeAt(j + 3);
    const c4 = text.charCodeAt(j + 4);
    const c5 = text.charCodeAt(j + 5);
    if ((c0 | c1 | c2 | c3 | c4 | c5) > 127) throw new Error('saved search index has a damaged phrase filter');
    const v0 = VALUE[c0];
    const v1 = VALUE[c1];
    const v2 = VALUE[c2];
    const v3 = VALUE[c3];
    const v4 = VALUE[c4];
    const v5 = VALUE[c5];
    // A negative value is a character outside the alphabet; a last character above 3 a word above 32 bits.
    if ((v0 | v1 | v2 | v3 | v4 | v5) < 0 || v5 > 3) throw new Error('saved search index has a damaged phrase filter');
    out[i] = (v0 | (v1 << 6) | (v2 << 12) | (v3 << 18) | (v4 << 24) | (v5 << 30)) >>> 0;
  }
  return out;
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
