import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseNoteMetadata } from '../../../host/markdown/markdown-metadata';
import { noteBlocks, noteLines, noteSections, noteTasks, type TextRange } from '../../../../src/search/query/stretches/note-blocks';
import { DEMO_VAULT, HELP_EN_VAULT } from '../../../harness/temp-copy';

/** The text of each range. */
function texts(text: string, ranges: TextRange[]): string[] {
  return ranges.map((r) => text.slice(r.start, r.end));
}

describe('noteBlocks', () => {
  it('splits paragraphs, headings, list items, quotes, code, math and comments as Markdown blocks', () => {
    const text = [
      '---',
      'tags: [a]',
      '---',
      '# Title',
      'First paragraph',
      'still first.',
      '',
      '- item one',
      '  continued',
      '  - nested item',
      '- [ ] open task',
      '- [x] done task',
      'lazy line of the done task',
      '',
      '> quote line',
      'lazy quote line',
      '',
      '```js',
      'code',
      '',
      '# not a heading',
      '```',
      '$$',
      'x^2',
      '$$',
      '%%',
      'hidden',
      '%%',
      'Setext heading',
      '===',
      '***',
    ].join('\n');
    const blocks = noteBlocks(text);
    expect(blocks.map((b) => b.kind)).toEqual([
      'yaml',
      'heading',
      'paragraph',
      'list-item',
      'list-item',
      'list-item',
      'list-item',
      'quote',
      'code',
      'math',
      'comment',
      'heading',
      'rule',
    ]);
    expect(texts(text, blocks)[2]).toBe('First paragraph\nstill first.');
    expect(texts(text, blocks)[3]).toBe('- item one\n  continued');
    expect(texts(text, blocks)[4]).toBe('- nested item');
    expect(texts(text, blocks)[6]).toBe('- [x] done task\nlazy line of the done task');
    expect(texts(text, blocks)[7]).toBe('> quote line\nlazy quote line');
    expect(texts(text, blocks)[8]).toBe('```js\ncode\n\n# not a heading\n```');
    expect(blocks.filter((b) => b.task !== undefined).map((b) => b.task)).toEqual([' ', 'x']);
  });

  it('keeps a list item across a blank line when the next paragraph is indented to its text, not otherwise', () => {
    const text = '1. first\n\n   more of first\n\nnot in the list\n\n2) second\n   ```\n   code\n   ```\nafter the fence\n';
    expect(texts(text, noteBlocks(text))).toEqual([
      '1. first\n\n   more of first',
      'not in the list',
      '2) second\n   ```\n   code\n   ```',
      'after the fence',
    ]);
    // CommonMark: only an ordered item starting at 1 interrupts a paragraph.
    expect(texts('text\n2. two\n1. one\n', noteBlocks('text\n2. two\n1. one\n'))).toEqual(['text\n2. two', '1. one']);
  });

  it('treats ```inline``` at a line start as a paragraph, not a fence, and an unclosed fence as running to the end', () => {
    expect(noteBlocks('```a``` b\ntext\n').map((b) => b.kind)).toEqual(['paragraph']);
    expect(noteBlocks('~~~\nopen\n\nstill code').map((b) => b.kind)).toEqual(['code']);
  });

  it('handles CRLF notes and notes without frontmatter or text', () => {
    const text = 'a\r\nb\r\n\r\n- [ ] c\r\n';
    expect(texts(text, noteBlocks(text))).toEqual(['a\r\nb', '- [ ] c']);
    expect(noteBlocks('')).toEqual([]);
    expect(noteBlocks('\n\n  \n')).toEqual([]);
  });
});

describe('noteLines, noteSections, noteTasks', () => {
  it('lines exclude line breaks; sections run from heading to heading, and from the start to the first heading', () => {
    const text = 'intro\r\n# A\ntext a\n## B\ntext b\n';
    expect(texts(text, noteLines(text))).toEqual(['intro', '# A', 'text a', '## B', 'text b']);
    expect(texts(text, noteSections(text, noteBlocks(text)))).toEqual(['intro\r\n', '# A\ntext a\n', '## B\ntext b\n']);
    expect(texts('# Only\nx', noteSections('# Only\nx', noteBlocks('# Only\nx')))).toEqual(['# Only\nx']);
    expect(noteSections('plain', noteBlocks('plain'))).toEqual([{ start: 0, end: 5 }]);
  });

  it('tasks are list items with a status character; todo is a space, done is any other character', () => {
    const text = '- [ ] a\n* [x] b\n+ [X] c\n3. [-] d\n- [>] e\n- no task\n- [ ]\n- [[link]] not a task\n';
    const blocks = noteBlocks(text);
    expect(texts(text, noteTasks(blocks, 'all'))).toEqual([' a', ' b', ' c', ' d', ' e', '']);
    expect(texts(text, noteTasks(blocks, 'todo'))).toEqual([' a', '']);
    expect(texts(text, noteTasks(blocks, 'done'))).toEqual([' b', ' c', ' d', ' e']);
  });
});

function markdownFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.name.startsWith('.')
        ? []
        : e.isDirectory()
          ? markdownFiles(path.join(dir, e.name))
          : e.name.endsWith('.md')
            ? [path.join(dir, e.name)]
            : [],
    );
}

const vaults = [HELP_EN_VAULT].filter((v) => fs.existsSync(v));
if (vaults.length === 0) console.log(`Block agreement test on the demo vault only: ${HELP_EN_VAULT} is absent.`);

describe("noteBlocks agrees with the test host's metadata cache (sections and list items)", () => {
  it('gives the same block boundaries on at least 99% of the notes of obsidian-help-en and the demo vault', () => {
    const files = [...vaults, DEMO_VAULT].flatMap(markdownFiles);
    const differing: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const md = parseNoteMetadata(text);
      const sections = (md.sections ?? []).filter((s) => s.type !== 'list');
      // A list inside a quote or callout is part of that block here; the cache also lists its items.
      const items = (md.listItems ?? []).filter(
        (l) => !sections.some((s) => s.position.start.offset <= l.position.start.offset && l.position.end.offset <= s.position.end.offset),
      );
      const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length;
      const want = new Set([...sections, ...items].map((s) => `${lineOf(s.position.start.offset)}:${s.position.end.offset}`));
      const got = new Set(
        noteBlocks(text).map((b) => {
          let end = b.end;
          while (end > b.start && /\s/.test(text[end - 1])) end--;
          return `${lineOf(b.start)}:${end}`;
        }),
      );
      if (want.size !== got.size || [...want].some((w) => !got.has(w))) differing.push(file.split(path.sep).slice(-2).join('/'));
    }
    console.log(
      `noteBlocks: ${files.length - differing.length} of ${files.length} notes agree with the metadata cache; differing: ${differing.join(', ')}`,
    );
    expect(files.length).toBeGreaterThan(10);
    expect(differing.length).toBeLessThanOrEqual(files.length / 100);
  });
});
