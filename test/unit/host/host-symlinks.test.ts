import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { createHostApp, type HostApp, type TAbstractFile } from '../../host/index';

/**
 * The host vault and symbolic links, as Obsidian's help page "Symbolic links and junctions"
 * (help.obsidian.md/symlinks) states them: "Obsidian ignores any symlink to a parent folder of
 * the vault, or from one folder in the vault to another folder in the same vault", "Symlink
 * loops are disallowed"; links to folders outside the vault are followed, and file symlinks "may
 * work, but aren't officially supported" (the page says nothing of ignoring them: they stay).
 */

interface Env {
  root: string;
  vault: string;
  outside: string;
  app: HostApp;
  /** Every vault event as `name path`. */
  events: string[];
  done(): Promise<void>;
}

/**
 * A temp folder holding `vault/` and `outside/`. The vault: `Journal/a.md`, `Projects/p.md`,
 * the folder links `Projects/JLink → ../Journal` (another vault folder) and `Out → <outside>`
 * (outside: followed); the file links `alias.md → Journal/a.md` and `ext.md → <outside>/x.md`.
 * Outside: `x.md`, `Sub/s.md` and `Back → <vault>/Journal` (a link out that leads back in).
 */
async function makeEnv(watchIntervalMs: number | false = false): Promise<Env> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'host-links-'));
  const vault = nodePath.join(root, 'vault');
  const outside = nodePath.join(root, 'outside');
  await fsp.mkdir(nodePath.join(vault, 'Journal'), { recursive: true });
  await fsp.mkdir(nodePath.join(vault, 'Projects'), { recursive: true });
  await fsp.mkdir(nodePath.join(outside, 'Sub'), { recursive: true });
  await fsp.writeFile(nodePath.join(vault, 'Journal', 'a.md'), 'a\n');
  await fsp.writeFile(nodePath.join(vault, 'Projects', 'p.md'), 'p\n');
  await fsp.writeFile(nodePath.join(outside, 'x.md'), 'x\n');
  await fsp.writeFile(nodePath.join(outside, 'Sub', 's.md'), 's\n');
  await fsp.symlink('../Journal', nodePath.join(vault, 'Projects', 'JLink'), 'dir');
  await fsp.symlink(outside, nodePath.join(vault, 'Out'), 'dir');
  await fsp.symlink('Journal/a.md', nodePath.join(vault, 'alias.md'), 'file');
  await fsp.symlink(nodePath.join(outside, 'x.md'), nodePath.join(vault, 'ext.md'), 'file');
  await fsp.symlink(nodePath.join(vault, 'Journal'), nodePath.join(outside, 'Back'), 'dir');
  const app = (await createHostApp({ vaultPath: vault, watchIntervalMs })) as HostApp;
  const events: string[] = [];
  for (const name of ['create', 'modify', 'delete', 'rename'])
    app.vault.on(name, (f: TAbstractFile, old?: string) => events.push(`${name} ${f.path}${old ? ' <- ' + old : ''}`));
  return {
    root,
    vault,
    outside,
    app,
    events,
    done: async () => {
      await app.close();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}

function paths(app: HostApp): string[] {
  return app.vault
    .getAllLoadedFiles()
    .map((f) => f.path)
    .filter((p) => p !== '/')
    .sort();
}

/** What the index holds when the page's rules are kept: each in-vault note at its one real path. */
const EXPECTED = [
  'Journal',
  'Journal/a.md',
  'Out',
  'Out/Sub',
  'Out/Sub/s.md',
  'Out/x.md',
  'Projects',
  'Projects/p.md',
  'alias.md',
  'ext.md',
];

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('host vault: symbolic links Obsidian ignores', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('loading: a folder link into the vault (also through a link out) is not listed; links out and file links are', async () => {
    env = await makeEnv();
    expect(paths(env.app)).toEqual(EXPECTED);
    for (const p of ['Projects/JLink', 'Projects/JLink/a.md', 'Out/Back', 'Out/Back/a.md'])
      expect([p, env.app.vault.getAbstractFileByPath(p)]).toEqual([p, null]);
    // A file link, even to a vault note, stays (the page does not say Obsidian ignores one).
    expect(await env.app.vault.read(env.app.vault.getFileByPath('alias.md')!)).toBe('a\n');
    // The adapter still reaches the disk through the link (a plain disk path), as Obsidian's adapter does.
    expect((await env.app.vault.adapter.list('Projects')).folders).toEqual(['Projects/JLink']);
  });

  test('loading: links to the vault root, to the folder holding the vault, and loops are not listed', async () => {
    const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'host-links-'));
    const vault = nodePath.join(root, 'vault');
    const outside = nodePath.join(root, 'outside');
    await fsp.mkdir(nodePath.join(vault, 'Projects'), { recursive: true });
    await fsp.mkdir(outside);
    await fsp.writeFile(nodePath.join(vault, 'Projects', 'p.md'), 'p\n');
    await fsp.writeFile(nodePath.join(outside, 'x.md'), 'x\n');
    await fsp.symlink('..', nodePath.join(vault, 'Projects', 'Up'), 'dir');
    await fsp.symlink('.', nodePath.join(vault, 'Self'), 'dir');
    await fsp.symlink('..', nodePath.join(vault, 'Parent'), 'dir');
    await fsp.symlink(outside, nodePath.join(vault, 'Out'), 'dir');
    await fsp.symlink('.', nodePath.join(outside, 'Loop'), 'dir');
    const app = (await createHostApp({ vaultPath: vault, watchIntervalMs: false })) as HostApp;
    try {
      expect(paths(app)).toEqual(['Out', 'Out/x.md', 'Projects', 'Projects/p.md']);
      await app.vault.syncFromDisk();
      expect(paths(app)).toEqual(['Out', 'Out/x.md', 'Projects', 'Projects/p.md']);
    } finally {
      await app.close();
      await fsp.rm(root, { recursive: true, force: true });
    }
  });

  test('a full rescan (syncFromDisk) keeps them out and fires nothing for them', async () => {
    env = await makeEnv();
    await env.app.vault.syncFromDisk();
    expect(paths(env.app)).toEqual(EXPECTED);
    expect(env.events).toEqual([]);
  });

  test('while watching: a link made into the vault, or a folder replaced by one, brings no entry and no event; a link out does', async () => {
    env = await makeEnv(30);
    await fsp.mkdir(nodePath.join(env.root, 'outside2'));
    await fsp.writeFile(nodePath.join(env.root, 'outside2', 'y.md'), 'y\n');
    await fsp.symlink('Journal', nodePath.join(env.vault, 'J2'), 'dir');
    await fsp.symlink('../..', nodePath.join(env.vault, 'Projects', 'Top'), 'dir');
    await fsp.symlink(nodePath.join(env.root, 'outside2'), nodePath.join(env.vault, 'Out2'), 'dir');
    await until(() => env!.app.vault.getFileByPath('Out2/y.md') !== null);
    // A note written into the real folder is reported at its real path only.
    await fsp.writeFile(nodePath.join(env.vault, 'Journal', 'b.md'), 'b\n');
    await until(() => env!.app.vault.getFileByPath('Journal/b.md') !== null);
    // A folder of the vault replaced by a link to another vault folder: its entries go, none come back under it.
    await fsp.rm(nodePath.join(env.vault, 'Projects'), { recursive: true });
    await fsp.symlink('Journal', nodePath.join(env.vault, 'Projects'), 'dir');
    await until(() => env!.app.vault.getAbstractFileByPath('Projects') === null);
    await new Promise((r) => setTimeout(r, 200));
    expect(paths(env.app)).toEqual([
      'Journal',
      'Journal/a.md',
      'Journal/b.md',
      'Out',
      'Out/Sub',
      'Out/Sub/s.md',
      'Out/x.md',
      'Out2',
      'Out2/y.md',
      'alias.md',
      'ext.md',
    ]);
    expect(env.events.filter((e) => /^create (J2|Projects)/.test(e) || /J2|Top|JLink/.test(e))).toEqual([]);
    expect(env.events).toContain('create Journal/b.md');
  });

  test('a folder the vault copies with an in-vault link inside: the copy lists no entry under the link', async () => {
    env = await makeEnv();
    await env.app.vault.copy(env.app.vault.getFolderByPath('Projects')!, 'Copy');
    expect(paths(env.app).filter((p) => p.startsWith('Copy'))).toEqual(['Copy', 'Copy/p.md']);
    expect(env.events.filter((e) => e.includes('Copy/JLink') || e.includes('Copy/Up'))).toEqual([]);
  });

  test('a link reached through a link out that leads back into the vault, or loops, is ignored at any depth', async () => {
    env = await makeEnv();
    await fsp.mkdir(nodePath.join(env.outside, 'Sub', 'Deeper'));
    await fsp.symlink(nodePath.join(env.vault, 'Projects'), nodePath.join(env.outside, 'Sub', 'Deeper', 'P'), 'dir');
    await fsp.symlink('../..', nodePath.join(env.outside, 'Sub', 'Deeper', 'L'), 'dir');
    await env.app.vault.syncFromDisk();
    expect(paths(env.app).filter((p) => p.startsWith('Out/'))).toEqual(['Out/Sub', 'Out/Sub/Deeper', 'Out/Sub/s.md', 'Out/x.md']);
  });
});
