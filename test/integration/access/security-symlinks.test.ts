import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BootOptions } from '../../harness/boot-plugin';
import { attempt, bootWriteEnvIn, call, searchPaths, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * Issue 12.1, "Symlinks lead out of the vault", through the MCP client as an agent sends it:
 * a vault holding `LinkedDir → <folder outside>` and `passwd.md → <a file outside>` (made in
 * a temp folder, standing in for /etc/passwd). Every route (read, list, search, links, every
 * write tool, propose staging) must treat what lies outside as quarantined, unless the user
 * lists the link in `access.trustedSymlinks`; a link that stays inside the vault keeps working.
 */

interface LinkEnv extends WriteEnv {
  /** The vault folder. */
  vault: string;
  /** The folder outside the vault that `LinkedDir` points to. */
  outsideDir: string;
  /** The file outside the vault that `passwd.md` points to. */
  outsideFile: string;
}

const OUTSIDE_NOTE = 'outsidesecretword lives in a folder outside the vault.\n';
const PASSWD = 'root:x:0:0:passwdsecretword:/root:/bin/bash\n';

/** Builds the setup in a fresh temp folder, boots the plugin (force key, writes on) and connects a client. */
async function boot(options: Partial<BootOptions> = {}): Promise<LinkEnv> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-links-'));
  const vault = nodePath.join(root, 'vault');
  const outsideDir = nodePath.join(root, 'outside');
  const outsideFile = nodePath.join(root, 'passwd');
  await fsp.mkdir(nodePath.join(vault, 'Inside'), { recursive: true });
  await fsp.mkdir(outsideDir);
  await fsp.writeFile(nodePath.join(outsideDir, 'Secret.md'), OUTSIDE_NOTE);
  await fsp.writeFile(outsideFile, PASSWD);
  await fsp.writeFile(nodePath.join(vault, 'Home.md'), 'See [[LinkedDir/Secret]], [[passwd]] and [[Alias/Real]].\n');
  await fsp.writeFile(nodePath.join(vault, 'Inside', 'Real.md'), 'insidelinkword stays in the vault.\n');
  await fsp.symlink(outsideDir, nodePath.join(vault, 'LinkedDir'), 'dir');
  await fsp.symlink(outsideFile, nodePath.join(vault, 'passwd.md'), 'file');
  await fsp.symlink(nodePath.join(vault, 'Inside'), nodePath.join(vault, 'Alias'), 'dir');
  const env = await bootWriteEnvIn(vault, options, () => fsp.rm(root, { recursive: true, force: true }));
  return { ...env, vault, outsideDir, outsideFile };
}

/** Names in the outside folder now, sorted. */
async function outsideNames(env: LinkEnv): Promise<string[]> {
  return (await fsp.readdir(env.outsideDir)).sort();
}

/** Every write tool aimed at the outside folder or file, as the issue lists them. */
const WRITES: Array<[string, Json]> = [
  ['write_note', { path: 'LinkedDir/keep', body: 'X\n' }],
  ['write_note', { path: 'passwd', body: 'X\n' }],
  ['create_note', { path: 'LinkedDir/new', content: 'X\n' }],
  ['append_note', { path: 'passwd', content: 'X' }],
  ['append_note', { path: 'LinkedDir/Secret', content: 'X' }],
  ['set_properties', { path: 'passwd', properties: { x: 1 } }],
  ['set_properties', { path: 'LinkedDir/Secret', properties: { x: 1 } }],
  ['move_note', { path: 'passwd', to: 'Moved passwd' }],
  ['move_note', { path: 'LinkedDir/Secret', to: 'Moved secret' }],
  ['move_note', { path: 'Home', to: 'LinkedDir/Home' }],
  ['move_note', { path: 'LinkedDir', to: 'Renamed' }],
  ['create_folder', { path: 'LinkedDir/sub' }],
  ['delete_note', { path: 'passwd', confirm: true }],
  ['delete_note', { path: 'LinkedDir/Secret', confirm: true }],
];

