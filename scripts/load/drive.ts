/**
 * Drives tools/call load with autocannon over MCP Streamable HTTP: one raw session
 * (initialize, then notifications/initialized) per connection, each connection sending
 * `tools/call` POSTs one after another with its session's `Mcp-Session-Id`. Latency is taken
 * per call from the moment autocannon builds the request to its whole response (ms, float).
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { openRawSession, raw } from '../../test/harness/server/raw-http';
import { percentiles } from '../bench/measure';

/** One tool call of the workload: a tool name and its arguments. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** How long to drive: for `durationS` seconds, or until `amount` calls are done (wins when set). */
export interface DriveOptions {
  sessions: number;
  durationS?: number;
  amount?: number;
}

/** Figures of one run; latencies in ms. `failed` counts non-200 answers, transport errors and tool errors (isError). */
export interface DriveResult {
  sessions: number;
  calls: number;
  failed: number;
  seconds: number;
  callsPerSecond: number;
  p50: number;
  p99: number;
  /** The failed calls by kind (HTTP status, tool error and its text's start, transport error or timeout), counts. */
  failures: Record<string, number>;
}

/**
 * Opens `options.sessions` sessions on the server at `port` with `token`, then sends the
 * `calls` (cycled, each connection starting at its own offset) over as many connections,
 * and closes the sessions (DELETE) afterwards.
 * @throws Error when a session cannot be opened or `calls` is empty.
 */
export async function drive(port: number, token: string, calls: ToolCall[], options: DriveOptions): Promise<DriveResult> {
  if (calls.length === 0) throw new Error('drive: give at least one tool call');
  const sessions = await Promise.all(Array.from({ length: options.sessions }, () => openRawSession(port, token)));
  const bodies = calls.map((call) => (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: call }));
  const latencies: number[] = [];
  let failed = 0;
  const failures: Record<string, number> = {};
  let assigned = 0;
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/mcp`,
    connections: options.sessions,
    pipelining: 1,
    timeout: 60,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationS ?? 10 }),
    requests: [
      {
        method: 'POST',
        setupRequest: (request, context) => {
          if (context.session === undefined) {
            context.offset = assigned * 7;
            context.session = sessions[assigned++ % sessions.length];
            context.n = 0;
          }
          const n = (context.n as number) + 1;
          context.n = n;
          context.sentAt = performance.now();
          return {
            ...request,
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              ...(context.session as Record<string, string>),
            },
            body: bodies[((context.offset as number) + n) % bodies.length](n),
          };
        },
        onResponse: (status, body, context) => {
          latencies.push(performance.now() - (context.sentAt as number));
          const kind = failureKind(status, body);
          if (kind === null) return;
          failed++;
          failures[kind] = (failures[kind] ?? 0) + 1;
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(sessions.map((headers) => raw(port, { method: 'DELETE', headers })));
  failed += result.errors;
  if (result.errors > 0) failures['transport error or timeout'] = result.errors;
  const p = latencies.length > 0 ? percentiles(latencies) : { p50: NaN, p99: NaN };
  return {
    sessions: options.sessions,
    calls: latencies.length,
    failed,
    seconds,
    callsPerSecond: latencies.length / seconds,
    p50: p.p50,
    p99: p.p99,
    failures,
  };
}

/** Why an answer counts as failed: its HTTP status, a tool error with the start of its text, or an answer without a result; null for a good answer. */
export function failureKind(status: number, body: string): string | null {
  if (status !== 200) return `HTTP ${status}`;
  if (body.includes('"isError":true')) return `tool error "${/"text":"((?:[^"\\]|\\.){0,80})/.exec(body)?.[1] ?? ''}"`;
  return body.includes('"result"') ? null : 'answer without a result';
}
