/**
 * The hash by which TermDictionary finds an ASCII term: FNV-1a over the lower-cased code
 * units, mixed at the end so the low bits spread (they index its table). In steps, so the
 * tokenizer can hash a word while it scans for the word's end (tokenizer.ts's internIndexTerms)
 * instead of reading the word once more.
 */

/** The hash of no characters: start {@link asciiHashStep} from it. */
export const ASCII_HASH_SEED = 0x811c9dc5;

/** The hash so far `h` extended by the code unit `c`, an ASCII letter lower-cased (A–Z to a–z; other units as they are). */
export function asciiHashStep(h: number, c: number): number {
  return Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
}

/** The finished hash (a uint32) of the steps that gave `h`. */
export function asciiHashFinish(h: number): number {
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}
