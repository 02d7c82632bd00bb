import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import VaultMcpPlugin from '../../../src/main';
import { NOTE_URI_PREFIX } from '../../../src/server/content/note-resources';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { attempt, call, writeVaultFiles, type Json } from '../../harness/edits/write-helpers';

/**
 * Case twins and roots (docs/security.md#key-roots): a vault holding `notes/` and `Notes/` (a
 * Linux disk can) with a key confined to `notes`, by its own roots or by the client's MCP root.
 * A path names a place as it would for a key without roots (exact spelling first; a spelling of
 * both twins names neither) and only then do the roots apply: `Notes/a.md` is outside them, never
 * `notes/a.md` reached by its name, and `NOTES/a.md` is refused as ambiguous. No route reads,
 * writes, moves or deletes the twin inside the roots for a path naming one outside.
 */
const FILES: Record<string, string> = {
  'notes/a.md': '# lower a\n\nlower text\n',
  'notes/B.md': '# lower B\n\nlower text\n',
  'Notes/a.md': '# upper a\n\nupper text\n',
  'Notes/b.md': '# upper b\n\nupper text\n',
};

/** A call's refusal: its message, or read_notes' one error for its one path (its result when it succeeds). */
async function refusal(client: Client, route: string, args: Json): Promise<unknown> {
  const out = await attempt(client, route.split(' ')[0], args);
  if (!out.ok) return out.message;
  return route === 'read_notes' && out.value.notes.length === 0 ? out.value.errors?.[0]?.message : out.value;
}

/** Every route that takes a note path, with `p` as that path. */
const ROUTES: Array<[string, (p: string) => Json]> = [
  ['read_note', (p) => ({ path: p })],
  ['read_note id', (p) => ({ id: `path:${p}` })],
  ['read_notes', (p) => ({ paths: [p] })],
  ['get_links', (p) => ({ path: p })],
  ['write_note', (p) => ({ path: p, body: 'clobbered\n' })],
  ['append_note', (p) => ({ path: p, content: 'clobbered' })],
  ['edit_note', (p) => ({ path: p, anchor: 'lower text', op: 'replace', content: 'clobbered' })],
  ['set_properties', (p) => ({ path: p, properties: { status: 'clobbered' } })],
  ['move_note', (p) => ({ path: p, to: 'notes/moved.md' })],
  ['move_note to', (p) => ({ path: 'notes/a.md', to: p.replace(/a\.md$|b\.md$/i, 'new.md') })],
  ['delete_note', (p) => ({ path: p, confirm: true })],
];

