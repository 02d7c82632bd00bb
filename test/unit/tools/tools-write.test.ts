import { BaseChangedError } from '../../../src/vault/writes/write-errors';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { App } from 'obsidian';
import type { KeyMode } from '../../../src/settings/key-record';
import { defaultSettings } from '../../../src/settings/settings';
import { appendNoteTool } from '../../../src/tools/write/append-note';
import { createFolderTool } from '../../../src/tools/write/create-folder';
import { createNoteTool } from '../../../src/tools/write/create-note';
import { deleteNoteTool } from '../../../src/tools/write/delete-note';
import { editNoteTool } from '../../../src/tools/write/edit-note';
import { moveNoteTool } from '../../../src/tools/write/move-note';
import { ALL_TOOLS, enabledTools } from '../../../src/tools/registry';
import { setPropertiesTool } from '../../../src/tools/write/set-properties';
import type { ToolContext, ToolDefinition } from '../../../src/tools/tool';
import { writeNoteTool } from '../../../src/tools/write/write-note';
import { readNoteTool } from '../../../src/tools/read/read-note';
import { NoteStore } from '../../../src/vault/note-store';
import { PluginFile } from '../../../src/vault/plugin-files/plugin-file';
import { ProposalStore } from '../../../src/proposals/store/proposal-store';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { rejection } from '../../harness/server/tool-errors';
import { toolContext } from '../../harness/tool-context';

let vault: DemoVault;
let notes: NoteStore;

/** A ToolContext for a key with this label, mode and roots. */
const ctx = (label = 'Test agent', mode: KeyMode = 'force', roots: string[] = []): ToolContext =>
  toolContext(notes, { label, mode, roots });

