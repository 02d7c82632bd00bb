import type { AiErrorCode } from './types';

/**
 * The one error type of the AI layer (shape published as `VaultMcpAiError` in
 * types/vault-mcp-api.d.ts). `message` is one sentence for the user that names what to do;
 * `status` is the provider's HTTP status for `aiHttpError` when the provider answered.
 */
export class AiError extends Error {
  override readonly name = 'AiError' as const;

  /**
   * @param code machine-readable reason (see `AiErrorCode`)
   * @param message one sentence naming the fix
   * @param status provider HTTP status, only for `aiHttpError` after an answer
   */
  constructor(
    readonly code: AiErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
