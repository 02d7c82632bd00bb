/**
 * tools/call throughput with several concurrent MCP sessions: each session is its own SDK
 * client over Streamable HTTP (its own `Mcp-Session-Id`), issuing a fixed mix of `search`,
 * `read_note` and `list_notes` back to back until a deadline.
 */
import { performance } from 'node:perf_hooks';
import { connectClient } from '../../test/harness/boot-plugin';
import { ms, percentiles, type Log } from './measure';

/** What the sessions call: search queries and note paths to read (vault-relative). */
export interface ThroughputWorkload {
  queries: string[];
  paths: string[];
}

/** Figures of one throughput run; latencies in ms. */
export interface ThroughputResult {
  sessions: number;
  durationMs: number;
  calls: number;
  errors: number;
  callsPerSecond: number;
  p50: number;
  p99: number;
  /** Per tool: calls and p50. */
  byTool: Record<string, { calls: number; p50: number }>;
}

/** The call mix each session cycles through (half searches, a third reads, a sixth listings). */
const MIX = ['search', 'read_note', 'search', 'list_notes', 'search', 'read_note'] as const;

/**
 * Opens `sessions` SDK clients on `url` with `token`, then every session calls tools one after
 * another for `durationMs` (calls in flight at the deadline finish and count).
 * @throws Error when the workload has no query or no path, or a client cannot connect.
 */
export async function measureThroughput(
  url: string,
  token: string,
  workload: ThroughputWorkload,
  sessions = 8,
  durationMs = 10_000,
): Promise<ThroughputResult> {
  if (workload.queries.length === 0 || workload.paths.length === 0)
    throw new Error('measureThroughput: the workload needs at least one query and one path');
  const clients = await Promise.all(Array.from({ length: sessions }, (_, i) => connectClient(url, token, `bench-session-${i}`)));
  const latencies: Record<string, number[]> = { search: [], read_note: [], list_notes: [] };
  let errors = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    clients.map(async (client, s) => {
      for (let k = 0; performance.now() < deadline; k++) {
        const tool = MIX[(s + k) % MIX.length];
        const args =
          tool === 'search'
            ? { query: workload.queries[(s * 7 + k) % workload.queries.length] }
            : tool === 'read_note'
              ? { path: workload.paths[(s * 13 + k) % workload.paths.length] }
              : { limit: 50 };
        const at = performance.now();
        try {
          const result = await client.callTool({ name: tool, arguments: args });
          if (result.isError) errors++;
        } catch {
          errors++;
        }
        latencies[tool].push(performance.now() - at);
      }
    }),
  );
  const elapsed = performance.now() - start;
  await Promise.all(clients.map((c) => c.close()));
  const all = Object.values(latencies).flat();
  const p = percentiles(all);
  const byTool: ThroughputResult['byTool'] = {};
  for (const [tool, samples] of Object.entries(latencies))
    if (samples.length > 0) byTool[tool] = { calls: samples.length, p50: percentiles(samples).p50 };
  return {
    sessions,
    durationMs: elapsed,
    calls: all.length,
    errors,
    callsPerSecond: all.length / (elapsed / 1000),
    p50: p.p50,
    p99: p.p99,
    byTool,
  };
}

/** Prints a throughput result in the bench's style. */
export function printThroughput(result: ThroughputResult, log: Log): void {
  const tools = Object.entries(result.byTool)
    .map(([tool, t]) => `${tool} ${t.calls} calls p50 ${ms(t.p50)} ms`)
    .join('; ');
  log(
    `  tools/call throughput, ${result.sessions} concurrent sessions for ${(result.durationMs / 1000).toFixed(1)} s: ` +
      `${result.callsPerSecond.toFixed(0)} calls/s, p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, ${result.calls} calls, ${result.errors} errors`,
  );
  log(`    (${tools}; clients run in the same Node process as the server)`);
}
