import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../src/main';
import { NOTE_URI_PREFIX, NOTE_URI_TEMPLATE } from '../../src/server/content/note-resources';
import { bootPlugin, connectClient, type BootedPlugin } from '../harness/boot-plugin';
import { attempt, type Json } from '../harness/write-helpers';

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
      const { parseRoots } = await import('../../src/ui/settings/sections/keys-section');
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