/** Calls a tool handler with a force key. */
function call(tool: ToolDefinition<any>, args: Record<string, unknown>, context = ctx()): Promise<Record<string, unknown>> {
  return tool.handler(args as never, context);
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const disk = (p: string): Promise<string> => fs.readFile(path.join(vault.dir, p), 'utf8');

/**
 * Spies on `vault.read` and `vault.cachedRead` counting only the reads the plugin makes: the
 * host's metadata cache also reads a note it re-parses after a write, whenever its queue drains.
 * @returns the count so far, and a restore.
 */
function pluginReads(host: App['vault']): { count: () => number; restore: () => void } {
  let count = 0;
  const spies = (['read', 'cachedRead'] as const).map((name) => {
    const real = host[name].bind(host);
    return jest.spyOn(host, name).mockImplementation((file) => {
      if (!/metadata-cache\.ts/.test(new Error().stack ?? '')) count++;
      return real(file);
    });
  });
  return { count: () => count, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

beforeEach(async () => {
  vault = await openDemoVault();
  notes = new NoteStore(vault.app, { quarantine: () => [] });
});

afterEach(async () => {
  await vault?.close();
});

describe('registry', () => {
  test('write tools come after the read tools, are kind write, and are hidden until allowed and toggled on', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    const writes = [
      'create_note',
      'write_note',
      'append_note',
      'edit_note',
      'set_properties',
      'move_note',
      'delete_note',
      'create_folder',
      'widget_write',
    ];
    expect(names.slice(-writes.length)).toEqual(writes);
    for (const name of writes) expect(ALL_TOOLS.find((t) => t.name === name)?.kind).toBe('write');
    const settings = defaultSettings();
    expect(enabledTools(settings).map((t) => t.name)).not.toContain('create_note');
    settings.tools.enabled.create_note = true;
    expect(enabledTools(settings).map((t) => t.name)).not.toContain('create_note');
    settings.tools.allowWrites = true;
    expect(enabledTools(settings).map((t) => t.name)).toContain('create_note');
    expect(enabledTools(settings).map((t) => t.name)).not.toContain('delete_note');
  });
});

describe('write gate', () => {
  test('a propose key stages instead of writing; validation runs first, so a bad call stages nothing', async () => {
    const proposals = new ProposalStore(notes, new PluginFile(vault.app.vault.adapter, '.obsidian/plugins/vault-mcp', 'proposals.json'));
    const propose = { ...ctx('Test agent', 'propose'), proposals };
    const before = await disk('Inbox.md');
    const out = await call(appendNoteTool, { path: 'Inbox', content: 'x' }, propose);
    expect(out).toMatchObject({ status: 'pending', kind: 'edit', path: 'Inbox.md', proposal_id: expect.stringMatching(/^p_/) });
    expect(await disk('Inbox.md')).toBe(before);
    const missing = await rejection(call(appendNoteTool, { path: 'Nope', content: 'x' }, propose));
    expect(missing.code).toBe('not_found');
    expect(proposals.all().map((p) => p.id)).toEqual([out.proposal_id]);
    await proposals.flush();
  });
});

describe('create_note', () => {
  test('creates with .md added, missing folders created, and reports hash and sizes', async () => {
    const content = '# Plan\n\nFirst step.\n';
    const out = await call(createNoteTool, { path: 'Projects/Gamma/Sub/Plan', content });
    expect(out).toEqual({
      status: 'applied',
      path: 'Projects/Gamma/Sub/Plan.md',
      hash: sha(content),
      size_before: 0,
      size_after: Buffer.byteLength(content),
      lines: { start: 1, end: 3 },
    });
    expect(await disk('Projects/Gamma/Sub/Plan.md')).toBe(content);
  });

  test('never overwrites; a note the key may read is named, a private note answers like any taken path', async () => {
    const taken = await rejection(call(createNoteTool, { path: 'inbox', content: 'x' }));
    const privateOne = await rejection(call(createNoteTool, { path: 'Personal/Therapy notes', content: 'x' }));
    expect(taken.code).toBe('exists');
    expect(privateOne.code).toBe('exists');
    // read_note tells the key as much: the note is there for it to read (session 42: it was told only "taken or unavailable").
    expect(taken.message).toBe("A note is already at 'Inbox.md'; change it with write_note or edit_note, or choose another path.");
    expect(privateOne.message).toBe('Cannot create at that path: it is taken or unavailable; choose another path.');
    expect(await disk('Personal/Therapy notes.md')).toMatch(/^---\naccess: private/);
  });

  test('refuses forbidden characters with the rule, folder-looking paths, and protected keys in content', async () => {
    for (const name of ['a*b', 'what?', 'x:y', 'a<b', 'pipe|d', 'tag#1', 'block^x', 'link[1]']) {
      const err = await rejection(call(createNoteTool, { path: `Inbox2/${name}`, content: '' }));
      expect(err.code).toBe('invalid_argument');
      expect(err.message).toMatch(/may not contain/);
    }
    expect((await rejection(call(createNoteTool, { path: 'Folder/', content: '' }))).message).toMatch(/names a folder/);
    const access = await rejection(call(createNoteTool, { path: 'Sneaky', content: '---\naccess: read-write\n---\nbody\n' }));
    expect(access.code).toBe('forbidden');
    expect(access.message).toMatch(/access/);
    const overrides = await rejection(
      call(createNoteTool, { path: 'Sneaky', content: '---\nagent_overrides:\n  Other: read-only\n---\n' }),
    );
    expect(overrides.code).toBe('forbidden');
    expect((await rejection(call(createNoteTool, { path: '_private/x', content: '' }))).code).toBe('forbidden');
    expect((await rejection(call(createNoteTool, { path: '../outside', content: '' }))).code).toBe('forbidden');
    expect(
      (await rejection(call(createNoteTool, { path: 'Elsewhere/x', content: '' }, ctx('Test agent', 'force', ['Projects'])))).code,
    ).toBe('forbidden');
    await expect(fs.stat(path.join(vault.dir, 'Sneaky.md'))).rejects.toThrow();
  });
});

describe('write_note', () => {
  test('replaces the body, keeps the frontmatter, patches properties, and checks expected_hash', async () => {
    const before = await disk('Ideas.md');
    const stale = await rejection(call(writeNoteTool, { path: 'Ideas', body: 'new\n', expected_hash: sha('other') }));
    expect(stale.code).toBe('conflict');
    expect(await disk('Ideas.md')).toBe(before);
    const out = await call(writeNoteTool, {
      path: 'Ideas',
      body: '# Ideas\n\nAll gone.\n',
      frontmatter_patch: { status: 'done', reviewed: 3 },
      expected_hash: sha(before),
    });
    const after = await disk('Ideas.md');
    expect(after).toMatch(/^---\ntags: \[ ?idea ?\]\nstatus: done\nreviewed: 3\n---\n# Ideas\n\nAll gone.\n$/);
    expect(out).toMatchObject({
      status: 'applied',
      path: 'Ideas.md',
      hash: sha(after),
      size_before: Buffer.byteLength(before),
      size_after: Buffer.byteLength(after),
      lines: { start: 6, end: 8 },
    });
    expect((await rejection(call(writeNoteTool, { path: 'Ideas' }))).code).toBe('invalid_argument');
    expect((await rejection(call(writeNoteTool, { path: 'Ideas', body: '---\naccess: private\n---\nx' }))).message).toMatch(
      /starts with a --- frontmatter block/,
    );
  });

  test('body and frontmatter_patch are one write: a stale expected_hash or a change just before writing leaves the note as it was', async () => {
    const before = await disk('Ideas.md');
    const stale = await rejection(
      call(writeNoteTool, { path: 'Ideas', body: 'new\n', frontmatter_patch: { status: 'done' }, expected_hash: sha('other') }),
    );
    expect(stale.code).toBe('conflict');
    expect(await disk('Ideas.md')).toBe(before);
    // Another program changes the note after write_note validated it, right before the write.
    const host = vault.app.vault;
    const process = host.process.bind(host);
    const spy = jest.spyOn(host, 'process').mockImplementationOnce(async (file, fn, options) => {
      await fs.writeFile(path.join(vault.dir, file.path), `${before}outside edit\n`);
      return process(file, fn, options);
    });
    const raced = await rejection(
      call(writeNoteTool, { path: 'Ideas', body: 'new\n', frontmatter_patch: { status: 'done' }, expected_hash: sha(before) }),
    );
    spy.mockRestore();
    expect(raced.code).toBe('conflict');
    expect(raced.message).toMatch(/nothing was written/);
    expect(await disk('Ideas.md')).toBe(`${before}outside edit\n`);
  });

  test('a body with a patch applies in one vault.process, after reading the note once', async () => {
    const host = vault.app.vault;
    const reads = pluginReads(host);
    const spy = jest.spyOn(host, 'process');
    await call(writeNoteTool, { path: 'Ideas', body: 'short\n', frontmatter_patch: { status: null, rank: 1 } });
    const counts = { reads: reads.count(), process: spy.mock.calls.length };
    reads.restore();
    spy.mockRestore();
    expect(counts).toEqual({ reads: 1, process: 1 });
    expect(await disk('Ideas.md')).toMatch(/^---\ntags: \[ ?idea ?\]\nrank: 1\n---\nshort\n$/);
  });

  test('a body cannot smuggle frontmatter into a note without one', async () => {
    await vault.app.vault.create('Plain.md', 'plain\n');
    const err = await rejection(call(writeNoteTool, { path: 'Plain', body: 'x\n', frontmatter_patch: { access: 'read-only' } }));
    expect(err.code).toBe('forbidden');
    expect(await disk('Plain.md')).toBe('plain\n');
  });
});

describe('append_note', () => {
  test('appends on a new line, keeps CRLF, reports the appended lines', async () => {
    const out = await call(appendNoteTool, { path: 'Reference/Imported from Windows', content: 'Line one\nLine two' });
    const after = await disk('Reference/Imported from Windows.md');
    // The note ended with a line break, so it still does (text-edits.ts appendText).
    expect(after.endsWith('Monday.\r\nLine one\r\nLine two\r\n')).toBe(true);
    expect(after.replace(/\r\n/g, '').includes('\n')).toBe(false);
    const total = after.split('\n').length - 1;
    expect(out.lines).toEqual({ start: total - 1, end: total });
  });

  test('cannot add protected keys to a note that has no frontmatter yet', async () => {
    await vault.app.vault.create('Empty.md', '');
    const err = await rejection(call(appendNoteTool, { path: 'Empty', content: '---\naccess: read-only\n---\n' }));
    expect(err.code).toBe('forbidden');
  });
});

describe('edit_note by anchor', () => {
  test('replace, insert, delete; 0 and 2+ matches are errors with hints and line numbers', async () => {
    await call(editNoteTool, { path: 'Inbox', anchor: 'Book the dentist for March', op: 'replace', content: 'Book the dentist for April' });
    expect(await disk('Inbox.md')).toContain('- [ ] Book the dentist for April\n');
    const out = await call(editNoteTool, { path: 'Inbox', anchor: '- [ ] Renew the library card\n', op: 'replace', content: '' });
    expect(await disk('Inbox.md')).not.toContain('library card');
    expect(out.lines).toEqual({ start: 9, end: 9 });
    const none = await rejection(call(editNoteTool, { path: 'Inbox', anchor: 'book THE dentist', op: 'replace', content: 'x' }));
    expect(none.code).toBe('not_found');
    expect(none.message).toMatch(/case or spacing is on line 7/);
    const many = await rejection(call(editNoteTool, { path: 'Inbox', anchor: '- [ ]', op: 'replace', content: 'x' }));
    expect(many.code).toBe('ambiguous');
    expect(many.message).toMatch(/occurs 3 times .*lines 6, 7, 8\)/);
    expect((await rejection(call(editNoteTool, { path: 'Inbox', anchor: 'Inbox', op: 'append_within', content: 'x' }))).code).toBe(
      'invalid_argument',
    );
    expect((await rejection(call(editNoteTool, { path: 'Inbox', op: 'replace', content: 'x' }))).code).toBe('invalid_argument');
  });

  test('text read with LF line breaks matches a CRLF note, and the edit keeps CRLF', async () => {
    await call(editNoteTool, {
      path: 'Reference/Imported from Windows',
      anchor: '- Duplex: long edge\n- Paper: A4, tray 2',
      op: 'insert_after',
      content: '\n- Colour: off',
    });
    const after = await disk('Reference/Imported from Windows.md');
    expect(after).toContain('- Paper: A4, tray 2\r\n- Colour: off\r\n');
    expect(after.replace(/\r\n/g, '').includes('\n')).toBe(false);
  });

  test('an anchor inside the frontmatter may edit other keys but never access', async () => {
    await call(editNoteTool, { path: 'Ideas', anchor: 'status: collecting', op: 'replace', content: 'status: sorted' });
    expect(await disk('Ideas.md')).toContain('status: sorted');
    const err = await rejection(
      call(editNoteTool, { path: 'Ideas', anchor: 'status: sorted', op: 'insert_after', content: '\naccess: private' }),
    );
    expect(err.code).toBe('forbidden');
    const retro = await rejection(
      call(editNoteTool, {
        path: 'Projects/Beta/Retrospective',
        anchor: '  Cursor: read-only',
        op: 'replace',
        content: '  Cursor: read-write',
      }),
    );
    expect(retro.code).toBe('forbidden');
    const broken = await rejection(
      call(editNoteTool, { path: 'Ideas', anchor: 'status: sorted', op: 'replace', content: 'status: [unclosed' }),
    );
    expect(broken.code).toBe('invalid_argument');
    expect(broken.message).toMatch(/unparseable/);
  });
});

describe('edit_note by heading', () => {
  const MEETING = 'Projects/Alpha/Meeting notes.md';

  test('duplicate headings are refused with the candidates; a path or Parent/Child picks one', async () => {
    const dup = await rejection(call(editNoteTool, { path: MEETING, heading: 'Action items', op: 'append_within', content: '- [ ] new' }));
    expect(dup.code).toBe('ambiguous');
    expect(dup.message).toContain('1.1.2 "Action items"');
    expect(dup.message).toContain('1.3.1 "Action items"');
    await call(editNoteTool, {
      path: MEETING,
      heading: '2026-01-15 Data access/Action items',
      op: 'append_within',
      content: '- [ ] Ana: review the views',
    });
    const text = await disk(MEETING);
    expect(text).toContain(
      '- [ ] Me: wire the first view (stock by location) into the prototype\n- [ ] Ana: review the views\n\n## 2026-01-29',
    );
    await call(editNoteTool, { path: MEETING, heading: '1.1.1', op: 'insert_after', content: '- First decision line' });
    // The list after the heading's blank line gets the item as its first (one tight list, not two).
    expect(await disk(MEETING)).toContain('### Decisions\n\n- First decision line\n- The dashboard reads');
  });

  test('missing heading lists what exists and never appends a new heading', async () => {
    const before = await disk(MEETING);
    const err = await rejection(call(editNoteTool, { path: MEETING, heading: 'Budget', op: 'append_within', content: 'x' }));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('1.1 "2026-01-08 Kickoff"');
    expect(await disk(MEETING)).toBe(before);
  });

  test('replace keeps the heading line and the blank lines around the body; non-ASCII with trailing spaces', async () => {
    const out = await call(editNoteTool, {
      path: 'Areas/Übersicht',
      heading: '  ## Zuhause   ',
      op: 'replace',
      content: 'Nur noch der Garten.',
    });
    const text = await disk('Areas/Übersicht.md');
    expect(text).toContain('## Zuhause\n\nNur noch der Garten.\n\n## Gesundheit');
    const line = text.split('\n').indexOf('Nur noch der Garten.') + 1;
    expect(out.lines).toEqual({ start: line, end: line });
    await call(editNoteTool, { path: 'Areas/Übersicht', heading: 'zuhause', op: 'replace', content: '' });
    expect(await disk('Areas/Übersicht.md')).toContain('## Zuhause\n\n## Gesundheit');
  });

  test('heading-looking text in code fences and table code spans is not a heading', async () => {
    await vault.app.vault.create(
      'Code.md',
      '# Real\n\n```bash\n# not a heading\n```\n\n| a | b |\n| --- | --- |\n| `# nope` | x |\n\n## Second\n',
    );
    await vault.host.metadataCache.whenResolved();
    const err = await rejection(call(editNoteTool, { path: 'Code', heading: 'not a heading', op: 'replace', content: 'x' }));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('1 "Real", 1.1 "Second"');
    await call(editNoteTool, { path: 'Code', heading: 'Real', op: 'insert_before', content: 'Intro' });
    expect(await disk('Code.md')).toMatch(/^Intro\n# Real\n/);
  });

  test('an edit right after another waits for the index instead of using stale heading positions', async () => {
    await call(editNoteTool, { path: 'Ideas', heading: 'Work', op: 'insert_before', content: '## Inserted\n\nnew section\n' });
    await call(editNoteTool, { path: 'Ideas', heading: 'Home', op: 'append_within', content: '- one more' });
    const text = await disk('Ideas.md');
    expect(text).toContain('## Inserted\n\nnew section\n## Work');
    expect(text).toContain('cold kitchen.\n- one more\n\n## Writing');
  });
});

describe('set_properties', () => {
  test('keeps types and untouched keys; lists stay lists; null deletes', async () => {
    const before = await disk('Projects/Alpha/Alpha overview.md');
    await call(setPropertiesTool, {
      path: 'PRJ-ALPHA',
      properties: { priority: 2, tags: 'project, #client/northwind, urgent', aliases: 'Northwind', owner: null },
    });
    const after = await disk('Projects/Alpha/Alpha overview.md');
    await vault.host.metadataCache.whenResolved();
    const fm = notes.frontmatterOf(notes.policy.resolveNote({ path: 'Projects/Alpha/Alpha overview' }, { label: '', roots: [] }));
    expect(fm).toMatchObject({
      priority: 2,
      tags: ['project', 'client/northwind', 'urgent'],
      aliases: ['Northwind'],
      budget_eur: 48000,
      id: 'PRJ-ALPHA',
    });
    expect(fm.owner).toBeUndefined();
    expect(after).toContain('due: 2026-03-31\n');
    expect(after.slice(after.indexOf('# Project Alpha'))).toBe(before.slice(before.indexOf('# Project Alpha')));
  });

  test('keeps the exact text of untouched keys: flow lists, comments, leading zeros, quoted keys', async () => {
    const block = "tags: [x]   # c\n'single q': 007\nnested:\n  deep: [1, 2]   # flow\nlist:\n  - alpha\n  - beta   # inline comment\n";
    await vault.app.vault.create('Styled.md', `---\n${block}---\nbody\n`);
    await vault.host.metadataCache.whenResolved();
    await call(setPropertiesTool, { path: 'Styled', properties: { newkey: 'hello' } });
    expect(await disk('Styled.md')).toBe(`---\n${block}newkey: hello\n---\nbody\n`);
    await call(setPropertiesTool, { path: 'Styled', properties: { newkey: null, list: ['gamma'] } });
    expect(await disk('Styled.md')).toBe(
      "---\ntags: [x]   # c\n'single q': 007\nnested:\n  deep: [1, 2]   # flow\nlist:\n  - gamma\n---\nbody\n",
    );
  });

  test('reads the note once and writes in one vault.process; untouched lines stay byte for byte', async () => {
    await vault.app.vault.create('Commented.md', '---\n# kept comment\ntitle:   "Spaced"   # why\ncount: 1\n---\nbody\n');
    await vault.host.metadataCache.whenResolved();
    const host = vault.app.vault;
    const spies = [jest.spyOn(host, 'process'), jest.spyOn(vault.app.fileManager, 'processFrontMatter')];
    const reads = pluginReads(host);
    const out = await call(setPropertiesTool, { path: 'Commented', properties: { count: 2, added: ['a', 'b'] } });
    const [process, processFrontMatter] = spies.map((spy) => spy.mock.calls.length);
    const read = reads.count();
    reads.restore();
    spies.forEach((spy) => spy.mockRestore());
    expect({ reads: read, process, processFrontMatter }).toEqual({ reads: 1, process: 1, processFrontMatter: 0 });
    const after = await disk('Commented.md');
    expect(after).toBe('---\n# kept comment\ntitle:   "Spaced"   # why\ncount: 2\nadded:\n  - a\n  - b\n---\nbody\n');
    expect(out).toEqual({
      status: 'applied',
      path: 'Commented.md',
      hash: sha(after),
      size_before: 63,
      size_after: Buffer.byteLength(after),
      lines: { start: 1, end: 8 },
    });
  });

  test('a prepared write never lands on a note that changed since; force mode prepares again on the new text', async () => {
    const scope = { label: 'Test agent', roots: [] };
    const request = { tool: 'set_properties', kind: 'properties', path: 'Inbox', properties: { seen: true } } as const;
    const prepared = await notes.writes.prepare(request, scope);
    await vault.app.vault.process(notes.policy.resolveNote({ path: 'Inbox' }, scope), (text) => `${text}added meanwhile\n`);
    const changed = await disk('Inbox.md');
    await expect(notes.writes.applyPrepared(prepared, scope)).rejects.toBeInstanceOf(BaseChangedError);
    expect(await disk('Inbox.md')).toBe(changed);
    const out = await notes.writes.apply(request, scope);
    const after = await disk('Inbox.md');
    expect(after).toContain('seen: true\n');
    expect(after.endsWith('added meanwhile\n')).toBe(true);
    expect(out.hash).toBe(sha(after));
  });

  test('refuses protected keys, read-only notes, agent_overrides, private notes and invalid YAML', async () => {
    expect((await rejection(call(setPropertiesTool, { path: 'Ideas', properties: { Access: 'private' } }))).code).toBe('forbidden');
    const ro = await rejection(call(setPropertiesTool, { path: 'Projects/Alpha/Budget', properties: { spent: 1 } }));
    expect(ro.code).toBe('forbidden');
    expect(ro.message).toMatch(/access: read-only/);
    const override = await rejection(call(setPropertiesTool, { path: 'Projects/Beta/Retrospective', properties: { x: 1 } }, ctx('Cursor')));
    expect(override.message).toMatch(/agent_overrides/);
    expect(
      (await rejection(call(setPropertiesTool, { path: 'Projects/Beta/Retrospective', properties: { x: 1 } }, ctx('Claude Code')))).code,
    ).toBe('not_found');
    expect((await rejection(call(setPropertiesTool, { path: 'Personal/Therapy notes', properties: { x: 1 } }))).code).toBe('not_found');
    await vault.app.vault.create('Broken.md', '---\ntitle: [unclosed\ntags: a\n---\nbody\n');
    const broken = await rejection(call(setPropertiesTool, { path: 'Broken', properties: { x: 1 } }));
    expect(broken.code).toBe('invalid_argument');
    expect(broken.message).toMatch(/does not parse as YAML/);
    expect(await disk('Broken.md')).toBe('---\ntitle: [unclosed\ntags: a\n---\nbody\n');
    expect((await rejection(call(setPropertiesTool, { path: 'Ideas', properties: {} }))).code).toBe('invalid_argument');
  });
});

describe('move_note', () => {
  test('moves with .md added and links updated; never overwrites; private targets answer like taken ones, readable ones are named', async () => {
    const out = await call(moveNoteTool, { path: 'Areas/Home/Garden plan', to: 'Archive/Gardens/Plan 2026' });
    expect(out).toMatchObject({ status: 'applied', path: 'Archive/Gardens/Plan 2026.md', from: 'Areas/Home/Garden plan.md' });
    await vault.host.metadataCache.whenResolved();
    expect(await disk('Ideas.md')).toContain('[[Plan 2026#Water]]');
    const taken = await rejection(call(moveNoteTool, { path: 'Ideas', to: 'Inbox' }));
    const hidden = await rejection(call(moveNoteTool, { path: 'Ideas', to: 'personal/therapy NOTES.md' }));
    expect(taken.message).toBe(
      "A note is already at 'Inbox.md'; a move does not replace a note: choose another path, or delete that note first.",
    );
    expect(hidden.message).toBe('Cannot move to that path: it is taken or unavailable; choose another path.');
    expect((await rejection(call(moveNoteTool, { path: 'Projects/Alpha/Budget', to: 'B' }))).code).toBe('forbidden');
    expect((await rejection(call(moveNoteTool, { path: 'Ideas', to: '.hidden/Ideas' }))).code).toBe('forbidden');
  });

  test('a case-only rename of a name with a literal %25 keeps the %25 (the spelling rule of path lookups)', async () => {
    await vault.app.vault.create('Report 100%25.md', 'text\n');
    expect(await call(moveNoteTool, { path: 'Report 100%25.md', to: 'report 100%25.md' })).toMatchObject({
      path: 'report 100%25.md',
      from: 'Report 100%25.md',
    });
    expect(await disk('report 100%25.md')).toBe('text\n');
    await expect(fs.stat(path.join(vault.dir, 'report 100%.md'))).rejects.toThrow();
  });

  test('renames by case only, and moves folders unless they hold quarantined entries or read-only notes', async () => {
    expect(await call(moveNoteTool, { path: 'Ideas', to: 'ideas' })).toMatchObject({ path: 'ideas.md', from: 'Ideas.md' });
    expect(await call(moveNoteTool, { path: 'Areas/Health', to: 'Areas/Wellbeing/' })).toEqual({
      status: 'applied',
      path: 'Areas/Wellbeing',
      from: 'Areas/Health',
    });
    // A folder whose only note is private and linked from a visible journal note is refused:
    // moving it would rewrite that link and so reveal the note (issue 12.3). Unlinked, it
    // moves like an empty folder would, contents untouched.
    const privateText = await disk('Personal/Therapy notes.md');
    expect((await rejection(call(moveNoteTool, { path: 'Personal', to: 'Elsewhere' }))).message).toMatch(
      /holds notes this key may not change/,
    );
    await fs.writeFile(path.join(vault.dir, 'Journal/2026/2026-01-05.md'), 'no links\n');
    await vault.host.vault.syncFromDisk();
    await vault.host.metadataCache.whenResolved();
    expect(await call(moveNoteTool, { path: 'Personal', to: 'Elsewhere' })).toEqual({
      status: 'applied',
      path: 'Elsewhere',
      from: 'Personal',
    });
    expect(await disk('Elsewhere/Therapy notes.md')).toBe(privateText);
    expect((await rejection(call(moveNoteTool, { path: 'Projects/Alpha', to: 'Alpha moved' }))).code).toBe('forbidden');
    expect((await rejection(call(moveNoteTool, { path: 'Areas', to: 'Areas/Inner' }))).message).toMatch(/into itself/);
  });
});

describe('delete_note', () => {
  test('needs confirm; goes to the trash; read-only and private notes are refused', async () => {
    expect((await rejection(call(deleteNoteTool, { path: 'Inbox', confirm: false }))).message).toMatch(/confirm: true/);
    const text = await disk('Inbox.md');
    expect(await call(deleteNoteTool, { path: 'Inbox', confirm: true })).toEqual({
      status: 'applied',
      path: 'Inbox.md',
      hash: sha(text),
      size_before: Buffer.byteLength(text),
      size_after: 0,
    });
    expect(await fs.readFile(path.join(vault.dir, '.trash', 'Inbox.md'), 'utf8')).toBe(text);
    expect((await rejection(call(deleteNoteTool, { path: 'Projects/Alpha/Budget', confirm: true }))).code).toBe('forbidden');
    expect((await rejection(call(deleteNoteTool, { path: 'Personal/Therapy notes', confirm: true }))).code).toBe('not_found');
    expect((await rejection(call(deleteNoteTool, { path: 'Projects', confirm: true }))).message).toMatch(/is a folder/);
  });
});

describe('create_folder', () => {
  test('creates nested folders; an existing one is an error; names are checked', async () => {
    expect(await call(createFolderTool, { path: 'New/Deeper/Deepest/' })).toEqual({ status: 'applied', path: 'New/Deeper/Deepest' });
    expect((await fs.stat(path.join(vault.dir, 'New/Deeper/Deepest'))).isDirectory()).toBe(true);
    expect((await rejection(call(createFolderTool, { path: 'projects' }))).message).toMatch(/already exists/);
    expect((await rejection(call(createFolderTool, { path: 'Bad:name' }))).code).toBe('invalid_argument');
    expect((await rejection(call(createFolderTool, { path: '_private/sub' }))).code).toBe('forbidden');
  });
});

describe('read_note right after a write', () => {
  test('reports the properties of the text it returns, even before Obsidian re-indexes the note', async () => {
    const written = await call(setPropertiesTool, { path: 'Inbox', properties: { status: 'fresh', tags: ['just-set'] } });
    // No yield to the event loop: the metadata cache has not seen the write yet.
    const read = await call(readNoteTool, { path: 'Inbox' });
    expect(read.hash).toBe(written.hash);
    expect(read.frontmatter).toMatchObject({ status: 'fresh' });
    expect(read.tags).toContain('#just-set');
  });
});
