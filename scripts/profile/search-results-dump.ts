/**
 * `node scripts/search-results-dump.mjs <notes | large> <out-file>`: the search tool's whole
 * result (the JSON of `CallToolResult`: text content and structuredContent) for the bench's
 * queries on the generated vault (`notes` notes, the bench's cache) or the 14k PowerShell vault
 * (`large`), one line per call, with several argument sets per query (default page, 100 hits,
 * `fields: "metadata"`, lexical mode, the second page). Run it on two commits and `cmp` the files:
 * a change to the result page must leave them byte-identical. Not part of `npm run bench`.
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { generateVault, generatedQueries, heavyQueries } from '../bench/generate-vault';
import { LARGE_QUERIES, unpackLargeVault } from '../bench/large-vault';
import VaultMcpPlugin from '../../src/main';

async function main(): Promise<void> {
  provideObsidianModule();
  const [which, out] = process.argv.slice(2);
  if (which === undefined || out === undefined) throw new Error('usage: search-results-dump.mjs <notes | large> <out-file>');
  const large = which === 'large';
  const vaultPath = large
    ? await unpackLargeVault(nodePath.resolve('../shared/vaults/windows-powershell-docs.tar.zst'), console.log)
    : (await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), Number(which))).path;
  if (vaultPath === null) return;
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath, waitForIndex: true });
  const client = await connectClient(booted.url, booted.token);
  const words = large ? ['Get-Process', 'the', 'remove item', '"set-location"', 'path:about', 'tag:#powershell', '/Get-\\w+Item/'] : [];
  const queries = [...(large ? LARGE_QUERIES : [...generatedQueries(), ...heavyQueries()]), ...words];
  const lines: string[] = [];
  for (const query of queries) {
    const variants: Record<string, unknown>[] = [{}, { limit: 100 }, { fields: 'metadata' }, { mode: 'lexical', limit: 20 }];
    for (const extra of variants) {
      const result = await client.callTool({ name: 'search', arguments: { query, ...extra } });
      lines.push(JSON.stringify({ query, extra, result }));
      const cursor = (result.structuredContent as { next_cursor?: string } | undefined)?.next_cursor;
      if (cursor !== undefined && Object.keys(extra).length === 0) {
        const next = await client.callTool({ name: 'search', arguments: { query, cursor } });
        lines.push(JSON.stringify({ query, extra: { page: 2 }, result: next }));
      }
    }
  }
  writeFileSync(out, lines.join('\n') + '\n');
  console.log(`${lines.length} results written to ${out}`);
  await client.close();
  await booted.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
