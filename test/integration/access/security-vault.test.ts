import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, type BootOptions } from '../../harness/boot-plugin';
import { attempt, bootWriteEnvIn, call, searchPaths, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';
import { NOTE_URI_PREFIX } from '../../../src/server/content/note-resources';

/**
 * The vault-side inputs of issue 12, each through the MCP client as an agent sends them:
 * every route with the same cause (read, list, search, links, every write tool) is tried.
 */

/** A file's content: text (written as UTF-8) or exact bytes. */
type Content = string | Buffer;

interface SecEnv extends WriteEnv {
  /** The bytes of a vault file now. */
  bytes(path: string): Promise<Buffer>;
  /** The UTF-8 text of a vault file now. */
  text(path: string): Promise<string>;
}

/**
 * Writes `files` into a new temp folder (`prepare` may add symlinks and the like), boots the
 * plugin there with a force key and every write tool on, and connects one client.
 */
async function boot(
  files: Record<string, Content>,
  options: Partial<BootOptions> = {},
  prepare?: (dir: string) => Promise<void>,
): Promise<SecEnv> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-sec-'));
  await writeVaultFiles(dir, files);
  if (prepare) await prepare(dir);
  const env = await bootWriteEnvIn(dir, options, () => fsp.rm(dir, { recursive: true, force: true }));
  return {
    ...env,
    bytes: (path) => fsp.readFile(nodePath.join(dir, path)),
    text: (path) => fsp.readFile(nodePath.join(dir, path), 'utf8'),
  };
}

/**
 * Asserts that the notes of `hidden` (path → text), holding the words `words`, answer as missing
 * on every reading route (search, list_notes, read_note, read_notes), once the index has the
 * note holding `visible.word`, which search finds at `visible.path`; `listed` is all list_notes shows.
 */
async function expectMissingOnReads(
  client: Client,
  hidden: Record<string, string>,
  words: readonly string[],
  visible: { word: string; path: string },
  listed: readonly string[],
): Promise<void> {
  for (let i = 0; i < 50 && (await searchPaths(client, visible.word)).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(await searchPaths(client, visible.word)).toEqual([visible.path]);
  for (const word of words) expect(await searchPaths(client, word)).toEqual([]);
  expect(((await call(client, 'list_notes', {})).notes as Json[]).map((n) => n.path).sort()).toEqual([...listed].sort());
  for (const path of Object.keys(hidden)) {
    expect(await attempt(client, 'read_note', { path })).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
  }
  const many = JSON.stringify(await attempt(client, 'read_notes', { paths: Object.keys(hidden) }));
  for (const word of words) expect(many).not.toContain(word);
}

/**
 * Asserts that Turned.md, made private and holding `newWord` now, answers as missing on every reading route but
 * search (read_note and get_links by either spelling, its resource, read_notes, list_notes and the resource list,
 * where Other.md alone is left), and that `newWord` shows in no answer.
 */
async function expectTurnedMissing(client: Client, newWord: string): Promise<void> {
  for (const path of ['Turned', 'Turned.md']) {
    expect(await attempt(client, 'read_note', { path })).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
    expect(await attempt(client, 'get_links', { path })).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
  }
  await expect(client.readResource({ uri: `${NOTE_URI_PREFIX}Turned.md` })).rejects.toThrow(/not found/i);
  expect(JSON.stringify(await attempt(client, 'read_notes', { paths: ['Turned.md', 'Other.md'] }))).not.toContain(newWord);
  expect(((await call(client, 'list_notes', {})).notes as Json[]).map((n) => n.path)).toEqual(['Other.md']);
  expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([`${NOTE_URI_PREFIX}Other.md`]);
}

describe('issue 12.7: an exact literal name wins over a percent-decoded one', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());

  test('a%20b.md and a b.md: write, append, read by path and by path: id act on the literal note', async () => {
    env = await boot({ 'a%20b.md': 'literal\n', 'a b.md': 'decoded\n' });
    await call(env.client, 'write_note', { path: 'a%20b.md', body: 'W\n' });
    expect(await env.text('a%20b.md')).toBe('W\n');
    expect(await env.text('a b.md')).toBe('decoded\n');
    await call(env.client, 'append_note', { path: 'a%20b.md', content: 'A' });
    expect(await env.text('a%20b.md')).toBe('W\nA\n');
    expect(await env.text('a b.md')).toBe('decoded\n');
    expect(await searchPaths(env.client, 'W')).toEqual(['a%20b.md']);
    expect((await call(env.client, 'read_note', { id: 'path:a%20b.md' })).path).toBe('a%20b.md');
    expect((await call(env.client, 'read_note', { path: 'a%20b.md' })).path).toBe('a%20b.md');
    expect((await call(env.client, 'read_note', { path: 'a%20b' })).path).toBe('a%20b.md');
    expect((await call(env.client, 'read_note', { path: 'path:a%20b.md' })).path).toBe('a%20b.md');
    expect((await call(env.client, 'read_note', { path: 'a b.md' })).path).toBe('a b.md');
  });

  test('x%41.md and xA.md: delete and move take the literal note', async () => {
    env = await boot({ 'x%41.md': 'literal\n', 'xA.md': 'decoded\n', 'y%41.md': 'literal y\n', 'yA.md': 'decoded y\n' });
    await call(env.client, 'delete_note', { path: 'x%41.md', confirm: true });
    await expect(env.text('x%41.md')).rejects.toThrow();
    expect(await env.text('xA.md')).toBe('decoded\n');
    expect((await call(env.client, 'move_note', { path: 'y%41', to: 'moved' })).from).toBe('y%41.md');
    expect(await env.text('moved.md')).toBe('literal y\n');
    expect(await env.text('yA.md')).toBe('decoded y\n');
  });

  test('propose mode stages on the literal note and accepting writes it', async () => {
    env = await boot({ 'a%20b.md': 'literal\n', 'a b.md': 'decoded\n' }, { mode: 'propose' });
    const staged = await call(env.client, 'append_note', { path: 'a%20b.md', content: 'P' });
    expect(staged).toMatchObject({ status: 'pending', path: 'a%20b.md' });
    await env.booted.plugin.review.accept(staged.proposal_id);
    expect(await env.text('a%20b.md')).toBe('literal\nP\n');
    expect(await env.text('a b.md')).toBe('decoded\n');
  });

  test('without a literal entry the decoded spelling still resolves', async () => {
    env = await boot({ 'a b.md': 'decoded\n' });
    expect((await call(env.client, 'read_note', { path: 'a%20b.md' })).path).toBe('a b.md');
    expect((await attempt(env.client, 'append_note', { path: 'a%20b', content: 'x' })).ok).toBe(true);
    expect(await env.text('a b.md')).toBe('decoded\nx\n');
  });
});

