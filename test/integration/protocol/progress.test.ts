import { mkdir, writeFile } from 'node:fs/promises';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { SEARCH_PROGRESS_STEP } from '../../../src/tools/read/search';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { messagesOf, raw } from '../../harness/server/raw-http';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

/** Notes added to the demo vault so a regex search reads enough texts to report progress. */
const BULK_NOTES = 100;

/**
 * Progress notifications (MCP spec "Progress") where a call waits — a search that reads note
 * texts (regex, phrases) and read_notes — over real HTTP in both eras: the v2 client at
 * 2026-07-28 and the 1.x client in a 2025-11-25 session, each with `onprogress` (the SDK then
 * sends its own token and routes only notifications carrying it back), and raw stateless
 * requests whose token must come back with the exact value and type.
 */
describe('progress notifications', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin>;

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    await mkdir(`${copy.dir}/Bulk`, { recursive: true });
    for (let i = 0; i < BULK_NOTES; i++)
      await writeFile(`${copy.dir}/Bulk/Batch ${i}.md`, `# Batch ${i}\n\nThe levain-${i} rose overnight.\n`);
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      mode: 'propose',
      label: 'Progress',
      token: 'progress-test-token-0123456789ab',
    });
  });
  afterAll(async () => {
    await booted.stop();
    await copy.cleanup();
  });

  type Progress = { progress: number; total?: number; message?: string };

  async function modernClient(): Promise<ModernClient> {
    const client = new ModernClient({ name: 'progress-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new ModernTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    return client;
  }

  /** One call through either client with `onprogress`, returning the reports and the result. */
  async function withProgress(
    call: (onprogress: (p: Progress) => void) => Promise<unknown>,
  ): Promise<{ reports: Progress[]; result: { isError?: boolean; structuredContent?: Record<string, unknown> } }> {
    const reports: Progress[] = [];
    const result = (await call((p) => reports.push(p))) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    return { reports, result };
  }

  /** Checks the reports of a regex search over the bulk notes: growing counts, one per step. */
  function expectSearchProgress(reports: Progress[], result: { isError?: boolean; structuredContent?: Record<string, unknown> }): void {
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.total).toBe(BULK_NOTES);
    // The regex is tested on every readable note: the bulk notes and the demo vault's own.
    expect(reports.length).toBeGreaterThanOrEqual(Math.floor(BULK_NOTES / SEARCH_PROGRESS_STEP));
    expect(reports.map((r) => r.progress)).toEqual(reports.map((_, i) => (i + 1) * SEARCH_PROGRESS_STEP));
    expect(reports.every((r) => r.total === undefined && /checked the text of \d+ notes/.test(r.message ?? ''))).toBe(true);
  }

  const REGEX_SEARCH = { name: 'search', arguments: { query: 'levain-\\d+', regex: true, mode: 'lexical', limit: 5 } };
  const READ_NOTES = { name: 'read_notes', arguments: { paths: ['Home.md', 'Inbox.md', 'Ideas.md', 'Bulk/Batch 1.md'] } };

  it('2026-07-28: a regex search reading note texts reports progress to the v2 client', async () => {
    const client = await modernClient();
    const { reports, result } = await withProgress((onprogress) => client.callTool(REGEX_SEARCH, { onprogress }));
    expectSearchProgress(reports, result);
    await client.close();
  });

  it('2026-07-28: read_notes reports one step per note read, up to the total', async () => {
    const client = await modernClient();
    const { reports } = await withProgress((onprogress) => client.callTool(READ_NOTES, { onprogress }));
    expect(reports.map((r) => [r.progress, r.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    await client.close();
  });

  it('2025-11-25: the 1.x client gets the same progress in a session', async () => {
    const client: LegacyClient = await connectClient(booted.url, booted.token);
    const search = await withProgress((onprogress) => client.callTool(REGEX_SEARCH, undefined, { onprogress }));
    expectSearchProgress(search.reports, search.result);
    const read = await withProgress((onprogress) => client.callTool(READ_NOTES, undefined, { onprogress }));
    expect(read.reports.map((r) => r.progress)).toEqual([1, 2, 3, 4]);
    await client.close();
  });

  it('a search that reads no note text (plain words, answered from the index) sends none, even with a token', async () => {
    const client = await modernClient();
    const { reports, result } = await withProgress((onprogress) =>
      client.callTool({ name: 'search', arguments: { query: 'levain', mode: 'lexical' } }, { onprogress }),
    );
    expect(result.isError ?? false).toBe(false);
    expect(reports).toEqual([]);
    await client.close();
  });

  /** A raw stateless 2026-07-28 call of `tool` with `meta` merged into its `_meta`. */
  async function rawModernCall(
    call: { name: string; arguments: Record<string, unknown> },
    meta: Record<string, unknown>,
  ): Promise<Array<{ method?: string; params?: Record<string, unknown>; id?: unknown; result?: unknown }>> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: {
        ...call,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          ...meta,
        },
      },
    });
    const headers = {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': call.name,
      Authorization: `Bearer ${booted.token}`,
    };
    return messagesOf(await raw(booted.port, { headers, body })) as Array<{
      method?: string;
      params?: Record<string, unknown>;
      id?: unknown;
      result?: unknown;
    }>;
  }

  it.each([
    ['a string token', 'tok-α/1'],
    ['a number token', 42],
    ['a zero token', 0],
  ])('2026-07-28 raw: %s comes back with the exact value and type, on every notification before the result', async (_what, token) => {
    const messages = await rawModernCall(REGEX_SEARCH, { progressToken: token });
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThanOrEqual(Math.floor(BULK_NOTES / SEARCH_PROGRESS_STEP));
    expect(progress.every((m) => m.params?.progressToken === token)).toBe(true);
    expect(messages.findIndex((m) => m.id === 9)).toBe(messages.length - 1);
  });

  it('2026-07-28 raw: no progress without a token', async () => {
    const messages = await rawModernCall(REGEX_SEARCH, {});
    expect(messages.filter((m) => m.method === 'notifications/progress')).toEqual([]);
    expect(messages.find((m) => m.id === 9)?.result).toMatchObject({ structuredContent: { total: BULK_NOTES } });
  });
});
