/**
 * `node scripts/search-passes.mjs --url <MCP endpoint> --token <bearer token> [--runs N]`: the
 * scaling row's timed searches against a Vault MCP server that is already running, wherever it runs:
 * inside Obsidian desktop, over the bench's generated vault opened there, which is where issue 20's
 * search targets finally hold or not (the bench's rows run the plugin in Node, whose V8 is not
 * Electron's). The official SDK client connects over HTTP, lists the tools, then times `search` at
 * the client as a row does: the bench's query mix, each query `runs` times (default 5), then the
 * heavy queries; a first pass, then the same again. Prints p50 / p95 of each pass beside issue 20's
 * bounds (scaling-targets.ts). The queries are the generated vault's words (generate-vault.ts): run it
 * over that vault, which `npm run bench -- --only scale --scale 100000 --rows generated` writes to
 * `vault-mcp-bench-generated/generated-100000-s1` under the system's temporary folder (a note is
 * printed when the first query finds nothing). Prints figures; asserts nothing; changes no note.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../../test/harness/server/connect-client';
import { generatedQueries, heavyQueries } from './generate-vault';
import { ms, percentiles, timeRuns } from './measure';
import { TARGETS_AT_100K } from './scaling/scaling-targets';
import { searchPassesFlags, type SearchPassesFlags } from './search-passes-flags';

/** One pass: each query `runs` times, the mix then the heavy queries. @returns the samples, ms */
async function pass(client: Client, runs: number): Promise<{ mix: number[]; heavy: number[] }> {
  const run = async (queries: string[]): Promise<number[]> => {
    const out: number[] = [];
    for (const query of queries) out.push(...(await timeRuns(() => client.callTool({ name: 'search', arguments: { query } }), runs)));
    return out;
  };
  return { mix: await run(generatedQueries()), heavy: await run(heavyQueries()) };
}

/** `value` against `bound`: ✓ when at most it, ✗ when over. */
function marked(value: number, bound: number | undefined): string {
  return `${ms(value)}${bound === undefined ? '' : value <= bound ? ' ✓' : ' ✗'}`;
}

async function main(): Promise<void> {
  let options: SearchPassesFlags;
  try {
    options = searchPassesFlags(process.argv.slice(2));
  } catch (error) {
    console.error(`search-passes: ${(error as Error).message}`);
    console.error('usage: node scripts/search-passes.mjs --url <MCP endpoint> --token <bearer token> [--runs N]');
    process.exit(2);
  }
  const client = await connectClient(options.url.href, options.token, 'vault-mcp-search-passes').catch((error: unknown) => {
    console.error(`search-passes: could not connect to ${options.url.href}: ${(error as Error).message}`);
    process.exit(1);
  });
  try {
    const { tools } = await client.listTools();
    if (!tools.some((t) => t.name === 'search')) throw new Error('the server lists no `search` tool for this key');
    const probe = (await client.callTool({ name: 'search', arguments: { query: generatedQueries()[0], limit: 1 } })) as {
      isError?: boolean;
      structuredContent?: { total?: number };
    };
    if (probe.isError === true || (probe.structuredContent?.total ?? 0) === 0) {
      console.log(
        `note: "${generatedQueries()[0]}" found nothing: the figures below are of another vault than the bench's generated one (vault-mcp-bench-generated/generated-<notes>-s1 under the temporary folder).`,
      );
    }
    const t = TARGETS_AT_100K;
    console.log(
      `${tools.length} tools; each query ${options.runs} times a pass, timed at this client (ms); issue 20's bounds at 100k marked`,
    );
    for (const name of ['first pass', 'again']) {
      const { mix, heavy } = await pass(client, options.runs);
      const [m, h] = [percentiles(mix), percentiles(heavy)];
      console.log(
        `  ${name.padEnd(11)} search p50 / p95 ${marked(m.p50, t.searchP50)} / ${marked(m.p95, t.searchP95)}, ` +
          `heavy ${marked(h.p50, t.heavyP50)} / ${marked(h.p95, t.heavyP95)}; first call ${ms(mix[0])}`,
      );
    }
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(`search-passes: ${(error as Error).message}`);
  process.exit(1);
});
