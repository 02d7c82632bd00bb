/**
 * Text encoding of one term's postings for the saved index: unsigned integers as
 * little-endian base-32 varints written in the base64url alphabet (each character carries 5
 * value bits and a "more follows" bit), so a posting list is a short ASCII string that needs
 * no escaping in JSON and decodes with one `charCodeAt` pass — no Buffer, works on mobile.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
const ALPHABET_CODES = Uint16Array.from(ALPHABET, (ch) => ch.charCodeAt(0));

/**
 * Encodes `count` unsigned 32-bit integers from `values`, each entry pair `[doc, code]` with
 * `doc` written as the difference to the previous pair's doc (lists are sorted by doc).
 * @param values pairs `[doc id, field code]`; `count` is the number of array slots used (even)
 * @param renumber maps an old doc id to its saved id (monotonic), or -1 to leave the pair out
 */
export function encodePostings(values: Uint32Array, count: number, renumber: Int32Array): string {
  let out = '';
  let prev = 0;
  for (let i = 0; i < count; i += 2) {
    const doc = renumber[values[i]];
    if (doc < 0) continue;
    out += varint(doc - prev) + varint(values[i + 1]);
    prev = doc;
  }
  return out;
}

/**
 * Decodes a string written by {@link encodePostings}.
 * @returns the pairs `[doc, code]` with absolute doc ids, flat
 * @throws Error when the text holds a character outside the alphabet or ends mid-number
 */
export function decodePostings(text: string): Uint32Array {
  // Each number ends at a character without the "more follows" bit: count them, then fill an
  // array of exactly that size (no growing JS array of numbers, which a load of 100k notes'
  // postings turns into tens of millions of boxed values).
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUE[c] : -1;
    if (v < 0) throw new Error('saved search index has a damaged posting list');
    if ((v & 32) === 0) count++;
  }
  const out = new Uint32Array(count);
  let n = 0;
  let prev = 0;
  let value = 0;
  let shift = 0;
  for (let i = 0; i < text.length; i++) {
    const v = VALUE[text.charCodeAt(i)];
    value += (v & 31) * 2 ** shift;
    if (v & 32) {
      shift += 5;
      continue;
    }
    if (n % 2 === 0) {
      prev += value;
      out[n++] = prev;
    } else out[n++] = value;
    value = 0;
    shift = 0;
  }
  if (shift !== 0 || count % 2 !== 0) throw new Error('saved search index has a truncated posting list');
  return out;
}

function varint(n: number): string {
  let s = '';
  while (n >= 32) {
    s += ALPHABET[32 | (n & 31)];
    n = Math.floor(n / 32);
  }
  return s + ALPHABET[n];
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
  // Character codes first, then strings of a few thousand at once: appending one character at
  // a time builds a rope V8 must flatten, which made saving 14k notes' filters take seconds.
  const codes = new Uint16Array(words.length * WORD_CHARS);
  for (let i = 0; i < words.length; i++) {
    let w = words[i];
    for (let k = 0; k < WORD_CHARS; k++) {
      codes[i * WORD_CHARS + k] = ALPHABET_CODES[w & 63];
      w >>>= 6;
    }
  }
  const parts: string[] = [];
  for (let at = 0; at < codes.length; at += 4096) parts.push(String.fromCharCode(...codes.subarray(at, at + 4096)));
  return parts.join('');
}

/**
 * Decodes a string written by {@link encodeWords}.
 * @throws Error when its length is not a whole number of words, or it holds a character
 *   outside the alphabet or a word above 32 bits
 */
export function decodeWords(text: string): Uint32Array {
  if (text.length % WORD_CHARS !== 0) throw new Error('saved search index has a truncated phrase filter');
  const out = new Uint32Array(text.length / WORD_CHARS);
  for (let i = 0; i < out.length; i++) {
    let w = 0;
    for (let k = 0; k < WORD_CHARS; k++) {
      const c = text.charCodeAt(i * WORD_CHARS + k);
      const v = c < 128 ? VALUE[c] : -1;
      if (v < 0) throw new Error('saved search index has a damaged phrase filter');
      w += v * 2 ** (6 * k);
    }
    if (w > 0xffffffff) throw new Error('saved search index has a damaged phrase filter');
    out[i] = w;
  }
  return out;
}

/** Words of the last {@link packTermIds} call (reused, grown by doubling). */
let packScratch = new Uint32Array(256);

/**
 * A set of term ids packed for DocTermLists: sorted, each stored as its distance to the one
 * before (the first as itself + 1, so no value is 0) in base-128 varint bytes, four bytes to a
 * 32-bit word, zero bytes padding the last word. A document's ~200 distinct terms of a ~30k-term
 * vocabulary take about 2 bytes each instead of 4.
 * @param ids distinct term ids (below 2^32); sorted in place
 * @returns `words[0, count)`: a buffer shared by every call, valid until the next one
 */
export function packTermIds(ids: number[]): { words: Uint32Array; count: number } {
  ids.sort((a, b) => a - b);
  const most = Math.ceil((ids.length * 5) / 4);
  if (packScratch.length < most) packScratch = new Uint32Array(Math.max(most, packScratch.length * 2));
  const words = packScratch;
  let byte = 0;
  let prev = -1;
  for (const id of ids) {
    let v = id - prev;
    prev = id;
    while (v >= 128) {
      putByte(words, byte++, (v & 127) | 128);
      v = Math.floor(v / 128);
    }
    putByte(words, byte++, v);
  }
  const count = Math.ceil(byte / 4);
  // Zero the unused bytes of the last word (the buffer is reused).
  for (let b = byte; b < count * 4; b++) putByte(words, b, 0);
  return { words, count };
}

function putByte(words: Uint32Array, at: number, value: number): void {
  const shift = (at & 3) * 8;
  const w = at >>> 2;
  words[w] = ((words[w] & ~(255 << shift)) | (value << shift)) >>> 0;
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