describe('issue 12.2: access rules hold when frontmatter is broken, duplicated or capitalized', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  const files = {
    'Secret broken.md': '---\naccess: private\ntitle: "unclosed\n---\nsecretwordone\n',
    'Secret dup.md': '---\naccess: private\ntags: a\ntags: a\n---\nsecretwordtwo\n',
    'Secret cap.md': '---\nAccess: private\n---\nsecretwordthree\n',
    'Secret mixed.md': '---\naccess: read-write\nACCESS: private\n---\nsecretwordfour\n',
    // Valid YAML whose rule the plugin cannot read (a typo, no value, a boolean): taken at its strictest, as broken YAML is.
    'Secret typo.md': '---\naccess: privat\n---\nsecretwordfive\n',
    'Secret empty.md': '---\naccess:\n---\nsecretwordsix\n',
    'Secret bool.md': '---\naccess: true\n---\nsecretwordseven\n',
    'Open public.md': '---\naccess: public\n---\nopenword\n',
    'RO broken.md': '---\naccess: read-only\ntitle: "unclosed\n---\nrowordone\n',
    'RO cap.md': '---\nAccess: Read-Only\n---\nrowordtwo\n',
    'Plain broken.md': '---\ntitle: "unclosed\n---\nplainword\n',
    'Public.md': 'See [[Secret broken]], [[Secret dup]], [[Secret cap]] and [[Plain broken]].\n',
  };
  const secrets = [
    'Secret broken.md',
    'Secret dup.md',
    'Secret cap.md',
    'Secret mixed.md',
    'Secret typo.md',
    'Secret empty.md',
    'Secret bool.md',
  ];

  test('private notes are missing for read, list, search and links', async () => {
    env = await boot(files);
    for (const path of secrets) {
      expect((await attempt(env.client, 'read_note', { path })).ok).toBe(false);
    }
    const listed = ((await call(env.client, 'list_notes', {})).notes as Json[]).map((n) => n.path);
    for (const path of secrets) expect(listed).not.toContain(path);
    expect(listed).toContain('Plain broken.md');
    for (const word of [
      'secretwordone',
      'secretwordtwo',
      'secretwordthree',
      'secretwordfour',
      'secretwordfive',
      'secretwordsix',
      'secretwordseven',
    ])
      expect(await searchPaths(env.client, word)).toEqual([]);
    expect(listed).toContain('Open public.md');
    expect(await searchPaths(env.client, 'openword')).toEqual(['Open public.md']);
    const links = await call(env.client, 'get_links', { path: 'Public' });
    // A link to a note the caller may not see looks like a link to a missing note.
    expect((links.outgoing as Json[]).map((l) => l.path)).toEqual(['Plain broken.md']);
    expect((links.unresolved as Json[]).map((l) => l.link).sort()).toEqual(['Secret broken', 'Secret cap', 'Secret dup']);
    expect((await call(env.client, 'read_note', { path: 'Plain broken' })).path).toBe('Plain broken.md');
    for (let i = 0; i < 50 && (await searchPaths(env.client, 'plainword')).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await searchPaths(env.client, 'plainword')).toEqual(['Plain broken.md']);
  });

  test('every write tool treats them as missing or read-only, in force and propose mode', async () => {
    env = await boot(files);
    for (const path of secrets) {
      for (const [tool, args] of [
        ['write_note', { body: 'x\n' }],
        ['append_note', { content: 'x' }],
        ['set_properties', { properties: { status: 'x' } }],
        ['delete_note', { confirm: true }],
        ['move_note', { to: 'Elsewhere' }],
      ] as const) {
        const out = await attempt(env.client, tool, { path, ...args });
        expect(out).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
      }
    }
    for (const path of ['RO broken.md', 'RO cap.md']) {
      const out = await attempt(env.client, 'append_note', { path, content: 'x' });
      expect(out).toEqual({ ok: false, message: expect.stringMatching(/read-only/) });
      expect((await call(env.client, 'read_note', { path })).path).toBe(path);
    }
    expect(await env.text('RO broken.md')).toBe(files['RO broken.md']);
    expect((await attempt(env.client, 'append_note', { path: 'Plain broken', content: 'ok' })).ok).toBe(true);
  });

  test('propose mode refuses to stage them', async () => {
    env = await boot(files, { mode: 'propose' });
    expect(await attempt(env.client, 'append_note', { path: 'Secret cap.md', content: 'x' })).toEqual({
      ok: false,
      message: expect.stringMatching(/not found/),
    });
    expect(await attempt(env.client, 'append_note', { path: 'RO broken.md', content: 'x' })).toEqual({
      ok: false,
      message: expect.stringMatching(/read-only/),
    });
  });
});

