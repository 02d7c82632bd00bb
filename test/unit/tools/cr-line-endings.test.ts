import fc from 'fast-check';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CachedMetadata, TFile } from 'obsidian';
import { getFrontMatterInfo } from '../../host/markdown/frontmatter';
import { parseNoteMetadata } from '../../host/markdown/markdown-metadata';
import { readNoteTool } from '../../../src/tools/read/read-note';
import { appendNoteTool } from '../../../src/tools/write/append-note';
import { editNoteTool } from '../../../src/tools/write/edit-note';
import { setPropertiesTool } from '../../../src/tools/write/set-properties';
import { writeNoteTool } from '../../../src/tools/write/write-note';
import type { ToolDefinition } from '../../../src/tools/tool';
import { mayHideFrontmatter } from '../../../src/vault/access/unparsed-frontmatter';
import { editAsCrNote, frontMatterInfo, lfView } from '../../../src/vault/content/text/line-endings';
import { NoteStore } from '../../../src/vault/note-store';
import { buildOutline } from '../../../src/vault/content/sections';
import { textEditOf, type TextRequest } from '../../../src/vault/writes/request-edits';
import type { EditOp } from '../../../src/vault/writes/write-types';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { rejection } from '../../harness/server/tool-errors';
import { toolContext } from '../../harness/tool-context';
import { markdownBlock } from '../../harness/edits/markdown-blocks';

/**
 * Notes whose lines end in `\r` alone (old Mac files). CommonMark counts a lone `\r` as a line
 * ending and CodeMirror 6, Obsidian's editor, splits lines at it, so such a note has its
 * frontmatter, headings and sections like an LF note: its `access` rule holds on every route,
 * section edits land where they would in the LF note, and writes keep the `\r` line endings.
 */

const CR = (lines: string[]): string => lines.join('\r') + '\r';

const PRIVATE = CR(['---', 'access: private', 'title: Old', '---', '# Secret', 'pin 1234']);
const READ_ONLY = CR(['---', 'access: read-only', '---', '# Kept', 'text']);
const PLAIN = CR(['---', 'status: draft', 'tags: [mac]', '---', '# Recipes', '', '## Soup', 'Boil water.', '', '## Bread', 'Knead.']);

let vault: DemoVault;
let notes: NoteStore;
const ctx = () => toolContext(notes, { mode: 'force' });
const call = (tool: ToolDefinition<any>, args: Record<string, unknown>) => tool.handler(args as never, ctx());
const disk = (p: string): Promise<string> => fs.readFile(path.join(vault.dir, p), 'utf8');

beforeEach(async () => {
  vault = await openDemoVault(async (dir) => {
    await fs.writeFile(path.join(dir, 'Old Mac private.md'), PRIVATE);
    await fs.writeFile(path.join(dir, 'Old Mac read-only.md'), READ_ONLY);
    await fs.writeFile(path.join(dir, 'Old Mac recipes.md'), PLAIN);
    await fs.writeFile(path.join(dir, 'Old Mac broken.md'), CR(['---', 'access: private', 'bad: [', '---', 'pin 1234']));
  });
  notes = new NoteStore(vault.app, { quarantine: () => [] });
});

afterEach(async () => {
  await vault?.close();
});

describe('the test host reads a lone \\r as a line break', () => {
  test('getFrontMatterInfo finds the block; offsets index the note', () => {
    const info = getFrontMatterInfo(PRIVATE);
    expect(info.exists).toBe(true);
    expect(info.frontmatter).toBe('access: private\rtitle: Old\r');
    expect(PRIVATE.slice(info.contentStart)).toBe('# Secret\rpin 1234\r');
    expect(getFrontMatterInfo('---\r\na: 1\r\n---\r\nbody').frontmatter).toBe('a: 1\r\n');
  });

  test('the metadata cache has the frontmatter, headings and sections with their lines', () => {
    const cache = parseNoteMetadata(PLAIN);
    expect(cache.frontmatter).toEqual({ status: 'draft', tags: ['mac'] });
    expect(
      cache.headings?.map((h) => [h.heading, h.position.start.line, PLAIN.slice(h.position.start.offset, h.position.end.offset)]),
    ).toEqual([
      ['Recipes', 4, '# Recipes'],
      ['Soup', 6, '## Soup'],
      ['Bread', 9, '## Bread'],
    ]);
  });

  test('processFrontMatter keeps the \\r line endings', async () => {
    const file = vault.app.vault.getFileByPath('Old Mac recipes.md') as TFile;
    await vault.app.fileManager.processFrontMatter(file, (fm: Record<string, unknown>) => {
      fm.status = 'done';
    });
    const after = await disk('Old Mac recipes.md');
    expect(after.startsWith('---\rstatus: done\r')).toBe(true);
    expect(after.endsWith(PLAIN.slice(PLAIN.indexOf('---\r# Recipes')))).toBe(true);
    expect(after).not.toContain('\n');
  });
});

