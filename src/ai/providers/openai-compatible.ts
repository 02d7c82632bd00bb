import { AiError } from '../ai-error';
import { endsInV1, joinEndpoint, withV1 } from './base-url';
import { httpError, postJson, providerErrorDetail, rejectedParameter, type ProviderResponse } from './http';
import { stripThinkBlocks } from './reasoning';
import { mapFinishReason, tokenCount } from './response-fields';
import type { ChatMessage, ChatOptions, ChatProvider, ChatResult, ProviderClassification, ProviderConfig } from '../types';

const LABEL = 'OpenAI-compatible server';

/**
 * Adapter for the OpenAI chat completions format (`POST {baseUrl}/chat/completions`), spoken by
 * OpenAI, Ollama, LM Studio, OpenRouter and vLLM. Sends `Authorization: Bearer <key>` when a
 * key is set (local servers need none). Learns per instance, for its (base URL, key, model),
 * whether the model wants `max_completion_tokens` instead of `max_tokens` and whether it rejects
 * `temperature`, after one rejected request each.
 */
export class OpenAiCompatibleProvider implements ChatProvider {
  readonly id = 'openai-compatible' as const;
  readonly classification: ProviderClassification;
  private readonly endpoint: string;
  private useMaxCompletionTokens = false;
  private omitTemperature = false;

  /** @param config gated settings; `config.baseUrl` normalized (see base-url.ts) */
  constructor(private readonly config: ProviderConfig) {
    this.classification = config.classification;
    this.endpoint = joinEndpoint(config.baseUrl, '/chat/completions');
  }

  /**
   * Sends one chat completion request (non-streaming). A 400 that rejects `max_tokens` is
   * retried once with `max_completion_tokens`; one that rejects `temperature` once without it.
   * `reasoning_content` / `reasoning` fields and `<think>` blocks are not part of the answer.
   * @throws AiError `aiHttpError` (unreachable or non-2xx), `aiBadResponse` (2xx without `choices`,
   *   which usually means the base URL lacks `/v1`)
   */
  async chat(messages: ChatMessage[], options: ChatOptions): Promise<ChatResult> {
    const headers: Record<string, string> = {};
    if (this.config.apiKey) headers['Authorization'] = `Bearer ${this.config.apiKey}`;
    for (;;) {
      const body = this.requestBody(messages, options);
      const res = await postJson(this.endpoint, headers, body, { endpoint: '/chat/completions' });
      if (res.status >= 200 && res.status < 300) return this.parse(res);
      const rejected = rejectedParameter(res, {
        temperature: 'temperature' in body,
        maxTokens: 'max_tokens' in body,
      });
      if (rejected === 'max_tokens' && !this.useMaxCompletionTokens) {
        this.useMaxCompletionTokens = true;
        continue;
      }
      if (rejected === 'temperature' && !this.omitTemperature) {
        this.omitTemperature = true;
        continue;
      }
      throw httpError(res, {
        providerLabel: LABEL,
        url: this.endpoint,
        model: this.config.model,
        notFoundHint: endsInV1(this.config.baseUrl) ? '' : this.v1Advice(),
      });
    }
  }

  private requestBody(messages: ChatMessage[], options: ChatOptions): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.config.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      stream: false,
    };
    if (options.temperature !== undefined && !this.omitTemperature) body.temperature = options.temperature;
    if (options.maxTokens !== undefined) {
      body[this.useMaxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = options.maxTokens;
    }
    return body;
  }

  private parse(res: ProviderResponse): ChatResult {
    const body = res.json as Record<string, unknown> | undefined;
    const choices = body && typeof body === 'object' ? body.choices : undefined;
    if (!Array.isArray(choices) || choices.length === 0) throw this.noChoices(res);
    const choice = choices[0] as Record<string, unknown> | null;
    const message = choice && typeof choice === 'object' ? (choice.message as Record<string, unknown> | undefined) : undefined;
    if (!message || typeof message !== 'object') throw this.noChoices(res);
    const usage = (body!.usage ?? {}) as Record<string, unknown>;
    return {
      text: stripThinkBlocks(contentText(message.content)),
      usage: { inputTokens: tokenCount(usage.prompt_tokens), outputTokens: tokenCount(usage.completion_tokens) },
      finishReason: mapFinishReason(choice!.finish_reason),
      model: typeof body!.model === 'string' ? body!.model : undefined,
    };
  }

  private noChoices(res: ProviderResponse): AiError {
    const detail = providerErrorDetail(res).message;
    const said = detail ? ` (it said: ${detail})` : '';
    const fix = endsInV1(this.config.baseUrl)
      ? 'check that the base URL points to an OpenAI-compatible server (its path usually ends in /v1)'
      : this.v1Advice();
    return new AiError(
      'aiBadResponse',
      `The server at ${this.endpoint} answered HTTP ${res.status} without a chat completion ("choices")${said}; ${fix}.`,
    );
  }

  private v1Advice(): string {
    return `fix the base URL: add /v1 (set it to ${withV1(this.config.baseUrl)})`;
  }
}

/**
 * The text of an assistant `content` field: a string, null (only reasoning or a refusal), or
 * an array of parts whose `text` parts are joined.
 */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part && typeof part === 'object' && (part as Record<string, unknown>).type === 'text' ? (part as Record<string, unknown>).text : '',
      )
      .filter((t): t is string => typeof t === 'string')
      .join('');
  }
  return '';
}
