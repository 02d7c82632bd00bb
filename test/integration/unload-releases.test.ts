import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { promises as fsp } from 'node:fs';
import VaultMcpPlugin from '../../src/main';
import { bootPlugin, connectClient } from '../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../harness/temp-copy';

/**
 * Disabling the plugin (Obsidian's unload) releases it: once unloaded and its host closed,
 * nothing global keeps the plugin, its search index, its server or the vault reachable. A
 * module-level registry, timer or listener that held one would keep a whole vault's index in
 * memory after every disable and enable, and (in the bench) made a warm start share the heap
 * with the cold one's host.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Boots, searches and edits over HTTP, unloads; @returns weak references to what must be released. */
async function bootUseAndStop(vaultPath: string): Promise<Record<string, WeakRef<object>>> {
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath, persistIndex: true, allowWrites: true, mode: 'force' });
  const client = await connectClient(booted.url, booted.token);
  await client.callTool({ name: 'search', arguments: { query: 'project' } });
  await client.callTool({ name: 'create_note', arguments: { path: 'Released.md', content: 'a note\n' } });
  await client.close();
  await booted.plugin.search.whenBuilt();
  const plugin = booted.plugin as unknown as { search: { engine: object }; server: object };
  const refs = {
    plugin: new WeakRef<object>(booted.plugin),
    searchIndex: new WeakRef<object>(plugin.search),
    engine: new WeakRef<object>(plugin.search.engine),
    server: new WeakRef<object>(plugin.server),
    app: new WeakRef<object>(booted.app),
    metadataCache: new WeakRef<object>(booted.app.metadataCache),
  };
  await booted.stop();
  return refs;
}

/** Names of the references still alive after up to `rounds` full collections, each after a macrotask (a WeakRef read in a job keeps its target until the job ends). */
async function aliveAfterCollections(refs: Record<string, WeakRef<object>>, rounds: number): Promise<string[]> {
  let alive = Object.keys(refs);
  for (let i = 0; i < rounds && alive.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    collectGarbage();
    alive = alive.filter((name) => refs[name].deref() !== undefined);
  }
  return alive;
}

describe('unloading the plugin', () => {
  test('leaves the plugin, its index, server and the host vault unreachable', async () => {
    const vault = await copyToTemp(DEMO_VAULT);
    try {
      const refs = await bootUseAndStop(vault.dir);
      expect(await aliveAfterCollections(refs, 20)).toEqual([]);
    } finally {
      await vault.cleanup();
    }
  }, 30_000);

  test('the check itself sees an object that something still holds', async () => {
    const held = { note: 'kept' };
    (globalThis as { heldForTest?: object }).heldForTest = held;
    try {
      expect(await aliveAfterCollections({ held: new WeakRef<object>(held) }, 3)).toEqual(['held']);
    } finally {
      delete (globalThis as { heldForTest?: object }).heldForTest;
    }
  });
});

describe("the harness's stop (npm start's and every test's)", () => {
  test("returns only after the save the unload made for a change has landed, so the vault's folder can go at once", async () => {
    const vault = await copyToTemp(DEMO_VAULT);
    try {
      const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.dir, persistIndex: true, allowWrites: true, mode: 'force' });
      const client = await connectClient(booted.url, booted.token);
      // The change schedules a save a minute later; the unload makes it now, in slices, without waiting for it.
      await client.callTool({ name: 'create_note', arguments: { path: 'Saved on stop.md', content: 'a note\n' } });
      await client.close();
      await booted.stop();
      // The save the index runs, if any (null once it has ended).
      expect((booted.plugin.search as unknown as { saving: Promise<void> | null }).saving).toBeNull();
      await fsp.rm(vault.dir, { recursive: true });
    } finally {
      await vault.cleanup();
    }
  }, 30_000);
});
