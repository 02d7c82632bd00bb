import { growBytes } from './typed-growth';

/**
 * Encodings of the index's numbers: posting lists as varint bytes ({@link PostingBytes}, saved as
 * they are in a saved part's binary file), postings' codes ({@link packPosting}), and documents'
 * term id sets ({@link packTermIds}).
 */

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
