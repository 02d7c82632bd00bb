import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { createHostApp, type HostApp } from '../../../host/index';
import { OutsideLinks } from '../../../../src/vault/access/outside-links';

/** What OutsideLinks.placeNow answers for a regular file with `names` names at `place`: the file as its `stat` saw it. */
function regularFile(place: { outside: boolean; alias: string | null }, names: number): object {
  return { entry: 'file', place, names, file: expect.objectContaining({ links: names }) };
}

// Counted, not changed: which disk calls a check makes (node:fs's own functions cannot be spied on).
jest.mock('node:fs', () => {
  const actual = jest.requireActual<typeof import('node:fs')>('node:fs');
  return { ...actual, lstatSync: jest.fn(actual.lstatSync), readdirSync: jest.fn(actual.readdirSync) };
});

/**
 * OutsideLinks (issue 12, symlinks out of the vault) on a real folder: which entries are
 * outside, that a folder's real path is resolved once for all the notes in it, and how many
 * answers its cache holds before it starts over.
 */

interface Env {
  app: HostApp;
  vault: string;
  outside: string;
  done(): Promise<void>;
}

/**
 * A vault with `Deep/a/b/n0..n(notes-1).md`, `LinkedDir → <outside folder>` (holding
 * `Secret.md` and a plain folder `Sub/Inner.md`), `passwd.md → <outside file>`,
 * `Alias → Deep` (a link that stays inside), `Deep/a/b/away.md → <outside file>` and
 * `dangling.md → <nothing>`.
 */
