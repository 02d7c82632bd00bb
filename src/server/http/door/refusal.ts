import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestId } from '@modelcontextprotocol/server';

/**
 * A request refused before it reaches MCP: the HTTP status and the JSON-RPC style error its body
 * carries (the SDK transport's convention), saying what to fix. Checks return one; {@link refuse}
 * is the one place it becomes an HTTP answer.
 */
export interface Refusal {
  status: number;
  /** JSON-RPC error code in the body (-32000 for transport errors, as the SDK does). */
  code: number;
  message: string;
  headers?: Record<string, string>;
  /** The request's own id when the body named exactly one, else null (JSON-RPC 2.0 §5). */
  id?: RequestId | null;
  /** The error's `data`, when its code defines one (-32022: `{supported, requested}`). */
  data?: unknown;
}

/**
 * Sends a refusal as a JSON body. When the request's body was not read to its end, the answer
 * closes the connection (`Connection: close`), so the rest of the body is never read (a keep-alive
 * answer would make Node drain it all). Nothing is sent once headers went out.
 */
export function refuse(res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) return;
  const close: Record<string, string> = res.req.complete ? {} : { Connection: 'close' };
  res.writeHead(refusal.status, { 'Content-Type': 'application/json', ...close, ...refusal.headers });
  const error = { code: refusal.code, message: refusal.message, ...(refusal.data === undefined ? {} : { data: refusal.data }) };
  res.end(JSON.stringify({ jsonrpc: '2.0', error, id: refusal.id ?? null }));
}

/**
 * Answers a request Node's parser refused before any handler ran (its `clientError` event),
 * with a JSON body that says what to fix like every other refusal: 431 for a head over the
 * limit, 408 for one that came too slowly, 400 for anything else; then closes the connection.
 * A socket already gone is only destroyed.
 * @param maxHeaderBytes the head limit the listener was created with, named in the 431 message.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, maxHeaderBytes: number): void {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', `Request headers are larger than ${maxHeaderBytes} bytes; send fewer or shorter headers.`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive; send it again at once.']
        : [400, 'Bad Request', 'Bad request: this is not a well-formed HTTP/1.1 request.'];
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
