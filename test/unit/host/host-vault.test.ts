import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { createHostApp, createTempVault, TempVault, TFile, TFolder, Events } from '../../host/index';
import type { TAbstractFile } from '../../host/index';

/** Resolves with the arguments of the next `name` event that satisfies `match`. */
function nextEvent(emitter: Events, name: string, match: (...args: any[]) => boolean = () => true): Promise<any[]> {
  return new Promise((resolve) => {
    const ref = emitter.on(name, (...args: unknown[]) => {
      if (!match(...args)) return;
      emitter.offref(ref);
      resolve(args);
    });
  });
}

/** Records every vault event as `name path` (plus old path for renames). */
function recordEvents(tv: TempVault): string[] {
  const log: string[] = [];
  for (const name of ['create', 'modify', 'delete', 'rename']) {
    tv.app.vault.on(name, (f: TAbstractFile, old?: string) => log.push(`${name} ${f.path}${old ? ' <- ' + old : ''}`));
  }
  return log;
}

describe('host vault: loading', () => {
  let tv: TempVault;
  beforeAll(async () => {
    tv = await createTempVault(
      {
        'Home.md': '# Home',
        'Folder/Note.md': 'note',
        'Folder/Sub/Deep.md': 'deep',
        'Folder/image.png': 'png',
        '.obsidian/app.json': '{}',
        '.hidden/secret.md': 'no',
        '.dotfile.md': 'no',
        'node_modules/pkg/readme.md': 'no',
        'Archive.tar.gz': 'x',
      },
      { watchIntervalMs: false },
    );
  });
  afterAll(() => tv.cleanup());

  it('loads files and folders but not dot-entries, node_modules or the config dir', () => {
    const v = tv.app.vault;
    expect(
      v
        .getFiles()
        .map((f) => f.path)
        .sort(),
    ).toEqual(['Archive.tar.gz', 'Folder/Note.md', 'Folder/Sub/Deep.md', 'Folder/image.png', 'Home.md']);
    expect(v.getMarkdownFiles().length).toBe(3);
    expect(
      v
        .getAllFolders()
        .map((f) => f.path)
        .sort(),
    ).toEqual(['Folder', 'Folder/Sub']);
    expect(v.getAllFolders(true).some((f) => f.isRoot())).toBe(true);
    expect(v.getAbstractFileByPath('.obsidian/app.json')).toBeNull();
    expect(v.getRoot().children.map((c) => c.name)).toEqual(['Archive.tar.gz', 'Folder', 'Home.md']);
  });

  it('fills TFile fields like Obsidian', () => {
    const f = tv.app.vault.getFileByPath('Folder/Sub/Deep.md') as TFile;
    expect(f).toBeInstanceOf(TFile);
    expect([f.name, f.basename, f.extension, f.parent?.path]).toEqual(['Deep.md', 'Deep', 'md', 'Folder/Sub']);
    expect(f.stat.size).toBe(4);
    expect(f.stat.mtime).toBeGreaterThan(0);
    const gz = tv.app.vault.getFileByPath('Archive.tar.gz') as TFile;
    expect([gz.basename, gz.extension]).toEqual(['Archive.tar', 'gz']);
    expect(tv.app.vault.getFolderByPath('Folder')).toBeInstanceOf(TFolder);
    expect(tv.app.vault.getFileByPath('Folder')).toBeNull();
    expect(tv.app.vault.getAbstractFileByPath('/Folder//Note.md/')?.path).toBe('Folder/Note.md');
  });

  it('refuses a missing vault folder with a clear message', async () => {
    const missing = nodePath.join(tv.dir, 'no-such-folder');
    await expect(createHostApp({ vaultPath: missing })).rejects.toThrow(/does not exist or is not a folder/);
  });
});

