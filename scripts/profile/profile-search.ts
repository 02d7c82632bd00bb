/**
 * `node scripts/profile-search.mjs [notes | large]`: where a search's time and the index's memory go
 * on a generated vault (default 100k notes, reused from the bench's cache), or with `large` on
 * the 14k PowerShell vault with the bench's 14k queries (limit 10, as the bench). Boots src/main in
 * the host (not main.js, so the CPU profile names our functions), then prints
 * - per query: matches, in-process search time split into engine (ranking/filter) and page
 *   (snippets, sections), and the HTTP time;
 * - the functions with the most self time in a CPU profile of the HTTP search loop, and those
 *   of the bundle (src/ and libraries) with the most inclusive time (time with the function on the stack, per call);
 * - the bytes of the index's typed arrays (outside the heap), and the retained heap of each
 *   index structure, by dropping them one at a time after a full GC.
 * Prints figures; asserts nothing. Not part of `npm run bench` (it is destructive and slow).
 */
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { generateVault, generatedQueries, heavyQueries } from '../bench/generate-vault';
import { LARGE_QUERIES, unpackLargeVault } from '../bench/large-vault';
import { heapMb, memoryMb, ms, percentiles } from '../bench/measure';
import VaultMcpPlugin from '../../src/main';
import { UNRESTRICTED_SCOPE } from '../../src/vault/access/access';
import { parseQuery } from '../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';

type Profile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
};

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

async function main(): Promise<void> {
  provideObsidianModule();
  const large = process.argv[2] === 'large';
  const vault = large
    ? await largeVault()
    : await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), Number(process.argv[2] ?? 100_000));
  const before = heapMb();
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.path, waitForIndex: false });
  const search = (booted.plugin as unknown as { search: SearchIndexInternals }).search;
  await search.whenBuilt();
  console.log(
    `${booted.app.vault.getMarkdownFiles().length} notes${large ? '' : `, ${(vault.bytes / 1e6).toFixed(0)} MB text`}; cold index ${((search.stats.buildMs ?? 0) / 1000).toFixed(1)} s; heap ${before.toFixed(0)} → ${heapMb().toFixed(0)} MB`,
  );
  const client = await connectClient(booted.url, booted.token);
  const queries = large ? LARGE_QUERIES : [...generatedQueries(), ...heavyQueries()];
  const limit = large ? 10 : 20;
  const http = new Map<string, number>();
  for (const q of queries) {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await client.callTool({ name: 'search', arguments: { query: q, limit } });
      runs.push(performance.now() - t);
    }
    http.set(q, percentiles(runs).p50);
  }
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
  await post(session, 'Profiler.start');
  const rounds = large ? 20 : 3;
  const cpu = process.cpuUsage();
  for (let round = 0; round < rounds; round++)
    for (const q of queries) await client.callTool({ name: 'search', arguments: { query: q, limit } });
  const used = process.cpuUsage(cpu);
  const calls = rounds * queries.length;
  const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
  session.disconnect();
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (n === undefined) return;
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const all = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\nCPU profile of ${rounds} rounds of the queries over HTTP (${calls} calls): process CPU ${((used.user + used.system) / 1000 / calls).toFixed(2)} ms per call; ` +
      `${all.toFixed(0)} ms sampled; top self time:`,
  );
  for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${t.toFixed(0).padStart(6)} ms ${((100 * t) / all).toFixed(1).padStart(5)} %  ${name}`);
  console.log('Inclusive time of bundled functions (ms per call):');
  for (const [name, t] of [...inclusive(profile, byId)].sort((a, b) => b[1] - a[1]).slice(0, 60))
    console.log(`  ${(t / calls).toFixed(2).padStart(7)} ms  ${name}`);

  await client.close();
  console.log('query                          matches   engine ms   page ms   HTTP p50 ms');
  for (const q of queries) {
    const engineMs: number[] = [];
    const totalMs: number[] = [];
    let total = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = await search.engine.match(
        parseQuery(q),
        (path) => readNote(booted.app, path),
        { key: 'all', allow: () => true },
        new RegexGuard(),
        limit,
      );
      engineMs.push(performance.now() - t0);
      total = r.total;
      const t1 = performance.now();
      await search.search(q, UNRESTRICTED_SCOPE, { limit });
      totalMs.push(performance.now() - t1);
    }
    const e = percentiles(engineMs).p50;
    const t = percentiles(totalMs).p50;
    console.log(
      `${q.padEnd(30)} ${String(total).padStart(8)} ${ms(e).padStart(11)} ${ms(Math.max(0, t - e)).padStart(9)} ${ms(http.get(q) ?? 0).padStart(13)}`,
    );
  }
  const engine = search.engine as unknown as EngineInternals;
  const index = engine.index;
  const f = search.engine.footprint();
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
  console.log(
    `\nIndex typed arrays (outside the heap; ArrayBuffers in all ${mb(process.memoryUsage().arrayBuffers)} MB): postings ${mb(f.postings)} MB allocated ` +
      `(${mb(f.postingsUsed)} MB used), per-note term lists ${mb(f.docTerms)} MB, per-note lengths and scratch ${mb(f.perDoc)} MB; ${f.terms} terms`,
  );
  const drops: [string, () => void][] = [
    [
      'note records (records map, byDoc, titles)',
      () => {
        engine.records.clear();
        engine.byDoc = [];
        engine.titles = [];
        engine.docs.clear();
      },
    ],
    [
      'views, score scratch, stem groups',
      () => {
        engine.views.clear();
        index.stamps = new Uint32Array(0);
        index.counts = new Uint32Array(0);
        index.seen = new Uint32Array(0);
        (index as unknown as { stems: unknown }).stems = null;
      },
    ],
    ['per-note term lists (docTerms)', () => ((index as unknown as { docTerms: unknown }).docTerms = null)],
    [
      'posting lists',
      () => {
        index.post = [];
        index.postLen = [];
      },
    ],
    [
      'doc keys and field lengths',
      () => {
        index.docKey = [];
        index.fieldLen = new Uint32Array(0);
      },
    ],
    ['term dictionary', () => ((index as unknown as { dict: unknown }).dict = null)],
  ];
  console.log('Retained memory by structure (dropped one after another, full GC between): heap MB + ArrayBuffer MB');
  let last = memoryMb();
  for (const [name, drop] of drops) {
    drop();
    const now = memoryMb();
    console.log(`  ${(last.heap - now.heap).toFixed(0).padStart(6)} + ${(last.arrays - now.arrays).toFixed(0).padStart(4)}  ${name}`);
    last = now;
  }
  console.log(
    `  ${(last.heap - before).toFixed(0).padStart(6)} MB heap left above the pre-boot heap (host: vault, text cache, metadata cache; plugin shell)`,
  );
  await booted.stop();
}

