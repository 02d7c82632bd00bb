import type { CallToolResult } from '@modelcontextprotocol/server';

/** A fetch as the forwarder uses it (see loopback-fetch.ts; the signing wrapper in vault-peers.ts). */
export type ForwardFetch = (url: string, init: RequestInit) => Promise<Response>;

/** The protocol revision a forwarded call opens its session with: the oldest one every Vault MCP version serves with tools. */
const FORWARD_PROTOCOL_VERSION = '2025-06-18';

/** A failed exchange with the other vault: the refusal text it sent (its JSON-RPC error message), or why none came. */
export class ForwardError extends Error {
  /** @param refusal the other vault's own message, when it answered with a JSON-RPC error. */
  constructor(
    message: string,
    readonly refusal: string | null = null,
  ) {
    super(message);
    this.name = 'ForwardError';
  }
}

/**
 * The JSON-RPC answer with `id` in a Streamable HTTP response body: a JSON body, or the `data:`
 * lines of an SSE stream (MCP spec 2025-06-18, "Transports" → Streamable HTTP), read to its end.
 * @throws ForwardError when the status is not 2xx (with the body's JSON-RPC error message when it
 *   has one) or no answer with that id is in the body.
 */
async function answerOf(response: Response, id: number): Promise<{ result?: unknown; error?: { message?: unknown } }> {
  const text = await response.text();
  const messages: unknown[] = [];
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) messages.push(parseOrNull(data));
    }
  } else if (text) {
    messages.push(parseOrNull(text));
  }
  type Answer = { id?: unknown; result?: unknown; error?: { message?: unknown } };
  const answers = messages.flat().filter((m): m is Answer => typeof m === 'object' && m !== null);
  // A refusal at the door answers with id null (the request was never read as JSON-RPC).
  const answer = answers.find((m) => m.id === id) ?? answers.find((m) => m.id === null && m.error !== undefined);
  const refusal = typeof answer?.error?.message === 'string' ? answer.error.message : null;
  if (!response.ok) throw new ForwardError(`HTTP ${response.status}${refusal ? `: ${refusal}` : ''}`, refusal);
  if (!answer) throw new ForwardError(`the answer to request ${id} is missing from the response`);
  if (answer.error) throw new ForwardError(refusal ?? 'a JSON-RPC error without a message', refusal);
  return answer;
}

/** JSON.parse, or null for text that is not JSON. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Runs one tool call in another vault as an MCP client does over Streamable HTTP, in one short
 * session: `initialize`, `notifications/initialized`, `tools/call`, then `DELETE` to end the
 * session. Kept this small on purpose: the SDK's client package would more than double what the
 * MCP SDK costs in main.js, for four requests to our own server.
 * @param url the other vault's MCP endpoint.
 * @param fetchFn sends one request (it adds the credentials and checks the receipt).
 * @param clientName the name this vault introduces itself with.
 * @returns the other vault's tools/call result as it sent it.
 * @throws ForwardError when the other vault refuses or does not answer as a server should; the
 *   socket's error when it cannot be reached.
 */
export async function forwardToolCall(
  url: string,
  fetchFn: ForwardFetch,
  clientName: string,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const post = (body: object, headers: Record<string, string> = {}): Promise<Response> =>
    fetchFn(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  const initialize = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: FORWARD_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } },
  });
  const sessionId = initialize.headers.get('mcp-session-id');
  const opened = (await answerOf(initialize, 1)).result as { protocolVersion?: unknown } | undefined;
  if (!sessionId) throw new ForwardError('the other vault opened no session (no Mcp-Session-Id header)');
  const session = {
    'Mcp-Session-Id': sessionId,
    'MCP-Protocol-Version': typeof opened?.protocolVersion === 'string' ? opened.protocolVersion : FORWARD_PROTOCOL_VERSION,
  };
  try {
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    await initialized.body?.cancel().catch(() => undefined);
    const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }, session);
    return (await answerOf(call, 2)).result as CallToolResult;
  } finally {
    const end = await fetchFn(url, { method: 'DELETE', headers: session }).catch(() => null);
    await end?.body?.cancel().catch(() => undefined);
  }
}
