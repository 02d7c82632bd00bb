import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The web-standard `Request` the SDK's HTTP entries take (`WebStandardStreamableHTTPServerTransport`,
 * `createMcpHandler`), built from a Node request whose body the door has already read: the
 * method, URL and headers only; the body goes to the SDK as `parsedBody`. Its `signal` aborts
 * when the connection closes before the answer is finished.
 * @param req the Node request (its headers are copied, repeated ones joined as Node does).
 * @param res its response, watched for an early close.
 * @param url the request URL on this server.
 * @returns a body-less Request (GET semantics for the body; the method is kept).
 */
export function webRequestOf(req: IncomingMessage, res: ServerResponse, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const aborted = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  return new Request(url, { method: req.method, headers, signal: aborted.signal });
}

/**
 * How long an answer waits for a client that reads none of it, ms: past it the connection is
 * closed. Node's own timeouts end when the request is in (listener.ts), so a client that sent a
 * request and stopped reading held its connection and the answer's buffered bytes without
 * bound. A client on loopback reads at once; a minute without room for one more chunk is a
 * client that is not reading.
 */
export const WRITE_STALL_MS = 60_000;

/** Headers of one connection, not of the answer (RFC 9110 §7.6.1, RFC 9112 §9.6), left to Node's own handling. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

/**
 * Writes an SDK `Response` to a Node response: status, headers, then the body as it comes (an
 * SSE stream is relayed chunk by chunk). When the client closes the connection first, the body
 * stream is cancelled, which is how the SDK learns that a request's stream is gone (MCP
 * 2026-07-28: closing a request's stream cancels it).
 * @param stop when it aborts, the body stops being relayed and the answer ends there (a
 *   cancelled request's stream).
 * @param stallMs how long a write may wait for the client to take what was written, ms
 *   ({@link WRITE_STALL_MS}); past it the connection is closed and the body cancelled.
 * @returns resolves when the body is written or the connection closed.
 */
export async function sendWebResponse(
  response: Response,
  res: ServerResponse,
  stop?: AbortSignal,
  stallMs = WRITE_STALL_MS,
): Promise<void> {
  if (res.headersSent) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // Hop-by-hop headers belong to this connection, which Node manages (RFC 9110 §7.6.1): the SDK's
    // `Connection: keep-alive` on an SSE answer overrode a client's `Connection: close`.
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // A GET's stream (MCP "Listening for Messages from the Server") may wait long for its first event: its status and
  // headers go now, so a client waiting for them does not time out and reconnect. A POST's answer comes at once, in
  // one write with its headers.
  if (res.req?.method === 'GET') res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  if (stop?.aborted) cancel();
  stop?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value) && !(await drained(res, stallMs))) {
        cancel();
        res.destroy();
      }
      if (res.destroyed) break;
    }
  } catch {
    // The stream ended with an error or was cancelled: the connection closes below.
  } finally {
    res.off('close', cancel);
    stop?.removeEventListener('abort', cancel);
    if (!res.destroyed) res.end();
  }
}

/** Resolves true when `res` drains or closes, false when neither happens within `limitMs`. */
function drained(res: ServerResponse, limitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('drain', done);
      res.off('close', done);
      resolve(false);
    }, limitMs);
    res.once('drain', done);
    res.once('close', done);
  });
}