async function makeEnv(notes = 3): Promise<Env> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-outside-'));
  const vault = nodePath.join(root, 'vault');
  const outside = nodePath.join(root, 'outside');
  const deep = nodePath.join(vault, 'Deep', 'a', 'b');
  await fsp.mkdir(deep, { recursive: true });
  await fsp.mkdir(nodePath.join(outside, 'Sub'), { recursive: true });
  await fsp.writeFile(nodePath.join(outside, 'Secret.md'), 'secret\n');
  await fsp.writeFile(nodePath.join(outside, 'Sub', 'Inner.md'), 'inner\n');
  await fsp.writeFile(nodePath.join(root, 'passwd'), 'root:x:0:0\n');
  for (let i = 0; i < notes; i++) await fsp.writeFile(nodePath.join(deep, `n${i}.md`), `note ${i}\n`);
  await fsp.symlink(outside, nodePath.join(vault, 'LinkedDir'), 'dir');
  await fsp.symlink(nodePath.join(root, 'passwd'), nodePath.join(vault, 'passwd.md'), 'file');
  await fsp.symlink(nodePath.join(root, 'passwd'), nodePath.join(deep, 'away.md'), 'file');
  await fsp.symlink(nodePath.join(vault, 'Deep'), nodePath.join(vault, 'Alias'), 'dir');
  await fsp.symlink(nodePath.join(root, 'nothing-here'), nodePath.join(vault, 'dangling.md'), 'file');
  const app = (await createHostApp({ vaultPath: vault, watchIntervalMs: false })) as HostApp;
  return {
    app,
    vault,
    outside,
    done: async () => {
      await app.close();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}

describe('OutsideLinks', () => {
  let env: Env;
  afterEach(async () => {
    jest.restoreAllMocks();
    await env?.done();
  });

  it('finds links out of the vault and what lies below them, and nothing else', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    try {
      const answers = Object.fromEntries(
        [
          '',
          'Deep',
          'Deep/a/b',
          'Deep/a/b/n0.md',
          'Deep/a/b/away.md',
          'passwd.md',
          'dangling.md',
          'LinkedDir',
          'LinkedDir/Secret.md',
          'LinkedDir/Sub',
          'LinkedDir/Sub/Inner.md',
          'LinkedDir/new.md',
          'LinkedDir/Missing/deeper/x.md',
          'Alias/a/b/n1.md',
          'Alias/a/b/away.md',
          'Deep/missing/x.md',
        ].map((path) => [path, links.placeOf(path).outside]),
      );
      expect(answers).toEqual({
        '': false,
        Deep: false,
        'Deep/a/b': false,
        'Deep/a/b/n0.md': false,
        'Deep/a/b/away.md': true,
        'passwd.md': true,
        'dangling.md': true,
        LinkedDir: true,
        'LinkedDir/Secret.md': true,
        'LinkedDir/Sub': true,
        'LinkedDir/Sub/Inner.md': true,
        'LinkedDir/new.md': true,
        'LinkedDir/Missing/deeper/x.md': true,
        'Alias/a/b/n1.md': false,
        'Alias/a/b/away.md': true,
        'Deep/missing/x.md': false,
      });
    } finally {
      links.close();
    }
  });

  it('widens the rule at and below a trusted link only, and for a trusted plain folder inside a link out', async () => {
    env = await makeEnv();
    let trusted = ['LinkedDir'];
    const links = new OutsideLinks(env.app as never, () => trusted);
    try {
      expect(['LinkedDir', 'LinkedDir/Secret.md', 'LinkedDir/Sub/Inner.md', 'passwd.md'].map((p) => links.placeOf(p).outside)).toEqual([
        false,
        false,
        false,
        true,
      ]);
      trusted = ['LinkedDir/Sub'];
      expect(['LinkedDir/Sub', 'LinkedDir/Sub/Inner.md', 'LinkedDir/Secret.md'].map((p) => links.placeOf(p).outside)).toEqual([
        false,
        false,
        true,
      ]);
      trusted = ['../escape', '', 'missing-link'];
      expect(links.placeOf('LinkedDir/Secret.md').outside).toBe(true);
    } finally {
      links.close();
    }
  });

  it('resolves a folder once for all its notes: a note that is not a link costs no realpath', async () => {
    env = await makeEnv(40);
    const realpaths = jest.spyOn(fs.realpathSync, 'native');
    const links = new OutsideLinks(env.app as never, () => []);
    try {
      for (let i = 0; i < 40; i++) expect(links.placeOf(`Deep/a/b/n${i}.md`).outside).toBe(false);
      // The vault folder and Deep, Deep/a, Deep/a/b are plain folders: only the vault folder is resolved.
      expect(realpaths.mock.calls.length).toBeLessThanOrEqual(1);
      expect(links.placeOf('Deep/a/b/away.md').outside).toBe(true);
      expect(realpaths.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      links.close();
    }
  });

  it('tells plain notes from links by one listing of their folder, and asks the disk for any name the listing does not call plain', async () => {
    env = await makeEnv(40);
    const lstats = jest.mocked(fs.lstatSync);
    const listings = jest.mocked(fs.readdirSync);
    lstats.mockClear();
    listings.mockClear();
    const links = new OutsideLinks(env.app as never, () => []);
    try {
      for (let i = 0; i < 40; i++) expect(links.placeOf(`Deep/a/b/n${i}.md`).outside).toBe(false);
      // One listing of each folder on the way up (Deep/a/b, Deep/a, Deep, the vault folder), no lstat.
      expect(listings.mock.calls.length).toBe(4);
      expect(lstats).not.toHaveBeenCalled();
      expect(links.placeOf('Deep/a/b/away.md').outside).toBe(true);
      // A link made after the listing (the vault has not reported it yet) is not in it: asked of the disk.
      await fsp.symlink(nodePath.join(env.outside, 'Secret.md'), nodePath.join(env.vault, 'Deep', 'a', 'b', 'late.md'), 'file');
      expect(links.placeOf('Deep/a/b/late.md').outside).toBe(true);
      expect(listings.mock.calls.length).toBe(4);
    } finally {
      links.close();
    }
  });

  it('lists a folder again once the vault reports a change in it: a plain note replaced by a link out is outside', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    try {
      expect(links.placeOf('Deep/a/b/n0.md').outside).toBe(false);
      const note = env.app.vault.getAbstractFileByPath('Deep/a/b/n0.md');
      expect(note).not.toBeNull();
      await fsp.rm(nodePath.join(env.vault, 'Deep', 'a', 'b', 'n0.md'));
      await fsp.symlink(nodePath.join(env.outside, 'Secret.md'), nodePath.join(env.vault, 'Deep', 'a', 'b', 'n0.md'), 'file');
      env.app.vault.trigger('delete', note);
      expect(links.placeOf('Deep/a/b/n0.md').outside).toBe(true);
      expect(links.placeOf('Deep/a/b/n1.md').outside).toBe(false);
    } finally {
      links.close();
    }
  });

  it('drops the answers of a file below a trusted link that the vault reports modified, whatever event or setting came before, without a pass over the cache', async () => {
    env = await makeEnv();
    let trusted = ['LinkedDir'];
    const links = new OutsideLinks(env.app as never, () => trusted);
    const cache = (links as unknown as { cache: Map<string, unknown> }).cache;
    const root = nodePath.dirname(env.vault);
    const passwd = nodePath.join(root, 'passwd');
    await fsp.writeFile(nodePath.join(env.outside, 'Other.md'), 'other\n');
    /** Replaces the file at `rel` in the outside folder by a link to the passwd file (a sync tool's rename over it) and reports a modify. */
    const swap = async (rel: string): Promise<void> => {
      await fsp.rm(nodePath.join(env.outside, rel));
      await fsp.symlink(passwd, nodePath.join(env.outside, rel), 'file');
      env.app.vault.trigger('modify', { path: `LinkedDir/${rel}` });
    };
    try {
      for (let i = 0; i < 50; i++) links.placeOf(`Deep/a/b/missing-${i}.md`);
      expect(links.placeOf('LinkedDir/Secret.md').outside).toBe(false);
      const keys = jest.spyOn(cache, 'keys');
      await swap('Secret.md');
      expect(keys).not.toHaveBeenCalled();
      expect(links.placeOf('LinkedDir/Secret.md').outside).toBe(true);
      // Any create, delete or rename in the vault between the lookup and the modify.
      expect(links.placeOf('LinkedDir/Other.md').outside).toBe(false);
      env.app.vault.trigger('create', env.app.vault.getAbstractFileByPath('Deep/a/b/n0.md'));
      keys.mockClear();
      await swap('Other.md');
      expect(keys).not.toHaveBeenCalled();
      expect(links.placeOf('LinkedDir/Other.md').outside).toBe(true);
      // The trusted list emptied, then given back, with the modify in between.
      expect(links.placeOf('LinkedDir/Sub/Inner.md').outside).toBe(false);
      trusted = [];
      expect(links.placeOf('Deep/a/b/n1.md').outside).toBe(false);
      await swap('Sub/Inner.md');
      trusted = ['LinkedDir'];
      expect(links.placeOf('LinkedDir/Sub/Inner.md').outside).toBe(true);
    } finally {
      links.close();
    }
  });

  it('forgets the answers below a renamed or deleted folder', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    try {
      expect(links.placeOf('Deep/a/b/n0.md').outside).toBe(false);
      // Deep/a becomes a link out of the vault: the vault reports the old folder deleted and a new one created.
      await fsp.rm(nodePath.join(env.vault, 'Deep', 'a'), { recursive: true });
      await fsp.symlink(env.outside, nodePath.join(env.vault, 'Deep', 'a'), 'dir');
      await fsp.mkdir(nodePath.join(env.outside, 'b'));
      await fsp.writeFile(nodePath.join(env.outside, 'b', 'n0.md'), 'now outside\n');
      const folder = env.app.vault.getAbstractFileByPath('Deep/a');
      expect(folder).not.toBeNull();
      env.app.vault.trigger('delete', folder);
      expect(links.placeOf('Deep/a/b/n0.md').outside).toBe(true);
    } finally {
      links.close();
    }
  });

  describe('cache bound', () => {
    const sizeOf = (links: OutsideLinks): number => (links as unknown as { cache: Map<string, unknown> }).cache.size;

    it('keeps 10,000 answers in a small vault, then starts over', async () => {
      env = await makeEnv();
      const links = new OutsideLinks(env.app as never, () => []);
      try {
        for (let i = 0; i < 10_000; i++) links.placeOf(`missing-${i}.md`);
        expect(sizeOf(links)).toBe(10_000);
        links.placeOf('one-more.md');
        expect(sizeOf(links)).toBe(1);
        expect(links.placeOf('passwd.md').outside).toBe(true);
      } finally {
        links.close();
      }
    });

    it('grows to twice the vault entries past 10,000, so every note of a large vault keeps its answer', async () => {
      env = await makeEnv();
      const entries = env.app.vault.getAllLoadedFiles();
      // A vault of 7,000 entries (the listed ones repeated): the bound becomes 14,000.
      jest.spyOn(env.app.vault, 'getAllLoadedFiles').mockReturnValue(Array.from({ length: 7_000 }, (_, i) => entries[i % entries.length]));
      const links = new OutsideLinks(env.app as never, () => []);
      try {
        for (let i = 0; i < 14_000; i++) links.placeOf(`missing-${i}.md`);
        expect(sizeOf(links)).toBe(14_000);
        links.placeOf('one-more.md');
        expect(sizeOf(links)).toBe(1);
      } finally {
        links.close();
      }
    });
  });
});

