/**
 * Vault MCP plugin API (apiVersion 1) for other Obsidian plugins: one `chat()` call that goes
 * through the AI provider the user configured in Vault MCP (Settings → Vault MCP → AI provider).
 * Callers never pick the provider or the model; the user's privacy settings (AI on/off, remote
 * providers allowed or not) are enforced on every call. Copy this file into your plugin.
 *
 * Usage:
 *   const api = (this.app as any).plugins.getPlugin('vault-mcp')?.api as VaultMcpApi | undefined;
 *   const reply = await api?.chat([{ role: 'user', content: 'Summarize this note: ...' }]);
 *   new Notice(reply?.text ?? 'Vault MCP is not available');
 *
 * If Vault MCP loads after your plugin, wait for the workspace event:
 *   this.registerEvent(this.app.workspace.on('vault-mcp:api-ready', (api) => { ... }));
 */
import type { EventRef } from 'obsidian';

/** Who wrote a message. `system` messages are instructions; the provider receives them in its own format. */
export type ChatRole = 'system' | 'user' | 'assistant';

/** One message of the conversation, oldest first. */
export interface ChatMessage {
  role: ChatRole;
  /** Plain text. */
  content: string;
}

/** Optional knobs that every provider understands. Any other key is rejected (`aiInvalidRequest`). */
export interface ChatOptions {
  /** Sampling temperature, 0–2. A model that does not accept it is called without it. */
  temperature?: number;
  /** Upper bound on the answer length, in tokens (positive integer). */
  maxTokens?: number;
}

/** Token counts reported by the provider for one call; a count the provider omits is 0. */
export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Why generation ended: `stop` (natural end or stop sequence), `length` (hit maxTokens),
 * `content_filter` (refused or filtered), `other` (anything else the provider reported).
 */
export type ChatFinishReason = 'stop' | 'length' | 'content_filter' | 'other';

/** The model's answer. Reasoning ("thinking") text is never part of `text`. */
export interface ChatResult {
  text: string;
  usage: ChatUsage;
  finishReason?: ChatFinishReason;
  /** The model name the provider says answered, when it says so. */
  model?: string;
}

/**
 * Machine-readable reason of a failed `chat()`:
 * - `aiDisabled`: the user has not turned AI on in Vault MCP.
 * - `aiRemoteNotAllowed`: the provider is not on this computer and remote providers are not allowed.
 * - `aiNotConfigured`: base URL, model or API key is missing or invalid (the message names which).
 * - `aiInvalidRequest`: the messages or options passed to `chat()` are malformed.
 * - `aiHttpError`: the provider could not be reached or answered with an HTTP error (`status` set when it answered).
 * - `aiBadResponse`: the provider answered 2xx with something that is not a chat completion.
 */
export type AiErrorCode =
  | 'aiDisabled'
  | 'aiRemoteNotAllowed'
  | 'aiNotConfigured'
  | 'aiInvalidRequest'
  | 'aiHttpError'
  | 'aiBadResponse';

/** What `chat()` rejects with. `message` is one sentence meant for the user. */
export interface VaultMcpAiError extends Error {
  name: 'AiError';
  code: AiErrorCode;
  /** HTTP status of the provider's answer, for `aiHttpError` when the provider answered. */
  status?: number;
  /**
   * `true` on an `aiHttpError` without `status` that trying again cannot fix until the user changes a
   * setting (a refused TLS certificate, an answer over the 64 MiB cap, an answer that could not be
   * read): do not retry it. Absent otherwise (a timeout or a busy provider may be worth a retry).
   */
  lasting?: true;
}

/**
 * Whether `chat()` can be called now, without calling the provider. `local` means the provider
 * runs on this computer (loopback address); `remote` means text leaves the computer.
 */
export type ChatAvailability =
  | {
      ready: true;
      provider: 'openai-compatible' | 'anthropic';
      model: string;
      classification: 'local' | 'remote';
    }
  | { ready: false; code: AiErrorCode; reason: string };

/** `app.plugins.getPlugin('vault-mcp').api`. */
export interface VaultMcpApi {
  readonly apiVersion: 1;
  /** Sends the conversation to the user's provider. Rejects with a {@link VaultMcpAiError}. */
  chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult>;
  /** Tells ahead of time whether `chat()` would be attempted, and if not, the exact reason. */
  chatAvailability(): ChatAvailability;
}

declare module 'obsidian' {
  interface Workspace {
    /** Fired by Vault MCP once `plugin.api` is set (after load, and again after a re-enable). */
    on(name: 'vault-mcp:api-ready', callback: (api: VaultMcpApi) => unknown, ctx?: unknown): EventRef;
  }
}
