import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../harness/boot-plugin';
import { DEMO_VAULT, copyToTemp } from '../harness/temp-copy';
import { call, callError } from '../harness/write-helpers';

/** One note name in both Unicode forms: Linux keeps the two files apart, the plugin reads them as one note (docs/security.md). */
const NFC_NAME = 'R\u00e9sum\u00e9.md';
const NFD_NAME = NFC_NAME.normalize('NFD');

describe('Unicode-form twin notes when the NFC one is private', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    await fs.writeFile(path.join(copy.dir, 'Reference', NFC_NAME), '---\naccess: private\n---\nnfcsecret\n');
    await fs.writeFile(path.join(copy.dir, 'Reference', NFD_NAME), 'nfdword\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    client = await connectClient(booted.url, booted.token);
    cleanup = copy.cleanup;
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await cleanup?.();
  });

  it('serves neither: no route lists, reads or finds either file, and the private text never shows', async () => {
    const twin = /R(?:\u00e9|e\u0301)sum/;
    const listed = JSON.stringify(await call(client, 'list_notes', { folder: 'Reference' }));
    expect(listed).toMatch(/Reference\//); // the folder's other notes are listed
    expect(listed).not.toMatch(twin);
    for (const query of ['nfcsecret', 'nfdword']) {
      const found = JSON.stringify(await call(client, 'search', { query }));
      expect(found).not.toMatch(twin);
      expect(found).not.toMatch(/nfcsecret/);
    }
    for (const name of [NFC_NAME, NFD_NAME])
      expect(await callError(client, 'read_note', { path: `Reference/${name}` })).toMatch(/not found/i);
  });
});
