import {
  countWords,
  firstWords,
  startRecordingServer,
  type FakeResponse,
  type RecordedRequest,
  type RecordingServer,
} from './recording-server';

/** How one model of the fake OpenAI-compatible server behaves. */
export interface FakeOpenAiModel {
  /** The assistant content for a conversation (may contain `<think>` blocks); default "OK". */
  reply?: (messages: Array<{ role: string; content: string }>) => string;
  /** Sent as `message.reasoning_content` (DeepSeek / vLLM reasoning parsers). */
  reasoningContent?: string;
  /** Parameters this model rejects with OpenAI's 400 bodies (as reasoning models do). */
  rejects?: Array<'max_tokens' | 'temperature'>;
  /** Leave `usage` out of the response (some local servers do). */
  omitUsage?: boolean;
}

/** Options of {@link startFakeOpenAi}. */
export interface FakeOpenAiOptions {
  models: Record<string, FakeOpenAiModel>;
  /** Embedding models served on `/embeddings`, by name, with their vector dimension. */
  embeddingModels?: Record<string, { dimensions: number }>;
  /** When set, requests need `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Path prefix of the API; `/v1` (OpenAI, Ollama, LM Studio) or `/api/v1` (OpenRouter). */
  prefix?: string;
  /**
   * How a POST to another path is answered: `ollama` → 404 "404 page not found" (text),
   * `lmstudio` → 200 `{"error": "Unexpected endpoint or method. (POST …)"}`.
   */
  unknownPath?: 'ollama' | 'lmstudio';
}

/** A running fake plus its base URL (origin + prefix). */
export interface FakeOpenAi extends RecordingServer {
  baseUrl: string;
}

function openAiError(status: number, message: string, type: string, param: string | null, code: string | null): FakeResponse {
  return { status, body: { error: { message, type, param, code } } };
}

/**
 * Starts a fake OpenAI-compatible server (chat completions, non-streaming) over real HTTP on
 * 127.0.0.1. Error bodies follow OpenAI's `{error: {message, type, param, code}}`.
 * Token usage is counted in words: prompt = words of all message contents, completion = words of
 * the reply; `max_tokens` / `max_completion_tokens` cut the reply to that many words
 * (`finish_reason: "length"`).
 */
export async function startFakeOpenAi(options: FakeOpenAiOptions): Promise<FakeOpenAi> {
  const prefix = options.prefix ?? '/v1';
  const server = await startRecordingServer((req) => handle(req, options, prefix));
  return Object.assign(server, { baseUrl: server.origin + prefix });
}

/**
 * The fake's deterministic embedding of a text: a hashed bag of words (each lower-cased word of
 * 3+ letters, a trailing "s" dropped, adds 1 at FNV-1a(word) mod `dimensions`), L2-normalized.
 * Texts sharing words are near; the same text always gives the same vector.
 */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/\p{L}{3,}/gu) ?? []) {
    const word = raw.length > 3 ? raw.replace(/s$/, '') : raw;
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0;
    v[h % dimensions] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function handleEmbeddings(req: RecordedRequest, options: FakeOpenAiOptions): FakeResponse {
  const body = req.json;
  const model = options.embeddingModels?.[body?.model];
  if (!model) {
    return openAiError(
      404,
      `The model \`${body?.model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      null,
      'model_not_found',
    );
  }
  const input: unknown = body.input;
  const texts = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
    return openAiError(400, "'input' must be a string or a non-empty array of strings.", 'invalid_request_error', 'input', null);
  }
  const tokens = (texts as string[]).reduce((n, t) => n + countWords(t), 0);
  return {
    status: 200,
    body: {
      object: 'list',
      data: (texts as string[]).map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, model.dimensions) })),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

function handle(req: RecordedRequest, options: FakeOpenAiOptions, prefix: string): FakeResponse {
  if (req.method === 'POST' && req.path.split('?')[0] === `${prefix}/embeddings` && options.embeddingModels !== undefined) {
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return openAiError(401, "You didn't provide an API key.", 'invalid_request_error', null, 'invalid_api_key');
    }
    return handleEmbeddings(req, options);
  }
  if (req.method !== 'POST' || req.path.split('?')[0] !== `${prefix}/chat/completions`) {
    if (options.unknownPath === 'lmstudio') {
      return { status: 200, body: { error: `Unexpected endpoint or method. (${req.method} ${req.path})` } };
    }
    return { status: 404, body: '404 page not found' };
  }
  if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
    const shown = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    return openAiError(
      401,
      shown ? `Incorrect API key provided: ${shown.slice(0, 3)}****.` : "You didn't provide an API key.",
      'invalid_request_error',
      null,
      'invalid_api_key',
    );
  }
  const body = req.json;
  if (!body || typeof body !== 'object') {
    return openAiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null, null);
  }
  const model = options.models[body.model];
  if (!model) {
    return openAiError(
      404,
      `The model \`${body.model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      null,
      'model_not_found',
    );
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return openAiError(400, "Invalid 'messages': empty array.", 'invalid_request_error', 'messages', 'empty_array');
  }
  if (model.rejects?.includes('max_tokens') && 'max_tokens' in body) {
    return openAiError(
      400,
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'invalid_request_error',
      'max_tokens',
      'unsupported_parameter',
    );
  }
  if (model.rejects?.includes('temperature') && 'temperature' in body) {
    return openAiError(
      400,
      `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
      'invalid_request_error',
      'temperature',
      'unsupported_value',
    );
  }
  const messages = body.messages as Array<{ role: string; content: string }>;
  let content = (model.reply ?? (() => 'OK'))(messages);
  const limit = body.max_completion_tokens ?? body.max_tokens;
  let finish = 'stop';
  if (typeof limit === 'number' && countWords(content) > limit) {
    content = firstWords(content, limit);
    finish = 'length';
  }
  const message: Record<string, unknown> = { role: 'assistant', content, refusal: null };
  if (model.reasoningContent !== undefined) message.reasoning_content = model.reasoningContent;
  const response: Record<string, unknown> = {
    id: `chatcmpl-fake${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
  };
  if (!model.omitUsage) {
    const prompt = messages.reduce((n, m) => n + countWords(String(m.content)), 0);
    const completion = countWords(content);
    response.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }
  return { status: 200, body: response };
}
