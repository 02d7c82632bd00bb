import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { createTempVault, type TempVault } from '../host';
import { INDEX_FILE, INDEX_FORMAT } from '../../src/search/engine/index-file';
import { SearchIndex, type IndexStorage } from '../../src/search/search-index';
import { UNRESTRICTED_SCOPE } from '../../src/vault/access/access';
import { NoteStore } from '../../src/vault/note-store';
import { PluginFile } from '../../src/vault/plugin-file';

const PLUGIN_DIR = '.obsidian/plugins/vault-mcp';

/**
 * A SearchIndex over the temp vault that saves into the plugin folder, as main.ts wires it.
 * `onSaved` runs after each save has written the file, so a test waits for a save, not for a time.
 */
function indexOver(tv: TempVault, onSaved: () => void = () => undefined, quarantine: string[] = []): SearchIndex {
  const file = new PluginFile(tv.app.vault.adapter as never, PLUGIN_DIR, INDEX_FILE);
  const storage: IndexStorage = {
    load: () => file.read().catch(() => null),
    save: async (chunks) => {
      await file.writeChunks(chunks);
      onSaved();
    },
  };
  return new SearchIndex(new NoteStore(tv.app as never, { quarantine: () => quarantine }), { storage, saveDelayMs: 10 });
}

async function paths(index: SearchIndex, query: string): Promise<string[]> {
  return (await index.search(query, UNRESTRICTED_SCOPE, { limit: 100 })).results.map((r) => r.path).sort();
}

const savedFile = (tv: TempVault): string => nodePath.join(tv.dir, ...PLUGIN_DIR.split('/'), INDEX_FILE);

/** The saved file's header and manifest (format 2: one JSON value per line, see index-file.ts). */
async function readSaved(tv: TempVault): Promise<{ format: unknown; manifest: Record<string, [number, number]> }> {
  const [head, ...lines] = (await fsp.readFile(savedFile(tv), 'utf8')).split('\n');
  const manifest: Record<string, [number, number]> = {};
  for (const line of lines) {
    const [kind, rows] = JSON.parse(line) as [string, [string, number, number][]];
    if (kind === 'M') for (const [path, mtime, size] of rows) manifest[path] = [mtime, size];
  }
  return { format: (JSON.parse(head) as { format: unknown }).format, manifest };
}

/** The file a format-1 plugin saved: MiniSearch's JSON in one object. */
const MINISEARCH_FILE = JSON.stringify({
  format: 1,
  engine: {
    mini: {
      documentCount: 1,
      nextId: 1,
      documentIds: { 0: 'Alpha.md' },
      fieldIds: { title: 0 },
      fieldLength: { 0: [1] },
      averageFieldLength: [1],
      storedFields: {},
      dirtCount: 0,
      index: [['alpha', { 0: { 0: 1 } }]],
      serializationVersion: 2,
    },
    records: [],
  },
  manifest: { 'Alpha.md': [1, 2] },
});

