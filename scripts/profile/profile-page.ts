/**
 * `node scripts/profile-page.mjs [notes | large]`: where a search call's time goes beyond the
 * engine, stage by stage, on the generated vault (default 100k notes, the bench's cache) or
 * with `large` on the 14k PowerShell vault, at the bench's page size (10 hits). Per query, the
 * p50 over interleaved runs of:
 * - engine: `LexicalEngine.match` (ranking, filters);
 * - page parts, summed over the page's hits: reading the note (the access lookup and the
 *   host's cached read), the outline (sections from the metadata cache), placing the snippet
 *   (matches in the body, best section), the snippet's text (display text, highlights);
 * - search: `SearchIndex.search` (engine and page);
 * - tool: the search tool's handler (compact hits) and `callTool` (argument check, handler, the
 *   result's JSON text); the JSON of the result alone; the SDK's zod check of a tools/call result;
 * - HTTP raw: one tools/call POST read as text with fetch (our door, the SDK server, the
 *   transport), and the SDK client's `callTool` (the same plus the client's parsing and checks).
 * Prints figures; asserts nothing. Not part of `npm run bench`.
 */
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { generateVault, generatedQueries, heavyQueries } from '../bench/generate-vault';
import { LARGE_QUERIES, unpackLargeVault } from '../bench/large-vault';
import { percentiles } from '../bench/measure';
import VaultMcpPlugin from '../../src/main';
import { parseQuery } from '../../src/search/query/parser/query-parser';
import { positiveLeaves } from '../../src/search/query/query-eval';
import { RegexGuard } from '../../src/search/query/regex-guard';
import { placeSnippet, SNIPPET_WIDTH, snippetText } from '../../src/search/results/snippet';
import { searchTool } from '../../src/tools/read/search';
import { callTool } from '../../src/server/session/tool-dispatch';
import type { ToolContext } from '../../src/tools/tool';
import type { NoteStore } from '../../src/vault/note-store';
import type { LexicalEngine } from '../../src/search/engine/lexical-engine';
import type { SearchIndex } from '../../src/search/search-index';

const LIMIT = 10;
const RUNS = 15;

async function main(): Promise<void> {
  provideObsidianModule();
  const large = process.argv[2] === 'large';
  const vaultPath = large
    ? await unpackLargeVault(nodePath.resolve('../shared/vaults/windows-powershell-docs.tar.zst'), console.log)
    : (await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), Number(process.argv[2] ?? 100_000))).path;
  if (vaultPath === null) return;
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath, waitForIndex: false });
  const plugin = booted.plugin as unknown as { search: SearchIndex; notes: NoteStore };
  await plugin.search.whenBuilt();
  const engine = (plugin.search as unknown as { engine: LexicalEngine }).engine;
  const notes = plugin.notes;
  const client = await connectClient(booted.url, booted.token);
  const sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
  const version = (client.transport as unknown as { protocolVersion?: string }).protocolVersion ?? '2025-11-25';
  const scope = { label: booted.key.label, roots: [], actor: { keyId: booted.key.id } };
  const ctx = { notes, search: plugin.search, semantic: null, scope } as unknown as ToolContext;
  const queries = large ? LARGE_QUERIES : [...generatedQueries(), ...heavyQueries()];
  console.log(
    `${booted.app.vault.getMarkdownFiles().length} notes; limit ${LIMIT}; p50 of ${RUNS} runs, ms; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const columns = ['engine', 'read', 'outline', 'place', 'snippet', 'search', 'handler', 'callTool', 'json', 'zod', 'raw HTTP', 'client'];
  console.log(`${'query'.padEnd(30)} ${columns.map((c) => c.padStart(9)).join('')}  bytes`);
  let rpcId = 1000;
  const cpu = process.cpuUsage();
  for (const query of queries) {
    const t = new Map<string, number[]>(columns.map((c) => [c, []]));
    let bytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const ast = parseQuery(query);
      let t0 = performance.now();
      const { matches } = await engine.match(
        ast,
        (path) => notes.readRaw(notes.fileByPath(path)!),
        { key: 'profile', allow: () => true },
        new RegexGuard(),
        LIMIT,
      );
      t.get('engine')!.push(performance.now() - t0);
      const leaves = positiveLeaves(ast);
      const parts = { read: 0, outline: 0, place: 0, snippet: 0 };
      for (const m of matches.slice(0, LIMIT)) {
        let a = performance.now();
        const file = notes.fileByPath(m.note.path)!;
        const text = m.text ?? (await notes.readRaw(file));
        let b = performance.now();
        parts.read += b - a;
        a = b;
        const outline = notes.outline(file, text);
        b = performance.now();
        parts.outline += b - a;
        a = b;
        const place = placeSnippet(text, leaves, m.terms, new RegexGuard(), outline);
        b = performance.now();
        parts.place += b - a;
        a = b;
        snippetText(text.slice(place.bodyAt), place.spans, place.anchor, SNIPPET_WIDTH);
        parts.snippet += performance.now() - a;
      }
      for (const [k, v] of Object.entries(parts)) t.get(k)!.push(v);
      t0 = performance.now();
      await plugin.search.search(query, scope, { limit: LIMIT });
      t.get('search')!.push(performance.now() - t0);
      t0 = performance.now();
      const result = await searchTool.handler({ query, limit: LIMIT }, ctx);
      t.get('handler')!.push(performance.now() - t0);
      t0 = performance.now();
      const called = await callTool([searchTool], 'search', { query, limit: LIMIT }, ctx);
      t.get('callTool')!.push(performance.now() - t0);
      t0 = performance.now();
      const json = JSON.stringify(result);
      t.get('json')!.push(performance.now() - t0);
      bytes = json.length;
      t0 = performance.now();
      CallToolResultSchema.parse(called);
      t.get('zod')!.push(performance.now() - t0);
      t0 = performance.now();
      const response = await fetch(booted.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${booted.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': version,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method: 'tools/call', params: { name: 'search', arguments: { query } } }),
      });
      await response.text();
      t.get('raw HTTP')!.push(performance.now() - t0);
      t0 = performance.now();
      await client.callTool({ name: 'search', arguments: { query } });
      t.get('client')!.push(performance.now() - t0);
    }
    console.log(`${query.padEnd(30)} ${columns.map((c) => percentiles(t.get(c)!).p50.toFixed(2).padStart(9)).join('')}  ${bytes}`);
  }
  const used = process.cpuUsage(cpu);
  console.log(`process CPU ${((used.user + used.system) / 1000).toFixed(0)} ms for ${queries.length * RUNS} rounds`);
  await client.close();
  await booted.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
