import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` for the MCP SDK client transport that speaks to another vault's server on
 * 127.0.0.1 through `node:http`. Inside Obsidian the global `fetch` is the browser's, which
 * would send the request cross-origin from `app://obsidian.md` (a CORS preflight the MCP
 * endpoint does not answer), and `requestUrl` cannot stream the SSE answers the transport reads;
 * Node's own HTTP client has neither problem.
 * @param url an `http://127.0.0.1:<port>/…` URL.
 * @param init method, headers, a string body and an abort signal (what the SDK transport passes).
 * @returns a `Response` whose body streams the answer as it arrives.
 * @throws TypeError (rejected) for any other host, or the socket error when the request fails.
 */
export function loopbackFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  const target = new URL(url);
  if (target.protocol !== 'http:' || target.hostname !== '127.0.0.1') {
    return Promise.reject(new TypeError(`loopbackFetch only reaches http://127.0.0.1, not ${target.origin}`));
  }
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const method = (init.method ?? 'GET').toUpperCase();
  return new Promise<Response>((resolve, reject) => {
    const req = httpRequest(target, { method, headers }, (res) => {
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const status = res.statusCode ?? 502;
      const empty = status === 204 || status === 304 || method === 'HEAD';
      if (empty) res.resume();
      const body = empty ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: answerHeaders }));
    });
    req.on('error', reject);
    const signal = init.signal;
    if (signal) {
      if (signal.aborted) req.destroy(new Error('The request was aborted.'));
      else signal.addEventListener('abort', () => req.destroy(new Error('The request was aborted.')), { once: true });
    }
    const body = init.body;
    if (body === undefined || body === null) req.end();
    else if (typeof body === 'string') req.end(body);
    else req.destroy(new TypeError('loopbackFetch sends string bodies only (JSON-RPC).'));
  });
}
