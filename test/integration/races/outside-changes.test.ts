import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { eventuallyTrue, hitPaths } from '../../harness/server/search-hits';

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
    await eventuallyTrue(async () => (await hitPaths(client, 'zanzibarite')).includes('Outside.md'));

    await fsp.writeFile(file('Outside.md'), '# Outside\n\nNow about quetzalcoatlite only.\n');
    await eventuallyTrue(async () => (await hitPaths(client, 'quetzalcoatlite')).includes('Outside.md'));
    expect(await hitPaths(client, 'zanzibarite')).toEqual([]);

    await fsp.mkdir(file('Moved'));
    await fsp.rename(file('Outside.md'), file('Moved/Inside.md'));
    await eventuallyTrue(async () => (await hitPaths(client, 'quetzalcoatlite')).join() === 'Moved/Inside.md');
    expect(booted.app.metadataCache.getCache('Outside.md')).toBeNull();

    await fsp.rm(file('Moved/Inside.md'));
    // A hit's text is judged on the disk when the vault's stat no longer describes it (NotePolicy.mayServe): the
    // removed note is no hit from the first search on, before the vault's own event drops it.
    expect(await hitPaths(client, 'quetzalcoatlite')).toEqual([]);
    await eventuallyTrue(async () => booted.app.vault.getFileByPath('Moved/Inside.md') === null);
    expect(await hitPaths(client, 'quetzalcoatlite')).toEqual([]);
  });
});