describe('SearchIndex persistence in the plugin folder', () => {
  let tv: TempVault;
  beforeEach(async () => {
    tv = await createTempVault(
      {
        'Alpha.md': '# Alpha\n\nApricot orchard notes.\n',
        'Beta.md': '---\ntags: [fruit]\n---\nBanana apricot.\n',
        'Deep/Gamma.md': '# Gamma\n\nCherry.\n',
      },
      { watchIntervalMs: false },
    );
  });
  afterEach(() => tv.cleanup());

  it('saves after the build and a restart loads it without reindexing anything', async () => {
    const first = indexOver(tv);
    await first.start();
    expect(first.stats).toMatchObject({ warm: false, reindexed: 3, complete: true });
    expect(await paths(first, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    first.stop();
    const saved = await readSaved(tv);
    expect(saved.format).toBe(INDEX_FORMAT);
    expect(Object.keys(saved.manifest).sort()).toEqual(['Alpha.md', 'Beta.md', 'Deep/Gamma.md']);

    const second = indexOver(tv);
    await second.start();
    expect(second.stats).toMatchObject({ warm: true, reindexed: 0, indexed: 3, total: 3, complete: true });
    expect(await paths(second, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    expect(await paths(second, 'tag:fruit')).toEqual(['Beta.md']);
    expect(await paths(second, 'cher')).toEqual(['Deep/Gamma.md']);
    second.stop();
  });

  it('reindexes only notes changed, added or removed while it was off', async () => {
    const first = indexOver(tv);
    await first.start();
    first.stop();
    await fsp.writeFile(nodePath.join(tv.dir, 'Alpha.md'), '# Alpha\n\nNow about durian only, much longer than before.\n');
    await fsp.writeFile(nodePath.join(tv.dir, 'Deep/New.md'), 'Elderberry apricot.\n');
    await fsp.rm(nodePath.join(tv.dir, 'Beta.md'));
    await tv.app.vault.syncFromDisk();
    await tv.app.metadataCache.whenResolved();

    const second = indexOver(tv);
    await second.start();
    expect(second.stats).toMatchObject({ warm: true, reindexed: 2, total: 3 });
    expect(await paths(second, 'apricot')).toEqual(['Deep/New.md']);
    expect(await paths(second, 'durian')).toEqual(['Alpha.md']);
    expect(await paths(second, 'banana')).toEqual([]);
    second.stop();
  });

  it('drops a saved note that is quarantined since, although the note itself did not change', async () => {
    const first = indexOver(tv);
    await first.start();
    expect(await paths(first, 'cherry')).toEqual(['Deep/Gamma.md']);
    first.stop();
    const second = indexOver(tv, undefined, ['Deep']);
    await second.start();
    expect(second.stats).toMatchObject({ warm: true, reindexed: 0, total: 2, complete: true });
    expect(await paths(second, 'cherry')).toEqual([]);
    expect(await paths(second, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    // Gone from the index itself, not only hidden by the search's access check.
    expect((second as unknown as { engine: { paths(): string[] } }).engine.paths().sort()).toEqual(['Alpha.md', 'Beta.md']);
    second.stop();
  });

  it('saves again after note changes, and the saved index holds them', async () => {
    let savedAfterChange: () => void = () => undefined;
    const first = indexOver(tv, () => savedAfterChange());
    await first.start();
    const changeSaved = new Promise<void>((resolve) => (savedAfterChange = resolve));
    await tv.app.vault.create('Fig.md', 'Fig jam.\n');
    await tv.app.metadataCache.whenResolved();
    // The debounced save (saveDelayMs 10) follows the change; wait for it, however slow the machine.
    await changeSaved;
    first.stop();
    const saved = await readSaved(tv);
    expect(Object.keys(saved.manifest)).toContain('Fig.md');
    const second = indexOver(tv);
    await second.start();
    expect(second.stats.reindexed).toBe(0);
    expect(await paths(second, 'fig')).toEqual(['Fig.md']);
    second.stop();
  });

  it('a stop before the debounced save makes it, so the next start reindexes nothing', async () => {
    const file = new PluginFile(tv.app.vault.adapter as never, PLUGIN_DIR, INDEX_FILE);
    const storage: IndexStorage = { load: () => file.read().catch(() => null), save: (chunks) => file.writeChunks(chunks) };
    const notes = new NoteStore(tv.app as never, { quarantine: () => [] });
    const first = new SearchIndex(notes, { storage, saveDelayMs: 60_000 });
    await first.start();
    await tv.app.vault.create('Fig.md', 'Fig jam.\n');
    await tv.app.metadataCache.whenResolved();
    // The change is applied (searches wait for queued changes); its save waits a minute.
    expect(await paths(first, 'fig')).toEqual(['Fig.md']);
    expect(Object.keys((await readSaved(tv)).manifest)).not.toContain('Fig.md');
    await first.stop();
    expect(first.state).toBe('idle');
    expect(Object.keys((await readSaved(tv)).manifest)).toContain('Fig.md');
    const second = indexOver(tv);
    await second.start();
    expect(second.stats).toMatchObject({ warm: true, reindexed: 0 });
    expect(await paths(second, 'fig')).toEqual(['Fig.md']);
    await second.stop();
  });

  it('a stop with nothing due saves nothing, and a stop waits for a save no longer than stopSaveMs', async () => {
    let saves = 0;
    let saved: string | null = null;
    const notes = new NoteStore(tv.app as never, { quarantine: () => [] });
    const quiet = new SearchIndex(notes, {
      storage: {
        load: async () => saved,
        save: async (chunks) => {
          saves++;
          saved = [...chunks].join('');
        },
      },
    });
    await quiet.start();
    expect(saves).toBe(1);
    await quiet.stop();
    expect(saves).toBe(1);

    // A storage whose write never ends: the stop gives the save up after stopSaveMs.
    let saveBegan: () => void = () => undefined;
    const began = new Promise<void>((resolve) => (saveBegan = resolve));
    const stuck = new SearchIndex(notes, {
      storage: {
        load: async () => null,
        save: () => {
          saveBegan();
          return new Promise<void>(() => undefined);
        },
      },
      stopSaveMs: 50,
    });
    void stuck.start();
    // The build's save begins once the index is ready; it never ends.
    await began;
    expect(stuck.state).toBe('ready');
    await stuck.stop();
    expect(stuck.state).toBe('idle');
    await expect(stuck.search('apricot', UNRESTRICTED_SCOPE)).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('rebuilds an index saved by format 4 (no phrase filters) instead of loading it without them', async () => {
    const first = indexOver(tv);
    await first.start();
    first.stop();
    const lines = (await fsp.readFile(savedFile(tv), 'utf8')).split('\n');
    expect(lines.some((line) => line.startsWith('["P"'))).toBe(true);
    const old = [JSON.stringify({ format: 4 }), ...lines.slice(1).filter((line) => !line.startsWith('["P"'))];
    await fsp.writeFile(savedFile(tv), old.join('\n'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const second = indexOver(tv);
    await second.start();
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/another version; rebuilding/)]);
    warn.mockRestore();
    expect(second.stats).toMatchObject({ warm: false, complete: true });
    second.stop();
    expect((await readSaved(tv)).format).toBe(INDEX_FORMAT);
  });

  it('keeps phrase filters across a warm start: a phrase finds the same notes from the saved index', async () => {
    await fsp.writeFile(nodePath.join(tv.dir, 'Gamma.md'), 'The quick brown fox jumps.\n');
    await tv.app.vault.syncFromDisk();
    await tv.app.metadataCache.whenResolved();
    const first = indexOver(tv);
    await first.start();
    const cold = await paths(first, '"QUICK   brown"');
    first.stop();
    const second = indexOver(tv);
    await second.start();
    expect(second.stats.warm).toBe(true);
    expect(await paths(second, '"QUICK   brown"')).toEqual(cold);
    expect(cold).toEqual(['Gamma.md']);
    expect(await paths(second, '"brown quick"')).toEqual([]);
    second.stop();
  });

  it('rebuilds an index saved by the previous format (3: six fields, no aliases, words unstemmed) instead of misreading it', async () => {
    await fsp.writeFile(nodePath.join(tv.dir, 'Beta.md'), '---\ntags: [fruit]\naliases: [Plantain]\n---\nBanana apricot.\n');
    await tv.app.vault.syncFromDisk();
    await tv.app.metadataCache.whenResolved();
    const first = indexOver(tv);
    await first.start();
    first.stop();
    // The same index as format 3 wrote it: its header, and document rows of six field lengths.
    const lines = (await fsp.readFile(savedFile(tv), 'utf8')).split('\n');
    const old = [
      JSON.stringify({ format: 3 }),
      ...lines.slice(1).map((line) => {
        const [kind, payload] = JSON.parse(line) as [string, unknown[]];
        return JSON.stringify([kind, kind === 'D' ? (payload as unknown[][]).map((row) => row.slice(0, 7)) : payload]);
      }),
    ];
    await fsp.writeFile(savedFile(tv), old.join('\n'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const second = indexOver(tv);
    await second.start();
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/another version; rebuilding/)]);
    warn.mockRestore();
    expect(second.stats).toMatchObject({ warm: false, reindexed: 3, complete: true });
    expect(await paths(second, 'plantain')).toEqual(['Beta.md']);
    expect(await paths(second, 'apricots')).toEqual(['Alpha.md', 'Beta.md']);
    second.stop();
    expect((await readSaved(tv)).format).toBe(INDEX_FORMAT);
  });

  it.each([
    ['not JSON', '{"format": 1, "engine": {"mini'],
    ['an old format version', JSON.stringify({ format: 0, engine: {}, manifest: {} })],
    ['the MiniSearch JSON of format 1', MINISEARCH_FILE],
    ['a line that is not JSON', `{"format":${INDEX_FORMAT}}\n["M",[["Alpha.md",1,2]]]\n["R",[{"path":"Alpha.md"`],
    ['a damaged record', `{"format":${INDEX_FORMAT}}\n["R",[{"nope":true}]]`],
    ['a line of unknown kind', `{"format":${INDEX_FORMAT}}\n["X",[]]`],
    [
      'records and documents that disagree',
      `{"format":${INDEX_FORMAT}}\n["R",[{"path":"Alpha.md","id":"a","title":"Alpha","tags":[],"frontmatter":{}}]]\n["D",[["Other.md",1,1,1,1,0,0,0]]]`,
    ],
    [
      'a posting list for a document that does not exist',
      `{"format":${INDEX_FORMAT}}\n["R",[{"path":"Alpha.md","id":"a","title":"Alpha","tags":[],"frontmatter":{}}]]\n["D",[["Alpha.md",1,1,1,1,0,0,0]]]\n["T",[["alpha"],[2],"FgA"]]`,
    ],
  ])('rebuilds, never fails, when the saved index is %s', async (_what, text) => {
    await fsp.mkdir(nodePath.dirname(savedFile(tv)), { recursive: true });
    await fsp.writeFile(savedFile(tv), text);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const index = indexOver(tv);
    await index.start();
    warn.mockRestore();
    expect(index.stats).toMatchObject({ warm: false, reindexed: 3, complete: true });
    expect(await paths(index, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    index.stop();
    expect((await readSaved(tv)).format).toBe(INDEX_FORMAT);
  });

  it('rebuilds, never fails, when a saved phrase filter is damaged: found once the index is complete, then reported and rebuilt', async () => {
    const first = indexOver(tv);
    await first.start();
    first.stop();
    const text = await fsp.readFile(savedFile(tv), 'utf8');
    // The phrase filter lines come last and load after the index is complete: damage one of them.
    await fsp.writeFile(savedFile(tv), text.replace(/\n\["P",\["[^"]*"/, '\n["P",["AB*"'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const index = indexOver(tv);
    await index.start();
    expect(index.stats).toMatchObject({ warm: true, reindexed: 0, complete: true });
    expect(await paths(index, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    while (warn.mock.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(String(warn.mock.calls[0][0])).toMatch(/phrase filter\); rebuilding/);
    await index.whenBuilt();
    warn.mockRestore();
    expect(index.stats).toMatchObject({ warm: false, reindexed: 3, complete: true });
    expect(await paths(index, '"apricot orchard"')).toEqual(['Alpha.md']);
    await index.whenSaved();
    index.stop();
    expect((await readSaved(tv)).format).toBe(INDEX_FORMAT);
  });

  it('answers a phrase from a warm start before its phrase filters have loaded as after, and saves them all', async () => {
    const first = indexOver(tv);
    await first.start();
    const cold = await paths(first, '"apricot orchard"');
    first.stop();
    const savedBefore = (await fsp.readFile(savedFile(tv), 'utf8')).split('\n').filter((l) => l.startsWith('["P"'));
    let saved: () => void = () => undefined;
    const second = indexOver(tv, () => saved());
    await second.start();
    // Right after the build, before the filters' lines had a turn of the event loop.
    expect(await paths(second, '"apricot orchard"')).toEqual(cold);
    expect(cold).toEqual(['Alpha.md']);
    // A change makes a save due: it waits for the filters, so the file holds every one.
    const changeSaved = new Promise<void>((resolve) => (saved = resolve));
    await tv.app.vault.create('Fig.md', 'Fig jam.\n');
    await changeSaved;
    second.stop();
    const savedAfter = (await fsp.readFile(savedFile(tv), 'utf8')).split('\n').filter((l) => l.startsWith('["P"'));
    expect(savedAfter.join('\n')).toContain(savedBefore.join('\n').slice(6, -2));
  });
});
