import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { messagesOf, openRawSession, raw } from '../../harness/server/raw-http';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { bootWriteEnv, call, callError, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

const WRITE_TOOLS = [
  'create_note',
  'write_note',
  'append_note',
  'edit_note',
  'set_properties',
  'move_note',
  'delete_note',
  'create_folder',
];
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('write tools over MCP, force key on the demo vault', () => {
  let env: WriteEnv;
  const disk = (p: string): Promise<string> => fs.readFile(path.join(env.dir, p), 'utf8');
  const exists = (p: string): Promise<boolean> =>
    fs.stat(path.join(env.dir, p)).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    env = await bootWriteEnv(DEMO_VAULT, { label: 'Cursor' });
  });
  afterAll(async () => env?.done());

  it('lists the write tools with their inputs, each taking expected_hash', async () => {
    const { tools } = await env.client.listTools();
    for (const name of WRITE_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      expect(tool).toBeDefined();
      // readOnlyHint is false by the spec's default, so tools/list leaves it out (tool-dispatch compactAnnotations).
      expect(tool?.annotations?.readOnlyHint ?? false).toBe(false);
      expect(Object.keys(tool?.inputSchema.properties ?? {})).toContain('expected_hash');
    }
    const edit = tools.find((t) => t.name === 'edit_note');
    expect(Object.keys(edit?.inputSchema.properties ?? {}).sort()).toEqual(['anchor', 'content', 'expected_hash', 'heading', 'op', 'path']);
  });

  it('create_note: .md added, folders created, result verifies against read_note; never overwrites', async () => {
    const out = await call(env.client, 'create_note', { path: 'Projects/Gamma/Kickoff', content: '# Kickoff\n\nAgenda.\n' });
    expect(out).toEqual({
      status: 'applied',
      path: 'Projects/Gamma/Kickoff.md',
      hash: sha('# Kickoff\n\nAgenda.\n'),
      size_before: 0,
      size_after: 19,
      lines: { start: 1, end: 3 },
    });
    const read = await call(env.client, 'read_note', { path: 'Projects/Gamma/Kickoff' });
    expect(read.hash).toBe(out.hash);
    // A note the key may read is named, in its own spelling, with what to do instead (it said only "taken or unavailable").
    expect(await callError(env.client, 'create_note', { path: 'projects/gamma/KICKOFF.md', content: 'x' })).toBe(
      "A note is already at 'Projects/Gamma/Kickoff.md'; change it with write_note or edit_note, or choose another path.",
    );
    expect(await disk('Projects/Gamma/Kickoff.md')).toBe('# Kickoff\n\nAgenda.\n');
    expect(await callError(env.client, 'create_note', { path: 'Notes/a|b', content: '' })).toMatch(
      /may not contain \* " \\ \/ < > : \| \?/,
    );
    expect(await callError(env.client, 'create_note', { path: 'Notes/[[x]]', content: '' })).toMatch(/break \[\[links\]\]/);
    // A look-alike of Inbox.md made with an invisible character, by create or by move: refused, nothing written.
    expect(await callError(env.client, 'create_note', { path: 'Inbox\u200b', content: 'x' })).toMatch(
      /contains 'U\+200B': names may not contain invisible/,
    );
    expect(await callError(env.client, 'move_note', { path: 'Ideas', to: 'Ide\u202eas' })).toMatch(/contains 'U\+202E'/);
    expect(await exists('Inbox\u200b.md')).toBe(false);
  });

  it('a name whose stem ends in a dot or space is refused, not turned into "Home.md..md"', async () => {
    for (const name of ['Home.md.', 'Home. ', 'Inbox/Draft .md']) {
      expect(await callError(env.client, 'create_note', { path: name, content: 'x' })).toMatch(/ends with a dot or a space/);
    }
    expect(await exists('Home.md..md')).toBe(false);
  });

  it('a name too long for the disk is refused with the rule, nothing written', async () => {
    const message = await callError(env.client, 'create_note', { path: `Inbox/${'n'.repeat(300)}`, content: 'x' });
    expect(message).toMatch(/longer than 200 bytes/);
    expect(message.length).toBeLessThan(200);
    expect(await exists(`Inbox/${'n'.repeat(300)}.md`)).toBe(false);
  });

  it('private notes behave as missing for every tool, and create/move over them gets the generic answer', async () => {
    const target = 'Personal/Therapy notes.md';
    const before = await disk(target);
    // A private note's path gets the answer any taken or unavailable path gets; only a note the key may read is named.
    expect(await callError(env.client, 'create_note', { path: 'Personal/Therapy notes', content: 'overwrite?' })).toBe(
      'Cannot create at that path: it is taken or unavailable; choose another path.',
    );
    expect(await callError(env.client, 'create_note', { path: 'Home', content: 'overwrite?' })).toBe(
      "A note is already at 'Home.md'; change it with write_note or edit_note, or choose another path.",
    );
    expect(await callError(env.client, 'move_note', { path: 'Inbox', to: target })).toBe(
      'Cannot move to that path: it is taken or unavailable; choose another path.',
    );
    for (const [tool, args] of [
      ['write_note', { body: 'x' }],
      ['append_note', { content: 'x' }],
      ['edit_note', { anchor: 'Private', op: 'replace', content: 'x' }],
      ['set_properties', { properties: { a: 1 } }],
      ['move_note', { to: 'Elsewhere.md' }],
      ['delete_note', { confirm: true }],
    ] as const) {
      expect(await callError(env.client, tool, { path: target, ...args })).toBe(
        `Note '${target}' not found; call search or list_notes to find its path.`,
      );
    }
    expect(await disk(target)).toBe(before);
  });

  it('read-only notes refuse every write with a message naming the property; agent_overrides tighten per key', async () => {
    for (const [tool, args] of [
      ['write_note', { body: 'x' }],
      ['append_note', { content: 'x' }],
      ['edit_note', { anchor: 'Figures', op: 'replace', content: 'x' }],
      ['set_properties', { properties: { spent: 0 } }],
      ['move_note', { to: 'Budget2' }],
      ['delete_note', { confirm: true }],
    ] as const) {
      expect(await callError(env.client, tool, { path: 'Projects/Alpha/Budget', ...args })).toMatch(
        /read-only for agents \(frontmatter 'access: read-only'\)/,
      );
    }
    expect(await callError(env.client, 'append_note', { path: 'Projects/Beta/Retrospective', content: 'x' })).toMatch(
      /agent_overrides' gives 'Cursor' read-only/,
    );
  });

  it('no route may add, change or remove access or agent_overrides', async () => {
    const retro = await disk('Projects/Beta/Retrospective.md');
    await call(env.client, 'create_note', { path: 'Guarded', content: '---\ntags: [x]\n---\n# Guarded\n' });
    const routes: Array<[string, Record<string, unknown>]> = [
      ['set_properties', { path: 'Guarded', properties: { access: 'read-write' } }],
      ['set_properties', { path: 'Guarded', properties: { agent_overrides: { Cursor: 'read-only' } } }],
      ['write_note', { path: 'Guarded', frontmatter_patch: { access: null } }],
      ['write_note', { path: 'Guarded', body: '---\naccess: private\n---\n' }],
      ['edit_note', { path: 'Guarded', anchor: 'tags: [x]', op: 'insert_after', content: '\naccess: private' }],
      ['edit_note', { path: 'Guarded', anchor: 'tags: [x]\n', op: 'insert_after', content: 'agent_overrides:\n  Claude: no-access\n' }],
      ['create_note', { path: 'Guarded2', content: '---\naccess: read-only\n---\n' }],
    ];
    for (const [tool, args] of routes)
      expect(await callError(env.client, tool, args)).toMatch(/'access'|'agent_overrides'|--- frontmatter block/);
    await call(env.client, 'create_note', { path: 'Bare', content: '' });
    expect(await callError(env.client, 'append_note', { path: 'Bare', content: '---\naccess: private\n---\n' })).toMatch(/access/);
    expect(await callError(env.client, 'write_note', { path: 'Bare', body: 'x', frontmatter_patch: { ACCESS: 'private' } })).toMatch(
      /ACCESS/,
    );
    expect(await disk('Guarded.md')).toBe('---\ntags: [x]\n---\n# Guarded\n');
    expect(await disk('Bare.md')).toBe('');
    expect(await exists('Guarded2.md')).toBe(false);
    expect(await disk('Projects/Beta/Retrospective.md')).toBe(retro);
  });

  it('expected_hash: a stale hash is a conflict and changes nothing; the returned hash chains edits', async () => {
    const read = await call(env.client, 'read_note', { path: 'Reading list' });
    const first = await call(env.client, 'append_note', { path: 'Reading list', content: '- One more book', expected_hash: read.hash });
    expect(first.status).toBe('applied');
    const text = await disk('Reading list.md');
    expect(await callError(env.client, 'append_note', { path: 'Reading list', content: 'x', expected_hash: read.hash })).toMatch(
      /changed since you read it/,
    );
    expect(await callError(env.client, 'set_properties', { path: 'Reading list', properties: { a: 1 }, expected_hash: read.hash })).toMatch(
      /changed since/,
    );
    expect(await callError(env.client, 'move_note', { path: 'Reading list', to: 'RL', expected_hash: read.hash })).toMatch(/changed since/);
    expect(await callError(env.client, 'delete_note', { path: 'Reading list', confirm: true, expected_hash: read.hash })).toMatch(
      /changed since/,
    );
    expect(await disk('Reading list.md')).toBe(text);
    const second = await call(env.client, 'edit_note', {
      path: 'Reading list',
      anchor: '- One more book',
      op: 'replace',
      content: '- Two more books',
      expected_hash: first.hash,
    });
    expect(second.hash).toBe(sha(await disk('Reading list.md')));
  });

  it('expected_hash that is no hash ("zz", empty, cut short, not hex) is refused as such on every write tool, not called a change', async () => {
    const text = await disk('Reading list.md');
    const real = (await call(env.client, 'read_note', { path: 'Reading list' })).hash as string;
    for (const bad of ['zz', '', real.slice(0, 40), `${real.slice(0, 63)}g`]) {
      const refusals = [
        await callError(env.client, 'append_note', { path: 'Reading list', content: 'x', expected_hash: bad }),
        await callError(env.client, 'edit_note', {
          path: 'Reading list',
          anchor: 'Reading list',
          op: 'insert_after',
          content: 'x',
          expected_hash: bad,
        }),
        await callError(env.client, 'write_note', { path: 'Reading list', body: 'x', expected_hash: bad }),
        await callError(env.client, 'delete_note', { path: 'Reading list', confirm: true, expected_hash: bad }),
      ];
      for (const refusal of refusals) {
        expect(refusal).toMatch(/64-character hex hash read_note returned/);
        expect(refusal).not.toMatch(/changed since/);
      }
    }
    expect(await disk('Reading list.md')).toBe(text);
  });

  it('a file changed on disk behind the cache: an old expected_hash is a conflict', async () => {
    const read = await call(env.client, 'read_note', { path: 'Areas/Health/Sleep' });
    await fs.writeFile(path.join(env.dir, 'Areas/Health/Sleep.md'), '# Sleep\n\nRewritten by another program.\n');
    expect(
      await callError(env.client, 'edit_note', {
        path: 'Areas/Health/Sleep',
        heading: 'Sleep',
        op: 'append_within',
        content: 'x',
        expected_hash: read.hash,
      }),
    ).toMatch(/changed since you read it/);
    expect(await disk('Areas/Health/Sleep.md')).toBe('# Sleep\n\nRewritten by another program.\n');
  });

  it('edit_note by heading: outline text, outline path, Parent/Child, trailing spaces; ambiguous and missing are errors', async () => {
    const note = 'Projects/Alpha/Meeting notes.md';
    const ambiguous = await callError(env.client, 'edit_note', { path: note, heading: 'Decisions', op: 'append_within', content: 'x' });
    expect(ambiguous).toMatch(/matches 2 headings .*1\.1\.1 "Decisions", 1\.2\.1 "Decisions"/);
    const missing = await callError(env.client, 'edit_note', { path: note, heading: 'Retro', op: 'append_within', content: '- x' });
    expect(missing).toMatch(/not found .*1\.3\.1\.1 "Open questions"/);
    const outline = await call(env.client, 'read_note', { path: note, outline: true });
    const line = (outline.outline as string).split('\n').find((l) => l.endsWith('\tOpen questions')) as string;
    const out = await call(env.client, 'edit_note', {
      path: note,
      heading: line.split('\t')[0],
      op: 'append_within',
      content: '- Who owns the display budget?',
    });
    const text = await disk(note);
    expect(text.split('\n')[out.lines.start - 1]).toBe('- Who owns the display budget?');
    await call(env.client, 'edit_note', {
      path: note,
      heading: '2026-01-08 Kickoff/Decisions   ',
      op: 'insert_after',
      content: '- Decided first',
    });
    expect(await disk(note)).toContain(
      // The list under the heading, after its blank line, gets the item as its first (one tight list, not two).
      "## 2026-01-08 Kickoff\n\nPresent: [[Ana Ruiz]], [[Ben Okafor]], Northwind's ops manager (Marta) and me.\n\n### Decisions\n\n- Decided first\n- The dashboard",
    );
    await call(env.client, 'edit_note', {
      path: 'Reference/Café notes',
      heading: 'Kaffeehaus Süd',
      op: 'replace',
      content: 'Closed for good.',
    });
    expect(await disk('Reference/Café notes.md')).toContain('## Kaffeehaus Süd\n\nClosed for good.\n\n## Notes on brewing');
    const note2 = await disk(note);
    expect(note2.match(/^#+ /gm)?.length).toBe(text.match(/^#+ /gm)?.length);
  });

  it('a heading reference with "/" that names a heading text and a Parent/Child path is refused by read_note and every edit_note op', async () => {
    const text = '# A/B\n\nslash\n\n# A\n\n## B\n\nnested\n';
    await call(env.client, 'create_note', { path: 'Notes/Headings', content: text });
    const read = await callError(env.client, 'read_note', { path: 'Notes/Headings', section: 'A/B' });
    expect(read).toMatch(/heading text of 1 "A\/B" and, read as Parent\/Child, 2\.1 "B"; pass the outline path/);
    for (const op of ['replace', 'insert_before', 'insert_after', 'append_within']) {
      const edit = await callError(env.client, 'edit_note', { path: 'Notes/Headings', heading: 'A/B', op, content: 'x' });
      expect(edit).toMatch(/heading text of 1 "A\/B" and, read as Parent\/Child, 2\.1 "B"/);
    }
    expect(await disk('Notes/Headings.md')).toBe(text);
    expect((await call(env.client, 'read_note', { path: 'Notes/Headings', section: '2.1' })).body).toContain('nested');
    await call(env.client, 'edit_note', { path: 'Notes/Headings', heading: '1', op: 'append_within', content: 'more' });
    expect(await disk('Notes/Headings.md')).toMatch(/^# A\/B\n\nslash\nmore\n/);
  });

  it('a "__proto__" key inside properties or frontmatter_patch is refused, nothing written (zod records dropped it unsaid)', async () => {
    const text = '---\nstatus: draft\n---\n# Proto\n';
    await call(env.client, 'create_note', { path: 'Notes/Proto', content: text });
    const session = await openRawSession(env.booted.port, env.booted.token);
    for (const [name, args, where] of [
      ['set_properties', '{"path":"Notes/Proto","properties":{"__proto__":"x","status":"done"}}', 'properties'],
      ['write_note', '{"path":"Notes/Proto","frontmatter_patch":{"status":"done","__proto__":{"a":1}}}', 'frontmatter_patch'],
      ['set_properties', '{"path":"Notes/Proto","properties":{"status":"done","meta":{"__proto__":1}}}', 'properties.meta'],
    ]) {
      const response = await raw(env.booted.port, {
        headers: session,
        body: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      });
      const result = (messagesOf(response)[0] as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toBe(
        `Invalid arguments for ${name}: ${where}: a key named "__proto__" is refused (it cannot be told from JavaScript's prototype link); rename it.`,
      );
    }
    expect(await disk('Notes/Proto.md')).toBe(text);
  });

  it('read_note: an offset inside an emoji starts the page at it and counts max_chars from there (body and section)', async () => {
    await call(env.client, 'create_note', { path: 'Notes/Faces', content: `# E\n${'😀'.repeat(10)}` });
    // The body starts at 0 (no frontmatter): "# E\n" is 4 units, then an emoji every 2; offset 5 is inside the first.
    for (const args of [{}, { section: '1' }]) {
      const page = await call(env.client, 'read_note', { path: 'Notes/Faces', offset: 5, max_chars: 3, ...args });
      expect(page).toMatchObject({ body: '😀', body_offset: 4, has_more: true });
      const one = await call(env.client, 'read_note', { path: 'Notes/Faces', offset: 5, max_chars: 1, ...args });
      expect(one).toMatchObject({ body: '😀', body_offset: 4 });
    }
  });

  it('edit_note by anchor: 0 → not found with a hint, 2+ → ambiguous with count and lines; empty replace deletes', async () => {
    expect(
      await callError(env.client, 'edit_note', {
        path: 'Reference/Git cheatsheet',
        anchor: 'git push --force-with-lease --everywhere',
        op: 'replace',
        content: 'x',
      }),
    ).toMatch(/not found .*Copy the anchor exactly/);
    expect(
      await callError(env.client, 'edit_note', { path: 'Reference/Git cheatsheet', anchor: '```bash', op: 'replace', content: 'x' }),
    ).toMatch(/occurs \d+ times .*\(lines \d+, \d+/);
    await call(env.client, 'edit_note', {
      path: 'Reference/Git cheatsheet',
      anchor: 'Commands I look up more often than I would like to admit.\n',
      op: 'replace',
      content: '',
    });
    expect(await disk('Reference/Git cheatsheet.md')).not.toContain('Commands I look up');
  });

  it('edit_note: an anchor of any length is only text (an isError result, never -32603), and a long one that occurs is edited', async () => {
    const before = await disk('Inbox.md');
    for (const anchor of ['x'.repeat(40_000), 'x'.repeat(50_000), 'x'.repeat(1 << 20), 'a\n'.repeat(60_000), '('.repeat(50_000)]) {
      const message = await callError(env.client, 'edit_note', { path: 'Inbox', anchor, op: 'replace', content: 'y' });
      expect(message).toMatch(/^The anchor was not found in 'Inbox.md'\./);
      expect(message.length).toBeLessThan(200);
    }
    expect(await disk('Inbox.md')).toBe(before);
    const long = `${'(a|b)*'.repeat(8_000)}\n`;
    await call(env.client, 'create_note', { path: 'Inputs/Long anchor', content: `start\n${long}end\n` });
    await call(env.client, 'edit_note', { path: 'Inputs/Long anchor', anchor: long, op: 'replace', content: 'middle\n' });
    expect(await disk('Inputs/Long anchor.md')).toBe('start\nmiddle\nend\n');
  });

  it('a note at the longest path is read back by the id list_notes gives it, though that id is longer by its prefix', async () => {
    const folder = Array.from({ length: 20 }, () => 'g'.repeat(50)).join('/');
    const created = await call(env.client, 'create_note', { path: `${folder}/n`, content: 'deep\n' });
    expect(created.path).toHaveLength(1024);
    const [listed] = (await call(env.client, 'list_notes', { folder })).notes as Json[];
    expect(listed.id).toBe(`path:${created.path}`);
    expect((listed.id as string).length).toBeGreaterThan(1024);
    for (const ref of [{ id: listed.id }, { path: listed.id }]) expect((await call(env.client, 'read_note', ref)).path).toBe(created.path);
    expect((await call(env.client, 'get_links', { path: listed.id })).path).toBe(created.path);
    // The prefix does not stretch the limit for what follows it: a path past 1024 is refused as before.
    expect(await callError(env.client, 'read_note', { id: `path:${'x'.repeat(1025)}` })).toBe(
      'A path or id may be at most 1024 characters; this one has 1025.',
    );
    expect(await callError(env.client, 'create_note', { path: `${folder}/nn`, content: 'x' })).toMatch(/at most 1024 characters/);
  });

  it('a heading, section or since of 1 MB comes back as a short, visibly cut excerpt', async () => {
    const huge = 'h'.repeat(1 << 20);
    const messages = [
      await callError(env.client, 'edit_note', { path: 'Inbox', heading: huge, op: 'replace', content: 'y' }),
      await callError(env.client, 'read_note', { path: 'Inbox', section: huge }),
      await callError(env.client, 'list_notes', { since: huge }),
      await callError(env.client, 'edit_note', { path: 'Inbox', heading: '1.'.repeat(50_000) + '1', op: 'replace', content: 'y' }),
    ];
    for (const message of messages) {
      expect(message.length).toBeLessThan(300);
      expect(message).toMatch(/'h{80}…'|'(?:1\.){40}…'/);
    }
    const notes = await call(env.client, 'read_notes', { paths: [huge, 'Inbox'] });
    expect(notes.errors).toEqual([{ path: `${'h'.repeat(80)}…`, message: expect.stringMatching(/at most 1024 characters/) }]);
    expect(JSON.stringify(notes).length).toBeLessThan(5000);
    // Paths: one ending in '/' is length-checked before anything quotes it; a long missing name is cut.
    for (const [tool, args] of [
      ['create_note', { path: `${huge}/`, content: 'x' }],
      ['move_note', { path: 'Ideas', to: `${huge}/` }],
      ['delete_note', { path: `${huge}/`, confirm: true }],
    ] as Array<[string, Json]>) {
      expect(await callError(env.client, tool, args)).toBe('A path or id may be at most 1024 characters; this one has 1048577.');
    }
    const missing = await callError(env.client, 'read_note', { path: 'm'.repeat(1000) });
    expect(missing).toMatch(/^Note 'm{80}…' not found/);
    expect(missing.length).toBeLessThan(300);
    // Names the caller chose: an unknown argument, an unknown tool.
    const unknownKey = await callError(env.client, 'read_note', { path: 'Inbox', [huge]: 1 });
    expect(unknownKey).toBe(`Invalid arguments for read_note: (arguments): Unrecognized key: "${'h'.repeat(80)}…"`);
    const unknownTool = await env.client.callTool({ name: huge, arguments: {} }).then(
      () => '',
      (err: Error) => err.message,
    );
    expect(unknownTool).toMatch(/-32602.*Unknown or disabled tool "h{80}…"/);
    expect(unknownTool.length).toBeLessThan(300);
  });

  it("a lone UTF-16 surrogate in any write tool's path or text is refused, and nothing is written", async () => {
    const inbox = await disk('Inbox.md');
    const refusals: Array<[string, Json]> = [
      ['create_note', { path: 'Inputs/lone\udc00', content: 'x' }],
      ['create_note', { path: 'Inputs/Half', content: 'a\ud83d' }],
      ['append_note', { path: 'Inbox', content: '\ud83d' }],
      ['write_note', { path: 'Inbox', body: 'x\udc00' }],
      ['write_note', { path: 'Inbox', frontmatter_patch: { ['t\ud800']: 'x' } }],
      ['edit_note', { path: 'Inbox', anchor: 'Inbox', op: 'replace', content: '\ud800' }],
      ['edit_note', { path: 'Inbox', anchor: '\ud800', op: 'replace', content: 'x' }],
      ['set_properties', { path: 'Inbox', properties: { tags: ['ok', '\udfff'] } }],
      ['move_note', { path: 'Inbox', to: 'Inputs/\ud83dInbox' }],
      ['create_folder', { path: 'Inputs/\udc00' }],
      ['delete_note', { path: 'Inbox\ud800', confirm: true }],
    ];
    for (const [tool, args] of refusals) {
      expect(await callError(env.client, tool, args)).toMatch(
        /lone UTF-16 surrogate at char \d+ .*send whole characters \(well-formed Unicode\)/,
      );
    }
    expect(await disk('Inbox.md')).toBe(inbox);
    const names = await fs.readdir(path.join(env.dir, 'Inputs')).catch(() => [] as string[]);
    expect(names.filter((n) => n.includes('\ufffd') || n === 'Half.md')).toEqual([]);
    // Read tools refuse such a path too, with the same rule.
    expect(await callError(env.client, 'read_note', { path: 'Inbox\udc00' })).toMatch(/lone UTF-16 surrogate at char 5/);
    expect(await callError(env.client, 'list_notes', { folder: 'Inputs/\ud800' })).toMatch(/lone UTF-16 surrogate/);
    // Whole characters beyond the BMP are welcome.
    expect((await call(env.client, 'create_note', { path: 'Inputs/😀', content: '😀😀😀' })).path).toBe('Inputs/😀.md');
  });

  it('read_note pages never start or end inside a surrogate pair', async () => {
    await call(env.client, 'create_note', { path: 'Inputs/Faces', content: '😀😀😀' });
    const first = await call(env.client, 'read_note', { path: 'Inputs/Faces', offset: 0, max_chars: 1 });
    expect([first.body, first.body_offset, first.has_more]).toEqual(['😀', 0, true]);
    const inside = await call(env.client, 'read_note', { path: 'Inputs/Faces', offset: 1, max_chars: 1 });
    expect([inside.body, inside.body_offset]).toEqual(['😀', 0]);
    const last = await call(env.client, 'read_note', { path: 'Inputs/Faces', offset: 5, max_chars: 1 });
    expect([last.body, last.body_offset, last.has_more]).toEqual(['😀', 4, false]);
  });

  it('CRLF: body read through read_note matches as an anchor and the note stays CRLF', async () => {
    const read = await call(env.client, 'read_note', { path: 'Reference/Imported from Windows', section: 'Printer settings' });
    const anchor = (read.body as string).replace(/\r\n/g, '\n').trim();
    await call(env.client, 'edit_note', {
      path: 'Reference/Imported from Windows',
      anchor,
      op: 'insert_after',
      content: '\n- Colour: off',
    });
    await call(env.client, 'edit_note', {
      path: 'Reference/Imported from Windows',
      heading: 'Wi-Fi at the office',
      op: 'append_within',
      content: 'Ask reception.\n',
    });
    await call(env.client, 'write_note', { path: 'Reference/Imported from Windows', frontmatter_patch: { checked: true } });
    const text = await disk('Reference/Imported from Windows.md');
    expect(text.replace(/\r\n/g, '').includes('\n')).toBe(false);
    expect(text).toContain('- Paper: A4, tray 2\r\n- Colour: off\r\n');
    expect(text).toContain('checked: true\r\n');
    expect(text.endsWith('Monday.\r\nAsk reception.\r\n')).toBe(true);
  });

  it('set_properties keeps YAML types, lists and nested maps, and refuses invalid YAML without touching it', async () => {
    await call(env.client, 'create_note', {
      path: 'Typed',
      content: '---\ntags:\n  - a\n  - b\ncount: 3\nnested:\n  inner:\n    deep: [1, 2]\nflag: true\n---\nbody\n',
    });
    await call(env.client, 'set_properties', { path: 'Typed', properties: { tags: 'c', count: 4, added: ['x'] } });
    const read = await call(env.client, 'read_note', { path: 'Typed' });
    expect(read.frontmatter).toEqual({ tags: ['c'], count: 4, nested: { inner: { deep: [1, 2] } }, flag: true, added: ['x'] });
    const broken = '---\ntitle: "unclosed\ntags: [a\n---\nbody\n';
    await fs.writeFile(path.join(env.dir, 'Broken yaml.md'), broken);
    await env.booted.app.vault.syncFromDisk();
    await env.booted.app.metadataCache.whenResolved();
    expect(await callError(env.client, 'set_properties', { path: 'Broken yaml', properties: { a: 1 } })).toMatch(
      /does not parse as YAML .*nothing was changed/,
    );
    expect(await callError(env.client, 'write_note', { path: 'Broken yaml', frontmatter_patch: { a: 1 } })).toMatch(
      /does not parse as YAML/,
    );
    await call(env.client, 'append_note', { path: 'Broken yaml', content: 'more' });
    expect(await disk('Broken yaml.md')).toBe(broken + 'more\n');
    // read_note shows the block that does not parse and the parser's words, and the block is fixed in one edit as it says.
    const shown = await call(env.client, 'read_note', { path: 'Broken yaml' });
    expect(shown).toMatchObject({ frontmatter: {}, frontmatter_block: 'title: "unclosed\ntags: [a', body: 'body\nmore\n' });
    expect(shown.frontmatter_error).toEqual(expect.any(String));
    const many = await call(env.client, 'read_notes', { paths: ['Broken yaml'] });
    expect(JSON.stringify(many)).toContain('"frontmatter_block":"title: \\"unclosed\\ntags: [a"');
    expect(shown.note).toMatch(/^The frontmatter does not parse as YAML \(frontmatter_error\), .* replacing the whole block/);
    await call(env.client, 'edit_note', {
      path: 'Broken yaml',
      anchor: shown.frontmatter_block,
      op: 'replace',
      content: 'title: "closed"\ntags: [a]',
    });
    await env.booted.app.metadataCache.whenResolved();
    const fixed = await call(env.client, 'read_note', { path: 'Broken yaml' });
    expect(fixed.frontmatter).toEqual({ title: 'closed', tags: ['a'] });
    expect(fixed.frontmatter_block).toBeUndefined();
    expect(fixed.note).toBeUndefined();
  });

  it('set_properties and frontmatter_patch never re-render the block: an anchored value repeated by an alias is refused, the note untouched', async () => {
    const text = '---\n# keep this comment\nzip: 01234\ntags: [a, b]\nbase: &b blue\ncolor: *b\n---\nbody\n';
    await call(env.client, 'create_note', { path: 'Anchored', content: text });
    for (const [tool, args] of [
      ['set_properties', { path: 'Anchored', properties: { base: 'green' } }],
      ['set_properties', { path: 'Anchored', properties: { base: null } }],
      ['write_note', { path: 'Anchored', frontmatter_patch: { base: 'green' } }],
    ] as const) {
      expect(await callError(env.client, tool, args)).toMatch(
        /^Nothing was changed in 'Anchored.md': 'base' holds the YAML anchor &b, repeated by 'color' \(\*b\).*edit_note/,
      );
    }
    expect(await disk('Anchored.md')).toBe(text);
    await call(env.client, 'set_properties', { path: 'Anchored', properties: { base: 'green', color: 'blue' } });
    expect(await disk('Anchored.md')).toBe(text.replace('base: &b blue\ncolor: *b', 'base: green\ncolor: blue'));
  });

  it('deleting a property only a YAML merge key gives is refused by every route, never answered "applied" with nothing changed; a set adds its own line', async () => {
    const text = '---\nbase: &b {status: draft}\n<<: *b\ntitle: Plan\n---\nbody\n';
    await call(env.client, 'create_note', { path: 'Merged', content: text });
    for (const [tool, args] of [
      ['set_properties', { path: 'Merged', properties: { status: null } }],
      ['set_properties', { path: 'Merged', properties: { Status: null, title: 'Other' } }],
      ['write_note', { path: 'Merged', frontmatter_patch: { status: null } }],
      ['write_note', { path: 'Merged', frontmatter_patch: { status: null }, body: 'new body\n' }],
    ] as const) {
      expect(await callError(env.client, tool, args)).toMatch(
        /^Nothing was changed in 'Merged.md': the YAML merge key `<<: \*b` gives 'status', so the note would still show it; to delete it, remove it from the merged mapping or remove the << line, with edit_note/,
      );
    }
    expect(await callError(env.client, 'set_properties', { path: 'Merged', properties: { '<<': null } })).toMatch(
      /merge key, not a property/,
    );
    expect(await disk('Merged.md')).toBe(text);
    await call(env.client, 'set_properties', { path: 'Merged', properties: { status: 'done' } });
    expect(await disk('Merged.md')).toBe(text.replace('title: Plan\n', 'title: Plan\nstatus: done\n'));
    expect(await callError(env.client, 'set_properties', { path: 'Merged', properties: { status: null } })).toMatch(
      /^Nothing was changed in 'Merged.md': the YAML merge key `<<: \*b` gives 'status', so the note would still show it/,
    );
  });

  it("a comment on the changed property's line stays: after a one-line value, after the name above a block list", async () => {
    const text = '---\nstatus: draft  # todo: ask Ana\ntags: [a, b] # keep\n---\nbody\n';
    await call(env.client, 'create_note', { path: 'Commented', content: text });
    await call(env.client, 'set_properties', { path: 'Commented', properties: { status: 'done' } });
    expect(await disk('Commented.md')).toBe(text.replace('status: draft', 'status: done'));
    await call(env.client, 'write_note', { path: 'Commented', frontmatter_patch: { status: ['x', 'y'] }, body: 'new\n' });
    expect(await disk('Commented.md')).toBe('---\nstatus:  # todo: ask Ana\n  - x\n  - y\ntags: [a, b] # keep\n---\nnew\n');
    await env.booted.app.metadataCache.whenResolved();
    expect((await call(env.client, 'read_note', { path: 'Commented' })).frontmatter).toEqual({ status: ['x', 'y'], tags: ['a', 'b'] });
  });

  it('set_properties matches property names ignoring case, as Obsidian and query_notes do', async () => {
    await call(env.client, 'create_note', { path: 'Cased', content: '---\npriority: low\n---\nbody\n' });
    const out = await call(env.client, 'set_properties', { path: 'Cased', properties: { Priority: 'high' } });
    expect(out.note).toMatch(/applied 'Priority' as the note's 'priority'/);
    expect(await disk('Cased.md')).toBe('---\npriority: high\n---\nbody\n');
    await env.booted.app.metadataCache.whenResolved();
    const rows = await call(env.client, 'query_notes', { query: 'WHERE priority is "high"' });
    expect(JSON.stringify(rows)).toContain('Cased.md');
    expect(await callError(env.client, 'set_properties', { path: 'Cased', properties: { priority: 'x', PRIORITY: null } })).toMatch(
      /differ only in case/,
    );
    await call(env.client, 'set_properties', { path: 'Cased', properties: { PRIORITY: null } });
    expect(await disk('Cased.md')).toBe('body\n');
  });

  it('move_note: never overwrites, adds .md, creates folders, updates links; moves folders', async () => {
    expect(await callError(env.client, 'move_note', { path: 'Ideas', to: 'Inbox' })).toBe(
      "A note is already at 'Inbox.md'; a move does not replace a note: choose another path, or delete that note first.",
    );
    const out = await call(env.client, 'move_note', { path: 'People/Ben Okafor', to: 'Contacts/Work/Ben' });
    expect(out).toMatchObject({ status: 'applied', path: 'Contacts/Work/Ben.md', from: 'People/Ben Okafor.md' });
    expect(out.hash).toBe(sha(await disk('Contacts/Work/Ben.md')));
    await env.booted.app.metadataCache.whenResolved();
    expect(await disk('Inbox.md')).toContain('Send Ben the retro notes');
    expect(await disk('Areas/Übersicht.md')).toContain('[[Ben]]');
    expect(await call(env.client, 'move_note', { path: 'Contacts/', to: 'People/Contacts' })).toEqual({
      status: 'applied',
      path: 'People/Contacts',
      from: 'Contacts',
    });
    expect(await exists('People/Contacts/Work/Ben.md')).toBe(true);
  });

  it('delete_note needs confirm and goes to the trash', async () => {
    expect(await callError(env.client, 'delete_note', { path: 'Archive/Old ideas', confirm: false })).toMatch(/confirm: true/);
    const text = await disk('Archive/Old ideas.md');
    const out = await call(env.client, 'delete_note', { path: 'Archive/Old ideas', confirm: true });
    expect(out).toEqual({
      status: 'applied',
      path: 'Archive/Old ideas.md',
      hash: sha(text),
      size_before: Buffer.byteLength(text),
      size_after: 0,
    });
    expect(await exists('Archive/Old ideas.md')).toBe(false);
    expect(await fs.readFile(path.join(env.dir, '.trash/Old ideas.md'), 'utf8')).toBe(text);
  });

  it('paths: case, NFD, ./, .., backslashes, leading /, percent-encoding, trailing / resolve; escapes and quarantine are refused', async () => {
    const forms = ['inbox', './Inbox.md', 'Areas/../Inbox', '/Inbox', 'Inbox%2Emd', '\\Inbox.md', 'INBOX.MD'];
    for (const form of forms) expect((await call(env.client, 'append_note', { path: form, content: '-' })).path).toBe('Inbox.md');
    expect((await call(env.client, 'append_note', { path: 'Areas/U\u0308bersicht', content: '-' })).path).toBe('Areas/Übersicht.md');
    expect((await call(env.client, 'append_note', { path: 'Reference%2FCaf%C3%A9%20notes', content: '-' })).path).toBe(
      'Reference/Café notes.md',
    );
    expect(await call(env.client, 'create_folder', { path: 'Trailing/Slash/' })).toEqual({ status: 'applied', path: 'Trailing/Slash' });
    for (const bad of ['../outside.md', 'a/../../outside', '%2e%2e/outside', '..\\outside']) {
      expect(await callError(env.client, 'create_note', { path: bad, content: 'x' })).toMatch(/leaves the vault/);
    }
    for (const hidden of [
      '.obsidian/app.json',
      '.obsidian/plugins/x.md',
      '_private/Passwords hint',
      '_Private/new',
      'Notes/.hidden/x',
      '.trash/Deleted draft',
    ]) {
      expect(await callError(env.client, 'create_note', { path: hidden, content: 'x' })).toMatch(/agents may not access/);
    }
    expect(await callError(env.client, 'move_note', { path: 'Ideas', to: '_private/Ideas' })).toMatch(/may not access/);
    // A leading / names the vault root unless the path is an absolute one outside the vault (issue 19: never a nested copy).
    expect((await call(env.client, 'create_note', { path: '/Notes/etc passwd', content: 'x' })).path).toBe('Notes/etc passwd.md');
    expect(await callError(env.client, 'create_note', { path: '/etc/passwd', content: 'x' })).toMatch(
      /absolute file-system path outside this vault/,
    );
    expect(await exists('etc/passwd.md')).toBe(false);
    expect(await callError(env.client, 'create_note', { path: 'C:\\Windows\\x', content: 'x' })).toMatch(/absolute file-system path/);
    expect(await exists('../outside.md')).toBe(false);
  });
});

describe('write tools: gates and keys', () => {
  it('write tools are hidden until "Allow writes" and their own toggle are on', async () => {
    const env = await bootWriteEnv(DEMO_VAULT, {
      allowWrites: false,
      configure: (settings) => {
        settings.tools.enabled.create_note = true;
      },
    });
    try {
      const names = (await env.client.listTools()).tools.map((t) => t.name);
      for (const name of WRITE_TOOLS) expect(names).not.toContain(name);
      await expect(env.client.callTool({ name: 'create_note', arguments: { path: 'x', content: '' } })).rejects.toThrow(
        /Unknown or disabled tool/,
      );
    } finally {
      await env.done();
    }
  });

  it('a propose key gets pending proposals and nothing is written', async () => {
    const env = await bootWriteEnv(DEMO_VAULT, { mode: 'propose' });
    try {
      const before = await fs.readFile(path.join(env.dir, 'Inbox.md'), 'utf8');
      expect(await call(env.client, 'append_note', { path: 'Inbox', content: 'x' })).toMatchObject({ status: 'pending' });
      expect(await call(env.client, 'create_note', { path: 'New', content: 'x' })).toMatchObject({ status: 'pending' });
      const staged = await call(env.client, 'set_properties', { path: 'Inbox', properties: { TAGS: ['inbox', 'x'] } });
      expect(staged).toMatchObject({ status: 'pending', note: expect.stringMatching(/'TAGS' as the note's 'tags'/) });
      expect(await fs.readFile(path.join(env.dir, 'Inbox.md'), 'utf8')).toBe(before);
      expect(await fs.stat(path.join(env.dir, 'New.md')).catch(() => null)).toBeNull();
    } finally {
      await env.done();
    }
  });

  it("a key's roots confine every write", async () => {
    const env = await bootWriteEnv(DEMO_VAULT, { roots: ['Projects/Alpha'], label: 'Claude Code' });
    try {
      expect((await call(env.client, 'create_note', { path: 'Projects/Alpha/New', content: 'x' })).path).toBe('Projects/Alpha/New.md');
      expect(await callError(env.client, 'create_note', { path: 'Projects/Beta/New', content: 'x' })).toMatch(
        /outside the folders this key may use/,
      );
      expect(await callError(env.client, 'create_note', { path: 'Projects/Alpha/../Beta/New', content: 'x' })).toMatch(
        /outside the folders/,
      );
      expect(await callError(env.client, 'move_note', { path: 'Projects/Alpha/New', to: 'New' })).toMatch(/outside the folders/);
      expect(await callError(env.client, 'append_note', { path: 'Inbox.md', content: 'x' })).toMatch(/outside the folders|not found/);
      expect(await callError(env.client, 'create_note', { path: 'Projects/Alpha', content: 'x' })).toMatch(/outside the folders/);
    } finally {
      await env.done();
    }
  });
});
