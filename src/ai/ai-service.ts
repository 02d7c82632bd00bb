import { AiError } from './ai-error';
import { normalizeBaseUrl } from './providers/base-url';
import { resolveEmbeddingConfig } from './embeddings/embedding-gates';
import { embedTexts, type EmbedOptions, type EmbeddingResult } from './embeddings/embeddings';
import { resolveProviderConfig } from './gates';
import { createProvider } from './providers/create-provider';
import {
  zeroUsage,
  type AiErrorCode,
  type AiSettings,
  type ChatAvailability,
  type ChatProvider,
  type ChatResult,
  type ChatUsage,
} from './types';
import { validateChatRequest } from './validate-request';

/** What AiService needs from the plugin, as accessors so it never imports main.ts. */
export interface AiServiceDeps {
  /** The live `ai` settings block (read on every call, so edits apply at once). */
  getSettings(): AiSettings;
  /** The provider API key from SecretStorage (`AI_API_KEY_SECRET_ID`), or null. */
  getApiKey(): string | null;
  /** Persists the cumulative token usage and its scope (the plugin writes it to `ai.usage` in data.json). */
  saveUsage(usage: AiUsage & { scope: string }): Promise<void> | void;
  /** Timing of embedding requests (batch size, backoff); defaults from embeddings.ts. */
  embedOptions?: EmbedOptions;
  /** Longest delay before counted embedding tokens are saved, ms (default 5000). */
  embeddingUsageSaveMs?: number;
}

/** Token counters of the funnel: chat input/output and embedding input. */
export interface AiUsage extends ChatUsage {
  embeddingTokens: number;
}

/** Whether `embed()` would reach a provider now: the embedding model, or the exact refusal. */
export type EmbeddingAvailability =
  { ready: true; model: string; classification: 'local' | 'remote' } | { ready: false; code: AiErrorCode; reason: string };

/** Result of the settings tab's Test button. */
export type TestConnectionResult = { ok: true; text: string } | { ok: false; code: AiErrorCode; message: string };

/** Default longest delay before counted embedding tokens are saved to data.json, ms. */
const EMBEDDING_USAGE_SAVE_MS = 5000;

/** The prompt the Test button sends. */
export const TEST_PROMPT = 'Reply with the single word OK.';

/**
 * The single funnel for AI calls (the Test button and the public plugin API both use it):
 * validates the request, applies the gates (gates.ts), builds or reuses the provider for the
 * current (type, base URL, key, model), calls it and accumulates token usage. Usage counters
 * belong to one (provider type, base URL); they reset when either changes, and a call that
 * finishes after such a change is not counted against the new provider.
 */
export class AiService {
  private cached: { key: string; provider: ChatProvider } | null = null;
  private usage: AiUsage;
  private usageScope: string;
  /** Pending coalesced save of embedding usage (an index build embeds many batches; data.json is written once per interval). */
  private usageTimer: ReturnType<typeof setTimeout> | null = null;

  /** @param deps settings, key and persistence accessors; usage is seeded from `ai.usage` */
  constructor(private readonly deps: AiServiceDeps) {
    const settings = deps.getSettings();
    this.usageScope = scopeOf(settings);
    const saved = settings.usage;
    const countedElsewhere = saved?.scope !== undefined && saved.scope !== this.usageScope;
    this.usage = countedElsewhere
      ? { ...zeroUsage(), embeddingTokens: 0 }
      : {
          inputTokens: Math.max(0, saved?.inputTokens ?? 0),
          outputTokens: Math.max(0, saved?.outputTokens ?? 0),
          embeddingTokens: Math.max(0, saved?.embeddingTokens ?? 0),
        };
  }

  /**
   * Sends a conversation through the configured provider. Order: gates (settings), then the
   * request's shape, then the provider.
   * @param messages `{role, content}` items (validated; see validate-request.ts)
   * @param options `{temperature?, maxTokens?}`
   * @returns the answer without reasoning text, with this call's usage
   * @throws AiError aiInvalidRequest | aiDisabled | aiRemoteNotAllowed | aiNotConfigured |
   *   aiHttpError | aiBadResponse
   */
  async chat(messages: unknown, options?: unknown): Promise<ChatResult> {
    await this.syncUsageScope();
    const provider = this.currentProvider();
    const request = validateChatRequest(messages, options);
    const scope = this.usageScope;
    const result = await provider.chat(request.messages, request.options);
    await this.syncUsageScope();
    if (scope === this.usageScope) {
      this.usage = {
        ...this.usage,
        inputTokens: this.usage.inputTokens + result.usage.inputTokens,
        outputTokens: this.usage.outputTokens + result.usage.outputTokens,
      };
      await this.persistUsage();
    }
    return result;
  }

