import type { AiErrorCode } from './types';

/** Where the user changes the AI provider's settings, as every AiError message names it. */
export const AI_PROVIDER_SETTINGS = 'Settings → Vault MCP → AI provider';

/**
 * The one error type of the AI layer (shape published as `VaultMcpAiError` in
 * types/vault-mcp-api.d.ts). `message` is one sentence for the user that names what to do;
 * `status` is the provider's HTTP status for `aiHttpError` when the provider answered;
 * `lasting` marks an `aiHttpError` without status that trying again cannot fix (a refused TLS
 * certificate, an answer over the size cap), so the semantic index does not retry it as "busy".
 */
export class AiError extends Error {
  override readonly name = 'AiError' as const;

  /**
   * @param code machine-readable reason (see `AiErrorCode`)
   * @param message one sentence naming the fix
   * @param status provider HTTP status, only for `aiHttpError` after an answer
   * @param lasting true when the same request will fail the same way until the user changes something
   */
  constructor(
    readonly code: AiErrorCode,
    message: string,
    readonly status?: number,
    readonly lasting?: true,
  ) {
    super(message);
  }
}