describe('a private rule anywhere in frontmatter that does not parse hides the note (fails closed)', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  // Each block fails to parse; before the fix only an unindented `access:` line was read, so these were open to every tool.
  const hidden: Record<string, string> = {
    'Indented.md': '---\n  access: private\n  tags: [a, b\n---\nhiddenwordone\n',
    'Indented bad.md': '---\n  access: private\n  bad: [\n---\nhiddenwordtwo\n',
    'Flow.md': '---\n{access: private, x: [\n---\nhiddenwordthree\n',
    'Under broken.md': '---\ntitle: [unclosed\n  access: private\n---\nhiddenwordfour\n',
    'Explicit.md': '---\n? access\n: private\nbad: [\n---\nhiddenwordfive\n',
    'Override flow.md': '---\n{agent_overrides: {Test client: no-access}, x: [\n---\nhiddenwordsix\n',
  };
  const files = {
    ...hidden,
    'Remote.md': '---\nRemote access: VPN\nbad: [\n---\nvisibleword\n',
    'Links.md': 'See [[Indented]], [[Flow]] and [[Remote]].\n',
  };
  const words = ['hiddenwordone', 'hiddenwordtwo', 'hiddenwordthree', 'hiddenwordfour', 'hiddenwordfive', 'hiddenwordsix'];

  test('search, list_notes, read_note, read_notes and get_links treat them as missing; a broken block without a rule stays open', async () => {
    env = await boot(files);
    await expectMissingOnReads(env.client, hidden, words, { word: 'visibleword', path: 'Remote.md' }, ['Links.md', 'Remote.md']);
    const links = await call(env.client, 'get_links', { path: 'Links' });
    expect((links.outgoing as Json[]).map((l) => l.path)).toEqual(['Remote.md']);
    expect((await call(env.client, 'read_note', { path: 'Remote' })).body).toMatch(/visibleword/);
  });

  test('write tools answer as for a missing note and leave the text as it was', async () => {
    env = await boot(files);
    for (const path of ['Indented.md', 'Flow.md', 'Explicit.md']) {
      const out = await attempt(env.client, 'append_note', { path, content: 'x' });
      expect(out).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
      expect(await env.text(path)).toBe(files[path as keyof typeof files]);
    }
  });
});