describe('access rules of a \\r note hold', () => {
  test('a private note is missing for read_note, and read-only refuses writes', async () => {
    expect((await rejection(readNoteTool.handler({ path: 'Old Mac private' }, ctx()))).code).toBe('not_found');
    const err = await rejection(call(appendNoteTool, { path: 'Old Mac read-only', content: 'more' }));
    expect(err.code).toBe('forbidden');
    expect(await disk('Old Mac read-only.md')).toBe(READ_ONLY);
    // A block that does not parse is read line by line, its `\r` lines too.
    expect((await rejection(readNoteTool.handler({ path: 'Old Mac broken' }, ctx()))).code).toBe('not_found');
  });

  test('a metadata cache that reads the note as one line (no frontmatter) still leaves it private', () => {
    const file = vault.app.vault.getFileByPath('Old Mac private.md') as TFile;
    const oneLine: CachedMetadata = {
      sections: [
        {
          type: 'paragraph',
          position: { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: PRIVATE.length - 1, offset: PRIVATE.length - 1 } },
        },
      ],
    };
    expect(mayHideFrontmatter(oneLine)).toBe(true);
    const real = vault.app.metadataCache.getFileCache.bind(vault.app.metadataCache);
    const spy = jest.spyOn(vault.app.metadataCache, 'getFileCache').mockImplementation((f) => (f.path === file.path ? oneLine : real(f)));
    try {
      expect(notes.policy.accessOf(file, { label: 'Test agent', roots: [] })).toBe('private');
      expect(notes.policy.openness(file)).toBe('closed');
    } finally {
      spy.mockRestore();
    }
  });

  test('no write may add an access rule to a \\r note through its frontmatter block', async () => {
    const err = await rejection(
      call(editNoteTool, { path: 'Old Mac recipes', anchor: 'status: draft', op: 'replace', content: 'access: private' }),
    );
    expect(err.code).toBe('forbidden');
    expect(await disk('Old Mac recipes.md')).toBe(PLAIN);
  });
});

describe('writes to a \\r note keep its line endings and structure', () => {
  test('read_note splits body and frontmatter', async () => {
    const out = await readNoteTool.handler({ path: 'Old Mac recipes' }, ctx());
    expect(out.frontmatter).toEqual({ status: 'draft', tags: ['mac'] });
    expect(out.body).toBe(PLAIN.slice(PLAIN.indexOf('# Recipes')));
    const soup = await readNoteTool.handler({ path: 'Old Mac recipes', section: 'Soup' }, ctx());
    expect(soup.body).toBe('## Soup\rBoil water.\r\r');
    const outline = await readNoteTool.handler({ path: 'Old Mac recipes', outline: true }, ctx());
    expect(
      String(outline.body ?? outline.outline)
        .split('\n')
        .map((l) => l.split('\t')[2]),
    ).toEqual(['Recipes', 'Soup', 'Bread']);
  });

  test('edit_note append_within lands at the end of its section', async () => {
    await call(editNoteTool, { path: 'Old Mac recipes', heading: 'Soup', op: 'append_within', content: 'Add salt.\nStir.' });
    expect(await disk('Old Mac recipes.md')).toBe(PLAIN.replace('Boil water.\r', 'Boil water.\rAdd salt.\rStir.\r'));
  });

  test('edit_note replace by heading and anchor keep \\r', async () => {
    await call(editNoteTool, { path: 'Old Mac recipes', heading: 'Bread', op: 'replace', content: 'Bake.' });
    await call(editNoteTool, { path: 'Old Mac recipes', anchor: '## Soup\nBoil', op: 'replace', content: '## Soup\nSimmer' });
    expect(await disk('Old Mac recipes.md')).toBe(PLAIN.replace('Knead.', 'Bake.').replace('Boil water', 'Simmer water'));
  });

  test('write_note keeps the frontmatter and set_properties changes one line', async () => {
    await call(writeNoteTool, { path: 'Old Mac recipes', body: 'New body\nline two\n' });
    await call(setPropertiesTool, { path: 'Old Mac recipes', properties: { status: 'done' } });
    expect(await disk('Old Mac recipes.md')).toBe(CR(['---', 'status: done', 'tags: [mac]', '---', 'New body', 'line two']));
  });

  test('append_note adds lines in \\r', async () => {
    await call(appendNoteTool, { path: 'Old Mac recipes', content: 'Last\nline' });
    expect(await disk('Old Mac recipes.md')).toBe(PLAIN + 'Last\rline\r');
  });
});