describe.each(['key roots', 'client roots'] as const)('case twins beside %s (notes)', (confinement) => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-twins-'));
    await writeVaultFiles(dir, FILES);
    const keyRoots = confinement === 'key roots' ? ['notes'] : [];
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, roots: keyRoots });
    if (confinement === 'key roots') client = await connectClient(booted.url, booted.token);
    else {
      client = new Client({ name: 'roots-client', version: '1.0.0' }, { capabilities: { roots: {} } });
      const uri = pathToFileURL(nodePath.join(dir, 'notes')).href;
      client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri }] }));
      const headers = { Authorization: `Bearer ${booted.token}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(booted.url), { requestInit: { headers } }));
    }
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Every file under the vault (dot-folders left out) with its text. */
  async function disk(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const f of await fsp.readdir(dir, { recursive: true })) {
      const path = String(f).split(nodePath.sep).join('/');
      if (path.startsWith('.')) continue;
      const stat = await fsp.stat(nodePath.join(dir, path));
      if (stat.isFile()) out[path] = await fsp.readFile(nodePath.join(dir, path), 'utf8');
    }
    return out;
  }

  test.each(ROUTES)("%s: a twin's exact path outside the roots is refused as outside them, never its twin inside", async (route, args) => {
    for (const typed of ['Notes/a.md', 'Notes/a', 'Notes/b.md', 'Notes/B.md']) {
      const answer = await refusal(client, route, args(typed));
      expect([route, typed, answer]).toEqual([
        route,
        typed,
        expect.stringMatching(/^Path 'Notes\/.*' is outside the folders this key may use/),
      ]);
    }
    expect(await disk()).toEqual(FILES);
  });

  test.each(ROUTES)('%s: a spelling of both twin folders is refused, and nothing changes', async (route, args) => {
    for (const typed of ['NOTES/a.md', 'nOtEs/b.md']) {
      const answer = await refusal(client, route, args(typed));
      // The target of a move is refused by the roots (it names no folder inside them) before its spelling is weighed.
      const expected =
        route === 'move_note to'
          ? /is outside the folders this key may use|matches the folders/
          : /matches the folders 'Notes' and 'notes', which differ only by case/;
      expect([route, typed, answer]).toEqual([route, typed, expect.stringMatching(expected)]);
    }
    expect(await disk()).toEqual(FILES);
  });

  test('note resources: a twin outside the roots is no resource of this key', async () => {
    for (const typed of ['Notes/a.md', 'Notes/b.md', 'NOTES/a.md']) {
      await expect(client.readResource({ uri: `${NOTE_URI_PREFIX}${encodeURI(typed)}` })).rejects.toThrow(/not found|Resource/i);
    }
  });

  test('the twins inside the roots still answer to their own spellings', async () => {
    expect((await call(client, 'read_note', { path: 'notes/a.md' })).path).toBe('notes/a.md');
    expect((await call(client, 'read_note', { path: 'notes/b' })).path).toBe('notes/B.md');
    expect((await call(client, 'read_note', { id: 'path:notes/B.md' })).path).toBe('notes/B.md');
    expect((await call(client, 'append_note', { path: 'notes/a.md', content: 'more' })).path).toBe('notes/a.md');
    expect((await disk())['notes/a.md']).toBe('# lower a\n\nlower text\nmore\n');
    expect((await disk())['Notes/a.md']).toBe(FILES['Notes/a.md']);
  });
});

/** Twin folders each holding a note the other lacks: `notes/a.md` and `Notes/b.md` (no `Notes/a.md`, no `notes/b.md`). */
const LONE_FILES: Record<string, string> = {
  'notes/a.md': '# lower a\n\nlower text\n',
  'Notes/b.md': '# upper b\n\nlower text\n',
};

describe.each([['roots notes', ['notes']] as const, ['no roots', []] as const])(
  'a path through one twin folder naming a note only the other holds (%s)',
  (_label, roots) => {
    let dir: string;
    let booted: BootedPlugin<VaultMcpPlugin>;
    let client: Client;

    beforeAll(async () => {
      dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-lone-twins-'));
      await writeVaultFiles(dir, LONE_FILES);
      booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, roots: [...roots] });
      client = await connectClient(booted.url, booted.token);
    });
    afterAll(async () => {
      await client?.close();
      await booted?.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    });

    test.each(ROUTES.filter(([route]) => route !== 'move_note to'))(
      "%s: names no note (the folder typed exists as typed), so the twin folder's note is never reached",
      async (route, args) => {
        const typed = roots.length > 0 ? ['Notes/a.md', 'Notes/a'] : ['Notes/a.md', 'Notes/a', 'notes/b.md', 'notes/b'];
        for (const path of typed) {
          if (route === 'read_notes') {
            // read_notes lists a path that names no note among its not-found ones, with no note read.
            expect((await call(client, route, args(path))).notes).toEqual([]);
            continue;
          }
          const answer = await refusal(client, route, args(path));
          expect([route, path, answer]).toEqual([
            route,
            path,
            expect.stringMatching(/not found|outside the folders this key may use|No note/i),
          ]);
        }
        for (const [path, text] of Object.entries(LONE_FILES)) expect(await fsp.readFile(nodePath.join(dir, path), 'utf8')).toBe(text);
      },
    );
  },
);
