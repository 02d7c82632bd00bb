import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

/** Paths of the search hits for `query`. */
async function hitPaths(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical' } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { results: Array<{ path: string }> }).results.map((r) => r.path);
}

/** Repeats `probe` every 25 ms until it returns true (the host applies disk events after a short delay). */
async function eventually(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached within 10 s');
}

describe('notes changed by other programs reach the search index through the host watcher', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let copy: Awaited<ReturnType<typeof copyToTemp>>;
  const file = (p: string): string => nodePath.join(copy.dir, ...p.split('/'));

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    client = await connectClient(booted.url, booted.token);
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await copy?.cleanup();
  });

  it('create, edit, rename and delete made outside are searchable at once', async () => {
    await fsp.writeFile(file('Outside.md'), '# Outside\n\nThe zanzibarite sample.\n');
    await eventually(async () => (await hitPaths(client, 'zanzibarite')).includes('Outside.md'));

    await fsp.writeFile(file('Outside.md'), '# Outside\n\nNow about quetzalcoatlite only.\n');
    await eventually(async () => (await hitPaths(client, 'quetzalcoatlite')).includes('Outside.md'));
    expect(await hitPaths(client, 'zanzibarite')).toEqual([]);

    await fsp.mkdir(file('Moved'));
    await fsp.rename(file('Outside.md'), file('Moved/Inside.md'));
    await eventually(async () => (await hitPaths(client, 'quetzalcoatlite')).join() === 'Moved/Inside.md');
    expect(booted.app.metadataCache.getCache('Outside.md')).toBeNull();

    await fsp.rm(file('Moved/Inside.md'));
    // A hit's text is judged on the disk when the vault's stat no longer describes it (NotePolicy.mayServe): the
    // removed note is no hit from the first search on, before the vault's own event drops it.
    expect(await hitPaths(client, 'quetzalcoatlite')).toEqual([]);
    await eventually(async () => booted.app.vault.getFileByPath('Moved/Inside.md') === null);
    expect(await hitPaths(client, 'quetzalcoatlite')).toEqual([]);
  });
});
