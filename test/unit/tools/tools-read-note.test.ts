import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pageText, readNoteTool } from '../../../src/tools/read/read-note';
import { readNotesTool, shareBudget } from '../../../src/tools/read/read-notes';
import type { ToolContext } from '../../../src/tools/tool';
import { NoteStore } from '../../../src/vault/note-store';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { rejection } from '../../harness/server/tool-errors';
import { toolContext } from '../../harness/tool-context';

let vault: DemoVault;
let notes: NoteStore;

/** A ToolContext for a propose key with this label and roots (search is not used by these tools). */
const contextFor = (label = 'Test agent', roots: string[] = []): ToolContext => toolContext(notes, { label, roots });

/** Calls read_note and returns its result. */
function readNote(args: Parameters<typeof readNoteTool.handler>[0], ctx = contextFor()) {
  return readNoteTool.handler(args, ctx);
}

beforeAll(async () => {
  vault = await openDemoVault();
  notes = new NoteStore(vault.app, { quarantine: () => [] });
});

afterAll(async () => {
  await vault?.close();
});

describe('pageText', () => {
  test('pages by chars, never splitting a surrogate pair; atLine ends at a line break', () => {
    expect(pageText('abcdef', 0, 4)).toEqual({ text: 'abcd', length: 6, offset: 0, next: 4, hasMore: true });
    expect(pageText('abcdef', 4, 4)).toEqual({ text: 'ef', length: 6, offset: 4, next: 6, hasMore: false });
    expect(pageText('abcdef', 6, 4).text).toBe('');
    expect(pageText('ab😀cd', 0, 3).text).toBe('ab');
    expect(pageText('one\ntwo\nthree', 0, 10, true).text).toBe('one\ntwo\n');
    expect(pageText('abcdef', 2, 0).text).toBe('cdef');
    expect(() => pageText('abc', 4, 10)).toThrow(/offset 4 is past the end \(the text has 3 chars\)/);
  });

  test('a page never starts or ends between the halves of a surrogate pair, and is never empty before the end', () => {
    const faces = '😀😀😀';
    expect(pageText(faces, 0, 1)).toEqual({ text: '😀', length: 6, offset: 0, next: 2, hasMore: true });
    expect(pageText(faces, 1, 1)).toEqual({ text: '😀', length: 6, offset: 0, next: 2, hasMore: true });
    expect(pageText(faces, 1, 2)).toEqual({ text: '😀', length: 6, offset: 0, next: 2, hasMore: true });
    expect(pageText(faces, 3, 2)).toEqual({ text: '😀', length: 6, offset: 2, next: 4, hasMore: true });
    expect(pageText(faces, 5, 0)).toEqual({ text: '😀', length: 6, offset: 4, next: 6, hasMore: false });
    expect(pageText(`a${faces}`, 0, 2)).toEqual({ text: 'a', length: 7, offset: 0, next: 1, hasMore: true });
    // An offset moved back to a pair's first half counts max_chars from there: never max_chars + 1 units but for one whole character.
    expect(pageText(`x${faces}y`, 2, 3)).toEqual({ text: '😀', length: 8, offset: 1, next: 3, hasMore: true });
    expect(pageText(`x${faces}y`, 2, 4)).toEqual({ text: '😀😀', length: 8, offset: 1, next: 5, hasMore: true });
    expect(pageText(`x${faces}y`, 2, 5)).toEqual({ text: '😀😀', length: 8, offset: 1, next: 5, hasMore: true });
    expect(pageText(`x${faces}y`, 2, 1)).toEqual({ text: '😀', length: 8, offset: 1, next: 3, hasMore: true });
    for (let at = 0; at < 8; at++) {
      for (let size = 1; size < 8; size++) {
        const page = pageText(`x${faces}y`, at, size);
        expect(page.text.length <= size || (page.text.length === 2 && size === 1)).toBe(true);
      }
    }
    // Paging on from each page's `next` reads every character once, whole.
    const text = `x${faces}y😀`;
    for (const size of [1, 2, 3]) {
      const pages: string[] = [];
      for (let at = 0; at < text.length;) {
        const page = pageText(text, at, size);
        pages.push(page.text);
        at = page.next;
      }
      expect(pages.join('')).toBe(text);
      for (const page of pages) expect(page).toMatch(/^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])+$/);
    }
  });
});