describe('issue 12.1: entries whose real path is outside the vault are quarantined', () => {
  let env: LinkEnv;
  afterEach(async () => env?.done());

  test('read, read_notes, list, search and links treat them as missing', async () => {
    env = await boot();
    for (const path of ['passwd', 'passwd.md', 'LinkedDir/Secret', 'LinkedDir/Secret.md', 'path:passwd.md']) {
      const got = await attempt(env.client, 'read_note', { path });
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.message).not.toContain('passwdsecretword');
    }
    const many = await call(env.client, 'read_notes', { paths: ['passwd', 'LinkedDir/Secret', 'Home'] });
    expect(JSON.stringify(many)).not.toMatch(/passwdsecretword|outsidesecretword/);
    const listed = ((await call(env.client, 'list_notes', {})).notes as Json[]).map((n) => n.path);
    expect(listed).toEqual(expect.arrayContaining(['Home.md', 'Inside/Real.md']));
    expect(listed).not.toContain('Alias/Real.md');
    expect(listed).not.toContain('passwd.md');
    expect(listed).not.toContain('LinkedDir/Secret.md');
    expect(await attempt(env.client, 'list_notes', { folder: 'LinkedDir' })).toMatchObject({ ok: false });
    const folders = JSON.stringify(await call(env.client, 'list_folders', {}));
    expect(folders).not.toContain('LinkedDir');
    expect(await searchPaths(env.client, 'passwdsecretword')).toEqual([]);
    expect(await searchPaths(env.client, 'outsidesecretword')).toEqual([]);
    expect(JSON.stringify(await call(env.client, 'search', { query: 'root' }))).not.toContain('passwdsecretword');
    const links = await call(env.client, 'get_links', { path: 'Home' });
    expect((links.outgoing as Json[]).map((l) => l.path).sort()).toEqual([]);
    expect((links.unresolved as Json[]).map((l) => l.link).sort()).toEqual(['Alias/Real', 'LinkedDir/Secret', 'passwd']);
  });

  test('every write tool refuses and nothing outside changes', async () => {
    env = await boot();
    for (const [tool, args] of WRITES) {
      const got = await attempt(env.client, tool, args);
      expect({ tool, args, ok: got.ok }).toEqual({ tool, args, ok: false });
    }
    expect(await outsideNames(env)).toEqual(['Secret.md']);
    expect(await fsp.readFile(nodePath.join(env.outsideDir, 'Secret.md'), 'utf8')).toBe(OUTSIDE_NOTE);
    expect(await fsp.readFile(env.outsideFile, 'utf8')).toBe(PASSWD);
    expect((await fsp.lstat(nodePath.join(env.vault, 'passwd.md'))).isSymbolicLink()).toBe(true);
    expect((await fsp.lstat(nodePath.join(env.vault, 'LinkedDir'))).isSymbolicLink()).toBe(true);
    expect(await fsp.readFile(nodePath.join(env.vault, 'Home.md'), 'utf8')).toContain('[[LinkedDir/Secret]]');
  });

  test('propose mode stages nothing outside', async () => {
    env = await boot({ mode: 'propose' });
    for (const [tool, args] of WRITES) {
      const got = await attempt(env.client, tool, args);
      expect({ tool, args, ok: got.ok }).toEqual({ tool, args, ok: false });
    }
    expect(env.booted.plugin.proposals.all()).toEqual([]);
    expect(await outsideNames(env)).toEqual(['Secret.md']);
    expect(await fsp.readFile(env.outsideFile, 'utf8')).toBe(PASSWD);
  });

  test('a folder link that stays inside the vault is ignored, as Obsidian ignores it: the note answers at its real path only', async () => {
    // help.obsidian.md/symlinks: "Obsidian ignores any symlink [...] from one folder in the vault to another folder in the same vault".
    env = await boot();
    expect((await call(env.client, 'read_note', { path: 'Inside/Real' })).path).toBe('Inside/Real.md');
    expect(await searchPaths(env.client, 'insidelinkword')).toEqual(['Inside/Real.md']);
    expect((await attempt(env.client, 'list_notes', { folder: 'Alias' })).ok).toBe(false);
    for (const [tool, args] of [
      ['read_note', { path: 'Alias/Real' }],
      ['append_note', { path: 'Alias/Real', content: 'more' }],
      ['write_note', { path: 'Alias/Real', body: 'X\n' }],
      ['write_note', { path: 'Alias/fresh', body: 'X\n' }],
      ['create_note', { path: 'Alias/new', content: 'X\n' }],
      ['create_folder', { path: 'Alias/sub' }],
      ['move_note', { path: 'Home', to: 'Alias/Home' }],
      ['move_note', { path: 'Alias/Real', to: 'Moved' }],
      ['delete_note', { path: 'Alias/Real', confirm: true }],
    ] as Array<[string, Json]>) {
      const got = await attempt(env.client, tool, args);
      expect({ tool, args, ok: got.ok }).toEqual({ tool, args, ok: false });
      if (!got.ok) expect(got.message).toMatch(/not found|taken or unavailable/);
    }
    expect(await call(env.client, 'append_note', { path: 'Inside/Real', content: 'more' })).toMatchObject({ path: 'Inside/Real.md' });
    expect(await fsp.readFile(nodePath.join(env.vault, 'Inside', 'Real.md'), 'utf8')).toBe('insidelinkword stays in the vault.\nmore\n');
    expect((await fsp.readdir(nodePath.join(env.vault, 'Inside'))).sort()).toEqual(['Real.md']);
    expect(await fsp.readFile(nodePath.join(env.vault, 'Home.md'), 'utf8')).toContain('[[Alias/Real]]');
  });

  test('a link the user trusts works on every route; the other stays quarantined', async () => {
    env = await boot({ configure: (settings) => void (settings.access.trustedSymlinks = ['LinkedDir']) });
    expect((await call(env.client, 'read_note', { path: 'LinkedDir/Secret' })).path).toBe('LinkedDir/Secret.md');
    expect(await searchPaths(env.client, 'outsidesecretword')).toEqual(['LinkedDir/Secret.md']);
    await call(env.client, 'create_note', { path: 'LinkedDir/keep', content: 'X\n' });
    expect(await fsp.readFile(nodePath.join(env.outsideDir, 'keep.md'), 'utf8')).toBe('X\n');
    await call(env.client, 'write_note', { path: 'LinkedDir/keep', body: 'Z\n' });
    expect(await fsp.readFile(nodePath.join(env.outsideDir, 'keep.md'), 'utf8')).toBe('Z\n');
    await call(env.client, 'append_note', { path: 'LinkedDir/Secret', content: 'Y' });
    expect(await fsp.readFile(nodePath.join(env.outsideDir, 'Secret.md'), 'utf8')).toBe(`${OUTSIDE_NOTE}Y\n`);
    expect((await attempt(env.client, 'read_note', { path: 'passwd' })).ok).toBe(false);
    expect(await searchPaths(env.client, 'passwdsecretword')).toEqual([]);
  });

  test('a note below a trusted link replaced by a link further out is quarantined, also when a sync brings another change with it', async () => {
    env = await boot({ configure: (settings) => void (settings.access.trustedSymlinks = ['LinkedDir']) });
    expect((await call(env.client, 'read_note', { path: 'LinkedDir/Secret' })).path).toBe('LinkedDir/Secret.md');
    // Replaced in place, as `ln -s … tmp && mv -f tmp file` or a sync tool's rename over it does, in one sync with a new note.
    await fsp.writeFile(nodePath.join(env.vault, 'Inside', 'Other.md'), 'X\n');
    const tmp = nodePath.join(env.outsideDir, 'Secret.md.tmp-link');
    await fsp.symlink(env.outsideFile, tmp, 'file');
    await fsp.rename(tmp, nodePath.join(env.outsideDir, 'Secret.md'));
    await env.booted.app.vault.syncFromDisk();
    const read = await attempt(env.client, 'read_note', { path: 'LinkedDir/Secret' });
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).not.toContain('passwdsecretword');
  });

  test('a link inside a trusted folder that leads further out stays quarantined', async () => {
    env = await boot({ configure: (settings) => void (settings.access.trustedSymlinks = ['LinkedDir']) });
    const deeper = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-deeper-'));
    try {
      await fsp.writeFile(nodePath.join(deeper, 'Far.md'), 'farawayword\n');
      await fsp.symlink(deeper, nodePath.join(env.outsideDir, 'Deeper'), 'dir');
      for (let i = 0; i < 100 && !env.booted.app.vault.getFileByPath('LinkedDir/Deeper/Far.md'); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(env.booted.app.vault.getFileByPath('LinkedDir/Deeper/Far.md')).not.toBeNull();
      expect((await attempt(env.client, 'read_note', { path: 'LinkedDir/Deeper/Far' })).ok).toBe(false);
      expect((await attempt(env.client, 'write_note', { path: 'LinkedDir/Deeper/new', body: 'X\n' })).ok).toBe(false);
      expect(await fsp.readdir(deeper)).toEqual(['Far.md']);
    } finally {
      await fsp.rm(deeper, { recursive: true, force: true });
    }
  });

  test('below a link out, a read answers as for a missing folder and nothing is created deep below it; nor below a folder link into the vault', async () => {
    env = await boot();
    const hidden = await attempt(env.client, 'read_note', { path: 'LinkedDir/Missing/x.md' });
    const missing = await attempt(env.client, 'read_note', { path: 'LinkedDor/Missing/x.md' });
    expect(hidden.ok || missing.ok).toBe(false);
    const text = (r: typeof hidden): string => (r.ok ? '' : r.message).replace(/LinkedDir|LinkedDor/g, '<DIR>');
    expect(text(hidden)).toBe(text(missing));
    expect(text(hidden)).toMatch(/not found/);
    const deep = `${'d/'.repeat(40)}x.md`;
    expect((await attempt(env.client, 'create_note', { path: `LinkedDir/${deep}`, content: 'X\n' })).ok).toBe(false);
    expect(await outsideNames(env)).toEqual(['Secret.md']);
    // Below a folder link Obsidian ignores (into the vault) nothing is created either.
    expect(await attempt(env.client, 'create_note', { path: `Alias/${deep}`, content: 'X\n' })).toMatchObject({ ok: false });
    expect(await fsp.readdir(nodePath.join(env.vault, 'Inside'))).toEqual(['Real.md']);
  });

  test("a delete while the vault's .trash is a link (out of the vault, or dangling) is refused naming it; nothing moves", async () => {
    env = await boot();
    await fsp.symlink(env.outsideDir, nodePath.join(env.vault, '.trash'), 'dir');
    const refused = await attempt(env.client, 'delete_note', { path: 'Home', confirm: true });
    expect(refused).toMatchObject({
      ok: false,
      message: expect.stringMatching(/trash folder '\.trash' is a symbolic link.*nothing was deleted/),
    });
    expect(await fsp.readFile(nodePath.join(env.vault, 'Home.md'), 'utf8')).toMatch(/See \[\[LinkedDir/);
    expect(await outsideNames(env)).toEqual(['Secret.md']);
    // Dangling: the same refusal, not "deleted or moved while this change was written".
    await fsp.unlink(nodePath.join(env.vault, '.trash'));
    await fsp.symlink(nodePath.join(env.outsideDir, 'gone'), nodePath.join(env.vault, '.trash'), 'dir');
    expect(await attempt(env.client, 'delete_note', { path: 'Inside/Real', confirm: true })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/trash folder '\.trash' is a symbolic link/),
    });
    // A plain .trash folder: deleted as ever.
    await fsp.unlink(nodePath.join(env.vault, '.trash'));
    expect(await call(env.client, 'delete_note', { path: 'Inside/Real', confirm: true })).toMatchObject({ status: 'applied' });
    expect(await fsp.readdir(nodePath.join(env.vault, '.trash'))).toEqual(['Real.md']);
  });
});

