import {
  isJSONRPCRequest,
  ProtocolErrorCode,
  specTypeSchemas,
  type CallToolResult,
  type JSONRPCErrorResponse,
  type ProtocolEra,
  type SpecTypeName,
} from '@modelcontextprotocol/server';
import { inputExcerpt } from '../../errors';
import { protoKeyIn, protoKeyMessage } from '../session/tool-dispatch';
import { isMissingValueIssue, toolErrorResult, typeWithArticle } from '../session/rpc-errors';

/** One issue as the SDK's spec schemas (zod v4 behind the Standard Schema interface) report it. */
interface ParamsIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: string;
  values?: unknown[];
}

/**
 * The spec type (the SDK's public `specTypeSchemas`) of each method this server answers. A method
 * not listed here is answered by the SDK as it sees fit (-32601 for an unknown one).
 */
const REQUEST_TYPES: ReadonlyMap<string, SpecTypeName> = new Map<string, SpecTypeName>([
  ['initialize', 'InitializeRequest'],
  ['ping', 'PingRequest'],
  ['tools/list', 'ListToolsRequest'],
  ['tools/call', 'CallToolRequest'],
  ['resources/list', 'ListResourcesRequest'],
  ['resources/templates/list', 'ListResourceTemplatesRequest'],
  ['resources/read', 'ReadResourceRequest'],
  ['resources/subscribe', 'SubscribeRequest'],
  ['resources/unsubscribe', 'UnsubscribeRequest'],
  ['prompts/list', 'ListPromptsRequest'],
  ['prompts/get', 'GetPromptRequest'],
  ['completion/complete', 'CompleteRequest'],
  ['logging/setLevel', 'SetLevelRequest'],
]);

/**
 * Methods protocol 2026-07-28 no longer has: the SDK answers them in that era as it must (HTTP
 * 404, -32601), so their params are not checked there.
 */
const REMOVED_IN_2026 = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * One short sentence for the first problem in a request's params, e.g.
 * `Invalid params for tools/list: params.cursor must be a string.` Never the validator's
 * own dump (a list of JSON issues an agent cannot act on); a key the caller chose is cut to its
 * {@link inputExcerpt}.
 */
export function describeParamsIssue(method: string, issues: readonly ParamsIssue[]): string {
  const issue = issues[0];
  const where = issue && issue.path.length ? issue.path.map((part) => inputExcerpt(String(part))).join('.') : 'params';
  let problem = 'is invalid';
  if (issue !== undefined && isMissingValueIssue(issue)) problem = 'is required';
  else if (issue?.code === 'invalid_type' && issue.expected) problem = `must be ${typeWithArticle(issue.expected)}`;
  else if (issue?.code === 'invalid_value' && issue.values) problem = `must be one of ${issue.values.map(String).join(', ')}`;
  return `Invalid params for ${method}: ${where} ${problem}.`;
}

/**
 * The -32602 answer to a request whose params do not match its method's schema (the error model,
 * docs/architecture.md#error-model), checked before the SDK sees the request: the SDK itself would answer such a
 * request -32603 with the validator's dump. Notifications, responses and methods without a
 * schema here pass.
 * @param message one parsed JSON-RPC message.
 * @param era the protocol era of the request (the SDK's `ProtocolEra`).
 * @returns the error response to send, or null when the message may go on to the SDK.
 */
export function paramsRefusal(message: unknown, era: ProtocolEra = 'legacy'): JSONRPCErrorResponse | null {
  if (!isJSONRPCRequest(message)) return null;
  if (era === 'modern' && REMOVED_IN_2026.has(message.method)) return null;
  const type = REQUEST_TYPES.get(message.method);
  if (!type) return null;
  const refused = (text: string): JSONRPCErrorResponse => ({
    jsonrpc: '2.0',
    id: message.id,
    error: { code: ProtocolErrorCode.InvalidParams, message: text },
  });
  // Tools take `vault`; a resource URI names a note of this vault, and the SDK would drop the argument unsaid.
  if (message.method === 'resources/read' && (message.params as { vault?: unknown } | undefined)?.vault !== undefined) {
    return refused(
      "Invalid params for resources/read: it takes no vault argument, resources are this vault's notes; read another open vault's note with read_note and its vault argument.",
    );
  }
  const verdict = specTypeSchemas[type]['~standard'].validate(message);
  const issues = verdict instanceof Promise ? undefined : verdict.issues;
  if (!issues) return null;
  return refused(describeParamsIssue(message.method, issues as readonly ParamsIssue[]));
}

/**
 * The answer to a `tools/call` whose `arguments` hold an own `__proto__` key at the top level,
 * checked before the SDK sees the request: the SDK's `arguments` record drops that key unsaid, so
 * the tool would run without it, where any other unknown argument is refused. The answer is the
 * tool error result an unknown argument gets (SEP-1303: input validation errors are tool
 * execution errors); a `__proto__` deeper down reaches the tool dispatch, which refuses it there.
 * @param message one parsed JSON-RPC message.
 * @returns the request id, the tool result and its message, or null when the message may go on.
 */
export function protoArgumentRefusal(message: unknown): { id: string | number; result: CallToolResult; message: string } | null {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return null;
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  const args = params?.arguments;
  if (args === null || typeof args !== 'object' || !Object.prototype.hasOwnProperty.call(args, '__proto__')) return null;
  const text = protoKeyMessage(typeof params?.name === 'string' ? params.name : '', protoKeyIn(args) ?? '');
  return { id: message.id, result: toolErrorResult(text), message: text };
}
