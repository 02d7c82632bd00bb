import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';

/**
 * A JSON-RPC error for the SDK to send as `{code, message}` (JSON-RPC 2.0 §5.1): the SDK answers
 * any thrown error carrying a numeric `code` with that code and its message verbatim.
 */
export class JsonRpcError extends Error {
  /**
   * @param code JSON-RPC error code (-32602 invalid params, -32603 internal error).
   * @param data the error's `data` member, when the spec defines one (e.g. `{uri}` of an unknown resource).
   */
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/**
 * The one tool result that tells the agent what went wrong and what to do instead (docs/architecture.md#error-model:
 * a failure the agent can act on is `isError: true` with one sentence).
 * @param sentence the message shown to the agent.
 */
export function toolErrorResult(sentence: string): CallToolResult {
  return { content: [{ type: 'text', text: sentence }], isError: true };
}

/**
 * The -32603 answer to a bug: logs `error` (its stack) to the console and returns the error to
 * throw, whose message names only where it happened (the stack never goes into the reply).
 * @param where what was running, e.g. `tool search` or `resources/read`.
 */
export function internalError(where: string, error: unknown): JsonRpcError {
  console.error(`[vault-mcp] ${where} failed`, error);
  return new JsonRpcError(ProtocolErrorCode.InternalError, `Internal error in ${where}; the details are in Obsidian's developer console.`);
}

/**
 * Wraps a request handler so that an exception that is not a JSON-RPC error (a bug) becomes
 * {@link internalError}; JSON-RPC errors (ours and the SDK's) pass through unchanged.
 * @param method the method the handler serves (named in the log and the reply).
 */
export function guarded<A extends unknown[], R>(method: string, handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof JsonRpcError || ProtocolError.isInstance(error)) throw error;
      throw internalError(method, error);
    }
  };
}

/**
 * True when a validator issue (zod v4 `invalid_type`, as the SDK's schemas and the tools' input
 * schemas report it) is about a value that is not there: its message ends `received undefined`.
 * Such an issue is told as "is required", not as the validator's type sentence.
 */
export function isMissingValueIssue(issue: { code?: string; message: string }): boolean {
  return issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
}

/** A JSON type as a sentence names it, with its article: `a string`, `an object`, `an integer` (zod's `expected`). */
export function typeWithArticle(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