describe('read_note', () => {
  const HANDBOOK = 'Reference/Sourdough handbook.md';

  test('returns metadata, hash of the whole file and the first 8000 chars of the body', async () => {
    const raw = await fs.readFile(path.join(vault.dir, HANDBOOK), 'utf8');
    const body = raw.slice(raw.indexOf('# Sourdough handbook'));
    const out = await readNote({ path: 'Sourdough handbook' });
    expect(out).toMatchObject({
      path: HANDBOOK,
      id: `path:${HANDBOOK}`,
      title: 'Sourdough handbook',
      frontmatter: { loaves_baked: 112, aliases: ['Bread notes'] },
      size: Buffer.byteLength(raw),
      hash: createHash('sha256').update(raw).digest('hex'),
      body_length: body.length,
      body_offset: 0,
      has_more: true,
    });
    expect(out.body).toBe(body.slice(0, 8000));
    expect(out.tags).toEqual(expect.arrayContaining(['#reference', '#sourdough', '#baking']));
    expect(out.links).toEqual(expect.arrayContaining(['Reference/Recipes/Pancakes.md', 'Reference/日本語メモ.md']));
    expect(Date.parse(out.mtime as string)).not.toBeNaN();
    expect(out.note).toMatch(/offset=8000/);
    expect(out.note).toMatch(/outline:true/);
    expect(out.note).toMatch(/section/);
    expect(out.agent_md).toBeUndefined();
  });

  test('pages with offset, max_chars and max_chars:0', async () => {
    const first = await readNote({ path: HANDBOOK, max_chars: 5000 });
    const second = await readNote({ path: HANDBOOK, offset: 5000, max_chars: 5000 });
    const all = await readNote({ path: HANDBOOK, max_chars: 0 });
    expect((first.body as string) + (second.body as string)).toBe((all.body as string).slice(0, 10000));
    expect(all.has_more).toBe(false);
    expect(all.note).toBeUndefined();
    expect(all.body_length).toBeGreaterThan(20000);
    const last = await readNote({ path: HANDBOOK, offset: (all.body_length as number) - 10 });
    expect(last).toMatchObject({ has_more: false, body_offset: (all.body_length as number) - 10 });
    expect((await rejection(readNote({ path: HANDBOOK, offset: 999999 }))).code).toBe('invalid_argument');
  });

  test('outline: one path<TAB>chars<TAB>heading line per heading, paged at line ends', async () => {
    const out = await readNote({ path: HANDBOOK, outline: true });
    const lines = (out.outline as string).split('\n');
    expect(lines[0]).toMatch(/^1\t\d+\tSourdough handbook$/);
    expect(lines[1]).toMatch(/^1\.1\t\d+\tStarter$/);
    expect(lines).toContain(lines.find((l) => /^1\.1\.1\t\d+\tMaking one from scratch$/.test(l)));
    expect(out.body).toBeUndefined();
    expect(out.has_more).toBe(false);
    const chars = Number(lines[1].split('\t')[1]);
    const starter = await readNote({ path: HANDBOOK, section: '1.1', max_chars: 0 });
    expect(starter.body_length).toBe(chars);
    const paged = await readNote({ path: HANDBOOK, outline: true, max_chars: 60 });
    expect(paged.has_more).toBe(true);
    expect((paged.outline as string).endsWith('\n')).toBe(true);
    expect(paged.note).toMatch(/outline:true and offset=\d+/);
    const flat = await readNote({ path: 'Inbox', outline: true });
    expect(flat.outline).toBe('1\t' + String(flat.outline).split('\t')[1] + '\tInbox');
  });

  test('section by path or heading text includes its heading line and subsections', async () => {
    const out = await readNote({ path: 'Projects/Alpha/Meeting notes.md', section: '1.3' });
    expect(out.section).toEqual({ path: '1.3', heading: '2026-01-29 Layout review', level: 2 });
    expect((out.body as string).startsWith('## 2026-01-29 Layout review\n')).toBe(true);
    expect(out.body).toContain('#### Open questions');
    expect(out.has_more).toBe(false);
    const byText = await readNote({ path: 'Projects/Alpha/Meeting notes.md', section: 'open questions' });
    expect(byText.section).toMatchObject({ path: '1.3.1.1' });
    expect(byText.agent_md).toMatchObject({ path: 'Projects/AGENTS.md' });
  });

  test('duplicate and missing headings are errors that list what exists', async () => {
    const dup = await rejection(readNote({ path: 'Projects/Alpha/Meeting notes.md', section: 'Action items' }));
    expect(dup.code).toBe('ambiguous');
    expect(dup.message).toContain('1.1.2 "Action items"');
    expect(dup.message).toContain('1.2.2 "Action items"');
    expect(dup.message).toContain('1.3.1 "Action items"');
    const missing = await rejection(readNote({ path: 'Projects/Alpha/Meeting notes.md', section: 'Budget' }));
    expect(missing.code).toBe('not_found');
    expect(missing.message).toContain('1.1 "2026-01-08 Kickoff"');
  });

  test('a long section pages like the body', async () => {
    const out = await readNote({ path: HANDBOOK, section: 'Starter', max_chars: 1000 });
    expect(out).toMatchObject({ has_more: true, body_offset: 0 });
    expect(out.note).toMatch(/section:"1\.1" and offset=1000/);
  });

  test('CRLF note: body and hash keep the CRLF text', async () => {
    const raw = await fs.readFile(path.join(vault.dir, 'Reference/Imported from Windows.md'), 'utf8');
    const out = await readNote({ path: 'Reference/Imported from Windows' });
    expect(out.hash).toBe(createHash('sha256').update(raw).digest('hex'));
    expect((out.body as string).startsWith('# Imported from Windows\r\n')).toBe(true);
    expect(out.frontmatter).toEqual({ tags: ['reference', 'imported'], source: 'old Windows laptop' });
  });

  test('by id, and agent_md from the nearest AGENTS.md', async () => {
    const out = await readNote({ id: 'PRJ-ALPHA' });
    expect(out.path).toBe('Projects/Alpha/Alpha overview.md');
    expect(out.agent_md).toEqual({ path: 'Projects/AGENTS.md', content: expect.stringContaining('# Instructions for agents') });
    expect((await readNote({ id: 2041 })).path).toBe('Projects/Beta/Beta overview.md');
  });

  test('bad arguments and unreadable notes', async () => {
    expect((await rejection(readNote({}))).code).toBe('invalid_argument');
    expect((await rejection(readNote({ path: 'Inbox', outline: true, section: '1' }))).code).toBe('invalid_argument');
    expect((await rejection(readNote({ path: 'Personal/Therapy notes.md' }))).code).toBe('not_found');
    expect((await rejection(readNote({ path: 'Projects/Beta/Retrospective' }, contextFor('Claude Code')))).code).toBe('not_found');
    expect((await rejection(readNote({ path: '_private/Passwords hint.md' }))).code).toBe('forbidden');
    // Inbox.md is a top-level note: its bare name names it, outside the key's roots (docs/security.md#key-roots).
    expect((await rejection(readNote({ path: 'Inbox' }, contextFor('Test agent', ['Projects'])))).code).toBe('forbidden');
  });

  test('the tool is a read tool with a readOnlyHint', () => {
    expect(readNoteTool).toMatchObject({ name: 'read_note', kind: 'read', annotations: { readOnlyHint: true } });
  });
});