describe('OutsideLinks.placeOf: where an entry reached through a link inside the vault really lies', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('below an in-vault folder link: the real vault path, for existing and missing entries; null elsewhere', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    expect(links.placeOf('Alias').alias).toBe('Deep');
    expect(links.placeOf('Alias/a/b/n0.md').alias).toBe('Deep/a/b/n0.md');
    expect(links.placeOf('Alias/a/new/note.md').alias).toBe('Deep/a/new/note.md');
    for (const path of ['Deep/a/b/n0.md', 'Deep', 'missing/x.md', 'LinkedDir/Secret.md', 'passwd.md', ''])
      expect([path, links.placeOf(path).alias]).toEqual([path, null]);
    // A link inside the vault that names the vault root: its entries lie at the root's paths.
    await fsp.symlink('..', nodePath.join(env.vault, 'Deep', 'Top'), 'dir');
    expect(links.placeOf('Deep/Top').alias).toBe('');
    expect(links.placeOf('Deep/Top/Alias').alias).toBe('Deep');
    links.close();
  });
});

describe('OutsideLinks.linkTargetOf, vaultPathOnDisk and fileOf: what a link names and which disk file a path is (agent instructions, InstructionPlaces)', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test("a link's target as a vault path, also when it dangles; null for a plain entry, a link out of the vault or a missing path", async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    await fsp.symlink('../gone/rules.md', nodePath.join(env.vault, 'Deep', 'AGENTS.md'), 'file');
    await fsp.symlink('a/b/n0.md', nodePath.join(env.vault, 'Deep', 'near.md'), 'file');
    expect(links.linkTargetOf('Deep/AGENTS.md')).toBe('gone/rules.md');
    expect(links.linkTargetOf('Deep/near.md')).toBe('Deep/a/b/n0.md');
    expect(links.linkTargetOf('Alias')).toBe('Deep');
    expect(links.linkTargetOf('Alias/a/b/n0.md')).toBeNull();
    for (const path of ['Deep/a/b/n0.md', 'passwd.md', 'dangling.md', 'LinkedDir', 'missing.md', ''])
      expect([path, links.linkTargetOf(path)]).toEqual([path, null]);
    links.close();
  });

  test('vaultPathOnDisk: where a path Obsidian does not list lies now, through links at any segment; null in place, outside, dangling or malformed', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    await fsp.mkdir(nodePath.join(env.vault, '.claude', 'rules'), { recursive: true });
    await fsp.symlink('../../Deep/a/b/n0.md', nodePath.join(env.vault, '.claude', 'rules', 'team.md'), 'file');
    await fsp.symlink('../../Deep/a', nodePath.join(env.vault, '.claude', 'rules', 'shared'), 'dir');
    await fsp.symlink('../..', nodePath.join(env.vault, '.claude', 'rules', 'root'), 'dir');
    expect(links.vaultPathOnDisk('.claude/rules/team.md')).toBe('Deep/a/b/n0.md');
    expect(links.vaultPathOnDisk('.claude/rules/shared')).toBe('Deep/a');
    expect(links.vaultPathOnDisk('.claude/rules/shared/b/n1.md')).toBe('Deep/a/b/n1.md');
    // Missing below a link: the rest joined to where the link leads.
    expect(links.vaultPathOnDisk('.claude/rules/shared/new.md')).toBe('Deep/a/new.md');
    expect(links.vaultPathOnDisk('.claude/rules/root')).toBe('');
    // Re-pointed: judged again, nothing kept.
    await fsp.rm(nodePath.join(env.vault, '.claude', 'rules', 'team.md'));
    await fsp.symlink('../../Deep/a/b/n1.md', nodePath.join(env.vault, '.claude', 'rules', 'team.md'), 'file');
    expect(links.vaultPathOnDisk('.claude/rules/team.md')).toBe('Deep/a/b/n1.md');
    for (const path of [
      '.claude/rules',
      '.claude/rules/missing.md',
      'Deep/a/b/n0.md',
      'LinkedDir/Secret.md',
      'passwd.md',
      'dangling.md',
      '',
      '../x',
    ])
      expect([path, links.vaultPathOnDisk(path)]).toEqual([path, null]);
    links.close();
  });

  test('a hard link has the same id as its other name and counts two names; a plain note one', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => []);
    await fsp.link(nodePath.join(env.vault, 'Deep/a/b/n0.md'), nodePath.join(env.vault, 'hard.md'));
    const hard = links.fileOf('hard.md');
    // Its stamp is the very one a plain `fs.stat` gives (mtimeMs, size), so stamps taken either way compare equal.
    const plain = await fsp.stat(nodePath.join(env.vault, 'hard.md'));
    expect(hard).toEqual({ id: expect.any(String), links: 2, mtime: plain.mtimeMs, size: plain.size });
    expect(links.fileOf('Deep/a/b/n0.md')).toEqual(hard);
    expect(links.fileOf('Deep/a/b/n1.md')).toEqual(expect.objectContaining({ id: expect.not.stringMatching(`^${hard!.id}$`), links: 1 }));
    expect(links.fileOf('Alias/a/b/n0.md')).toEqual(hard);
    for (const path of ['Deep', 'missing.md', 'dangling.md', '']) expect([path, links.fileOf(path)]).toEqual([path, null]);
    links.close();
  });

  test('placeNow judges the disk now: a dangling link put where placeOf answered "in place" is seen, at the path and on the way', async () => {
    env = await makeEnv();
    const links = new OutsideLinks(env.app as never, () => ['LinkedDir']);
    const inPlace = { outside: false, alias: null };
    const outside = { outside: true, alias: null };
    // Cached while nothing was there; no vault event tells of the links made below.
    expect(links.placeOf('Deep/new.md')).toEqual(inPlace);
    expect(links.placeOf('Gone/x.md')).toEqual(inPlace);
    await fsp.symlink('../Journal/w6.md', nodePath.join(env.vault, 'Deep', 'new.md'), 'file');
    await fsp.symlink(nodePath.join(env.outside, 'nowhere'), nodePath.join(env.vault, 'Gone'), 'dir');
    expect(links.placeOf('Deep/new.md')).toEqual(inPlace);
    expect(links.placeNow('Deep/new.md')).toEqual({ entry: 'link', place: outside, names: 0, file: null });
    expect(links.placeNow('Gone/x.md')).toEqual({ entry: 'none', place: outside, names: 0, file: null });
    // The fresh answer replaces the cached one.
    expect(links.placeOf('Deep/new.md')).toEqual(outside);
    // A plain note, a free name, a folder; a link into the vault; a hard link; a trusted link counts as what it leads to.
    await fsp.link(nodePath.join(env.vault, 'Deep/a/b/n1.md'), nodePath.join(env.vault, 'hard.md'));
    expect(links.placeNow('Deep/a/b/n0.md')).toEqual(regularFile(inPlace, 1));
    expect(links.placeNow('Deep/a/b/free.md')).toEqual({ entry: 'none', place: inPlace, names: 0, file: null });
    expect(links.placeNow('Deep/a')).toEqual({ entry: 'other', place: inPlace, names: 0, file: null });
    expect(links.placeNow('Alias/a/b/n0.md')).toEqual(regularFile({ outside: false, alias: 'Deep/a/b/n0.md' }, 1));
    expect(links.placeNow('hard.md')).toEqual(regularFile(inPlace, 2));
    expect(links.placeNow('passwd.md')).toEqual({ entry: 'link', place: outside, names: 0, file: null });
    expect(links.placeNow('LinkedDir/Secret.md')).toEqual(regularFile(inPlace, 1));
    expect(links.placeNow('LinkedDir')).toEqual({ entry: 'other', place: inPlace, names: 0, file: null });
    expect(links.placeNow('')).toBeNull();
    links.close();
  });

  test('placeNow judges a trusted link re-pointed or made since a lookup by its target now, for the write and for later lookups', async () => {
    env = await makeEnv();
    const root = nodePath.dirname(env.vault);
    const other = nodePath.join(root, 'other');
    await fsp.mkdir(other);
    await fsp.writeFile(nodePath.join(other, 'Note.md'), 'other\n');
    // In the new target, a link back into the old one: out of what the trusted link now leads to.
    await fsp.symlink(nodePath.join(env.outside, 'Sub'), nodePath.join(other, 'Sub'), 'dir');
    const links = new OutsideLinks(env.app as never, () => ['LinkedDir', 'Later']);
    const inPlace = { outside: false, alias: null };
    const outside = { outside: true, alias: null };
    expect(links.placeOf('LinkedDir/Sub/Inner.md')).toEqual(inPlace);
    expect(links.placeNow('LinkedDir/Sub/Inner.md')).toEqual(regularFile(inPlace, 1));
    // Nothing there yet: `Later` trusts nothing.
    expect(links.placeNow('Later/Secret.md')).toEqual({ entry: 'none', place: inPlace, names: 0, file: null });
    // Re-pointed (`ln -sfn`) and made with no vault event.
    await fsp.rm(nodePath.join(env.vault, 'LinkedDir'));
    await fsp.symlink(other, nodePath.join(env.vault, 'LinkedDir'), 'dir');
    await fsp.symlink(env.outside, nodePath.join(env.vault, 'Later'), 'dir');
    expect(links.placeNow('LinkedDir/Sub/Inner.md')).toEqual(regularFile(outside, 1));
    expect(links.placeNow('LinkedDir/Sub/new.md')).toEqual({ entry: 'none', place: outside, names: 0, file: null });
    expect(links.placeNow('LinkedDir/Note.md')).toEqual(regularFile(inPlace, 1));
    expect(links.placeNow('Later/Secret.md')).toEqual(regularFile(inPlace, 1));
    // The targets cached for lookups were seen to be stale: lookups judge by the new ones too.
    expect(links.placeOf('LinkedDir/Sub/new.md')).toEqual(outside);
    links.close();
  });

  test('placeNow resolves only the trusted links on the way: none for a write elsewhere, the one covering it once', async () => {
    env = await makeEnv();
    await fsp.symlink(nodePath.join(env.outside, 'Sub'), nodePath.join(env.vault, 'SubLink'), 'dir');
    await fsp.mkdir(nodePath.join(env.vault, 'Skills'));
    await fsp.symlink(nodePath.join(env.outside, 'Sub'), nodePath.join(env.vault, 'Skills', 'tools'), 'dir');
    const links = new OutsideLinks(env.app as never, () => ['LinkedDir', 'SubLink', 'Skills/tools']);
    expect(links.placeOf('Deep/a/b/n0.md').outside).toBe(false);
    expect(links.placeOf('LinkedDir/Secret.md').outside).toBe(false);
    const realpaths = jest.spyOn(fs.realpathSync, 'native');
    try {
      const callsFor = (path: string): number => {
        realpaths.mockClear();
        links.placeNow(path);
        return realpaths.mock.calls.length;
      };
      expect(callsFor('Deep/a/b/n0.md')).toBe(0);
      expect(callsFor('Deep/a/b/free.md')).toBe(0);
      // The trusted link (its target and the dangling-link test, one call) and the entry's own real path.
      expect(callsFor('LinkedDir/Secret.md')).toBe(2);
      expect(callsFor('SubLink/new.md')).toBe(2);
    } finally {
      realpaths.mockRestore();
      links.close();
    }
  });

  test('two trusted links out reaching one place share it, for existing and new paths, at and below; untrusted or in-vault paths never', async () => {
    env = await makeEnv();
    let trusted = ['LinkedDir', 'SubLink', 'Skills/tools'];
    const links = new OutsideLinks(env.app as never, () => trusted);
    await fsp.symlink(nodePath.join(env.outside, 'Sub'), nodePath.join(env.vault, 'SubLink'), 'dir');
    await fsp.mkdir(nodePath.join(env.vault, 'Skills'));
    await fsp.symlink(nodePath.join(env.outside, 'Sub'), nodePath.join(env.vault, 'Skills', 'tools'), 'dir');
    expect(links.sharesOutsidePlace('LinkedDir/Sub/Inner.md', ['SubLink'])).toBe(true);
    expect(links.sharesOutsidePlace('LinkedDir/Sub/new/SKILL.md', ['SubLink'])).toBe(true);
    expect(links.sharesOutsidePlace('LinkedDir/Sub', ['SubLink/Inner.md'])).toBe(false);
    expect(links.sharesOutsidePlace('LinkedDir/Secret.md', ['SubLink'])).toBe(false);
    // A trusted link inside a place counts as that place (`Skills/tools → ~/tools`).
    expect(links.sharesOutsidePlace('LinkedDir/Sub/Inner.md', ['Skills'])).toBe(true);
    expect(links.sharesOutsidePlace('LinkedDir/Sub/Inner.md', ['Deep'])).toBe(false);
    for (const path of ['Deep/a/b/n0.md', 'Alias/a/b/n0.md', 'passwd.md', 'Skills', ''])
      expect([path, links.sharesOutsidePlace(path, ['Deep', 'SubLink', 'Skills'])]).toEqual([path, false]);
    trusted = ['LinkedDir'];
    expect(links.sharesOutsidePlace('LinkedDir/Sub/Inner.md', ['SubLink', 'Skills'])).toBe(false);
    links.close();
  });
});
