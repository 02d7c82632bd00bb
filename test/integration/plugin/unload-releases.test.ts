import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { promises as fsp } from 'node:fs';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { startFakeOpenAi } from '../../fakes/fake-openai';
import { waitUntil } from '../../harness/wait-until';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

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

/**
 * Counts the adapter's writes under way (write, writeBinary, append, appendBinary, mkdir, remove, rename) from now on; each
 * waits `slowMs` first (a slow disk), so that a write the plugin does not wait for is still under way when the test looks.
 */
function countWritesUnderWay(app: BootedPlugin['app'], slowMs = 0): { underWay(): number } {
  let underWay = 0;
  const adapter = app.vault.adapter as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['write', 'writeBinary', 'append', 'appendBinary', 'mkdir', 'remove', 'rename']) {
    const original = adapter[name].bind(adapter);
    adapter[name] = async (...args) => {
      underWay++;
      try {
        await new Promise((resolve) => setTimeout(resolve, slowMs));
        return await original(...args);
      } finally {
        underWay--;
      }
    };
  }
  return { underWay: () => underWay };
}

describe("the harness's stop (npm start's and every test's)", () => {
  test("returns only after the search index's save the unload made for a change has landed, so the vault's folder can go at once", async () => {
    const vault = await copyToTemp(DEMO_VAULT);
    try {
      const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.dir, persistIndex: true, allowWrites: true, mode: 'force' });
      const writes = countWritesUnderWay(booted.app);
      const client = await connectClient(booted.url, booted.token);
      // The change schedules a save a minute later; the unload makes it now, in slices, without waiting for it.
      await client.callTool({ name: 'create_note', arguments: { path: 'Saved on stop.md', content: 'a note\n' } });
      await client.close();
      await booted.stop();
      expect(writes.underWay()).toBe(0);
      await fsp.rm(vault.dir, { recursive: true });
    } finally {
      await vault.cleanup();
    }
  }, 30_000);

  test("returns only after the semantic index's save under way has landed", async () => {
    const vault = await copyToTemp(DEMO_VAULT);
    const fake = await startFakeOpenAi({ models: {}, embeddingModels: { 'nomic-embed-text': { dimensions: 32 } } });
    try {
      const booted = await bootPlugin(VaultMcpPlugin, {
        vaultPath: vault.dir,
        configure: (s) => {
          s.ai = { ...s.ai, enabled: true, baseUrl: fake.baseUrl, embeddingModel: 'nomic-embed-text', semanticIndex: true };
        },
      });
      await booted.plugin.semantic.refresh();
      const writes = countWritesUnderWay(booted.app, 300);
      // A rebuild embeds every note again and saves the file once it is ready (as the settings tab's Rebuild button does);
      // the stop comes while that save is under way.
      void booted.plugin.semantic.rebuild();
      await waitUntil(() => booted.plugin.semantic.current.state === 'ready' && writes.underWay() > 0, 'the rebuild and its save');
      await booted.stop();
      expect(writes.underWay()).toBe(0);
      await fsp.rm(vault.dir, { recursive: true });
    } finally {
      await fake.close();
      await vault.cleanup();
    }
  }, 30_000);
});
