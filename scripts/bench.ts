/**
 * `npm run bench`: measures what an agent waits for on a real vault
 * (../shared/vaults/obsidian-help-en, copied to a temp folder): index build, `search`,
 * `read_note` (whole note, section, outline) over MCP through the official SDK client on
 * real HTTP, with the built main.js running in the host. Prints medians, p95 and ratios.
 * Then, unless `--quick`, the same plugin on the 14k-note vault
 * (../shared/vaults/windows-powershell-docs.tar.zst, unpacked once into a temp cache):
 * time to first answer, cold build, warm start from the saved index, longest build slice,
 * heap, and p50 of search and the list tools.
 */
import { execFileSync } from 'node:child_process';
import { promises as fsp, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type * as O from 'obsidian';
import { provideObsidianModule } from './obsidian-module';
import { bootPlugin, connectClient, type BootablePlugin } from '../test/harness/boot-plugin';

const VAULT = nodePath.resolve(__dirname, '../../shared/vaults/obsidian-help-en');
const LARGE_ARCHIVE = nodePath.resolve(__dirname, '../../shared/vaults/windows-powershell-docs.tar.zst');
const LARGE_QUERIES = ['Get-Process', 'remote session', 'Get-ChildItem', 'computer', 'certificate store', '"execution policy"', 'firewall rule', 'registry key'];
const QUERIES = ['canvas', 'sync', '"daily notes"', 'tag:#x OR plugin', 'link -embed', 'path:Plugins template', 'publish', 'graph view', 'hotkey', 'frontmatter properties'];

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] };
}

async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return out;
}

async function main(): Promise<void> {
  if (!existsSync(VAULT)) {
    console.log(`Skipping benchmark: ${VAULT} is absent.`);
    return;
  }
  provideObsidianModule();
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-bench-'));
  await fsp.cp(VAULT, dir, { recursive: true });
  const PluginClass = (require(nodePath.resolve(__dirname, '../main.js')) as { default: new (a: O.App, m: O.PluginManifest) => BootablePlugin }).default;
  const bootStart = performance.now();
  const booted = await bootPlugin(PluginClass, { vaultPath: dir });
  const client = await connectClient(booted.url, booted.token);
  const indexStart = performance.now();
  await client.callTool({ name: 'search', arguments: { query: 'canvas' } });
  const firstSearch = performance.now() - indexStart;
  const notes = booted.app.vault.getMarkdownFiles();
  console.log(`obsidian-help-en: ${notes.length} notes; plugin loaded and listening in ${(indexStart - bootStart).toFixed(0)} ms; first search (waits for the index) ${firstSearch.toFixed(0)} ms`);

  const searchSamples = await time(async () => {
    for (const query of QUERIES) await client.callTool({ name: 'search', arguments: { query } });
  }, 10);
  const perSearch = searchSamples.map((s) => s / QUERIES.length);
  const paths = notes.slice(0, 40).map((f) => f.path);
  const readSamples = await time(async () => {
    for (const path of paths) await client.callTool({ name: 'read_note', arguments: { path } });
  }, 5);
  const perRead = readSamples.map((s) => s / paths.length);
  const outlineSamples = await time(async () => {
    for (const path of paths) await client.callTool({ name: 'read_note', arguments: { path, outline: true } });
  }, 5);
  const perOutline = outlineSamples.map((s) => s / paths.length);
  const pingSamples = await time(() => client.ping(), 200);

  const rows: Array<[string, number[]]> = [
    ['ping (HTTP + session round trip)', pingSamples],
    ['search (mean over 10 queries)', perSearch],
    ['read_note whole note', perRead],
    ['read_note outline', perOutline],
  ];
  const ping = stats(pingSamples).median;
  console.log('operation                          median ms   p95 ms   × ping');
  for (const [name, samples] of rows) {
    const s = stats(samples);
    console.log(`${name.padEnd(34)} ${s.median.toFixed(2).padStart(9)} ${s.p95.toFixed(2).padStart(8)} ${(s.median / ping).toFixed(1).padStart(8)}`);
  }
  console.log(`search / read_note ratio: ${(stats(perSearch).median / stats(perRead).median).toFixed(1)}`);
  await client.close();
  await booted.stop();
  await fsp.rm(dir, { recursive: true, force: true });
  if (!process.argv.includes('--quick')) await largeVault();
}

