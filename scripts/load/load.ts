/**
 * `npm run test:load`: load on the built main.js, served by a child process (the host and the
 * plugin, `node --expose-gc`) and driven by autocannon from this process over real HTTP.
 * Prints figures; asserts nothing.
 *
 *   read_note and search with 1, 8 and 32 sessions (calls/s, p50, p99) on the demo vault and
 *   on the 14k-note vault (../shared/vaults/windows-powershell-docs.tar.zst, skipped when
 *   absent); then heap and RSS after GC every 10% of 100,000 calls on the demo vault, with
 *   their fitted growth per 10,000 calls; with `--only scale`, read_note and search with 8
 *   sessions on the bench's generated 100k-note vault (generated once into the temp dir), search
 *   there as a fixed count of calls (each session through the query mix twice) rather than for
 *   a duration.
 *
 *   --quick          2 s per cell and 20,000 calls for memory
 *   --duration s     seconds per cell (default 10)
 *   --memory-calls n calls of the memory run (default 100000)
 *   --only a,b       parts among demo, large, memory, scale (scale only when named)
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateVault, generatedQueries, heavyQueries } from '../bench/generate-vault';
import { unpackLargeVault, LARGE_QUERIES } from '../bench/large-vault';
import { ms, type Log } from '../bench/measure';
import { drive, type DriveResult, type ToolCall } from './drive';
import { measureMemory } from './memory';
import { parseLoadArgs } from './options';
import { startServerChild, type ServerChild } from './server-child';
import { openRawSession, raw, messagesOf } from '../../test/harness/server/raw-http';

const DEMO_VAULT = nodePath.resolve(__dirname, '../test/fixtures/demo-vault');
const LARGE_ARCHIVE = nodePath.resolve(__dirname, '../../shared/vaults/windows-powershell-docs.tar.zst');
/** Queries on the demo vault (words its notes hold, a phrase, an operator). */
const DEMO_QUERIES = ['project', 'meeting', 'budget', '"design decisions"', 'garden OR running', 'sleep'];
const SESSION_COUNTS = [1, 8, 32];

/** Up to `max` of `paths` (spread over the list) that read_note answers without a tool error (private and quarantined notes drop out). */
async function readablePaths(server: ServerChild, max: number): Promise<string[]> {
  const headers = await openRawSession(server.port, server.token);
  const step = Math.max(1, Math.floor(server.paths.length / (max * 2)));
  const out: string[] = [];
  for (let i = 0; i < server.paths.length && out.length < max; i += step) {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: i + 10,
      method: 'tools/call',
      params: { name: 'read_note', arguments: { path: server.paths[i] } },
    });
    const answer = messagesOf(await raw(server.port, { headers, body }))[0] as { result?: { isError?: boolean } };
    if (answer.result && !answer.result.isError) out.push(server.paths[i]);
  }
  await raw(server.port, { method: 'DELETE', headers });
  return out;
}

/**
 * The table of one vault: read_note and search at each session count, each cell driven for
 * `durationS`, or, with `searchPasses`, the search cells until every session has sent the
 * query mix that many times on average (a fixed count of calls, however long they take: at
 * 100k notes a search under 8 sessions can take longer than a whole 10 s cell, whose calls
 * still in flight at its end are not counted).
 */
async function vaultTable(
  label: string,
  vault: string,
  queries: string[],
  durationS: number,
  log: Log,
  sessionCounts = SESSION_COUNTS,
  searchPasses?: number,
): Promise<void> {
  const server = await startServerChild(vault);
  try {
    const paths = await readablePaths(server, 100);
    const workloads: Array<[string, ToolCall[], number | undefined]> = [
      ['read_note', paths.map((path) => ({ name: 'read_note', arguments: { path } })), undefined],
      ['search', queries.map((query) => ({ name: 'search', arguments: { query, limit: 10 } })), searchPasses],
    ];
    const searchCell = searchPasses === undefined ? '' : `, search ${searchPasses} × the ${queries.length} queries per session`;
    log(`\n${label}: ${server.paths.length} notes, ${durationS} s per row${searchCell}`);
    log('tool        sessions   calls/s   p50 ms   p99 ms     calls  failed   seconds');
    for (const [tool, calls, passes] of workloads) {
      for (const sessions of sessionCounts) {
        const amount = passes === undefined ? undefined : passes * sessions * calls.length;
        const r: DriveResult = await drive(server.port, server.token, calls, { sessions, durationS, amount });
        log(
          `${tool.padEnd(11)} ${String(sessions).padStart(8)} ${r.callsPerSecond.toFixed(0).padStart(9)} ${ms(r.p50).padStart(8)} ${ms(r.p99).padStart(8)} ${String(r.calls).padStart(9)} ${String(r.failed).padStart(7)} ${r.seconds.toFixed(1).padStart(9)}`,
        );
        const kinds = Object.entries(r.failures).map(([kind, count]) => `${kind} × ${count}`);
        if (kinds.length > 0) log(`            failed: ${kinds.join(', ')}`);
      }
    }
  } finally {
    await server.stop();
  }
}

async function main(argv: string[]): Promise<void> {
  const started = performance.now();
  const options = parseLoadArgs(argv);
  const log: Log = (line) => console.log(line);
  log(
    `Load on the built main.js (server in a child process, autocannon here; ${os.cpus().length} CPU cores shared with everything else on this machine)`,
  );
  const demo = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-load-'));
  try {
    await fsp.cp(DEMO_VAULT, demo, { recursive: true });
    if (options.parts.includes('demo')) await vaultTable('demo vault', demo, DEMO_QUERIES, options.durationS, log);
    if (options.parts.includes('large')) {
      const large = await unpackLargeVault(LARGE_ARCHIVE, log);
      if (large) await vaultTable('14k vault (windows-powershell-docs)', large, LARGE_QUERIES, options.durationS, log);
    }
    if (options.parts.includes('scale')) {
      const vault = await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), 100_000);
      await vaultTable(
        'generated 100k vault (bench query mix and its heavy queries)',
        vault.path,
        [...generatedQueries(), ...heavyQueries()],
        options.durationS,
        log,
        [8],
        2,
      );
    }
    if (options.parts.includes('memory')) {
      const server = await startServerChild(demo);
      try {
        const paths = await readablePaths(server, 20);
        const calls: ToolCall[] = paths.flatMap((path, i) => [
          { name: 'read_note', arguments: { path } },
          { name: 'search', arguments: { query: DEMO_QUERIES[i % DEMO_QUERIES.length], limit: 10 } },
        ]);
        const m = await measureMemory(server, calls, options.memoryCalls, 10, 8);
        log(
          `\nmemory: ${m.samples[m.samples.length - 1].calls} calls (read_note and search alternating, 8 sessions per step, new sessions each step) on the demo vault`,
        );
        log('   calls   heap MB   RSS MB   (server process, after a full GC)');
        for (const s of m.samples)
          log(`${String(s.calls).padStart(8)} ${s.heapMb.toFixed(1).padStart(9)} ${s.rssMb.toFixed(1).padStart(8)}`);
        log(
          `fitted growth after the first step: heap ${m.heapSlope.toFixed(3)} MB, RSS ${m.rssSlope.toFixed(3)} MB per 10,000 calls; ${m.failed} failed calls`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await fsp.rm(demo, { recursive: true, force: true });
  }
  log(`\nload finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
