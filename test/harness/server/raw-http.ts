import * as http from 'node:http';
import * as net from 'node:net';

/** A raw HTTP answer: status, headers and the whole body as text. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one raw HTTP request to the loopback server, so headers and bodies the SDK client
 * would never send can be tested. Defaults: POST /mcp, JSON content type, the Accept header
 * Streamable HTTP requires.
 */
export function raw(
  port: number,
  options: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; path?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/mcp',
        method: options.method ?? 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * The JSON-RPC messages of an answer: a JSON body as is, or the `data:` lines of an SSE
 * stream (the SDK transport answers requests over SSE by default). Empty for a 202.
 */
export function messagesOf(response: RawResponse): unknown[] {
  if (!response.body) return [];
  if (/^(event|data|id):/m.test(response.body) && response.headers['content-type']?.includes('text/event-stream')) {
    return response.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
  }
  const parsed = JSON.parse(response.body) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** The initialize request of a raw client (protocol 2025-06-18). */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/**
 * Opens a session with a raw initialize (plus notifications/initialized).
 * @param version the protocol revision to ask for (default 2025-06-18; 2025-03-26 for a session that may send batches)
 * @returns the headers every later request of the session sends.
 */
export async function openRawSession(port: number, token: string, version = '2025-06-18'): Promise<Record<string, string>> {
  const auth = { Authorization: `Bearer ${token}` };
  const body = version === '2025-06-18' ? INITIALIZE : INITIALIZE.replace('"2025-06-18"', JSON.stringify(version));
  const init = await raw(port, { body, headers: auth });
  if (init.status !== 200) throw new Error(`initialize failed: ${init.status} ${init.body}`);
  const headers = { ...auth, 'Mcp-Session-Id': init.headers['mcp-session-id'] as string, 'Mcp-Protocol-Version': version };
  await raw(port, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return headers;
}

/** A loopback port nothing listens on now (one the OS gave a probe server, closed again before returning). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