describe('a rule in frontmatter that parses, in a shape other than a mapping, hides the note (fails closed)', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  // Each parses; an agent_overrides that was no mapping, or a rule a merge key brings in, was dropped and the note open (a newcomer's second pass).
  const hidden: Record<string, string> = {
    'Text override.md': '---\nagent_overrides: "Test client: no-access"\n---\nparsedwordone\n',
    'List override.md': '---\nagent_overrides:\n  - Test client: no-access\n---\nparsedwordtwo\n',
    'Merged.md': '---\nbase: &b {access: private}\n<<: *b\n---\nparsedwordthree\n',
  };
  const files = { ...hidden, 'Other override.md': '---\nagent_overrides: "Someone else: no-access"\n---\nparsedvisible\n' };

  test('search, list_notes, read_note and read_notes treat them as missing; an override naming another key leaves the note open', async () => {
    env = await boot(files);
    const words = ['parsedwordone', 'parsedwordtwo', 'parsedwordthree'];
    await expectMissingOnReads(env.client, hidden, words, { word: 'parsedvisible', path: 'Other override.md' }, ['Other override.md']);
  });
});

describe('issue 12.8: a heading that looks like an outline path never selects another section silently', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  const note = '# Release notes\n## 2.1\ntwo-one\n## 1.2\none-two\n## 1.1\none-one\n';

  test('edit_note heading and read_note section "1.1" are refused as ambiguous, naming both sections', async () => {
    env = await boot({ 'Release.md': note });
    for (const [tool, args] of [
      ['edit_note', { path: 'Release', heading: '1.1', op: 'replace', content: 'X\n' }],
      ['read_note', { path: 'Release', section: '1.1' }],
    ] as const) {
      const out = await attempt(env.client, tool, args);
      expect(out).toEqual({
        ok: false,
        message: expect.stringMatching(/both the outline path of 1\.1 "2\.1" and the heading text of 1\.3 "1\.1"/),
      });
    }
    expect(await env.text('Release.md')).toBe(note);
  });

  test('unambiguous forms still work: an outline path that is also that heading, another heading text, Parent/Child', async () => {
    env = await boot({ 'Release.md': note });
    expect((await call(env.client, 'read_note', { path: 'Release', section: '1.2' })).body).toMatch(/one-two/);
    expect((await call(env.client, 'read_note', { path: 'Release', section: '2.1' })).body).toMatch(/two-one/);
    await call(env.client, 'edit_note', { path: 'Release', heading: 'Release notes/1.1', op: 'append_within', content: 'more\n' });
    expect(await env.text('Release.md')).toBe(`${note}more\n`);
  });

  test('propose mode refuses to stage the ambiguous edit', async () => {
    env = await boot({ 'Release.md': note }, { mode: 'propose' });
    expect((await attempt(env.client, 'edit_note', { path: 'Release', heading: '1.1', op: 'replace', content: 'X\n' })).ok).toBe(false);
  });
});

describe('issue 12.9: one rule decides what a note is (extension md, written in lower case)', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());

  test('create_note T/y.MD creates T/y.md, which every tool then lists, reads, moves and deletes', async () => {
    env = await boot({ 'Keep.md': 'k\n' });
    expect((await call(env.client, 'create_note', { path: 'T/y.MD', content: 'why\n' })).path).toBe('T/y.md');
    expect(await env.text('T/y.md')).toBe('why\n');
    expect(((await call(env.client, 'list_notes', { folder: 'T' })).notes as Json[]).map((n) => n.path)).toEqual(['T/y.md']);
    expect((await call(env.client, 'read_note', { path: 'T/y.MD' })).path).toBe('T/y.md');
    expect((await attempt(env.client, 'create_note', { path: 'T/y', content: 'again\n' })).ok).toBe(false);
    expect((await call(env.client, 'move_note', { path: 'T/y.MD', to: 'T/z.Md' })).path).toBe('T/z.md');
    expect((await call(env.client, 'delete_note', { path: 'T/z.MD', confirm: true })).path).toBe('T/z.md');
  });

  test('a file with an upper-case .MD on disk is not a note: read refuses it by name, create does not overwrite it', async () => {
    env = await boot({ 'Old.MD': 'legacy\n' });
    expect(await attempt(env.client, 'read_note', { path: 'Old.MD' })).toEqual({
      ok: false,
      message: expect.stringMatching(/not a Markdown note/),
    });
    expect(((await call(env.client, 'list_notes', {})).notes as Json[]).map((n) => n.path)).toEqual([]);
    expect((await attempt(env.client, 'create_note', { path: 'Old', content: 'x' })).ok).toBe(false);
    expect(await env.text('Old.MD')).toBe('legacy\n');
  });

  test('propose mode stages the create as T/y.md', async () => {
    env = await boot({ 'Keep.md': 'k\n' }, { mode: 'propose' });
    const staged = await call(env.client, 'create_note', { path: 'T/y.MD', content: 'why\n' });
    expect(staged).toMatchObject({ status: 'pending', path: 'T/y.md' });
    await env.booted.plugin.review.accept(staged.proposal_id);
    expect(await env.text('T/y.md')).toBe('why\n');
  });
});

