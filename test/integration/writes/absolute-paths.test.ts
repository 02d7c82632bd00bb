import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { NOTE_URI_PREFIX, NOTE_URI_TEMPLATE } from '../../../src/server/content/note-resources';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { attempt, call, type Json } from '../../harness/edits/write-helpers';

/**
 * Issue 19: an agent that names a note by its absolute file-system path inside the vault
 * (the `vaults` tool shows that folder; coding agents think in absolute paths) reaches the
 * note at the vault-relative path, on every read and write route, resources and completion
 * included; an absolute path outside the vault (also through `..`) is refused with one
 * sentence; nothing ever creates a nested copy such as `tmp/<vault>/Ideas.md`.
 */
describe.each(['force', 'propose'] as const)('absolute paths on every route (%s key)', (mode) => {
  let dir: string;
  let outside: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const abs = (p: string): string => nodePath.join(dir, p);

  beforeEach(async () => {
    const parent = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-abs-'));
    dir = nodePath.join(parent, 'My Vault');
    outside = nodePath.join(parent, 'Elsewhere');
    await fsp.mkdir(nodePath.join(dir, 'Projects'), { recursive: true });
    await fsp.mkdir(outside);
    await fsp.writeFile(nodePath.join(outside, 'secret.md'), 'secret\n');
    await fsp.writeFile(abs('Ideas.md'), '# Ideas\n\nplan [[Projects/Plan]]\n');
    await fsp.writeFile(abs('Projects/Plan.md'), '---\nstatus: draft\n---\n# Plan\n\nplan text\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode, allowWrites: true });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(nodePath.dirname(dir), { recursive: true, force: true });
  });

  /** Every vault file's path, dot-folders left out. */
  async function vaultFiles(): Promise<string[]> {
    return (await fsp.readdir(dir, { recursive: true }))
      .map((f) => String(f).split(nodePath.sep).join('/'))
      .filter((f) => !f.startsWith('.'))
      .sort();
  }

  /** One call per route that takes a note or folder path, with `p` as that path. */
  const ROUTES: Array<[string, (p: string) => Json, 'read' | 'write']> = [
    ['read_note', (p) => ({ path: p }), 'read'],
    ['read_notes', (p) => ({ paths: [p] }), 'read'],
    ['get_links', (p) => ({ path: p }), 'read'],
    ['list_notes', (p) => ({ folder: nodePath.dirname(p) }), 'read'],
    ['list_folders', (p) => ({ folder: nodePath.dirname(nodePath.dirname(p)) }), 'read'],
    ['write_note', (p) => ({ path: p, body: 'new body\n' }), 'write'],
    ['append_note', (p) => ({ path: p, content: 'more' }), 'write'],
    ['edit_note', (p) => ({ path: p, anchor: 'plan text', op: 'insert_after', content: '!' }), 'write'],
    ['set_properties', (p) => ({ path: p, properties: { status: 'done' } }), 'write'],
    ['move_note', (p) => ({ path: p, to: nodePath.join(dir, 'Projects/Moved.md') }), 'write'],
    ['delete_note', (p) => ({ path: p, confirm: true }), 'write'],
  ];

  test.each(ROUTES)('%s with the absolute path of a note inside the vault reaches Projects/Plan.md', async (tool, args) => {
    const before = await vaultFiles();
    for (const spelling of [
      abs('Projects/Plan.md'),
      abs('Projects/../Projects/Plan'),
      nodePath.join(dir, '..', 'My Vault', 'Projects', 'Plan.md'),
    ]) {
      const out = await attempt(client, tool, args(spelling));
      if (!out.ok) throw new Error(`${tool} ${spelling}: ${out.message}`);
      const value = out.value;
      const named = JSON.stringify(value);
      expect(named).toContain(tool === 'list_folders' ? '"Projects"' : 'Projects/');
      expect(named).not.toContain(nodePath.basename(nodePath.dirname(dir)));
      if (tool === 'read_notes') expect(value.not_found ?? []).toEqual([]);
      if (tool === 'move_note' || tool === 'delete_note') break;
    }
    const after = await vaultFiles();
    expect(after.filter((f) => !before.includes(f) && f !== 'Projects/Moved.md')).toEqual([]);
  });

  test.each(ROUTES)(
    '%s with an absolute path outside the vault, or leaving it through .., is refused with one sentence',
    async (tool, args) => {
      for (const spelling of [
        nodePath.join(outside, 'secret.md'),
        `${dir}/../Elsewhere/secret.md`,
        pathToFileURL(nodePath.join(outside, 'secret.md')).href,
      ]) {
        const out = await attempt(client, tool, args(spelling));
        if (tool === 'read_notes' && out.ok) {
          // read_notes answers what it found and each refusal in `errors`.
          expect(out.value).toMatchObject({ notes: [], not_found: [] });
          expect(out.value.errors).toEqual([
            { path: spelling, message: expect.stringMatching(/absolute file-system path outside this vault|leaves the vault/) },
          ]);
          continue;
        }
        expect(out.ok).toBe(false);
        if (!out.ok) expect(out.message).toMatch(/absolute file-system path|leaves the vault|not found|No note/i);
      }
      expect(await fsp.readFile(nodePath.join(outside, 'secret.md'), 'utf8')).toBe('secret\n');
    },
  );

  test('create_note and create_folder at an absolute path inside the vault create there, never a nested copy', async () => {
    const created = await attempt(client, 'create_note', { path: abs('New idea.md'), content: '# New\n' });
    expect(created).toMatchObject({ ok: true, value: { path: 'New idea.md' } });
    const folder = await attempt(client, 'create_folder', { path: abs('Later/Sub') });
    expect(folder).toMatchObject({ ok: true, value: { path: 'Later/Sub' } });
    const files = await vaultFiles();
    expect(files.some((f) => f.includes('My Vault') || f.startsWith('tmp/'))).toBe(false);
    const refused = await attempt(client, 'create_note', { path: nodePath.join(outside, 'x.md'), content: 'x' });
    expect(refused).toEqual({
      ok: false,
      message: `Path '${nodePath.join(outside, 'x.md')}' is an absolute file-system path outside this vault; give a vault-relative path such as 'Folder/Note.md' (an absolute path inside the vault folder works too).`,
    });
    await expect(fsp.stat(nodePath.join(outside, 'x.md'))).rejects.toThrow();
    expect((await vaultFiles()).some((f) => f.endsWith('x.md'))).toBe(false);
  });

  test('resources/read and completion take the absolute path inside the vault too', async () => {
    const read = await client.readResource({ uri: `${NOTE_URI_PREFIX}${encodeURI(abs('Ideas.md'))}` });
    expect(read.contents[0]).toMatchObject({ uri: `${NOTE_URI_PREFIX}Ideas.md` });
    await expect(client.readResource({ uri: `${NOTE_URI_PREFIX}${encodeURI(nodePath.join(outside, 'secret.md'))}` })).rejects.toThrow();
    const completed = await client.complete({
      ref: { type: 'ref/resource', uri: NOTE_URI_TEMPLATE },
      argument: { name: 'path', value: abs('Projects/Pl') },
    });
    expect(completed.completion.values).toEqual(['Projects/Plan.md']);
  });
});

describe('key roots typed as absolute paths in the settings tab', () => {
  test('an absolute root inside the vault is stored as the vault folder; one outside is refused', async () => {
    const parent = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-absroots-'));
    const dir = nodePath.join(parent, 'Vault');
    await fsp.mkdir(nodePath.join(dir, 'Projects'), { recursive: true });
    const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true });
    try {
      const { parseRoots } = await import('../../../src/ui/settings/sections/keys-section');
      const toVault = (r: string): string => booted.plugin.notes.policy.literalPath(r);
      expect(parseRoots(`${dir}/Projects/, /Projects, Journal`, toVault)).toEqual(['Projects', 'Projects', 'Journal']);
      expect(() => parseRoots(`${parent}/Other`, toVault)).toThrow(/absolute file-system path outside this vault/);
      // The vault's own folder, typed absolute or as `.`, would be the whole vault: refused, not dropped.
      expect(() => parseRoots(`Projects, ${dir}/`, toVault)).toThrow(
        `The root "${dir}/" names the vault itself, which would be the whole vault`,
      );
      expect(() => parseRoots('.', toVault)).toThrow('The root "." names the vault itself');
    } finally {
      await booted.stop();
      await fsp.rm(parent, { recursive: true, force: true });
    }
  });
});

