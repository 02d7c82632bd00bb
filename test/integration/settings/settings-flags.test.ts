/**
 * A data.json whose switches are not true or false (a hand edit writing `"false"`, a sync tool
 * turning flags into text) never turns on what it names (settings/migrate-settings.ts): through
 * the real plugin over HTTP, text in "Allow writes" and the write tools' toggles lists and runs no
 * write tool (a call is refused as for an unknown tool), and text in "Enable server" refuses every request as the switch turned off does.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { INITIALIZE, raw } from '../../harness/server/raw-http';
import type { VaultMcpSettings } from '../../../src/settings/settings';

/** Sets a switch of the seeded settings to a value of another type, as a hand edit would. */
function asText(value: string): boolean {
  return value as unknown as boolean;
}

describe('switches in data.json that are not true or false', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin> | undefined;
  let client: Client | undefined;

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    client = booted = undefined;
    await copy.cleanup();
  });

  it('writes stay off: no write tool is listed, and a write call is refused and writes nothing', async () => {
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      mode: 'force',
      configure: (settings: VaultMcpSettings) => {
        settings.tools.allowWrites = asText('false');
        settings.tools.enabled = { write_note: asText('true'), append_note: asText('yes') };
      },
    });
    client = await connectClient(booted.url, booted.token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_note');
    expect(names).not.toContain('write_note');
    expect(names).not.toContain('append_note');
    await expect(client.callTool({ name: 'write_note', arguments: { path: 'Flag test.md', content: 'written' } })).rejects.toThrow(
      /Unknown or disabled tool "write_note"/,
    );
    await expect(fsp.access(nodePath.join(copy.dir, 'Flag test.md'))).rejects.toThrow();
    expect(booted.plugin.settings.tools).toMatchObject({ allowWrites: false, enabled: { write_note: false, append_note: false } });
  });

  it('"Enable server" given as text: every request is refused as with the switch off', async () => {
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      configure: (settings: VaultMcpSettings) => {
        settings.server.enabled = asText('false');
      },
    });
    const answer = await raw(booted.port, { headers: { Authorization: `Bearer ${booted.token}` }, body: INITIALIZE });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('switched off');
  });
});
