/**
 * `npm run bench`: measures what an agent waits for on a real vault
 * (../shared/vaults/obsidian-help-en, copied to a temp folder): index build, `search`,
 * `read_note` (whole note, section, outline) over MCP through the official SDK client on
 * real HTTP, with the built main.js running in the host. Prints medians, p95 and ratios.
 */
import { promises as fsp, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as O from 'obsidian';
import { provideObsidianModule } from './obsidian-module';
import { bootPlugin, connectClient, type BootablePlugin } from '../test/harness/boot-plugin';

const VAULT = nodePath.resolve(__dirname, '../../shared/vaults/obsidian-help-en');
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
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