describe('host vault: writes and events', () => {
  let tv: TempVault;
  let log: string[];
  beforeEach(async () => {
    tv = await createTempVault({ 'A.md': 'alpha', 'Folder/B.md': 'bravo' }, { watchIntervalMs: false });
    log = recordEvents(tv);
  });
  afterEach(() => tv.cleanup());

  it('creates files, refusing duplicates and missing folders', async () => {
    const v = tv.app.vault;
    const f = await v.create('Folder/New.md', 'hello');
    expect(await fsp.readFile(nodePath.join(tv.dir, 'Folder/New.md'), 'utf8')).toBe('hello');
    expect(f.stat.size).toBe(5);
    expect(log).toEqual(['create Folder/New.md']);
    await expect(v.create('Folder/New.md', 'again')).rejects.toThrow('File already exists.');
    await expect(v.create('Missing/X.md', 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(v.create('../escape.md', 'x')).rejects.toThrow(/inside the vault/);
    expect(await fsp.readdir(nodePath.join(tv.dir, 'Folder'))).toEqual(['B.md', 'New.md']);
  });

  it('creates nested folders and refuses an existing one', async () => {
    const folder = await tv.app.vault.createFolder('X/Y/Z');
    expect(folder.path).toBe('X/Y/Z');
    expect(log).toEqual(['create X', 'create X/Y', 'create X/Y/Z']);
    await expect(tv.app.vault.createFolder('X/Y')).rejects.toThrow('Folder already exists.');
  });

  it('applies 50 concurrent process calls without losing one', async () => {
    const f = tv.app.vault.getFileByPath('A.md') as TFile;
    await Promise.all(Array.from({ length: 50 }, (_, i) => tv.app.vault.process(f, (data) => `${data}\n${i}`)));
    const lines = (await tv.app.vault.read(f)).split('\n');
    expect(lines[0]).toBe('alpha');
    expect(
      lines
        .slice(1)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(log.filter((l) => l === 'modify A.md').length).toBe(50);
  });

  it('leaves the file untouched when the process callback throws, and skips no-op writes', async () => {
    const f = tv.app.vault.getFileByPath('A.md') as TFile;
    await expect(
      tv.app.vault.process(f, () => {
        throw new Error('nope');
      }),
    ).rejects.toThrow('nope');
    expect(await tv.app.vault.process(f, (d) => d)).toBe('alpha');
    expect(await tv.app.vault.read(f)).toBe('alpha');
    expect(log).toEqual([]);
  });

  it('modifies, appends and serves cachedRead from the last write', async () => {
    const f = tv.app.vault.getFileByPath('A.md') as TFile;
    await tv.app.vault.modify(f, 'one');
    await tv.app.vault.append(f, ' two');
    expect(await tv.app.vault.cachedRead(f)).toBe('one two');
    expect(await fsp.readFile(nodePath.join(tv.dir, 'A.md'), 'utf8')).toBe('one two');
    expect(f.stat.size).toBe(7);
    expect(log).toEqual(['modify A.md', 'modify A.md']);
  });

  it('keeps a text in memory for cachedRead only up to vault.cacheLimit chars, as Obsidian does', async () => {
    const { vault } = tv.app;
    const small = vault.getFileByPath('A.md') as TFile;
    const parsed = new Promise<void>((resolve) => tv.app.metadataCache.on('changed', (file) => file.path === 'Large.md' && resolve()));
    const large = await vault.create('Large.md', 'x'.repeat(vault.cacheLimit + 1));
    await parsed; // the metadata cache's own read of the new note is done before counting
    const reads = jest.spyOn(vault.adapter, 'read');
    /** The disk reads one cachedRead of `file` made. */
    const diskReads = async (file: TFile): Promise<number> => {
      reads.mockClear();
      const text = await vault.cachedRead(file);
      expect(text.length).toBe(file.stat.size);
      return reads.mock.calls.filter(([path]) => path === file.path).length;
    };
    // The small note comes from memory (kept since the load read it); the long one from disk on every call.
    expect([await diskReads(small), await diskReads(large), await diskReads(small), await diskReads(large)]).toEqual([0, 1, 0, 1]);
    reads.mockRestore();
  });

  it('append is an append-mode write: bytes another program appended in between stay, the same inode is kept', async () => {
    const f = tv.app.vault.getFileByPath('A.md') as TFile;
    const full = nodePath.join(tv.dir, 'A.md');
    await tv.app.vault.modify(f, 'one\n');
    const inode = (await fsp.stat(full)).ino;
    await fsp.appendFile(full, 'outside\n');
    await tv.app.vault.append(f, 'two\n');
    expect(await fsp.readFile(full, 'utf8')).toBe('one\noutside\ntwo\n');
    expect((await fsp.stat(full)).ino).toBe(inode);
    expect(await tv.app.vault.cachedRead(f)).toBe('one\noutside\ntwo\n');
    expect(log.slice(-2)).toEqual(['modify A.md', 'modify A.md']);
  });

  it('renames files and folders, refusing an existing target', async () => {
    const v = tv.app.vault;
    const a = v.getFileByPath('A.md') as TFile;
    await v.rename(a, 'New/Place/A2.md');
    expect(a.path).toBe('New/Place/A2.md');
    expect(a.basename).toBe('A2');
    expect(v.getFileByPath('A.md')).toBeNull();
    expect(await fsp.readFile(nodePath.join(tv.dir, 'New/Place/A2.md'), 'utf8')).toBe('alpha');
    await expect(v.rename(a, 'Folder/B.md')).rejects.toThrow('Destination file already exists!');
    const folder = v.getFolderByPath('Folder') as TFolder;
    await v.rename(folder, 'Renamed');
    expect(v.getFileByPath('Renamed/B.md')?.parent).toBe(folder);
    expect(log).toEqual([
      'create New',
      'create New/Place',
      'rename New/Place/A2.md <- A.md',
      'rename Renamed <- Folder',
      'rename Renamed/B.md <- Folder/B.md',
    ]);
  });

  it('trashes into .trash/ (numbering name clashes) and deletes folders with their files', async () => {
    const v = tv.app.vault;
    const first = v.getFileByPath('A.md') as TFile;
    await v.trash(first, true);
    await expect(v.modify(first, 'x')).rejects.toThrow('"A.md" is no longer in the vault');
    await v.create('A.md', 'second');
    await v.trash(v.getFileByPath('A.md') as TFile, false);
    expect((await fsp.readdir(nodePath.join(tv.dir, '.trash'))).sort()).toEqual(['A 1.md', 'A.md']);
    expect(await fsp.readFile(nodePath.join(tv.dir, '.trash/A 1.md'), 'utf8')).toBe('second');
    expect(v.getAbstractFileByPath('.trash/A.md')).toBeNull();
    await v.delete(v.getFolderByPath('Folder') as TFolder, true);
    await expect(fsp.stat(nodePath.join(tv.dir, 'Folder'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(log).toEqual(['delete A.md', 'create A.md', 'delete A.md', 'delete Folder/B.md', 'delete Folder']);
  });

  it('copies files and folders, refusing an existing target', async () => {
    const v = tv.app.vault;
    const copy = await v.copy(v.getFileByPath('A.md') as TFile, 'A copy.md');
    expect(await v.read(copy)).toBe('alpha');
    const folderCopy = await v.copy(v.getFolderByPath('Folder') as TFolder, 'Folder2');
    expect(folderCopy.children.map((c) => c.path)).toEqual(['Folder2/B.md']);
    await expect(v.copy(v.getFileByPath('A.md') as TFile, 'A copy.md')).rejects.toThrow('File already exists.');
    expect(log).toEqual(['create A copy.md', 'create Folder2', 'create Folder2/B.md']);
  });

  it('writes and reads binary files and answers adapter queries', async () => {
    const v = tv.app.vault;
    const bytes = (xs: number[]): ArrayBuffer => new Uint8Array(xs).buffer;
    const bin = await v.createBinary('Folder/data.bin', bytes([1, 2, 3]));
    await v.appendBinary(bin, bytes([4]));
    expect([...new Uint8Array(await v.readBinary(bin))]).toEqual([1, 2, 3, 4]);
    await v.modifyBinary(bin, bytes([9]));
    expect([...new Uint8Array(await v.readBinary(bin))]).toEqual([9]);
    expect(bin.stat.size).toBe(1);
    const a = v.adapter;
    expect(await a.list('Folder')).toEqual({ files: expect.arrayContaining(['Folder/B.md', 'Folder/data.bin']), folders: [] });
    expect(await a.exists('folder/b.md', true)).toBe(false);
    expect(await a.exists('Folder/B.md', true)).toBe(true);
    expect(await a.stat('Folder')).toMatchObject({ type: 'folder' });
    expect(await a.stat('Nope.md')).toBeNull();
    expect(a.getBasePath()).toBe(tv.dir);
    expect(() => a.getFullPath('../outside')).toThrow(/inside the vault/);
    expect(log).toEqual(['create Folder/data.bin', 'modify Folder/data.bin', 'modify Folder/data.bin']);
  });

  it('does not report its own writes again when it syncs with the disk', async () => {
    const f = tv.app.vault.getFileByPath('A.md') as TFile;
    await tv.app.vault.modify(f, 'changed by the host');
    await tv.app.vault.create('C.md', 'c');
    await tv.app.vault.syncFromDisk();
    await tv.app.vault.syncFromDisk();
    expect(log).toEqual(['modify A.md', 'create C.md']);
  });
});

describe('host vault: changes made by other programs', () => {
  let tv: TempVault;
  beforeEach(async () => {
    tv = await createTempVault({ 'A.md': 'alpha [[Later]]' }, { watchIntervalMs: 50 });
  });
  afterEach(() => tv.cleanup());

  it('picks up a file created, changed and deleted on disk, with metadata', async () => {
    const v = tv.app.vault;
    const created = nextEvent(v, 'create', (f: TAbstractFile) => f.path === 'Ext/Later.md');
    const changed = nextEvent(tv.app.metadataCache, 'changed', (f: TFile) => f.path === 'Ext/Later.md');
    await fsp.mkdir(nodePath.join(tv.dir, 'Ext'));
    await fsp.writeFile(nodePath.join(tv.dir, 'Ext/Later.md'), '# Outside\n#external');
    const [file] = await created;
    expect(file).toBeInstanceOf(TFile);
    const [, data, cache] = await changed;
    expect(data).toBe('# Outside\n#external');
    expect(cache.tags.map((t: { tag: string }) => t.tag)).toEqual(['#external']);
    await tv.app.metadataCache.whenResolved();
    expect(tv.app.metadataCache.resolvedLinks['A.md']).toEqual({ 'Ext/Later.md': 1 });

    const modified = nextEvent(v, 'modify', (f: TAbstractFile) => f.path === 'Ext/Later.md');
    await fsp.writeFile(nodePath.join(tv.dir, 'Ext/Later.md'), '# Outside, longer now');
    await modified;
    expect(await v.cachedRead(file)).toBe('# Outside, longer now');

    const deleted = nextEvent(v, 'delete', (f: TAbstractFile) => f.path === 'Ext/Later.md');
    await fsp.rm(nodePath.join(tv.dir, 'Ext/Later.md'));
    await deleted;
    expect(v.getFileByPath('Ext/Later.md')).toBeNull();
    await tv.app.metadataCache.whenResolved();
    expect(tv.app.metadataCache.unresolvedLinks['A.md']).toEqual({ Later: 1 });
  });

  it('watches folders, not files: one OS watch per loaded folder', async () => {
    expect(tv.app.vault.watchedFolderCount).toBe(1);
    await tv.app.vault.createFolder('Made/Here');
    expect(tv.app.vault.watchedFolderCount).toBe(3);
    await tv.app.vault.delete(tv.app.vault.getFolderByPath('Made') as TFolder);
    expect(tv.app.vault.watchedFolderCount).toBe(1);
  });

  it('sees a rename by another program as a delete of the old path and a create of the new, cache moved', async () => {
    const v = tv.app.vault;
    await fsp.mkdir(nodePath.join(tv.dir, 'Ext'));
    await fsp.writeFile(nodePath.join(tv.dir, 'Ext/Old.md'), '#moved');
    await nextEvent(tv.app.metadataCache, 'changed', (f: TFile) => f.path === 'Ext/Old.md');
    const deleted = nextEvent(v, 'delete', (f: TAbstractFile) => f.path === 'Ext/Old.md');
    const changed = nextEvent(tv.app.metadataCache, 'changed', (f: TFile) => f.path === 'Later.md');
    await fsp.rename(nodePath.join(tv.dir, 'Ext/Old.md'), nodePath.join(tv.dir, 'Later.md'));
    await deleted;
    const [, , cache] = await changed;
    expect(cache.tags.map((t: { tag: string }) => t.tag)).toEqual(['#moved']);
    expect(v.getFileByPath('Ext/Old.md')).toBeNull();
    expect(tv.app.metadataCache.getCache('Ext/Old.md')).toBeNull();
    await tv.app.metadataCache.whenResolved();
    expect(tv.app.metadataCache.resolvedLinks['A.md']).toEqual({ 'Later.md': 1 });
  });

  it('picks up a folder created with its notes in one go, and a folder removed with them', async () => {
    const v = tv.app.vault;
    const second = nextEvent(v, 'create', (f: TAbstractFile) => f.path === 'New/Deep/Two.md');
    await fsp.mkdir(nodePath.join(tv.dir, 'New/Deep'), { recursive: true });
    await fsp.writeFile(nodePath.join(tv.dir, 'New/One.md'), 'one');
    await fsp.writeFile(nodePath.join(tv.dir, 'New/Deep/Two.md'), 'two');
    await second;
    expect(v.getFileByPath('New/One.md')).toBeInstanceOf(TFile);
    const gone = nextEvent(v, 'delete', (f: TAbstractFile) => f.path === 'New');
    await fsp.rm(nodePath.join(tv.dir, 'New'), { recursive: true });
    await gone;
    expect(v.getFileByPath('New/Deep/Two.md')).toBeNull();
    expect(v.watchedFolderCount).toBe(1);
  });

  it('reports host writes once while watching, and ignores hidden files written by others', async () => {
    const log = recordEvents(tv);
    const v = tv.app.vault;
    await v.modify(v.getFileByPath('A.md') as TFile, 'changed by the host');
    await v.create('C.md', 'c');
    await fsp.writeFile(nodePath.join(tv.dir, '.hidden.md'), 'x');
    const outside = nextEvent(v, 'create', (f: TAbstractFile) => f.path === 'D.md');
    await fsp.writeFile(nodePath.join(tv.dir, 'D.md'), 'd');
    await outside;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log).toEqual(['modify A.md', 'create C.md', 'create D.md']);
  });
});

describe('host metadata cache: indexing held, as Obsidian’s indexer lagging behind', () => {
  let tv: TempVault | null = null;
  afterEach(async () => {
    await tv?.cleanup();
    tv = null;
  });

  test('while held, a new note has no cache and nothing fires; a modified note keeps its old cache; release parses the queue', async () => {
    tv = await createTempVault({ 'Old.md': '---\ntitle: old\n---\n' }, { watchIntervalMs: false });
    const { vault, metadataCache } = tv.app;
    const fired: string[] = [];
    metadataCache.on('changed', (file: TFile) => fired.push(`changed ${file.path}`));
    metadataCache.on('resolved', () => fired.push('resolved'));
    metadataCache.holdIndexing();
    const created = await vault.create('New.md', '---\naccess: private\n---\n');
    await vault.modify(vault.getFileByPath('Old.md')!, '---\ntitle: new\n---\n');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await metadataCache.whenResolved();
    expect(metadataCache.getFileCache(created)).toBeNull();
    expect(metadataCache.getFileCache(vault.getFileByPath('Old.md')!)?.frontmatter).toEqual({ title: 'old' });
    expect(fired).toEqual([]);
    await metadataCache.releaseIndexing();
    expect(metadataCache.getFileCache(created)?.frontmatter).toEqual({ access: 'private' });
    expect(metadataCache.getFileCache(vault.getFileByPath('Old.md')!)?.frontmatter).toEqual({ title: 'new' });
    expect(fired.sort()).toEqual(['changed New.md', 'changed Old.md', 'resolved']);
  });

  test('held from the start (holdIndexing option), no note has a cache or resolved links until release', async () => {
    tv = await createTempVault(
      { 'A.md': 'to [[B]]\n', 'B.md': '---\naccess: private\n---\n' },
      { watchIntervalMs: false, holdIndexing: true },
    );
    const { vault, metadataCache } = tv.app;
    expect(metadataCache.getFileCache(vault.getFileByPath('A.md')!)).toBeNull();
    expect(metadataCache.getFileCache(vault.getFileByPath('B.md')!)).toBeNull();
    expect(metadataCache.resolvedLinks).toEqual({});
    await metadataCache.releaseIndexing();
    expect(metadataCache.getFileCache(vault.getFileByPath('B.md')!)?.frontmatter).toEqual({ access: 'private' });
    expect(metadataCache.resolvedLinks['A.md']).toEqual({ 'B.md': 1 });
  });
});

describe('host metadata cache: kept across a restart, as Obsidian keeps it', () => {
  let tv: TempVault | null = null;
  let again: Awaited<ReturnType<typeof createHostApp>> | null = null;
  afterEach(async () => {
    await again?.close();
    again = null;
    await tv?.cleanup();
    tv = null;
  });

  test('an unchanged note starts from its saved entry; one changed while closed keeps its old entry until re-parsed', async () => {
    tv = await createTempVault({ 'Same.md': '---\ntitle: same\n---\n', 'Away.md': '---\ntitle: old\n---\n' }, { watchIntervalMs: false });
    const saved = tv.app.metadataCache.savedForRestart();
    expect([...saved.keys()].sort()).toEqual(['Away.md', 'Same.md']);
    await tv.app.close();
    await fsp.writeFile(nodePath.join(tv.dir, 'Away.md'), '---\naccess: private\n---\n');
    const later = new Date(Date.now() + 5_000);
    await fsp.utimes(nodePath.join(tv.dir, 'Away.md'), later, later);
    // The saved entry is what counts for an unchanged note, not a parse of its file: mark it to see which one is served.
    (saved.get('Same.md')!.cache as { frontmatter?: unknown }).frontmatter = { title: 'from the saved cache' };

    again = await createHostApp({ vaultPath: tv.dir, watchIntervalMs: false, holdIndexing: true, savedMetadata: saved });
    const { vault, metadataCache } = again;
    const fired: string[] = [];
    metadataCache.on('changed', (file: TFile) => fired.push(`changed ${file.path}`));
    expect(metadataCache.getFileCache(vault.getFileByPath('Same.md')!)?.frontmatter).toEqual({ title: 'from the saved cache' });
    expect(metadataCache.getFileCache(vault.getFileByPath('Away.md')!)?.frontmatter).toEqual({ title: 'old' });
    await metadataCache.releaseIndexing();
    expect(metadataCache.getFileCache(vault.getFileByPath('Away.md')!)?.frontmatter).toEqual({ access: 'private' });
    expect(metadataCache.getFileCache(vault.getFileByPath('Same.md')!)?.frontmatter).toEqual({ title: 'from the saved cache' });
    expect(fired).toEqual(['changed Away.md']);
  });

  test('not held, the note changed while closed is parsed again in the background after start', async () => {
    tv = await createTempVault({ 'Away.md': 'old\n' }, { watchIntervalMs: false });
    const saved = tv.app.metadataCache.savedForRestart();
    await tv.app.close();
    await fsp.writeFile(nodePath.join(tv.dir, 'Away.md'), '---\naccess: private\n---\nnew\n');
    const later = new Date(Date.now() + 5_000);
    await fsp.utimes(nodePath.join(tv.dir, 'Away.md'), later, later);
    again = await createHostApp({ vaultPath: tv.dir, watchIntervalMs: false, savedMetadata: saved });
    const away = again.vault.getFileByPath('Away.md')!;
    expect(again.metadataCache.getFileCache(away)?.frontmatter).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await again.metadataCache.whenResolved();
    expect(again.metadataCache.getFileCache(away)?.frontmatter).toEqual({ access: 'private' });
  });
});