describe('line-endings helpers', () => {
  test('lfView keeps offsets; frontMatterInfo finds a \\r block; editAsCrNote turns the result back', () => {
    expect(lfView('a\rb\r\nc')).toBe('a\nb\r\nc');
    expect(frontMatterInfo(PRIVATE)).toMatchObject({ exists: true, contentStart: PRIVATE.indexOf('# Secret') });
    expect(editAsCrNote('a\rb\r', (t) => ({ text: t + 'c\r\n' })).text).toBe('a\rb\rc\r');
    expect(editAsCrNote('a\nb', (t) => ({ text: t + '\nc' })).text).toBe('a\nb\nc');
  });
});

describe('property: a \\r note is edited exactly as its LF twin, in \\r', () => {
  const outlineOf = (text: string) => buildOutline(parseNoteMetadata(text).headings, text.length);
  const word = fc.constantFrom('alpha', 'beta', 'gamma');
  const block = markdownBlock(word);
  const frontmatter = fc.constantFrom('', '---\nstatus: draft\n---\n', '---\ntags: [a]\n---');
  const note = fc
    .tuple(frontmatter, fc.array(fc.tuple(block, fc.constantFrom('\n', '\n\n', '')), { minLength: 1, maxLength: 6 }))
    .map(
      ([fm, parts]) =>
        fm + (fm.endsWith('---') ? '\n' : '') + parts.map(([b, sep], i) => b + (sep === '' && i < parts.length - 1 ? '\n' : sep)).join(''),
    );
  const content = fc
    .array(fc.oneof(word, fc.constantFrom('---', 'new line', '## added')), { minLength: 1, maxLength: 3 })
    .map((l) => l.join('\n'));
  const request = fc.oneof(
    fc
      .tuple(fc.constantFrom<EditOp>('append_within', 'insert_before', 'insert_after', 'replace'), content, fc.nat())
      .map(([op, text, pick]) => ({ op, text, pick, kind: 'heading' as const })),
    fc.tuple(content, fc.boolean()).map(([text, ensure]) => ({ kind: 'append' as const, text, ensure })),
    content.map((text) => ({ kind: 'body' as const, text })),
    word.map((w) => ({ kind: 'properties' as const, text: w })),
    fc.tuple(fc.constantFrom('alpha', 'text\n', 'a text\n'), content).map(([anchor, text]) => ({ kind: 'anchor' as const, anchor, text })),
  );

  test('same text with \\r for \\n, same lines, same refusals', () => {
    fc.assert(
      fc.property(note, request, (lf, r) => {
        // A note without any line break has no line-ending style of its own (it takes LF).
        fc.pre(lf.includes('\n'));
        const cr = lf.replace(/\n/g, '\r');
        const sections = outlineOf(lf);
        let req: TextRequest;
        if (r.kind === 'heading') {
          fc.pre(sections.length > 0);
          req = {
            tool: 'edit_note',
            path: 'n.md',
            kind: 'edit',
            target: { heading: sections[r.pick % sections.length].path },
            op: r.op,
            content: r.text,
          };
        } else if (r.kind === 'anchor') {
          req = { tool: 'edit_note', path: 'n.md', kind: 'edit', target: { anchor: r.anchor }, op: 'insert_after', content: r.text };
        } else if (r.kind === 'append') {
          req = { tool: 'append_note', path: 'n.md', kind: 'append', content: r.text, ensureNewline: r.ensure };
        } else if (r.kind === 'body') {
          req = { tool: 'write_note', path: 'n.md', kind: 'write', body: r.text };
        } else {
          req = { tool: 'set_properties', path: 'n.md', kind: 'properties', properties: { status: r.text } };
        }
        const run = (text: string) => {
          try {
            return textEditOf(req, 'n.md').edit(text, outlineOf(text));
          } catch (err) {
            return { error: (err as Error).message };
          }
        };
        const a = run(lf);
        const b = run(cr);
        if ('error' in a) return expect(b).toEqual(a);
        expect(b).toEqual({ ...a, text: a.text.replace(/\n/g, '\r') });
      }),
      { numRuns: 500 },
    );
  });
});
