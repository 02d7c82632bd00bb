import { AiError } from '../ai-error';
import { joinEndpoint, parseHttpUrl } from './base-url';
import { httpError, postJson, providerErrorDetail, rejectedParameter, type ProviderResponse } from './http';
import { stripThinkBlocks } from './reasoning';
import { mapFinishReason, tokenCount } from './response-fields';
import type { ChatMessage, ChatOptions, ChatProvider, ChatResult, ProviderConfig } from '../types';

const LABEL = 'Anthropic API';

/** Messages API version header value (Anthropic API docs, "Versioning"). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** `max_tokens` is required by the Messages API; this is sent when the caller gives none (tokens). */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * Adapter for the Anthropic Messages API (`POST {base}/v1/messages`, headers `x-api-key` and
 * `anthropic-version: 2023-06-01`). System messages go to the top-level `system` field (the
 * API has no system role in `messages`); `thinking` / `redacted_thinking` content blocks are
 * not part of the answer. Always `remote`. Learns per instance whether the model rejects
 * `temperature`, after one rejected request.
 */
export class AnthropicProvider implements ChatProvider {
  readonly id = 'anthropic' as const;
  readonly classification = 'remote' as const;
  private readonly endpoint: string;
  /** What the constructor appended to the base URL (`/messages` or `/v1/messages`). */
  private readonly suffix: string;
  private omitTemperature = false;

  /** @param config gated settings; base URL with or without a trailing `/v1` */
  constructor(private readonly config: ProviderConfig) {
    const url = parseHttpUrl(config.baseUrl);
    const hasV1 = url !== null && /\/v1$/i.test(url.pathname);
    this.suffix = hasV1 ? '/messages' : '/v1/messages';
    this.endpoint = joinEndpoint(config.baseUrl, this.suffix);
  }

  /**
   * Sends one Messages request (non-streaming). A 400 that rejects `temperature` is retried
   * once without it.
   * @throws AiError `aiHttpError` (unreachable or non-2xx), `aiBadResponse` (2xx without `content`)
   */
  async chat(messages: ChatMessage[], options: ChatOptions): Promise<ChatResult> {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (this.config.apiKey) headers['x-api-key'] = this.config.apiKey;
    for (;;) {
      const body = this.requestBody(messages, options);
      const res = await postJson(this.endpoint, headers, body, { endpoint: this.suffix });
      if (res.status >= 200 && res.status < 300) return this.parse(res);
      const rejected = rejectedParameter(res, { temperature: 'temperature' in body, maxTokens: false });
      if (rejected === 'temperature' && !this.omitTemperature) {
        this.omitTemperature = true;
        continue;
      }
      throw httpError(res, { providerLabel: LABEL, url: this.endpoint, model: this.config.model, notFoundHint: '' });
    }
  }

  private requestBody(messages: ChatMessage[], options: ChatOptions): Record<string, unknown> {
    const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
    const body: Record<string, unknown> = {
      model: this.config.model,
      max_tokens: options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages: messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content })),
    };
    if (system.length > 0) body.system = system.join('\n\n');
    if (options.temperature !== undefined && !this.omitTemperature) body.temperature = options.temperature;
    return body;
  }

  private parse(res: ProviderResponse): ChatResult {
    const body = res.json as Record<string, unknown> | undefined;
    const content = body && typeof body === 'object' ? body.content : undefined;
    if (!Array.isArray(content)) {
      const detail = providerErrorDetail(res).message;
      const said = detail ? ` (it said: ${detail})` : '';
      throw new AiError(
        'aiBadResponse',
        `The server at ${this.endpoint} answered HTTP ${res.status} without a Messages API reply ("content")${said}; check that the base URL is https://api.anthropic.com/v1 or an Anthropic-compatible server.`,
      );
    }
    const text = content
      .filter((b): b is Record<string, unknown> => !!b && typeof b === 'object' && (b as Record<string, unknown>).type === 'text')
      .map((b) => (typeof b.text === 'string' ? b.text : ''))
      .join('');
    const usage = (body!.usage ?? {}) as Record<string, unknown>;
    return {
      text: stripThinkBlocks(text),
      usage: {
        // Cached prompt tokens are reported apart from input_tokens; all of them are input.
        inputTokens:
          tokenCount(usage.input_tokens) + tokenCount(usage.cache_creation_input_tokens) + tokenCount(usage.cache_read_input_tokens),
        outputTokens: tokenCount(usage.output_tokens),
      },
      finishReason: mapFinishReason(body!.stop_reason),
      model: typeof body!.model === 'string' ? body!.model : undefined,
    };
  }
}
