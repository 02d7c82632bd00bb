import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake server received it off the wire. */
export interface RecordedRequest {
  method: string;
  /** Path plus query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Header names lower-cased (node:http). */
  headers: http.IncomingHttpHeaders;
  /** Raw body text. */
  text: string;
  /** Body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/** What a fake answers with. `body` objects are JSON-encoded; strings are sent as text/plain. */
export interface FakeResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A running fake: its base origin, what it received, and how to stop it. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  requests: RecordedRequest[];
  /** Queues an answer that overrides the next request's normal handling (FIFO). */
  failNext(response: FakeResponse): void;
  close(): Promise<void>;
}

/**
 * Starts a real node:http server on 127.0.0.1, port 0 (the OS picks a free one), records every
 * request, and answers with `handle(request)` unless an answer was queued with `failNext`.
 * @param handle the wire-format logic of the fake provider
 */
export async function startRecordingServer(handle: (req: RecordedRequest) => FakeResponse): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queued: FakeResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, text, json };
      requests.push(recorded);
      const answer = queued.shift() ?? handle(recorded);
      const isText = typeof answer.body === 'string';
      const payload = isText ? (answer.body as string) : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
        ...answer.headers,
      });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    failNext: (response) => queued.push(response),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Whitespace-separated word count: the fakes' deterministic stand-in for a tokenizer. */
export function countWords(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : t.split(/\s+/).length;
}

/** The first `n` words of `text`, for answers cut off by a token limit. */
export function firstWords(text: string, n: number): string {
  return text.trim().split(/\s+/).slice(0, n).join(' ');
}