describe('read_notes', () => {
  test('shareBudget shows short texts whole and splits the rest evenly', () => {
    expect(shareBudget([100, 20000, 20000], 8000)).toEqual([100, 3950, 3950]);
    expect(shareBudget([10, 20], 8000)).toEqual([10, 20]);
    expect(shareBudget([5000, 5000, 5000], 8000)).toEqual([2666, 2667, 2667]);
    expect(shareBudget([], 8000)).toEqual([]);
  });

  test('notes share one 8000-char budget; missing and ambiguous ones are reported', async () => {
    const out = await readNotesTool.handler(
      { paths: ['Sourdough handbook', 'Inbox.md', 'No such note', 'Meeting notes', 'PRJ-ALPHA', 'Inbox', 'Personal/Therapy notes.md'] },
      contextFor(),
    );
    const list = out.notes as Array<Record<string, unknown>>;
    expect(list.map((n) => n.path)).toEqual(['Reference/Sourdough handbook.md', 'Inbox.md', 'Projects/Alpha/Alpha overview.md']);
    expect(out.not_found).toEqual(['No such note', 'Personal/Therapy notes.md']);
    expect(out.errors).toEqual([{ path: 'Meeting notes', message: expect.stringContaining('Projects/Beta/Meeting notes.md') }]);
    const total = list.reduce((sum, n) => sum + (n.body as string).length, 0);
    expect(total).toBeLessThanOrEqual(8000);
    expect(list[0]).toMatchObject({ has_more: true });
    expect(list[1]).toMatchObject({ has_more: false });
    expect(list[1].body_length).toBe((list[1].body as string).length);
    expect(list[2]).toMatchObject({ id: 'PRJ-ALPHA', agent_md_path: 'Projects/AGENTS.md' });
    expect(out.agent_md).toEqual([{ path: 'Projects/AGENTS.md', content: expect.stringContaining('append-only') }]);
    expect(out.note).toMatch(/8000-char budget/);
    expect(list[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('each AGENTS.md is read once per call, and links come without a backlink scan', async () => {
    const ctx = contextFor();
    const read = jest.spyOn(notes, 'read');
    const linksOf = jest.spyOn(notes, 'linksOf');
    try {
      const out = await readNotesTool.handler(
        { paths: ['Projects/Alpha/Budget.md', 'Projects/Alpha/Meeting notes.md', 'Projects/Beta/Beta overview.md', 'Inbox'] },
        ctx,
      );
      const list = out.notes as Array<Record<string, unknown>>;
      expect(list.slice(0, 3).map((n) => n.agent_md_path)).toEqual(['Projects/AGENTS.md', 'Projects/AGENTS.md', 'Projects/AGENTS.md']);
      expect(list[3].agent_md_path).toBeUndefined();
      expect(read.mock.calls.filter(([file]) => file.path === 'Projects/AGENTS.md')).toHaveLength(1);
      expect(linksOf).not.toHaveBeenCalled();
      const single = await readNote({ path: 'Journal/2026/2026-01-05.md' }, ctx);
      expect(single.links).toEqual(['Projects/Alpha/Alpha overview.md']);
      expect(linksOf).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
      linksOf.mockRestore();
    }
  });
});

describe('read_note and read_notes on text the metadata cache has not caught up with', () => {
  let own: DemoVault;
  let ownNotes: NoteStore;

  /** A context over this block's own vault copy (it writes). */
  const ownContext = (): ToolContext => toolContext(ownNotes, { id: 'k2', mode: 'force' });

  beforeAll(async () => {
    own = await openDemoVault(async (dir) => {
      await fs.writeFile(path.join(dir, 'Bom note.md'), '\ufeff---\ntags: [bom]\n---\n# Bom note\n\nBody after a BOM.\n', 'utf8');
      await fs.writeFile(path.join(dir, 'Plain.md'), '# Plain\n\nNo frontmatter yet.\n', 'utf8');
      await fs.writeFile(path.join(dir, 'Flat.md'), 'No headings here, just text.\n', 'utf8');
      await fs.writeFile(path.join(dir, 'Nested.md'), '# Café\n\n## Setup\n\nfirst\n\n# Other\n\n## Setup\n\nsecond\n', 'utf8');
      await fs.writeFile(path.join(dir, 'Intro.md'), '---\nstatus: draft\n---\nText before any heading.\n\n# First\n\nbody\n', 'utf8');
    });
    ownNotes = new NoteStore(own.app, { quarantine: () => [] });
  });

  afterAll(async () => {
    await own?.close();
  });

  test('right after a write adds frontmatter, the body is computed from the text, not the stale cache', async () => {
    const file = ownNotes.policy.resolveNote({ path: 'Plain' }, { label: 'Test agent', roots: [] });
    const before = await ownNotes.readRaw(file);
    expect(before.startsWith('---')).toBe(false);
    await own.app.vault.modify(file, `---\nstatus: fresh\n---\n${before}`);
    const out = await readNoteTool.handler({ path: 'Plain' }, ownContext());
    expect(out.body).toBe(before);
    const many = await readNotesTool.handler({ paths: ['Plain'] }, ownContext());
    expect((many.notes as Array<Record<string, unknown>>)[0].body).toBe(before);
  });

  test('a note whose frontmatter follows a BOM: the body starts after the block', async () => {
    const out = await readNoteTool.handler({ path: 'Bom note' }, ownContext());
    expect(out.body).toBe('# Bom note\n\nBody after a BOM.\n');
    expect(out.frontmatter).toEqual({ tags: ['bom'] });
  });

  test('section resolves like edit_note: Parent/Child, trailing # marks, NFD text; no headings advises paging', async () => {
    const second = await readNoteTool.handler({ path: 'Nested', section: 'Other/Setup' }, ownContext());
    expect(second.section).toEqual({ path: '2.1', heading: 'Setup', level: 2 });
    expect(second.body).toBe('## Setup\n\nsecond\n');
    const cafe = await readNoteTool.handler({ path: 'Nested', section: '# Cafe\u0301 ##' }, ownContext());
    expect(cafe.section).toMatchObject({ path: '1' });
    const dup = await rejection(readNoteTool.handler({ path: 'Nested', section: 'Setup' }, ownContext()));
    expect(dup.code).toBe('ambiguous');
    expect(dup.message).toContain('1.1 "Setup", 2.1 "Setup"');
    const flat = await rejection(readNoteTool.handler({ path: 'Flat', section: 'x' }, ownContext()));
    expect(flat.code).toBe('not_found');
    expect(flat.message).toMatch(/has no headings; read it without section, using offset to page/);
  });

  test('the preamble (text before the first heading) is section "0" / "(preamble)" in the outline and for section', async () => {
    const outline = await readNoteTool.handler({ path: 'Intro', outline: true }, ownContext());
    expect(outline.outline).toBe(`0\t${'Text before any heading.\n\n'.length}\t(preamble)\n1\t${'# First\n\nbody\n'.length}\tFirst`);
    const zero = await readNoteTool.handler({ path: 'Intro', section: '0' }, ownContext());
    expect(zero.section).toEqual({ path: '0', heading: '(preamble)', level: 0 });
    expect(zero.body).toBe('Text before any heading.\n\n');
    const byName = await readNoteTool.handler({ path: 'Intro', section: '(preamble)' }, ownContext());
    expect(byName.body).toBe(zero.body);
    const flat = await readNoteTool.handler({ path: 'Flat', section: '0' }, ownContext());
    expect(flat.body).toBe('No headings here, just text.\n');
    const flatOutline = await readNoteTool.handler({ path: 'Flat', outline: true }, ownContext());
    expect(flatOutline.outline).toBe(`0\t${'No headings here, just text.\n'.length}\t(preamble)`);
    expect(flatOutline.note).toMatch(/no headings/);
    const plain = await readNoteTool.handler({ path: 'Nested', outline: true }, ownContext());
    expect(String(plain.outline).startsWith('1\t')).toBe(true);
    // A note whose body starts with its first heading has no section 0: said so, not as a heading '0' not found.
    for (const section of ['0', '(preamble)', '(Preamble)']) {
      const none = await rejection(readNoteTool.handler({ path: 'Nested', section }, ownContext()));
      expect(none.code).toBe('not_found');
      expect(none.message).toMatch(
        /^'Nested\.md' has no text before its first heading, so no section 0 \(preamble\); its headings are: 1 "/,
      );
    }
  });
});
