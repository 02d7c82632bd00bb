import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { createTempVault, type TempVault } from '../../../host/index';
import { INDEX_FILE, INDEX_FORMAT, partSum } from '../../../../src/search/engine/index-file';
import { SearchIndex, type IndexStorage } from '../../../../src/search/search-index';
import { searchIndexStorage } from '../../../../src/ui/index-files';
import { UNRESTRICTED_SCOPE } from '../../../../src/vault/access/access';
import { NoteStore } from '../../../../src/vault/note-store';
import { PartedFile } from '../../../../src/vault/plugin-files/parted-file';
import { memoryIndexStorage } from '../../../harness/memory-index-storage';
import { waitUntil } from '../../../harness/wait-until';

const PLUGIN_DIR = '.obsidian/plugins/vault-mcp';

/**
 * A SearchIndex over the temp vault that saves into the plugin folder, as main.ts wires it.
 * `onSaved` runs after each save has written the file, so a test waits for a save, not for a time.
 */
function indexOver(tv: TempVault, onSaved: () => void = () => undefined, quarantine: string[] = []): SearchIndex {
  const storage = storageOver(tv);
  const saving: IndexStorage = {
    ...storage,
    save: async (parts, head) => {
      await storage.save(parts, head);
      onSaved();
    },
  };
  return new SearchIndex(new NoteStore(tv.app as never, { quarantine: () => quarantine }), { storage: saving, saveDelayMs: 10 });
}

/** The plugin's storage of the index (ui/index-files.ts) over the temp vault's plugin folder. */
function storageOver(tv: TempVault): IndexStorage {
  return searchIndexStorage((name) => new PartedFile(tv.app.vault.adapter as never, PLUGIN_DIR, name));
}

async function paths(index: SearchIndex, query: string): Promise<string[]> {
  return (await index.search(query, UNRESTRICTED_SCOPE, { limit: 100 })).results.map((r) => r.path).sort();
}

const savedFile = (tv: TempVault): string => nodePath.join(tv.dir, ...PLUGIN_DIR.split('/'), INDEX_FILE);
const partsFolder = (tv: TempVault): string => nodePath.join(tv.dir, ...PLUGIN_DIR.split('/'), 'search-index.parts');

/** The saved head (format 7 on: generation and part lengths, format 10 on the parts' bytes too; see index-file.ts). */
async function readHead(tv: TempVault): Promise<{ format: unknown; generation: string; parts: number[]; bytes: number[] }> {
  return JSON.parse(await fsp.readFile(savedFile(tv), 'utf8')) as { format: unknown; generation: string; parts: number[]; bytes: number[] };
}

/** The paths of the saved head's parts on disk: their text files, or with `'bin'` the binary files of those that have bytes. */
async function partFiles(tv: TempVault, kind: 'part' | 'bin' = 'part'): Promise<string[]> {
  const head = await readHead(tv);
  return head.parts
    .map((_, n) => n)
    .filter((n) => kind === 'part' || head.bytes[n] > 0)
    .map((n) => nodePath.join(partsFolder(tv), `${head.generation}.${n}.${kind}`));
}

/** The saved posting bytes: the head's binary files, in order, one after another. */
async function savedBytes(tv: TempVault): Promise<Uint8Array> {
  return Buffer.concat(await Promise.all((await partFiles(tv, 'bin')).map((file) => fsp.readFile(file))));
}

/** The saved lines: the head's parts, in order, split at line breaks. */
async function savedLines(tv: TempVault): Promise<string[]> {
  const lines: string[] = [];
  for (const file of await partFiles(tv)) lines.push(...(await fsp.readFile(file, 'utf8')).split('\n'));
  return lines;
}

/**
 * Writes `lines` as the saved index of `format`, in one part with `bytes` as its term lines'
 * posting lists (or, for format 6 and older, as the one file they wrote).
 */
async function writeSaved(tv: TempVault, lines: string[], format = INDEX_FORMAT, bytes: Uint8Array = new Uint8Array(0)): Promise<void> {
  await fsp.mkdir(partsFolder(tv), { recursive: true });
  if (format < 7) {
    await fsp.writeFile(savedFile(tv), [JSON.stringify({ format }), ...lines].join('\n'));
    return;
  }
  const text = lines.join('\n');
  await fsp.writeFile(nodePath.join(partsFolder(tv), '000000001-t.0.part'), text);
  if (bytes.length > 0) await fsp.writeFile(nodePath.join(partsFolder(tv), '000000001-t.0.bin'), bytes);
  const sums = [partSum(text, bytes)];
  await fsp.writeFile(
    savedFile(tv),
    JSON.stringify({ format, generation: '000000001-t', parts: [text.length], bytes: [bytes.length], sums }),
  );
}

