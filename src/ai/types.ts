/**
 * Shapes of the AI layer. The public ones (what other plugins see) are declared once in
 * types/vault-mcp-api.d.ts and re-exported here so the plugin and its published typings
 * cannot drift apart; `ChatProvider` and `ProviderConfig` are internal.
 */
import type { ChatMessage, ChatOptions, ChatResult, ChatUsage } from '../../types/vault-mcp-api';
import type { VaultMcpSettings } from '../settings/settings';

export type {
  AiErrorCode,
  ChatAvailability,
  ChatFinishReason,
  ChatMessage,
  ChatOptions,
  ChatResult,
  ChatRole,
  ChatUsage,
  VaultMcpApi,
} from '../../types/vault-mcp-api';

/** The `ai` block of data.json (src/settings/settings.ts). */
export type AiSettings = VaultMcpSettings['ai'];

/** Which wire format a provider speaks. */
export type AiProviderType = AiSettings['provider'];

/** `local`: the provider is on this computer (loopback); `remote`: text leaves the computer. */
export type ProviderClassification = 'local' | 'remote';

/** Everything needed to build a provider, after the settings passed every gate. */
export interface ProviderConfig {
  type: AiProviderType;
  /** Normalized base URL (see base-url.ts): no trailing slash, no `/chat/completions` or `/messages`. */
  baseUrl: string;
  model: string;
  /** Trimmed API key, or null when none is stored. */
  apiKey: string | null;
  classification: ProviderClassification;
}

/** One configured provider: a wire-format adapter bound to a base URL, key and model. */
export interface ChatProvider {
  /** The provider type, e.g. `openai-compatible`. */
  readonly id: AiProviderType;
  readonly classification: ProviderClassification;
  /**
   * Sends the conversation and returns the answer with reasoning text removed.
   * Throws `AiError` (`aiHttpError` for transport/HTTP failures, `aiBadResponse` for a 2xx that
   * is not a chat completion).
   */
  chat(messages: ChatMessage[], options: ChatOptions): Promise<ChatResult>;
}

/** Zero usage, a fresh object each call. */
export function zeroUsage(): ChatUsage {
  return { inputTokens: 0, outputTokens: 0 };
}