describe('issue 12.4: a note whose bytes are not UTF-8 is never rewritten', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  const files: Record<string, Content> = {
    'Latin.md': Buffer.from('636166e90a', 'hex'),
    'Binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]),
    'Wide.md': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Wide\nbody\n', 'utf16le')]),
    'Bom.md': Buffer.from('\uFEFF# Bom\nbody\n', 'utf8'),
  };

  test('every text write refuses and says why; the bytes stay; a UTF-8 note with a BOM is still written', async () => {
    env = await boot(files);
    for (const path of ['Latin.md', 'Binary.md', 'Wide.md']) {
      for (const [tool, args] of [
        ['append_note', { content: 'x' }],
        ['write_note', { body: 'x\n' }],
        ['set_properties', { properties: { status: 'x' } }],
        ['edit_note', { anchor: 'a', op: 'replace', content: 'b' }],
      ] as const) {
        const out = await attempt(env.client, tool, { path, ...args });
        expect(out).toEqual({ ok: false, message: expect.stringMatching(/is not UTF-8 text/) });
      }
      expect((await env.bytes(path)).equals(files[path] as Buffer)).toBe(true);
    }
    expect(await attempt(env.client, 'append_note', { path: 'Wide.md', content: 'x' })).toEqual({
      ok: false,
      message: expect.stringMatching(/UTF-16/),
    });
    await call(env.client, 'append_note', { path: 'Bom.md', content: 'x' });
    expect(await env.text('Bom.md')).toBe('\uFEFF# Bom\nbody\nx\n');
  });

  test('propose mode refuses to stage a change to it', async () => {
    env = await boot(files, { mode: 'propose' });
    expect(await attempt(env.client, 'append_note', { path: 'Latin.md', content: 'x' })).toEqual({
      ok: false,
      message: expect.stringMatching(/is not UTF-8 text/),
    });
  });
});

