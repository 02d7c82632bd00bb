import {
  countWords,
  firstWords,
  startRecordingServer,
  type FakeResponse,
  type RecordedRequest,
  type RecordingServer,
} from './recording-server';

/** How one model of the fake Anthropic server behaves. */
export interface FakeAnthropicModel {
  /** The answer text for (system, messages); default "OK". */
  reply?: (system: string | undefined, messages: Array<{ role: string; content: string }>) => string;
  /** When set, a `thinking` block with this text precedes the answer (extended thinking). */
  thinking?: string;
  /** Reject `temperature` with a 400 (as models with extended thinking do for values ≠ 1). */
  rejectsTemperature?: boolean;
  /** Leave `usage` out of the response. */
  omitUsage?: boolean;
  /** Report this many cache-read input tokens besides `input_tokens`. */
  cacheReadTokens?: number;
}

/** Options of {@link startFakeAnthropic}. */
export interface FakeAnthropicOptions {
  models: Record<string, FakeAnthropicModel>;
  /** The only accepted `x-api-key`. */
  apiKey: string;
}

/** A running fake plus its base URL (`<origin>/v1`). */
export interface FakeAnthropic extends RecordingServer {
  baseUrl: string;
}

/** An Anthropic error answer: `{type: 'error', error: {type, message}}`. */
export function anthropicError(status: number, type: string, message: string): FakeResponse {
  return { status, body: { type: 'error', error: { type, message } } };
}

/**
 * Starts a fake Anthropic Messages API (`POST /v1/messages`, non-streaming) over real HTTP on
 * 127.0.0.1. Validates like the real API: `x-api-key` and `anthropic-version` headers,
 * required `max_tokens`, only user/assistant roles in `messages` (system goes top-level).
 * Usage counts words, as in fake-openai.ts.
 */
export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const server = await startRecordingServer((req) => handle(req, options));
  return Object.assign(server, { baseUrl: `${server.origin}/v1` });
}

function handle(req: RecordedRequest, options: FakeAnthropicOptions): FakeResponse {
  if (req.method !== 'POST' || req.path !== '/v1/messages') return anthropicError(404, 'not_found_error', 'Not Found');
  const key = req.headers['x-api-key'];
  if (!key) return anthropicError(401, 'authentication_error', 'x-api-key header is required');
  if (key !== options.apiKey) return anthropicError(401, 'authentication_error', 'invalid x-api-key');
  if (!req.headers['anthropic-version']) {
    return anthropicError(400, 'invalid_request_error', 'anthropic-version: header is required');
  }
  const body = req.json;
  if (!body || typeof body !== 'object') return anthropicError(400, 'invalid_request_error', 'Request body is not valid JSON');
  if (typeof body.max_tokens !== 'number') return anthropicError(400, 'invalid_request_error', 'max_tokens: Field required');
  const model = options.models[body.model];
  if (!model) return anthropicError(404, 'not_found_error', `model: ${body.model}`);
  const messages = body.messages as Array<{ role: string; content: string }>;
  if (!Array.isArray(messages) || messages.length === 0) {
    return anthropicError(400, 'invalid_request_error', 'messages: at least one message is required');
  }
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') {
      return anthropicError(
        400,
        'invalid_request_error',
        `messages: Unexpected role "${m.role}". The Messages API accepts a top-level \`system\` parameter, not "${m.role}" as an input message role.`,
      );
    }
  }
  if (model.rejectsTemperature && 'temperature' in body) {
    return anthropicError(400, 'invalid_request_error', '`temperature` may only be set to 1 when thinking is enabled.');
  }
  let text = (model.reply ?? (() => 'OK'))(body.system, messages);
  let stop = 'end_turn';
  if (countWords(text) > body.max_tokens) {
    text = firstWords(text, body.max_tokens);
    stop = 'max_tokens';
  }
  const content: unknown[] = [];
  if (model.thinking !== undefined) content.push({ type: 'thinking', thinking: model.thinking, signature: 'fake-signature' });
  content.push({ type: 'text', text });
  const response: Record<string, unknown> = {
    id: `msg_fake${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
  };
  if (!model.omitUsage) {
    const input = countWords(String(body.system ?? '')) + messages.reduce((n, m) => n + countWords(m.content), 0);
    response.usage = {
      input_tokens: input,
      output_tokens: countWords(text),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: model.cacheReadTokens ?? 0,
    };
  }
  return { status: 200, body: response };
}
