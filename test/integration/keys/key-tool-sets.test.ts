import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { secretIdForKey, type KeyRecord } from '../../../src/settings/key-record';
import { enabledTools } from '../../../src/tools/registry';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';

/**
 * Issue 19 / docs/architecture.md#keys: per-key tool sets over real HTTP with two keys. A key sees,
 * in tools/list, the enabled tools of its set only, and a call of an enabled tool outside it
 * is refused -32602 with a sentence saying why; the other key is unaffected.
 */
describe('per-key tool sets over HTTP, two keys', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  const clients: Client[] = [];
  const READER_TOKEN = 'reader-token-0123456789abcdef';

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-toolsets-'));
    await fsp.writeFile(nodePath.join(dir, 'Ideas.md'), '# Ideas\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, label: 'Writer' });
    const reader: KeyRecord = {
      id: 'reader',
      label: 'Reader',
      mode: 'force',
      scope: 'local',
      roots: [],
      tools: 'read',
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    booted.plugin.settings.keys.push(reader);
    booted.app.secretStorage.setSecret(secretIdForKey(reader.id), READER_TOKEN);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await booted.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function connect(token: string): Promise<Client> {
    const client = await connectClient(booted.url, token);
    clients.push(client);
    return client;
  }
  const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);

  test('a read-only key lists and calls read tools only; the other key keeps every enabled tool', async () => {
    const writer = await connect(booted.token);
    const reader = await connect(READER_TOKEN);
    const all = enabledTools(booted.plugin.settings);
    expect(await names(writer)).toEqual(all.map((t) => t.name));
    expect(await names(reader)).toEqual(all.filter((t) => t.kind === 'read').map((t) => t.name));
    await expect(reader.callTool({ name: 'create_note', arguments: { path: 'X', content: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'Tool "create_note" is not in the tool set of key "Reader"; call tools/list for the tools this key may use',
      ),
    });
    await expect(fsp.stat(nodePath.join(dir, 'X.md'))).rejects.toThrow();
    expect((await reader.callTool({ name: 'read_note', arguments: { path: 'Ideas' } })).isError).toBeFalsy();
    expect((await writer.callTool({ name: 'create_note', arguments: { path: 'Y', content: 'y' } })).isError).toBeFalsy();
    const listedReader = (await reader.listTools()).tools;
    const listedWriter = (await writer.listTools()).tools;
    expect(JSON.stringify(listedReader).length).toBeLessThan(JSON.stringify(listedWriter).length);
  });

  test('a chosen list: exactly those enabled tools, changed while connected; a disabled tool stays off and unknown names add nothing', async () => {
    const reader = await connect(READER_TOKEN);
    await booted.plugin.keyRing.setTools('reader', ['read_note', 'append_note', 'delete_note', 'no_such_tool']);
    booted.plugin.settings.tools.enabled.delete_note = false;
    expect(await names(reader)).toEqual(['read_note', 'append_note']);
    expect((await reader.callTool({ name: 'append_note', arguments: { path: 'Ideas', content: 'more' } })).isError).toBeFalsy();
    await expect(reader.callTool({ name: 'search', arguments: { query: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('not in the tool set of key "Reader"'),
    });
    await expect(reader.callTool({ name: 'delete_note', arguments: { path: 'Ideas', confirm: true } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown or disabled tool "delete_note"'),
    });
    await expect(booted.plugin.keyRing.setTools('reader', [])).rejects.toThrow(
      'Choose at least one tool for this key, or give it read tools only.',
    );
    await booted.plugin.keyRing.setTools('reader', 'all');
    expect(await names(reader)).toContain('search');
  });
});