describe('issue 12.3: a move never updates links in notes its caller may not write, nor reveals a hidden note', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());

  test('with roots Public, moving Public/B is refused while notes outside the roots, read-only or private link to it', async () => {
    const files = {
      'Public/B.md': 'bee\n',
      'Public/Fine.md': 'See [[B]].\n',
      'Other/Outside.md': 'See [[B]].\n',
      'Public/RO.md': '---\naccess: read-only\n---\nSee [[B]].\n',
      'Public/Priv.md': '---\naccess: private\n---\nSee [[B]].\n',
      'Public/Free.md': 'free\n',
      'Public/Linker.md': 'See [[Free]].\n',
    };
    env = await boot(files, { roots: ['Public'] });
    const out = await attempt(env.client, 'move_note', { path: 'Public/B', to: 'Public/Injected text here' });
    expect(out).toEqual({ ok: false, message: expect.stringMatching(/would update links in notes this key may not change/) });
    // The read-only note the key reads (and sees link here with get_links) is named; the note outside its roots and the private one never are.
    if (!out.ok) expect(out.message).toMatch(/\('Public\/RO\.md' is read-only for this key\); leave it where it is/);
    if (!out.ok) expect(out.message).not.toMatch(/Outside|Priv/);
    for (const [path, text] of Object.entries(files)) expect(await env.text(path)).toBe(text);
    // A note only writable notes link to moves, and its linkers are updated.
    await call(env.client, 'move_note', { path: 'Public/Free', to: 'Public/Freed' });
    expect(await env.text('Public/Linker.md')).toBe('See [[Freed]].\n');
  });

  test('each blocking kind alone refuses, in force and in propose mode (staging and acceptance)', async () => {
    for (const blocker of ['Other/Outside.md', 'Public/RO.md', 'Public/Priv.md']) {
      const files: Record<string, string> = {
        'Public/B.md': 'bee\n',
        'Other/Outside.md': 'none\n',
        'Public/RO.md': '---\naccess: read-only\n---\n',
        'Public/Priv.md': '---\naccess: private\n---\n',
      };
      files[blocker] += 'See [[B]].\n';
      env = await boot(files, { roots: ['Public'], mode: 'propose' });
      expect((await attempt(env.client, 'move_note', { path: 'Public/B', to: 'Public/C' })).ok).toBe(false);
      await env.done();
    }
    // A staged move is checked again on acceptance: a private note that linked later blocks it.
    env = await boot({ 'Public/B.md': 'bee\n', 'Public/Priv.md': '---\naccess: private\n---\n' }, { roots: ['Public'], mode: 'propose' });
    const staged = await call(env.client, 'move_note', { path: 'Public/B', to: 'Public/C' });
    await env.booted.app.vault.modify(env.booted.app.vault.getFileByPath('Public/Priv.md')!, '---\naccess: private\n---\nSee [[B]].\n');
    await env.booted.app.metadataCache.whenResolved();
    expect(await env.booted.plugin.review.accept(staged.proposal_id)).toMatchObject({ applied: 0, stale: 1 });
    expect(await env.text('Public/B.md')).toBe('bee\n');
    expect(await env.text('Public/Priv.md')).toBe('---\naccess: private\n---\nSee [[B]].\n');
  });

  test('a folder move that would rewrite a visible link to a hidden note is refused like one to a missing note is not', async () => {
    const files = {
      'Secret/Hidden plan.md': '---\naccess: private\n---\nplan\n',
      'Secret/Open.md': 'open\n',
      'Notes.md': 'See [[Secret/Hidden plan]] and [[Secret/Missing plan]] and [[Secret/Open]].\n',
      'Lone/Hidden.md': '---\naccess: private\n---\nunlinked\n',
      'Lone/Open.md': 'open\n',
    };
    env = await boot(files);
    const out = await attempt(env.client, 'move_note', { path: 'Secret', to: 'Moved' });
    expect(out).toEqual({ ok: false, message: expect.stringMatching(/holds notes this key may not change/) });
    expect(await env.text('Notes.md')).toBe(files['Notes.md']);
    // An unlinked hidden note moves with its folder, so the answer does not reveal it.
    expect((await call(env.client, 'move_note', { path: 'Lone', to: 'Lone2' })).path).toBe('Lone2');
    expect(await env.text('Lone2/Hidden.md')).toBe(files['Lone/Hidden.md']);
  });
});

describe('a folder note beside its folder: move_note and delete_note act on the note the caller names', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  const files = { 'Topic.md': 'folder note\n', 'Topic/child.md': 'child\n' };
  const exists = (path: string): Promise<boolean> =>
    fsp.stat(nodePath.join(env.dir, path)).then(
      () => true,
      () => false,
    );

  test('`Topic` is Topic.md, as read_note reads it; `Topic/` is the folder', async () => {
    env = await boot(files);
    expect((await call(env.client, 'read_note', { path: 'Topic' })).path).toBe('Topic.md');
    expect(await call(env.client, 'move_note', { path: 'Topic', to: 'Moved/Topic' })).toMatchObject({
      path: 'Moved/Topic.md',
      from: 'Topic.md',
    });
    expect(await env.text('Moved/Topic.md')).toBe('folder note\n');
    expect(await env.text('Topic/child.md')).toBe('child\n');
    expect(await call(env.client, 'move_note', { path: 'Topic/', to: 'Shelf' })).toMatchObject({ path: 'Shelf', from: 'Topic' });
    expect(await env.text('Shelf/child.md')).toBe('child\n');
  });

  test('delete_note `Topic` deletes Topic.md and leaves the folder; `Topic/` is still refused as a folder', async () => {
    env = await boot(files);
    expect(await attempt(env.client, 'delete_note', { path: 'Topic/', confirm: true })).toEqual({
      ok: false,
      message: expect.stringMatching(/is a folder/),
    });
    expect((await call(env.client, 'delete_note', { path: 'Topic', confirm: true })).path).toBe('Topic.md');
    expect(await exists('Topic.md')).toBe(false);
    expect(await env.text('Topic/child.md')).toBe('child\n');
  });

  test('a private Topic.md does not count: `Topic` names the folder, as if the note were not there', async () => {
    env = await boot({ ...files, 'Topic.md': '---\naccess: private\n---\nhidden\n' });
    expect(await attempt(env.client, 'delete_note', { path: 'Topic', confirm: true })).toEqual({
      ok: false,
      message: expect.stringMatching(/is a folder/),
    });
    expect(await call(env.client, 'move_note', { path: 'Topic', to: 'Shelf' })).toMatchObject({ path: 'Shelf', from: 'Topic' });
    expect(await env.text('Topic.md')).toBe('---\naccess: private\n---\nhidden\n');
  });

  test('propose mode stages the note move, and accepting moves the note only', async () => {
    env = await boot(files, { mode: 'propose' });
    const staged = await call(env.client, 'move_note', { path: 'Topic', to: 'Moved/Topic' });
    expect(staged).toMatchObject({ status: 'pending', path: 'Topic.md' });
    await env.booted.plugin.review.accept(staged.proposal_id as string);
    expect(await env.text('Moved/Topic.md')).toBe('folder note\n');
    expect(await env.text('Topic/child.md')).toBe('child\n');
  });
});