  /**
   * Embeds texts with the embedding model through the provider's `/embeddings` endpoint
   * (embeddings.ts), after the embedding gates (embedding-gates.ts): nothing is sent when AI is
   * off, or the endpoint is remote and remote providers are not allowed. The tokens the provider
   * reports are added to `embeddingTokens` in usage (saved within 5 s, coalesced, so an index
   * build does not rewrite data.json after every batch).
   * @param texts non-empty strings
   * @returns one vector per text, in order, and the tokens counted
   * @throws AiError aiDisabled | aiRemoteNotAllowed | aiNotConfigured | aiHttpError | aiBadResponse
   */
  async embed(texts: readonly string[]): Promise<EmbeddingResult> {
    await this.syncUsageScope();
    const config = resolveEmbeddingConfig(this.deps.getSettings(), this.deps.getApiKey());
    if (texts.length === 0) return { vectors: [], tokens: 0 };
    const scope = this.usageScope;
    const result = await embedTexts(config, texts, this.deps.embedOptions);
    await this.syncUsageScope();
    if (scope === this.usageScope && result.tokens > 0) {
      this.usage = { ...this.usage, embeddingTokens: this.usage.embeddingTokens + result.tokens };
      if (this.usageTimer === null) {
        this.usageTimer = setTimeout(() => void this.persistUsage(), this.deps.embeddingUsageSaveMs ?? EMBEDDING_USAGE_SAVE_MS);
        // Node timers (Obsidian desktop) must not keep a closing process alive for a usage save.
        (this.usageTimer as { unref?: () => void }).unref?.();
      }
    }
    return result;
  }

  /**
   * Whether `embed()` would reach a provider now, without calling it.
   * @returns `{ready: true, model, classification}` or `{ready: false, code, reason}` with the
   *   exact message `embed()` would reject with
   */
  embeddingAvailability(): EmbeddingAvailability {
    try {
      const config = resolveEmbeddingConfig(this.deps.getSettings(), this.deps.getApiKey());
      return { ready: true, model: config.model, classification: config.classification };
    } catch (err) {
      if (err instanceof AiError) return { ready: false, code: err.code, reason: err.message };
      throw err;
    }
  }

  /**
   * Whether `chat()` would reach a provider now, without calling it.
   * @returns `{ready: true, provider, model, classification}` or `{ready: false, code, reason}`
   *   where `reason` is the exact message `chat()` would reject with
   */
  chatAvailability(): ChatAvailability {
    try {
      const config = resolveProviderConfig(this.deps.getSettings(), this.deps.getApiKey());
      return { ready: true, provider: config.type, model: config.model, classification: config.classification };
    } catch (err) {
      if (err instanceof AiError) return { ready: false, code: err.code, reason: err.message };
      throw err;
    }
  }

  /**
   * The settings tab's Test button: sends {@link TEST_PROMPT} through `chat()` (same gates,
   * counted in usage).
   * @returns `{ok: true, text}` with the model's answer, or `{ok: false, code, message}`
   * @throws only non-AiError failures, which are bugs
   */
  async testConnection(): Promise<TestConnectionResult> {
    try {
      const result = await this.chat([{ role: 'user', content: TEST_PROMPT }]);
      return { ok: true, text: result.text };
    } catch (err) {
      if (err instanceof AiError) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
  }

  /**
   * Tokens used since the last reset, for the current provider type and base URL.
   * Reading it after the provider or base URL changed resets it (and persists the zero).
   */
  getUsage(): AiUsage {
    this.syncUsageScope().catch((err) => console.error('Vault MCP: could not save AI usage', err));
    return { ...this.usage };
  }

  /** Sets both counters to 0 and persists them (the settings tab's Reset button). */
  async resetUsage(): Promise<void> {
    this.usage = { ...zeroUsage(), embeddingTokens: 0 };
    await this.persistUsage();
  }

  /**
   * Tells the service the settings changed (call after the settings tab saves), so a new
   * provider type or base URL resets usage right away instead of on the next call.
   */
  async settingsChanged(): Promise<void> {
    await this.syncUsageScope();
  }

  private currentProvider(): ChatProvider {
    const config = resolveProviderConfig(this.deps.getSettings(), this.deps.getApiKey());
    const key = JSON.stringify([config.type, config.baseUrl, config.apiKey ?? '', config.model]);
    if (this.cached?.key !== key) this.cached = { key, provider: createProvider(config) };
    return this.cached.provider;
  }

  private async syncUsageScope(): Promise<void> {
    const scope = scopeOf(this.deps.getSettings());
    if (scope === this.usageScope) return;
    this.usageScope = scope;
    await this.resetUsage();
  }

  private async persistUsage(): Promise<void> {
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = null;
    try {
      await this.deps.saveUsage({ ...this.usage, scope: this.usageScope });
    } catch (err) {
      // The answer already arrived; losing a usage write must not turn it into a failure.
      console.error('Vault MCP: could not save AI usage', err);
    }
  }
}

/** Identity of a usage counter: provider type and normalized base URL. */
function scopeOf(settings: AiSettings): string {
  return JSON.stringify([settings.provider, normalizeBaseUrl(settings.baseUrl ?? '')]);
}