/**
 * A `file://` URI with `.` or `..` segments is the absolute path it spells, on every route that takes
 * a path: for a key confined to `Projects`, `file:///<vault>/Reference/../Home.md`, `/<vault>/Home.md`
 * and `Reference/../Home.md` are all the path `Home.md`, outside the key's folders, and say so (the
 * URI and a relative path with `..` answered "not found", as for a bare name), whether the note
 * exists or not; `..` out of the vault is refused in one sentence on both absolute spellings; and an
 * absolute path never reaches a note elsewhere by its name (`Projects/Home.md` for `/<vault>/Home.md`).
 */
describe('file:// URIs and absolute paths with . and .. (a key confined to Projects)', () => {
  let parent: string;
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;

  beforeAll(async () => {
    parent = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-abs-dots-'));
    dir = nodePath.join(parent, 'My Vault');
    for (const folder of ['Projects', 'Reference', 'People']) await fsp.mkdir(nodePath.join(dir, folder), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, 'Home.md'), '# Home\n');
    await fsp.writeFile(nodePath.join(dir, 'People/Ana.md'), '# Ana\n');
    await fsp.writeFile(nodePath.join(dir, 'Projects/Plan.md'), '# Plan\n\nplan text\n');
    // Same names as the notes outside the roots: an absolute path must not reach these by name.
    await fsp.writeFile(nodePath.join(dir, 'Projects/Home.md'), '# Projects home\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, roots: ['Projects'] });
    client = await connectClient(booted.url, booted.token);
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(parent, { recursive: true, force: true });
  });

  /** The spellings of vault path `p` that must all answer as `p` does: URIs and absolute paths with `.`/`..`, and relative `..`. */
  const spellings = (p: string): string[] => [
    `${pathToFileURL(dir).href}/Reference/../${p}`,
    `${pathToFileURL(dir).href}/./Reference/%2E%2E/${p}`,
    `file://localhost${dir}/Reference/./../${p}`,
    `${dir}/Reference/../${p}`,
    `${dir}/./${p}`,
    `${dir}/${p}`,
    `Reference/../${p}`,
    `/${p}`,
    `\\${p}`,
  ];
  /** Every tool that takes a note path, with `p` as that path. */
  const NOTE_ROUTES: Array<[string, (p: string) => Json]> = [
    ['read_note', (p) => ({ path: p })],
    ['get_links', (p) => ({ path: p })],
    ['write_note', (p) => ({ path: p, body: 'new body\n' })],
    ['append_note', (p) => ({ path: p, content: 'more' })],
    ['edit_note', (p) => ({ path: p, anchor: 'Home', op: 'replace', content: 'x' })],
    ['set_properties', (p) => ({ path: p, properties: { status: 'done' } })],
    ['move_note', (p) => ({ path: p, to: 'Projects/Moved.md' })],
    ['delete_note', (p) => ({ path: p, confirm: true })],
    ['create_note', (p) => ({ path: p, content: 'x\n' })],
    ['move_note to', (p) => ({ path: 'Projects/Plan.md', to: p })],
  ];

  test.each(NOTE_ROUTES)('%s: every spelling of a path outside the roots says so, existing or not', async (route, args) => {
    for (const target of ['Home.md', 'Missing.md', 'People/Ana.md']) {
      for (const spelling of spellings(target)) {
        const out = await attempt(client, route.split(' ')[0], args(spelling));
        expect([route, spelling, out.ok ? out.value : out.message]).toEqual([
          route,
          spelling,
          `Path '${target}' is outside the folders this key may use (Projects); use a path inside them.`,
        ]);
      }
    }
  });

  test.each([
    ['list_notes', (p: string): Json => ({ folder: p })],
    ['list_folders', (p: string): Json => ({ folder: p })],
    ['create_folder', (p: string): Json => ({ path: p })],
  ])('%s: every spelling of a folder outside the roots says so', async (tool, args) => {
    for (const spelling of spellings('People/New')) {
      const out = await attempt(client, tool, args(spelling));
      expect([tool, spelling, out.ok ? out.value : out.message]).toEqual([
        tool,
        spelling,
        expect.stringMatching(/^Path 'People\/New' is outside the folders this key may use \(Projects\)|^Folder 'People\/New' not found/),
      ]);
    }
  });

  // A bare name or a `path:` id that is the exact path of a note outside the roots names that note: a key confined to
  // Projects must never read or clobber Projects/Home.md for `Home.md`, which is the vault's top-level Home.md.
  test.each(NOTE_ROUTES.filter(([route]) => !['create_note', 'move_note to'].includes(route)))(
    '%s: the exact path of a note outside the roots, as a bare name or a path: id, is refused as outside them',
    async (route, args) => {
      const before = await fsp.readFile(nodePath.join(dir, 'Projects/Home.md'), 'utf8');
      for (const [typed, named] of [
        ['Home.md', 'Home.md'],
        ['Home', 'Home'],
        ['home.md', 'Home.md'],
        ['path:Home.md', 'Home.md'],
      ]) {
        const out = await attempt(client, route.split(' ')[0], args(typed));
        expect([route, typed, out.ok ? out.value : out.message]).toEqual([
          route,
          typed,
          `Path '${named}' is outside the folders this key may use (Projects); use a path inside them.`,
        ]);
      }
      expect(await fsp.readFile(nodePath.join(dir, 'Projects/Home.md'), 'utf8')).toBe(before);
    },
  );

  // A leading `/` is vault-relative (`/Plan.md` is the top-level Plan.md) and a `path:` id is its path alone: neither is a
  // name that reaches Projects/Plan.md, the only note called Plan.
  test.each(NOTE_ROUTES.filter(([route]) => !['create_note', 'move_note to'].includes(route)))(
    '%s: a leading / or a path: id names the top-level path, never a note inside the roots by its name',
    async (route, args) => {
      const before = await fsp.readFile(nodePath.join(dir, 'Projects/Plan.md'), 'utf8');
      for (const [typed, named] of [
        ['/Plan.md', 'Plan.md'],
        ['/Plan', 'Plan'],
        ['\\Plan.md', 'Plan.md'],
        ['path:Plan.md', 'Plan.md'],
        ['path:/Plan', 'Plan'],
      ]) {
        const out = await attempt(client, route.split(' ')[0], args(typed));
        expect([route, typed, out.ok ? out.value : out.message]).toEqual([
          route,
          typed,
          `Path '${named}' is outside the folders this key may use (Projects); use a path inside them.`,
        ]);
      }
      expect(await fsp.readFile(nodePath.join(dir, 'Projects/Plan.md'), 'utf8')).toBe(before);
    },
  );

  test('read_note and read_notes: every spelling of a note inside the roots reads it, and only it', async () => {
    for (const spelling of spellings('Projects/Plan.md')) {
      expect([spelling, (await call(client, 'read_note', { path: spelling })).path]).toEqual([spelling, 'Projects/Plan.md']);
      const many = await call(client, 'read_notes', { paths: [spelling] });
      expect([spelling, many.notes.map((n: Json) => n.path), many.not_found ?? []]).toEqual([spelling, ['Projects/Plan.md'], []]);
    }
  });

  test('.. out of the vault is refused in one sentence, the same on both absolute spellings', async () => {
    const out = (route: string, p: string): Json => NOTE_ROUTES.find(([name]) => name === route)![1](p);
    for (const [route] of NOTE_ROUTES) {
      const asPath = await attempt(client, route.split(' ')[0], out(route, `${dir}/Reference/../../x.md`));
      const asUri = await attempt(client, route.split(' ')[0], out(route, `${pathToFileURL(dir).href}/Reference/../../x.md`));
      const sentence = (message: string, input: string): string => message.replace(input, '<input>');
      expect([route, asPath.ok, asUri.ok]).toEqual([route, false, false]);
      if (asPath.ok || asUri.ok) continue;
      expect(sentence(asPath.message, `${dir}/Reference/../../x.md`)).toBe(
        sentence(asUri.message, `${pathToFileURL(dir).href}/Reference/../../x.md`),
      );
      expect(asPath.message).toMatch(/is an absolute file-system path outside this vault; give a vault-relative path/);
    }
  });
});
