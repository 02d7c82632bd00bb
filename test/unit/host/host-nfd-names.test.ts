import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHostApp, type HostApp } from '../../host/index';
import { waitUntil } from '../../harness/wait-until';
import { scanVaultFolder } from '../../host/vault/watcher';

/** `Cafés/Crème brûlée.md` with every name stored in NFD on disk, as macOS-synced vaults have them. */
const NFD_FOLDER = 'Cafe\u0301s';
const NFD_NOTE = 'Cre\u0300me bru\u0302le\u0301e.md';
const NFC_PATH = 'Cafés/Crème brûlée.md'.normalize('NFC');

let dir: string;
let app: HostApp;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'host-nfd-'));
  await fsp.mkdir(path.join(dir, NFD_FOLDER));
  await fsp.writeFile(path.join(dir, NFD_FOLDER, NFD_NOTE), '# Crème brûlée\n\nSee [[Other]].\n');
  await fsp.writeFile(path.join(dir, 'Other.md'), 'Links to [[Crème brûlée]].\n');
});

afterEach(async () => {
  await app?.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('host vault with NFD names on disk', () => {
  test('loads them under NFC paths, indexes, reads and writes them in place', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    app = await createHostApp({ vaultPath: dir, watchIntervalMs: false });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    const file = app.vault.getFileByPath(NFC_PATH);
    expect(file).not.toBeNull();
    expect(app.metadataCache.getFileCache(file!)?.headings?.[0].heading).toBe('Crème brûlée');
    expect(app.metadataCache.resolvedLinks['Other.md']).toEqual({ [NFC_PATH]: 1 });
    expect(await app.vault.read(file!)).toContain('# Crème brûlée');
    await app.vault.process(file!, (text) => text + 'Added.\n');
    // Written to the same on-disk entry: no second NFC twin appears.
    expect(await fsp.readdir(path.join(dir, NFD_FOLDER))).toEqual([NFD_NOTE]);
    expect(await fsp.readFile(path.join(dir, NFD_FOLDER, NFD_NOTE), 'utf8')).toMatch(/Added\.\n$/);
    expect(await app.vault.adapter.exists(NFC_PATH, true)).toBe(true);
  });

  test('new notes in an NFD folder, renames and trash work, and a disk scan keeps the mapping', async () => {
    app = await createHostApp({ vaultPath: dir, watchIntervalMs: false });
    const created = await app.vault.create('Cafés/New.md'.normalize('NFC'), 'new\n');
    expect(await fsp.readdir(path.join(dir, NFD_FOLDER))).toEqual(expect.arrayContaining(['New.md', NFD_NOTE]));
    const file = app.vault.getFileByPath(NFC_PATH)!;
    await app.vault.rename(file, 'Cafés/Renamed.md'.normalize('NFC'));
    expect((await fsp.readdir(path.join(dir, NFD_FOLDER))).sort()).toEqual(['New.md', 'Renamed.md']);
    await app.vault.syncFromDisk();
    expect(app.vault.getFileByPath(created.path)).toBe(created);
    await app.vault.trash(created, false);
    expect(await fsp.readdir(path.join(dir, '.trash'))).toEqual(['New.md']);
    const folder = app.vault.getFolderByPath('Cafés'.normalize('NFC'))!;
    await app.vault.rename(folder, 'Moved');
    expect(app.vault.getFileByPath('Moved/Renamed.md')).not.toBeNull();
    expect(await app.vault.read(app.vault.getFileByPath('Moved/Renamed.md')!)).toContain('Crème');
  });

  test('a note added on disk in NFD is picked up by the disk scan under its NFC path', async () => {
    app = await createHostApp({ vaultPath: dir, watchIntervalMs: false });
    await fsp.writeFile(path.join(dir, NFD_FOLDER, 'U\u0308ber.md'), 'über\n');
    await app.vault.syncFromDisk();
    const file = app.vault.getFileByPath('Cafés/Über.md'.normalize('NFC'));
    expect(file).not.toBeNull();
    expect(await app.vault.read(file!)).toBe('über\n');
  });

  test('the disk watcher picks up a note added in NFD under its NFC path, and its removal', async () => {
    app = await createHostApp({ vaultPath: dir, watchIntervalMs: 20 });
    const nfc = 'Cafés/Über.md'.normalize('NFC');
    const created = new Promise<void>((resolve) => app.vault.on('create', (f: { path: string }) => f.path === nfc && resolve()));
    await fsp.writeFile(path.join(dir, NFD_FOLDER, 'U\u0308ber.md'), 'über\n');
    await created;
    expect(await app.vault.read(app.vault.getFileByPath(nfc)!)).toBe('über\n');
    const deleted = new Promise<void>((resolve) => app.vault.on('delete', (f: { path: string }) => f.path === nfc && resolve()));
    await fsp.rm(path.join(dir, NFD_FOLDER, 'U\u0308ber.md'));
    await deleted;
    expect(app.vault.getFileByPath(nfc)).toBeNull();
    expect(app.vault.getFileByPath(NFC_PATH)).not.toBeNull();
  });

  test('the watcher keeps the disk spelling of an NFD folder made while running, and of an NFD note another program changes', async () => {
    app = await createHostApp({ vaultPath: dir, watchIntervalMs: 20 });
    const folder = 'Mappe u\u0308';
    const nfc = 'Mappe ü/a.md'.normalize('NFC');
    await fsp.mkdir(path.join(dir, folder));
    await fsp.writeFile(path.join(dir, folder, 'a.md'), 'a\n');
    await waitUntil(() => app.vault.getFileByPath(nfc) !== null, 'the new NFD folder and its note');
    // The folder's own watcher rescans it once it is watched: the disk spelling must survive that scan.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await app.vault.process(app.vault.getFileByPath(nfc)!, (text) => text + 'b\n');
    await app.vault.create('Mappe ü/new.md'.normalize('NFC'), 'new\n');
    expect((await fsp.readdir(dir)).filter((n) => n.normalize('NFC') === 'Mappe ü'.normalize('NFC'))).toEqual([folder]);
    expect((await fsp.readdir(path.join(dir, folder))).sort()).toEqual(['a.md', 'new.md']);
    expect(await fsp.readFile(path.join(dir, folder, 'a.md'), 'utf8')).toBe('a\nb\n');
    // Another program rewrites an NFD note: the rescan of that note keeps its spelling, so the next write reaches it.
    const modified = new Promise<void>((resolve) => app.vault.on('modify', (f: { path: string }) => f.path === NFC_PATH && resolve()));
    await fsp.writeFile(path.join(dir, NFD_FOLDER, NFD_NOTE), 'outside\n');
    await modified;
    await app.vault.process(app.vault.getFileByPath(NFC_PATH)!, (text) => text + 'inside\n');
    expect(await fsp.readdir(path.join(dir, NFD_FOLDER))).toEqual([NFD_NOTE]);
    expect(await fsp.readFile(path.join(dir, NFD_FOLDER, NFD_NOTE), 'utf8')).toBe('outside\ninside\n');
  });
});

describe('host scan of twin names that differ only in Unicode form', () => {
  test('keeps the NFC-named one under the shared path, whatever order the disk lists them or their stats finish in', async () => {
    const nfc = 'R\u00e9sum\u00e9.md';
    const nfd = 'Re\u0301sume\u0301.md';
    await fsp.writeFile(path.join(dir, nfc), 'nfc\n');
    await fsp.writeFile(path.join(dir, nfd), 'nfd text\n');
    // The path went to whichever stat finished last: the NFD twin now and then (an integration test failed on it).
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 20; i++) {
        const scanned = await scanVaultFolder(dir, '.obsidian');
        expect(scanned.get(nfc)).toMatchObject({ type: 'file', size: 'nfc\n'.length });
        expect(scanned.get(nfc)?.diskName).toBeUndefined();
      }
      // The other is left out with one line, as a name holding a backslash is (newcomer finding: it went unsaid).
      expect(warn.mock.calls).toEqual([
        [expect.stringMatching(new RegExp(`^\\[host\\] left out "${nfd}": its name differs from "${nfc}" beside it only in Unicode form`))],
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});
