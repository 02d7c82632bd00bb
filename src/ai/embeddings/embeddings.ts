import { AiError } from '../ai-error';
import { endsInV1, joinEndpoint, withV1 } from '../providers/base-url';
import { httpError, postJson, type ProviderResponse } from '../providers/http';
import { tokenCount } from '../providers/response-fields';
import type { ProviderConfig } from '../types';

const LABEL = 'OpenAI-compatible embeddings endpoint';

/** Inputs sent in one `/embeddings` request (Ollama, LM Studio and OpenAI accept far more; small batches keep each request short). */
export const EMBED_BATCH_SIZE = 32;
/** Tries of one batch on 429 / 5xx before giving up (the first try included). */
export const EMBED_MAX_TRIES = 4;
/** Wait before the first retry, ms; doubled each retry, or the server's `Retry-After` when larger. */
export const EMBED_BACKOFF_MS = 1000;
/** Longest wait between two tries, ms. */
const MAX_BACKOFF_MS = 30_000;

/** Vectors for some texts, in input order, and the tokens the provider counted for them. */
export interface EmbeddingResult {
  vectors: Float32Array[];
  /** `usage.prompt_tokens` summed over the requests (0 when the server does not report usage). */
  tokens: number;
}

/** Timing knobs of {@link embedTexts}; tests shorten them. */
export interface EmbedOptions {
  batchSize?: number;
  maxTries?: number;
  backoffMs?: number;
  /** Waits `ms`; default a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Embeds texts through an OpenAI-compatible `POST {baseUrl}/embeddings` (`{model, input: [...]}`
 * → `{data: [{index, embedding}], usage: {prompt_tokens}}`; OpenAI API reference "Embeddings",
 * served the same way by Ollama, LM Studio and llama.cpp server). Sends batches of `batchSize`
 * one after another; a 429 or 5xx answer is retried after a backoff (doubling, or `Retry-After`).
 * The caller has passed the gates (embedding-gates.ts): this function only talks HTTP.
 * @param config gated provider config whose `model` is the embedding model
 * @param texts the inputs (non-empty strings)
 * @returns one vector per text, in order
 * @throws AiError `aiHttpError` (unreachable, or a non-2xx after the tries), `aiBadResponse`
 *   (a 2xx that is not an embeddings answer, or vectors of differing dimension)
 */
export async function embedTexts(config: ProviderConfig, texts: readonly string[], options: EmbedOptions = {}): Promise<EmbeddingResult> {
  const endpoint = joinEndpoint(config.baseUrl, '/embeddings');
  const headers: Record<string, string> = {};
  if (config.apiKey) headers['Authorization'] = `Bearer ${config.apiKey}`;
  const batchSize = Math.max(1, options.batchSize ?? EMBED_BATCH_SIZE);
  const vectors: Float32Array[] = [];
  let tokens = 0;
  for (let i = 0; i < texts.length; i += batchSize) {
    const batch = texts.slice(i, i + batchSize);
    const res = await postWithBackoff(endpoint, headers, { model: config.model, input: batch }, options);
    if (res.status < 200 || res.status >= 300) {
      throw httpError(res, {
        providerLabel: LABEL,
        url: endpoint,
        model: config.model,
        notFoundHint: endsInV1(config.baseUrl)
          ? `check that the server serves embeddings and has the model '${config.model}' (e.g. \`ollama pull ${config.model}\`)`
          : `fix the base URL: add /v1 (set it to ${withV1(config.baseUrl)})`,
      });
    }
    const parsed = parseEmbeddings(res, batch.length, endpoint);
    if (vectors.length > 0 && parsed.vectors[0].length !== vectors[0].length) throw mixedDimensions(endpoint);
    vectors.push(...parsed.vectors);
    tokens += parsed.tokens;
  }
  return { vectors, tokens };
}

/** POSTs, retrying 429 and 5xx answers up to `maxTries` in all. */
async function postWithBackoff(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: EmbedOptions,
): Promise<ProviderResponse> {
  const maxTries = Math.max(1, options.maxTries ?? EMBED_MAX_TRIES);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let wait = options.backoffMs ?? EMBED_BACKOFF_MS;
  for (let attempt = 1; ; attempt++) {
    const res = await postJson(url, headers, body, { endpoint: '/embeddings' });
    const retryable = res.status === 429 || res.status >= 500;
    if (!retryable || attempt >= maxTries) return res;
    const retryAfter = Number(res.headers['retry-after']) * 1000;
    await sleep(Math.min(MAX_BACKOFF_MS, Number.isFinite(retryAfter) && retryAfter > wait ? retryAfter : wait));
    wait *= 2;
  }
}

/** Reads `{data: [{index, embedding: number[]}], usage}`; vectors ordered by `index`. */
function parseEmbeddings(res: ProviderResponse, expected: number, endpoint: string): EmbeddingResult {
  const body = res.json as Record<string, unknown> | undefined;
  const data = body && typeof body === 'object' ? body.data : undefined;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new AiError(
      'aiBadResponse',
      `The server at ${endpoint} answered HTTP ${res.status} without ${expected} embeddings ("data"); check that the base URL points to an OpenAI-compatible server that serves /embeddings.`,
    );
  }
  const rows = data.map((item: unknown, position) => {
    const entry = (item ?? {}) as Record<string, unknown>;
    const embedding = entry.embedding;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new AiError(
        'aiBadResponse',
        `The server at ${endpoint} sent an embedding that is not a list of numbers; check the embedding model.`,
      );
    }
    return { index: typeof entry.index === 'number' ? entry.index : position, vector: Float32Array.from(embedding as number[]) };
  });
  rows.sort((a, b) => a.index - b.index);
  const dim = rows[0].vector.length;
  if (rows.some((r) => r.vector.length !== dim)) throw mixedDimensions(endpoint);
  const usage = (body!.usage ?? {}) as Record<string, unknown>;
  return { vectors: rows.map((r) => r.vector), tokens: tokenCount(usage.prompt_tokens ?? usage.total_tokens) };
}

function mixedDimensions(endpoint: string): AiError {
  return new AiError(
    'aiBadResponse',
    `The server at ${endpoint} sent embeddings of different lengths in one answer; check the embedding model.`,
  );
}
