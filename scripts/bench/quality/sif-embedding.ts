/**
 * SIF sentence vectors ("smooth inverse frequency", Arora, Liang & Ma, "A Simple but Tough-to-Beat
 * Baseline for Sentence Embeddings", ICLR 2017): a text's vector is the mean of its words'
 * vectors, each weighted by a / (a + p(w)), with the common component (the first principal
 * direction shared by all sentences) projected out, then L2-normalized.
 *
 * Word probabilities p(w) come from the vector file's rank order (its words are sorted by corpus
 * frequency), read through Zipf's law: p(rank r, from 0) = 1 / ((r + 1) · H_N) with H_N the
 * N-th harmonic number. They do not depend on the vault, so documents and queries of any vault
 * are embedded alike. The common component is estimated from the vectors too: the top
 * eigenvector of the unigram-weighted second moment Σ p(w) · (s(w)·v_w)(s(w)·v_w)ᵀ over the
 * {@link COMMON_COMPONENT_WORDS} most frequent words, s(w) the SIF weight (the expected outer
 * product of a one-word sentence drawn from the unigram distribution).
 */

/** Word vectors in frequency order: `words[i]` has rank i and its vector at `data[i·dim … (i+1)·dim)`. */
export interface WordVectors {
  dim: number;
  words: readonly string[];
  data: Float32Array;
}

/** Parameters of {@link SifEncoder}. */
export interface SifParams {
  /** The SIF smoothing constant a; the paper's good range is 1e-4 … 1e-3. */
  a: number;
  /** Remove the common component (true in the paper). */
  removeCommon: boolean;
}

/** The paper's settings: a = 1e-3, common component removed. */
export const SIF_DEFAULTS: SifParams = { a: 1e-3, removeCommon: true };

/** How many of the most frequent words estimate the common component. */
export const COMMON_COMPONENT_WORDS = 20_000;

/**
 * The words of `text` that have vectors: maximal runs of letters and digits, lower-cased; a run
 * without a vector ("Get-DnsClientServerAddress" gives "dnsclientserveraddress") is split at
 * camel-case boundaries (dns, client, server, address) and keeps the parts that have vectors.
 * @param has whether a lower-case word has a vector
 */
export function vectorWords(text: string, has: (word: string) => boolean): string[] {
  const out: string[] = [];
  for (const run of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const lower = run.toLowerCase();
    if (has(lower)) {
      out.push(lower);
      continue;
    }
    for (const part of run.match(/\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu) ?? []) {
      const p = part.toLowerCase();
      if (p !== lower && has(p)) out.push(p);
    }
  }
  return out;
}

/**
 * Zipf's-law probability of the word of frequency rank `rank` (0 = most frequent) among `size` words.
 * @throws Error when rank is outside 0 … size − 1
 */
export function zipfProbability(rank: number, size: number): number {
  if (!Number.isInteger(rank) || rank < 0 || rank >= size) throw new Error(`zipfProbability: rank ${rank} is outside 0…${size - 1}`);
  return 1 / ((rank + 1) * harmonic(size));
}

function harmonic(n: number): number {
  // Euler–Maclaurin: H_n ≈ ln n + γ + 1/(2n) − 1/(12n²), exact to 1e-10 for n ≥ 100.
  if (n < 100) {
    let h = 0;
    for (let i = 1; i <= n; i++) h += 1 / i;
    return h;
  }
  return Math.log(n) + 0.5772156649015329 + 1 / (2 * n) - 1 / (12 * n * n);
}

/** Turns texts into SIF sentence vectors over one set of word vectors. */
export class SifEncoder {
  private readonly rank = new Map<string, number>();
  private readonly weight: Float32Array;
  /** The unit common direction, or null when it is not removed. */
  readonly common: Float32Array | null;

  /**
   * @param vectors the word vectors, most frequent word first
   * @param params see {@link SifParams}
   * @throws Error when the vectors are empty or `data` does not hold `words.length × dim` numbers
   */
  constructor(
    private readonly vectors: WordVectors,
    readonly params: SifParams = SIF_DEFAULTS,
  ) {
    const { words, dim, data } = vectors;
    if (words.length === 0 || dim < 1 || data.length !== words.length * dim) {
      throw new Error(`SifEncoder: want ${words.length} × ${dim} numbers, got ${data.length}`);
    }
    words.forEach((w, i) => {
      if (!this.rank.has(w)) this.rank.set(w, i);
    });
    this.weight = Float32Array.from(words, (_, i) => params.a / (params.a + zipfProbability(i, words.length)));
    this.common = params.removeCommon ? this.commonDirection(Math.min(COMMON_COMPONENT_WORDS, words.length)) : null;
  }

  /** Vector dimension. */
  get dim(): number {
    return this.vectors.dim;
  }

  /** Whether a lower-case word has a vector. */
  has(word: string): boolean {
    return this.rank.has(word);
  }

  /**
   * The SIF vector of `text`, unit length; a text without any known word gets the unit vector
   * along the first axis (a constant, so such texts are near each other and nothing else).
   */
  encode(text: string): Float32Array {
    const { dim, data } = this.vectors;
    const v = new Float32Array(dim);
    const words = vectorWords(text, (w) => this.rank.has(w));
    for (const w of words) {
      const r = this.rank.get(w)!;
      const s = this.weight[r];
      for (let d = 0; d < dim; d++) v[d] += s * data[r * dim + d];
    }
    if (this.common) {
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += v[d] * this.common[d];
      for (let d = 0; d < dim; d++) v[d] -= dot * this.common[d];
    }
    const norm = Math.hypot(...v);
    if (words.length === 0 || norm === 0) {
      v.fill(0);
      v[0] = 1;
      return v;
    }
    for (let d = 0; d < dim; d++) v[d] /= norm;
    return v;
  }

  /** Top eigenvector of Σ p(w)·(s(w)v_w)(s(w)v_w)ᵀ over the `top` most frequent words, by power iteration. */
  private commonDirection(top: number): Float32Array {
    const { dim, data } = this.vectors;
    const m = new Float64Array(dim * dim);
    for (let r = 0; r < top; r++) {
      const p = zipfProbability(r, this.vectors.words.length);
      const s = this.weight[r];
      const f = p * s * s;
      for (let i = 0; i < dim; i++) {
        const vi = data[r * dim + i] * f;
        for (let j = 0; j < dim; j++) m[i * dim + j] += vi * data[r * dim + j];
      }
    }
    let u = new Float64Array(dim).fill(1 / Math.sqrt(dim));
    for (let iter = 0; iter < 200; iter++) {
      const next = new Float64Array(dim);
      for (let i = 0; i < dim; i++) for (let j = 0; j < dim; j++) next[i] += m[i * dim + j] * u[j];
      const n = Math.hypot(...next);
      if (n === 0) break;
      for (let i = 0; i < dim; i++) next[i] /= n;
      u = next;
    }
    return Float32Array.from(u);
  }
}
