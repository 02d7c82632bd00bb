/**
 * The peer MCP server `@bitbonsai/mcpvault` measured side by side with ours: installed at
 * bench time into a cache folder under the temp dir (never a dependency of this project),
 * started over stdio with the official SDK client (StdioClientTransport), and its search
 * tool (`search_notes`, found in tools/list) timed over the same queries as ours.
 */
import { execFile } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ms, percentiles, type Log } from './measure';

/** The peer's npm name and the version this bench was written against (its tool names and arguments). */
export const PEER_PACKAGE = '@bitbonsai/mcpvault';
export const PEER_VERSION = '0.16.0';
/** Results asked of both servers per search (the peer caps `limit` at 20; ours defaults to 10). */
export const COMPARE_LIMIT = 10;

const run = promisify(execFile);

/**
 * Installs the peer with npm into `cacheDir` (once; reused while its package.json there says
 * PEER_VERSION) and returns the path of its stdio entry (the package's `bin`).
 * @throws Error with npm's first stderr line when the install fails (offline, registry down).
 */
export async function installPeer(cacheDir = nodePath.join(os.tmpdir(), 'vault-mcp-bench-peer')): Promise<string> {
  const pkgDir = nodePath.join(cacheDir, 'node_modules', ...PEER_PACKAGE.split('/'));
  const installed = async (): Promise<boolean> =>
    existsSync(nodePath.join(pkgDir, 'package.json')) &&
    (JSON.parse(await fsp.readFile(nodePath.join(pkgDir, 'package.json'), 'utf8')) as { version?: string }).version === PEER_VERSION;
  if (!(await installed())) {
    await fsp.mkdir(cacheDir, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    try {
      await run(npm, ['install', '--prefix', cacheDir, `${PEER_PACKAGE}@${PEER_VERSION}`, '--no-audit', '--no-fund'], { timeout: 180_000 });
    } catch (error) {
      const detail = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n')[0];
      throw new Error(`npm install ${PEER_PACKAGE}@${PEER_VERSION} failed: ${detail}`);
    }
  }
  const manifest = JSON.parse(await fsp.readFile(nodePath.join(pkgDir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin ? Object.values(manifest.bin)[0] : undefined;
  if (!bin) throw new Error(`${PEER_PACKAGE}@${PEER_VERSION} has no "bin" entry to start`);
  return nodePath.join(pkgDir, bin);
}

/** What the peer's search measured: time from spawn to its first search answer, and per-call samples (ms). */
export interface PeerSearchResult {
  tool: string;
  startToFirstAnswerMs: number;
  samples: number[];
  errors: number;
}

/** How long to measure the peer: at most `rounds` passes over the queries, and no new pass once `budgetMs` has passed. */
export interface PeerBudget {
  rounds: number;
  budgetMs: number;
}

/**
 * Starts the peer's stdio entry `entry` on `vault` (node, as its bin), connects the SDK client,
 * finds its search tool in tools/list and times `search_notes({query, limit})` over `queries`.
 * The first pass's first call is also the "time to first answer" (from spawn).
 * @throws Error when the process does not start, the handshake fails or no search tool is listed.
 */
export async function benchPeerSearch(entry: string, vault: string, queries: string[], budget: PeerBudget): Promise<PeerSearchResult> {
  const spawnAt = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry, vault], stderr: 'pipe', cwd: vault });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const client = new Client({ name: 'vault-mcp-bench', version: '1.0.0' });
  try {
    try {
      await client.connect(transport);
    } catch (error) {
      // Let the dying process's last stderr chunk arrive before reading the reason from it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = stderr.trim().split('\n');
      const reason = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.pop();
      throw new Error(`cannot start ${entry}: ${(error as Error).message}${reason ? ` (${reason.trim()})` : ''}`);
    }
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'search_notes') ?? tools.find((t) => /search/i.test(t.name));
    if (!tool) throw new Error(`no search tool in tools/list (${tools.map((t) => t.name).join(', ')})`);
    const samples: number[] = [];
    let errors = 0;
    let startToFirstAnswerMs = NaN;
    const started = performance.now();
    for (let round = 0; round < budget.rounds && (round === 0 || performance.now() - started < budget.budgetMs); round++) {
      for (const query of queries) {
        const at = performance.now();
        const result = await client.callTool({ name: tool.name, arguments: { query, limit: COMPARE_LIMIT } }, undefined, {
          timeout: 600_000,
        });
        const done = performance.now();
        if (Number.isNaN(startToFirstAnswerMs)) startToFirstAnswerMs = done - spawnAt;
        if (result.isError) errors++;
        samples.push(done - at);
      }
    }
    return { tool: tool.name, startToFirstAnswerMs, samples, errors };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Our side of the comparison: time from the server listening to the first search answer (and whether it was partial), and per-call samples (ms). */
export interface OurSearchFigures {
  startToFirstAnswerMs: number;
  firstAnswerNote: string;
  samples: number[];
}

/**
 * Installs and runs the peer on `vault`, then prints ours and the peer's search figures side
 * by side with the ratio peer/ours (how many times faster ours is). When the install, start
 * or search fails, prints "peer skipped: <reason>" and returns without throwing.
 */
export async function comparePeer(
  label: string,
  vault: string,
  queries: string[],
  ours: OurSearchFigures,
  budget: PeerBudget,
  log: Log,
): Promise<void> {
  let peer: PeerSearchResult;
  try {
    const entry = await installPeer();
    peer = await benchPeerSearch(entry, vault, queries, budget);
  } catch (error) {
    log(`  peer skipped: ${(error as Error).message}`);
    return;
  }
  const o = percentiles(ours.samples);
  const p = percentiles(peer.samples);
  log(
    `  ${label}: ours vs ${PEER_PACKAGE}@${PEER_VERSION} (\`${peer.tool}\`), same vault copy, same ${queries.length} queries, limit ${COMPARE_LIMIT}`,
  );
  log('                                  ours        peer    peer/ours');
  const row = (name: string, a: number, b: number): void =>
    log(`  ${name.padEnd(30)} ${ms(a).padStart(8)} ${ms(b).padStart(11)} ${(b / a).toFixed(1).padStart(11)}×`);
  row('search p50 ms', o.p50, p.p50);
  row('search p95 ms', o.p95, p.p95);
  row('start → first answer ms', ours.startToFirstAnswerMs, peer.startToFirstAnswerMs);
  log(
    `  (ours: ${o.count} calls over HTTP; start = server listening, the host's own vault load excluded; first answer ${ours.firstAnswerNote})`,
  );
  log(`  (peer: ${p.count} calls over stdio${peer.errors ? `, ${peer.errors} returned isError` : ''}; start = process spawn)`);
}