/** The 14k-note vault unpacked into a cache folder under the temp dir (once); null when the archive is absent or tar fails. */
async function unpackLargeVault(): Promise<string | null> {
  if (!existsSync(LARGE_ARCHIVE)) {
    console.log(`Skipping the large-vault benchmark: ${LARGE_ARCHIVE} is absent.`);
    return null;
  }
  const cache = nodePath.join(os.tmpdir(), 'vault-mcp-bench-large');
  const vault = nodePath.join(cache, 'windows-powershell-docs');
  if (!existsSync(vault)) {
    await fsp.mkdir(cache, { recursive: true });
    try {
      execFileSync('tar', ['--zstd', '-xf', LARGE_ARCHIVE, '-C', cache]);
    } catch (error) {
      console.log(`Skipping the large-vault benchmark: cannot unpack ${LARGE_ARCHIVE} (${(error as Error).message.split('\n')[0]}).`);
      return null;
    }
  }
  await fsp.rm(nodePath.join(vault, '.obsidian'), { recursive: true, force: true });
  return vault;
}

/** Heap in use after a full GC, MB (the GC is reached through V8's flag, as `node --expose-gc` would). */
function heapMb(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed / 1e6;
}

interface IndexView {
  stats: { indexed: number; total: number; buildMs: number | null; longestSliceMs: number; warm: boolean; reindexed: number; saveMs: number | null };
  whenBuilt(): Promise<void>;
}

async function largeVault(): Promise<void> {
  const vault = await unpackLargeVault();
  if (vault === null) return;
  const PluginClass = (require(nodePath.resolve(__dirname, '../main.js')) as { default: new (a: O.App, m: O.PluginManifest) => BootablePlugin }).default;
  for (const round of ['cold', 'warm'] as const) {
    const bootStart = performance.now();
    const booted = await bootPlugin(PluginClass, { vaultPath: vault, waitForIndex: false, persistIndex: true });
    const listening = performance.now();
    const hostHeap = heapMb();
    const index = (booted.plugin as unknown as { search: IndexView }).search;
    const client = await connectClient(booted.url, booted.token);
    const first = await client.callTool({ name: 'search', arguments: { query: 'Get-Process' } });
    const firstAnswer = performance.now() - listening;
    const progress = (first.structuredContent as { index?: { indexed: number; total: number } }).index;
    await index.whenBuilt();
    const s = index.stats;
    const notes = booted.app.vault.getMarkdownFiles().length;
    console.log(`\n14k vault (${notes} notes), ${round} start: host loaded and plugin listening in ${(listening - bootStart).toFixed(0)} ms`);
    console.log(`  first search answered ${firstAnswer.toFixed(0)} ms after listening${progress ? ` (partial: ${progress.indexed} of ${progress.total} notes indexed)` : ''}`);
    console.log(`  index ${round === 'warm' ? `loaded from the saved file, ${s.reindexed} notes reindexed` : 'built'} in ${(s.buildMs ?? NaN).toFixed(0)} ms; longest build slice ${s.longestSliceMs.toFixed(1)} ms; save ${s.saveMs === null ? 'skipped (nothing changed)' : `${s.saveMs.toFixed(0)} ms`}`);
    console.log(`  heap: host + idle plugin ${hostHeap.toFixed(0)} MB, after indexing ${heapMb().toFixed(0)} MB`);
    const file = booted.app.vault.getMarkdownFiles()[500].path;
    const rows: Array<[string, string, Record<string, unknown>]> = [
      ...LARGE_QUERIES.map((query): [string, string, Record<string, unknown>] => [`search ${query}`, 'search', { query }]),
      ['read_note', 'read_note', { path: file }],
      ['list_notes (limit 200)', 'list_notes', { limit: 200 }],
      ['list_tags', 'list_tags', {}],
      ['list_folders', 'list_folders', {}],
      ['get_links', 'get_links', { path: file }],
    ];
    console.log('  call                              p50 ms   p95 ms');
    for (const [label, name, args] of rows) {
      const samples = await time(() => client.callTool({ name, arguments: args }), 9);
      const st = stats(samples);
      console.log(`  ${label.padEnd(32)} ${st.median.toFixed(1).padStart(7)} ${st.p95.toFixed(1).padStart(8)}`);
    }
    await client.close();
    await booted.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