describe('a symbolic link inside the vault does not open the place it leads to beyond its rules', () => {
  // A user's in-vault links: folder links, which Obsidian ignores (help.obsidian.md/symlinks), so no note lies below
  // Projects/JLink, PLink, PeopleLink or SubLink on any route; and a file link, which Obsidian lists, whose rules are
  // those of the note it leads to (Projects/inboxfile.md → Inbox.md, outside a key confined to Projects).
  let env: WriteEnv | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  async function start(options: Partial<BootOptions>): Promise<{ vault: string; client: Client }> {
    const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-inlinks-'));
    const vault = nodePath.join(root, 'vault');
    await writeVaultFiles(vault, {
      'Journal/2026/Day.md': 'journalsecretword of a day\n',
      '_private/Passwords hint.md': 'privatesecretword hint\n',
      'People/Ana Ruiz.md': 'peoplesecretword about Ana\n',
      'Inbox.md': 'inboxsecretword\n',
      'Projects/Plan.md': 'projectplanword\n',
      'Projects/Sub/Real.md': 'subrealword\n',
    });
    await fsp.symlink('../Journal', nodePath.join(vault, 'Projects/JLink'), 'dir');
    await fsp.symlink('../_private', nodePath.join(vault, 'Projects/PLink'), 'dir');
    await fsp.symlink('../People', nodePath.join(vault, 'Projects/PeopleLink'), 'dir');
    await fsp.symlink('../Inbox.md', nodePath.join(vault, 'Projects/inboxfile.md'), 'file');
    await fsp.symlink('Sub', nodePath.join(vault, 'Projects/SubLink'), 'dir');
    const remove = (): Promise<void> => fsp.rm(root, { recursive: true, force: true });
    env = await bootWriteEnvIn(
      vault,
      {
        configure: (s) => {
          s.access.quarantine = ['Journal'];
        },
        ...options,
      },
      remove,
    );
    return { vault, client: env.client };
  }

  test('a confined key reaches nothing outside its roots or in quarantine through a link; a folder link within its roots names nothing', async () => {
    const { vault, client: c } = await start({ roots: ['Projects'] });
    const listed = ((await call(c, 'list_notes', { folder: 'Projects' })).notes as Json[]).map((n) => n.path as string).sort();
    expect(listed).toEqual(['Projects/Plan.md', 'Projects/Sub/Real.md']);
    for (const word of ['journalsecretword', 'privatesecretword', 'peoplesecretword', 'inboxsecretword'])
      expect(await searchPaths(c, word)).toEqual([]);
    expect(await searchPaths(c, 'subrealword')).toEqual(['Projects/Sub/Real.md']);
    for (const path of [
      'Projects/JLink/2026/Day',
      'Projects/PLink/Passwords hint',
      'Projects/PeopleLink/Ana Ruiz',
      'Projects/inboxfile',
      'Projects/SubLink/Real',
    ])
      expect((await attempt(c, 'read_note', { path })).ok).toBe(false);
    const before = await Promise.all(
      ['Journal/2026/Day.md', '_private/Passwords hint.md', 'People/Ana Ruiz.md', 'Inbox.md'].map((p) =>
        fsp.readFile(nodePath.join(vault, p), 'utf8'),
      ),
    );
    const writes: Array<[string, Json]> = [
      ['append_note', { path: 'Projects/PLink/Passwords hint', content: 'x' }],
      ['append_note', { path: 'Projects/PeopleLink/Ana Ruiz', content: 'x' }],
      ['append_note', { path: 'Projects/inboxfile', content: 'x' }],
      ['write_note', { path: 'Projects/JLink/2026/Day', body: 'x\n' }],
      ['create_note', { path: 'Projects/JLink/2026/New', content: 'x\n' }],
      ['create_note', { path: 'Projects/PeopleLink/New', content: 'x\n' }],
      ['move_note', { path: 'Projects/JLink/2026/Day', to: 'Projects/stolen' }],
      ['move_note', { path: 'Projects/Plan', to: 'Projects/PeopleLink/Plan' }],
      ['delete_note', { path: 'Projects/PeopleLink/Ana Ruiz', confirm: true }],
    ];
    for (const [tool, args] of writes) expect([tool, (await attempt(c, tool, args)).ok]).toEqual([tool, false]);
    const after = await Promise.all(
      ['Journal/2026/Day.md', '_private/Passwords hint.md', 'People/Ana Ruiz.md', 'Inbox.md'].map((p) =>
        fsp.readFile(nodePath.join(vault, p), 'utf8'),
      ),
    );
    expect(after).toEqual(before);
    await expect(fsp.stat(nodePath.join(vault, 'Journal/2026/New.md'))).rejects.toThrow();
    await expect(fsp.stat(nodePath.join(vault, 'People/New.md'))).rejects.toThrow();
    expect((await attempt(c, 'append_note', { path: 'Projects/SubLink/Real', content: 'added' })).ok).toBe(false);
    expect((await call(c, 'append_note', { path: 'Projects/Sub/Real', content: 'added' })).path).toBe('Projects/Sub/Real.md');
    expect(await fsp.readFile(nodePath.join(vault, 'Projects/Sub/Real.md'), 'utf8')).toBe('subrealword\nadded\n');
  });

  test('an unconfined key: quarantined places stay closed, a folder link names no note, each note answers at its real path once', async () => {
    const { client: c } = await start({});
    for (const word of ['journalsecretword', 'privatesecretword']) expect(await searchPaths(c, word)).toEqual([]);
    for (const path of ['Projects/JLink/2026/Day', 'Projects/PLink/Passwords hint', 'Projects/PeopleLink/Ana Ruiz'])
      expect((await attempt(c, 'read_note', { path })).ok).toBe(false);
    expect((await call(c, 'read_note', { path: 'People/Ana Ruiz' })).body).toMatch(/peoplesecretword/);
    expect(await searchPaths(c, 'peoplesecretword')).toEqual(['People/Ana Ruiz.md']);
    // The file link Obsidian lists reads through (Inbox.md is neither quarantined nor outside the key's roots).
    expect((await call(c, 'read_note', { path: 'Projects/inboxfile' })).body).toMatch(/inboxsecretword/);
    expect(((await call(c, 'list_notes', {})).notes as Json[]).map((n) => n.path as string)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^Projects\/(JLink|PLink)\//)]),
    );
  });
});

