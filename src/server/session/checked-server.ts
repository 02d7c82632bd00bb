import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  ErrorCode,
  McpError,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type Notification,
  type Request,
  type Result,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcError } from './tool-dispatch';

/** One zod issue as the SDK's (zod v4) request schemas report it. */
interface ParamsIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
}

/** The part of a request schema the checks use: its `method` literal and `safeParse`. */
interface RequestSchema {
  shape: { method: { value: string } };
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ParamsIssue[] } };
}

/** Request schemas by method, per server (a WeakMap: handlers are registered while the SDK constructor runs). */
const schemasOf = new WeakMap<Server, Map<string, RequestSchema>>();

/**
 * One short sentence for the first problem in a request's params, e.g.
 * `Invalid params for tools/list: params.cursor must be a string.` Never the validator's
 * own dump (a list of JSON issues an agent cannot act on).
 */
export function describeParamsIssue(method: string, issues: readonly ParamsIssue[]): string {
  const issue = issues[0];
  const where = issue && issue.path.length ? issue.path.map(String).join('.') : 'params';
  let problem = 'is invalid';
  if (issue?.code === 'invalid_type' && /received undefined/.test(issue.message)) problem = 'is required';
  else if (issue?.code === 'invalid_type' && issue.expected) problem = `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
  else if (issue?.code === 'invalid_value' && issue.values) problem = `must be one of ${issue.values.map(String).join(', ')}`;
  return `Invalid params for ${method}: ${where} ${problem}.`;
}

/**
 * The SDK's low-level `Server` with DESIGN.md's error model applied once, to every request
 * handler (those the SDK registers itself — initialize, ping, logging/setLevel — and ours):
 * - a request whose params do not match the method's schema is answered -32602 with one
 *   sentence from {@link describeParamsIssue}, before any handler runs (the SDK would throw
 *   the validator's error from inside the handler and answer -32603 with its dump);
 * - an exception that is not a JSON-RPC error is our bug: its stack goes to the console and
 *   the client gets -32603 with no detail.
 */
export class CheckedServer extends Server {
  /**
   * Registers `handler` for the schema's method, as the SDK's `Server` does, and records the
   * schema for the params check; the handler's non-JSON-RPC exceptions become -32603.
   */
  override setRequestHandler<T extends AnyObjectSchema>(
    requestSchema: T,
    handler: (
      request: SchemaOutput<T>,
      extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
    ) => ServerResult | Result | Promise<ServerResult | Result>,
  ): void {
    const schema = requestSchema as unknown as RequestSchema;
    const method = schema.shape.method.value;
    let schemas = schemasOf.get(this);
    if (!schemas) schemasOf.set(this, (schemas = new Map<string, RequestSchema>()));
    schemas.set(method, schema);
    super.setRequestHandler(requestSchema, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        if (error instanceof JsonRpcError || error instanceof McpError) throw error;
        console.error(`[vault-mcp] ${method} failed`, error);
        throw new JsonRpcError(ErrorCode.InternalError, `Internal error in ${method}; the details are in Obsidian's developer console.`);
      }
    });
  }

  /**
   * Connects as the SDK does, then checks every incoming request's params against its
   * method's schema before the SDK dispatches it; a mismatch is answered -32602 here.
   */
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const dispatch = transport.onmessage;
    if (!dispatch) return;
    transport.onmessage = (message, extra) => {
      const refusal = this.paramsRefusal(message);
      if (!refusal) return dispatch(message, extra);
      transport.send(refusal).catch((error) => console.error('[vault-mcp] could not send an error response', error));
    };
  }

  /** The -32602 answer to a request whose params do not match its method's schema, or null. */
  private paramsRefusal(message: JSONRPCMessage): JSONRPCErrorResponse | null {
    if (!isJSONRPCRequest(message)) return null;
    const schema = schemasOf.get(this)?.get(message.method);
    if (!schema) return null;
    const parsed = schema.safeParse(message);
    if (parsed.success) return null;
    return {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: ErrorCode.InvalidParams, message: describeParamsIssue(message.method, parsed.error.issues) },
    };
  }
}