/**
 * Time each bundled function (src/ and its libraries, by name and bundle line) spent on the
 * stack (its own and its callees'), ms; a function on the stack twice in one sample
 * (recursion) counts once.
 */
function inclusive(profile: Profile, byId: Map<number, Profile['nodes'][number]>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)?.callFrame;
      if (f === undefined || !f.url.endsWith('profile-search.cjs')) continue;
      seen.add(`${f.functionName || '(anonymous)'} :${f.lineNumber + 1}`);
    }
    for (const name of seen) out.set(name, (out.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}

/** The 14k PowerShell vault as the bench unpacks it; exits when absent. */
async function largeVault(): Promise<{ path: string; notes: number; bytes: number }> {
  const path = await unpackLargeVault(nodePath.resolve('../shared/vaults/windows-powershell-docs.tar.zst'), console.log);
  if (path === null) process.exit(0);
  return { path, notes: 0, bytes: 0 };
}

/** A note's text as the plugin reads it (the host's cached read). */
function readNote(
  app: { vault: { getFileByPath(path: string): unknown; cachedRead(file: never): Promise<string> } },
  path: string,
): Promise<string> {
  const file = app.vault.getFileByPath(path);
  return file === null ? Promise.reject(new Error(`${path} is gone`)) : app.vault.cachedRead(file as never);
}

interface SearchIndexInternals {
  engine: import('../../src/search/engine/lexical-engine').LexicalEngine;
  stats: { buildMs: number | null };
  whenBuilt(): Promise<void>;
  search(q: string, scope: typeof UNRESTRICTED_SCOPE, options: { limit: number }): Promise<unknown>;
}

interface EngineInternals {
  index: {
    post: (Uint32Array | null)[];
    postLen: number[];
    docKey: (string | null)[];
    fieldLen: Uint32Array;
    stamps: Uint32Array;
    counts: Uint32Array;
    seen: Uint32Array;
  };
  records: Map<string, unknown>;
  byDoc: unknown[];
  titles: unknown[];
  docs: Map<string, number>;
  views: Map<string, unknown>;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