describe('a note the metadata cache has not parsed yet is judged from its file (fails closed)', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());
  // Obsidian parses notes asynchronously: a note synced in, or one of a vault opened for the first time, has no cache entry for a while.
  // Its access rules were read from that missing entry: none, so the note was read-write for every key meanwhile.
  const hidden: Record<string, string> = {
    'Secret.md': '---\naccess: private\n---\nuncachedsecret\n',
    'Barred.md': '---\nagent_overrides:\n  Test client: no-access\n---\nuncachedbarred\n',
  };
  const words = ['uncachedsecret', 'uncachedbarred'];
  // Parsed exactly, as the metadata cache will parse it: a rule-like line inside a text value is no rule.
  const visible = { 'Public.md': '---\nsummary: |\n  access: private\n---\nuncachedpublic [[Secret]] [[Barred]]\n' };

  /** The paths a search for `query` returns. */
  const found = (query: string): Promise<string[]> => searchPaths(env.client, query);

  /** Asserts that the hidden notes answer as missing on every reading route, and Public.md is readable. */
  async function expectHidden(listed: readonly string[]): Promise<void> {
    const { client } = env;
    for (const word of words) expect(await found(word)).toEqual([]);
    expect(((await call(client, 'list_notes', {})).notes as Json[]).map((n) => n.path).sort()).toEqual([...listed].sort());
    for (const path of Object.keys(hidden)) {
      expect(await attempt(client, 'read_note', { path })).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
      expect(await attempt(client, 'get_links', { path })).toEqual({ ok: false, message: expect.stringMatching(/not found/) });
      await expect(client.readResource({ uri: `${NOTE_URI_PREFIX}${encodeURI(path)}` })).rejects.toThrow(/not found/i);
    }
    const many = JSON.stringify(await attempt(client, 'read_notes', { paths: [...Object.keys(hidden), 'Public.md'] }));
    for (const word of words) expect(many).not.toContain(word);
    expect(many).toContain('uncachedpublic');
    expect((await call(client, 'read_note', { path: 'Public' })).body).toMatch(/uncachedpublic/);
    expect((await call(client, 'get_links', { path: 'Public' })).path).toBe('Public.md');
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    for (const path of Object.keys(hidden)) expect(resources).not.toContain(`${NOTE_URI_PREFIX}${encodeURI(path)}`);
    expect(resources).toContain(`${NOTE_URI_PREFIX}Public.md`);
    const read = await client.readResource({ uri: `${NOTE_URI_PREFIX}Public.md` });
    expect(JSON.stringify(read.contents)).toContain('uncachedpublic');
  }

  test('notes synced in while the indexer lags: every reading route hides the private ones, the public one reads; the same once indexed', async () => {
    env = await boot({ 'Links.md': 'uncachedanchor [[Secret]] [[Public]]\n' });
    const { app } = env.booted;
    app.metadataCache.holdIndexing();
    for (const [path, text] of Object.entries({ ...hidden, ...visible })) await fsp.writeFile(nodePath.join(env.dir, path), text);
    await app.vault.syncFromDisk();
    for (const path of Object.keys({ ...hidden, ...visible })) {
      const file = app.vault.getFileByPath(path);
      expect(file).not.toBeNull();
      expect(app.metadataCache.getFileCache(file!)).toBeNull();
    }
    await expectHidden(['Links.md', 'Public.md']);
    await app.metadataCache.releaseIndexing();
    for (let i = 0; i < 50 && (await found('uncachedpublic')).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await found('uncachedpublic')).toEqual(['Public.md']);
    await expectHidden(['Links.md', 'Public.md']);
  });

  test('a vault opened before its notes are indexed: the index build leaves the private ones out, for good once indexed', async () => {
    env = await boot(
      { ...hidden, ...visible, 'Other.md': '---\nagent_overrides: {Someone else: no-access}\n---\nuncachedother\n' },
      { holdIndexing: true },
    );
    const { app } = env.booted;
    const secret = app.vault.getFileByPath('Secret.md');
    expect(secret && app.metadataCache.getFileCache(secret)).toBeNull();
    expect(await found('uncachedpublic')).toEqual(['Public.md']);
    expect(await found('uncachedother')).toEqual(['Other.md']);
    await expectHidden(['Public.md', 'Other.md']);
    await app.metadataCache.releaseIndexing();
    expect(await found('uncachedpublic')).toEqual(['Public.md']);
    await expectHidden(['Public.md', 'Other.md']);
  });
});