/** The saved head's format and manifest. */
async function readSaved(tv: TempVault): Promise<{ format: unknown; manifest: Record<string, [number, number]> }> {
  const manifest: Record<string, [number, number]> = {};
  // Manifest lines only (a term line is not JSON as a whole: index-file.ts).
  for (const line of (await savedLines(tv)).filter((l) => l.startsWith('["M",'))) {
    const [, rows] = JSON.parse(line) as [string, [string, number, number][]];
    for (const [path, mtime, size] of rows) manifest[path] = [mtime, size];
  }
  return { format: (await readHead(tv)).format, manifest };
}

/** Starts an index over `tv` and expects it to have rebuilt from the notes (never failed), then to have saved a whole index of this format. */
async function rebuildsFromNotes(tv: TempVault): Promise<void> {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const index = indexOver(tv);
  await index.start();
  warn.mockRestore();
  expect(index.stats).toMatchObject({ warm: false, reindexed: 3, complete: true });
  expect(await paths(index, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
  await index.stop();
  expect((await readSaved(tv)).format).toBe(INDEX_FORMAT);
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
    const storage = storageOver(tv);
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
    const memory = memoryIndexStorage();
    const notes = new NoteStore(tv.app as never, { quarantine: () => [] });
    const quiet = new SearchIndex(notes, { storage: memory });
    await quiet.start();
    expect(memory.saves).toBe(1);
    await quiet.stop();
    expect(memory.saves).toBe(1);

    // A storage whose write never ends: the stop gives the save up after stopSaveMs.
    let saveBegan: () => void = () => undefined;
    const began = new Promise<void>((resolve) => (saveBegan = resolve));
    const stuck = new SearchIndex(notes, {
      storage: {
        ...memoryIndexStorage(),
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
    const lines = await savedLines(tv);
    expect(lines.some((line) => line.startsWith('["P"'))).toBe(true);
    await writeSaved(
      tv,
      lines.filter((line) => !line.startsWith('["P"')),
      4,
    );
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
    const lines = await savedLines(tv);
    const old = lines.map((line) => {
      if (!line.startsWith('["D",')) return line;
      const [kind, payload] = JSON.parse(line) as [string, unknown[][]];
      return JSON.stringify([kind, payload.map((row) => row.slice(0, 7))]);
    });
    await writeSaved(tv, old, 3);
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
    ['a head without parts', JSON.stringify({ format: INDEX_FORMAT })],
    ['a head naming a generation that is no file name', JSON.stringify({ format: INDEX_FORMAT, generation: '../../x', parts: [3] })],
  ])('rebuilds, never fails, when the saved head is %s', async (_what, text) => {
    await fsp.mkdir(nodePath.dirname(savedFile(tv)), { recursive: true });
    await fsp.writeFile(savedFile(tv), text);
    await rebuildsFromNotes(tv);
  });

  it.each([
    ['a line that is not JSON', ['["M",[["Alpha.md",1,2]]]', '["R",[{"path":"Alpha.md"']],
    ['a damaged record', ['["R",[{"nope":true}]]']],
    ['a line of unknown kind', ['["X",[]]']],
    [
      'records and documents that disagree',
      ['["R",[{"path":"Alpha.md","id":"a","title":"Alpha","tags":[],"frontmatter":{}}]]', '["D",[["Other.md",1,1,1,1,0,0,0]]]'],
    ],
    [
      'a posting list for a document that does not exist',
      [
        '["R",[{"path":"Alpha.md","id":"a","title":"Alpha","tags":[],"frontmatter":{}}]]',
        '["D",[["Alpha.md",1,1,1,1,0,0,0]]]',
        '["T",[["alpha"],[2]]]',
      ],
      // A posting of doc 22 (of 1 document), code 0.
      Uint8Array.of(22, 0),
    ],
  ])('rebuilds, never fails, when the saved index has %s', async (_what, lines, ...bytes: Uint8Array[]) => {
    await writeSaved(tv, lines, INDEX_FORMAT, bytes[0]);
    await rebuildsFromNotes(tv);
  });

  it.each([
    ['part', 'missing', (): Buffer | null => null],
    ['part', 'cut short', (text: Buffer) => text.subarray(0, -5)],
    ['part', 'garbled (its length kept)', (text: Buffer) => Buffer.concat([Buffer.from('{'), text.subarray(1)])],
    ['bin', 'missing', (): Buffer | null => null],
    ['bin', 'cut short', (bytes: Buffer) => bytes.subarray(0, -1)],
    // A first posting's doc distance far past the notes: a posting for a document the index does not hold.
    ['bin', 'garbled (its length kept)', (bytes: Buffer) => Buffer.concat([Buffer.of(127), bytes.subarray(1)])],
  ] as const)(
    "a saved part's %s file that is %s is damage: head and parts kept aside with one tag, the index rebuilt and saved anew",
    async (kind, _what, damage) => {
      const first = indexOver(tv);
      await first.start();
      await first.stop();
      const [part] = await partFiles(tv, kind);
      const files = (await fsp.readdir(partsFolder(tv))).sort();
      const damaged = damage(await fsp.readFile(part));
      if (damaged === null) await fsp.rm(part);
      else await fsp.writeFile(part, damaged);
      const head = await fsp.readFile(savedFile(tv), 'utf8');
      await rebuildsFromNotes(tv);
      const pluginDir = nodePath.dirname(savedFile(tv));
      const aside = (await fsp.readdir(pluginDir)).filter((name) => name.startsWith('search-index.json.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(await fsp.readFile(nodePath.join(pluginDir, aside[0]), 'utf8')).toBe(head);
      const tag = aside[0].slice('search-index.json.'.length);
      expect((await fsp.readdir(nodePath.join(pluginDir, `search-index.parts.${tag}`))).sort()).toEqual(
        damaged === null ? files.filter((name) => name !== nodePath.basename(part)) : files,
      );
      const again = indexOver(tv);
      await again.start();
      expect(again.stats).toMatchObject({ warm: true, reindexed: 0 });
      await again.stop();
    },
  );

  it('loads none but the parts its head names: an extra part and other generations are ignored, and the next save removes the older ones', async () => {
    const first = indexOver(tv);
    await first.start();
    await first.stop();
    const { generation, parts } = await readHead(tv);
    // An extra part of the saved generation, a crashed save's orphan (older), another writer's save in progress (newer).
    const extra = nodePath.join(partsFolder(tv), `${generation}.${parts.length}.part`);
    const orphan = nodePath.join(partsFolder(tv), '000000001-o.0.part');
    const newer = nodePath.join(partsFolder(tv), 'zzzzzzzzz-o.0.part');
    const orphanBytes = nodePath.join(partsFolder(tv), '000000001-o.0.bin');
    for (const file of [extra, orphan, newer, orphanBytes]) await fsp.writeFile(file, 'not an index line');
    let saved: () => void = () => undefined;
    const second = indexOver(tv, () => saved());
    await second.start();
    expect(second.stats).toMatchObject({ warm: true, reindexed: 0 });
    expect(await paths(second, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    const changeSaved = new Promise<void>((resolve) => (saved = resolve));
    await tv.app.vault.create('Fig.md', 'Fig jam.\n');
    await changeSaved;
    await second.stop();
    const left = await fsp.readdir(partsFolder(tv));
    const savedNow = [...(await partFiles(tv)), ...(await partFiles(tv, 'bin'))].map((file) => nodePath.basename(file));
    expect(savedNow.some((name) => name.endsWith('.bin'))).toBe(true);
    expect(left.sort()).toEqual([...savedNow, 'zzzzzzzzz-o.0.part'].sort());
  });

  it('rebuilds, never fails, when a saved phrase filter is damaged: found once the index is complete, then reported and rebuilt', async () => {
    const first = indexOver(tv);
    await first.start();
    first.stop();
    // The phrase filter lines come last and load after the index is complete: damage the first of them.
    const lines = await savedLines(tv);
    const at = lines.findIndex((line) => line.startsWith('["P"'));
    // A filter listed a word shorter than its words: every filter after it is read one word off, and a word is left over at the end.
    const [, sizes] = JSON.parse(lines[at]) as [string, number[]];
    sizes[sizes.findIndex((n) => n > 0)]--;
    lines[at] = JSON.stringify(['P', sizes]);
    await writeSaved(tv, lines, INDEX_FORMAT, await savedBytes(tv));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const index = indexOver(tv);
    await index.start();
    expect(index.stats).toMatchObject({ warm: true, reindexed: 0, complete: true });
    expect(await paths(index, 'apricot')).toEqual(['Alpha.md', 'Beta.md']);
    await waitUntil(() => warn.mock.calls.length > 0, "the damaged phrase filter's warning");
    expect(String(warn.mock.calls[0][0])).toMatch(/bytes no term or phrase filter line names\); rebuilding/);
    // The save is kept aside (disk renames) before the rebuild starts.
    await waitUntil(() => !index.stats.warm, 'the rebuild to start');
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
    const savedBefore = (await savedLines(tv)).filter((l) => l.startsWith('["P"'));
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
    const savedAfter = (await savedLines(tv)).filter((l) => l.startsWith('["P"'));
    expect(savedAfter.join('\n')).toContain(savedBefore.join('\n').slice(6, -2));
  });
});