describe('folder links Obsidian ignores (into the vault, to its parent): every note is served at its one real path', () => {
  // help.obsidian.md/symlinks: "Obsidian ignores any symlink to a parent folder of the vault, or from one folder in the
  // vault to another folder in the same vault." The host lists neither, so no tool sees a note twice or under a link.
  let env: WriteEnv | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('list, folders, search, read, links and writes know each note at its real path only', async () => {
    const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-ignoredlinks-'));
    const vault = nodePath.join(root, 'vault');
    await writeVaultFiles(vault, {
      'Journal/Day.md': 'journaldayword of a day\n',
      'Projects/Plan.md': 'See [[Journal/Day]] and [[Projects/JLink/Day]].\n',
    });
    await fsp.symlink('../Journal', nodePath.join(vault, 'Projects/JLink'), 'dir');
    await fsp.symlink('..', nodePath.join(vault, 'Up'), 'dir');
    env = await bootWriteEnvIn(vault, {}, () => fsp.rm(root, { recursive: true, force: true }));
    const c = env.client;
    const notes = ((await call(c, 'list_notes', {})).notes as Json[]).map((n) => n.path as string).sort();
    expect(notes).toEqual(['Journal/Day.md', 'Projects/Plan.md']);
    expect(JSON.stringify(await call(c, 'list_folders', {}))).not.toMatch(/JLink|Up/);
    expect(await searchPaths(c, 'journaldayword')).toEqual(['Journal/Day.md']);
    for (const path of ['Projects/JLink/Day', 'Up/vault/Journal/Day', 'Up/vault/Projects/Plan'])
      expect([path, (await attempt(c, 'read_note', { path })).ok]).toEqual([path, false]);
    const links = await call(c, 'get_links', { path: 'Projects/Plan' });
    expect((links.outgoing as Json[]).map((l) => l.path)).toEqual(['Journal/Day.md']);
    expect((links.unresolved as Json[]).map((l) => l.link)).toEqual(['Projects/JLink/Day']);
    expect(((await call(c, 'get_links', { path: 'Journal/Day' })).backlinks as Json[]).map((l) => l.path)).toEqual(['Projects/Plan.md']);
    for (const [tool, args] of [
      ['append_note', { path: 'Projects/JLink/Day', content: 'x' }],
      ['create_note', { path: 'Projects/JLink/New', content: 'x\n' }],
      ['create_note', { path: 'Up/vault/Journal/New', content: 'x\n' }],
    ] as Array<[string, Json]>)
      expect([tool, args, (await attempt(c, tool, args)).ok]).toEqual([tool, args, false]);
    expect((await fsp.readdir(nodePath.join(vault, 'Journal'))).sort()).toEqual(['Day.md']);
    expect(await fsp.readFile(nodePath.join(vault, 'Journal/Day.md'), 'utf8')).toBe('journaldayword of a day\n');
  });
});