describe('a note changed to private while the indexer lags is hidden before Obsidian parses the change', () => {
  let env: SecEnv;
  afterEach(async () => env?.done());

  test('search, read_note, read_notes, get_links, resources and list_notes answer it as missing; the same once indexed', async () => {
    env = await boot({ 'Turned.md': 'turnedold\n', 'Other.md': 'turnedother [[Turned]]\n' });
    const { app, client } = { app: env.booted.app, client: env.client };
    app.metadataCache.holdIndexing();
    // Another program (a sync) marks the note private and writes into it; Obsidian's cache still holds the note as it was.
    await fsp.writeFile(nodePath.join(env.dir, 'Turned.md'), '---\naccess: private\n---\nturnednew\n');
    await app.vault.syncFromDisk();
    expect(app.metadataCache.getFileCache(app.vault.getFileByPath('Turned.md')!)?.frontmatter).toBeUndefined();
    const expectMissing = async (): Promise<void> => {
      await expectTurnedMissing(client, 'turnednew');
      // The index held its text from before the change: a search by it named the note and showed the new text as the snippet.
      for (const word of ['turnedold', 'turnednew']) expect(await searchPaths(client, word)).toEqual([]);
    };
    await expectMissing();
    await app.metadataCache.releaseIndexing();
    await expectMissing();
  });
});

describe('a note changed while Obsidian was closed is judged from its file until Obsidian parses it again', () => {
  // Obsidian keeps its metadata cache across restarts and re-parses a note changed meanwhile in the background after it starts:
  // until then the note's entry is the old one. A sync (or another program) that made the note private while the app was
  // closed left it readable from that old entry, and the warm start indexed its new text.
  let env: WriteEnv | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('search, read_note, read_notes, get_links, list_notes and resources answer it as missing after a warm start; the same once parsed', async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-sec-'));
    await fsp.writeFile(nodePath.join(dir, 'Turned.md'), 'awayold\n');
    await fsp.writeFile(nodePath.join(dir, 'Other.md'), 'awayother [[Turned]]\n');
    const first = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, persistIndex: true });
    const savedMetadata = first.app.metadataCache.savedForRestart();
    await first.stop();
    await first.plugin.search.whenSaved();
    // While the app is closed, a sync makes the note private and writes into it (a later mtime than the saved entry's).
    await fsp.writeFile(nodePath.join(dir, 'Turned.md'), '---\naccess: private\n---\nawaynew\n');
    const later = new Date(Date.now() + 5_000);
    await fsp.utimes(nodePath.join(dir, 'Turned.md'), later, later);

    // The run's key as in the first start: propose mode, no write tools.
    const options = { mode: 'propose', allowWrites: false, persistIndex: true, holdIndexing: true, savedMetadata } as const;
    env = await bootWriteEnvIn(dir, options, () => fsp.rm(dir, { recursive: true, force: true }));
    const { booted, client } = env;
    const { app } = booted;
    expect(booted.plugin.search.stats).toMatchObject({ warm: true });
    // The host's metadata cache still holds the note as it was before the restart.
    expect(app.metadataCache.getFileCache(app.vault.getFileByPath('Turned.md')!)?.frontmatter).toBeUndefined();
    const expectMissing = async (): Promise<void> => {
      for (const word of ['awayold', 'awaynew']) expect(await searchPaths(client, word)).toEqual([]);
      expect(await searchPaths(client, 'awayother')).toEqual(['Other.md']);
      await expectTurnedMissing(client, 'awaynew');
    };
    await expectMissing();
    await app.metadataCache.releaseIndexing();
    await booted.plugin.search.whenBuilt();
    await expectMissing();
  });
});
