import fc from 'fast-check';
import { buildOutline } from '../../../../src/vault/content/sections';
import { appendText, editAtHeading } from '../../../../src/vault/writes/edits/text-edits';
import type { EditOp } from '../../../../src/vault/writes/write-types';
import { parseNoteMetadata } from '../../../host/index';
import { markdownBlock } from '../../../harness/edits/markdown-blocks';

/**
 * edit_note by heading (and append_note) never change another section's structure: text going
 * in next to a setext heading (`Title` over `=====` or `-----`) or a `---` / `===` line is kept
 * apart from it by a blank line, so it neither joins that heading's title nor turns a line into
 * a heading underline; and "after the heading line" of a setext heading is after its underline.
 */

const outline = (text: string) => buildOutline(parseNoteMetadata(text).headings, text.length);
const headings = (text: string) => (parseNoteMetadata(text).headings ?? []).map((h) => `${h.level}:${h.heading}`);
const edit = (text: string, heading: string, op: EditOp, content: string) =>
  editAtHeading(text, outline(text), heading, op, content, 'n.md');

// Session 44's newcomer: append_within after a table made a table row, after a callout continued it, after a task joined
// that task's text (GFM: a plain line after a table's rows is a row; after a quote or a list item it continues it lazily).
describe('tables, quotes and lists next to a heading edit or an append', () => {
  test('plain text after a table, a callout or a task list gets a blank line first', () => {
    const table = '## Links\n| a | b |\n| --- | --- |\n| c | d |\n## Next\n';
    expect(edit(table, 'Links', 'append_within', 'After the table.').text).toBe(
      '## Links\n| a | b |\n| --- | --- |\n| c | d |\n\nAfter the table.\n## Next\n',
    );
    const callout = '## Risks\n> [!warning]\n> Vendor late.\n\n## Next\n';
    expect(edit(callout, 'Risks', 'append_within', 'Follow up.').text).toBe(
      '## Risks\n> [!warning]\n> Vendor late.\n\nFollow up.\n\n## Next\n',
    );
    const tasks = '## Action items\n- [ ] Ana: call\n- [ ] Bob: email\n';
    expect(edit(tasks, 'Action items', 'append_within', 'Plain note.').text).toBe(
      '## Action items\n- [ ] Ana: call\n- [ ] Bob: email\n\nPlain note.\n',
    );
    expect(appendText('Intro\n\n- [ ] task\n', 'Did it.', true).text).toBe('Intro\n\n- [ ] task\n\nDid it.\n');
    expect(appendText('| a |\n|---|\n| b |\n', 'Text', true).text).toBe('| a |\n|---|\n| b |\n\nText\n');
    // Session 44's third newcomer: after a footnote definition the line became part of the footnote.
    expect(appendText('Text[^1]\n\n[^1]: The footnote.\n', 'after', true).text).toBe('Text[^1]\n\n[^1]: The footnote.\n\nafter\n');
    expect(appendText('[^1]: One.\n', '[^2]: Two.', true).text).toBe('[^1]: One.\n[^2]: Two.\n');
  });

  test('a row, a quote line, a list item or an indented line continues its block as meant', () => {
    const table = '## T\n| a |\n| --- |\n| b |\n';
    expect(edit(table, 'T', 'append_within', '| c |').text).toBe('## T\n| a |\n| --- |\n| b |\n| c |\n');
    expect(edit('## Q\n> one\n', 'Q', 'append_within', '> two').text).toBe('## Q\n> one\n> two\n');
    expect(edit('## L\n- [ ] a\n', 'L', 'append_within', '- [ ] b').text).toBe('## L\n- [ ] a\n- [ ] b\n');
    expect(edit('## L\n1. a\n', 'L', 'append_within', '   more of a').text).toBe('## L\n1. a\n   more of a\n');
    expect(appendText('- a\n', '- b', true).text).toBe('- a\n- b\n');
    // A paragraph goes on as before, and a --- line is no table delimiter.
    expect(appendText('a\nb\n', 'c', true).text).toBe('a\nb\nc\n');
    expect(edit('## A\nx | y\n', 'A', 'append_within', 'z').text).toBe('## A\nx | y\nz\n');
  });

  test('new list items or quote lines going in above plain text are kept apart from it', () => {
    expect(edit('## A\nSome text.\n', 'A', 'insert_after', '- [ ] new').text).toBe('## A\n- [ ] new\n\nSome text.\n');
    expect(edit('## A\n- [ ] old\n', 'A', 'insert_after', '- [ ] new').text).toBe('## A\n- [ ] new\n- [ ] old\n');
    // Session 44's third newcomer: a list set off from its heading by a blank line was split in two (made loose).
    expect(edit('## List\n\n- one\n- two\n', 'List', 'insert_after', '- zero').text).toBe('## List\n\n- zero\n- one\n- two\n');
    expect(edit('## Q\n\n> one\n', 'Q', 'insert_after', '> zero').text).toBe('## Q\n\n> zero\n> one\n');
    expect(edit('## P\n\nText.\n', 'P', 'insert_after', 'Intro.').text).toBe('## P\nIntro.\n\nText.\n');
  });
});

describe('setext headings and --- lines next to a heading edit', () => {
  test('append_within before a setext heading does not join its title', () => {
    const text = '## Soup\n```\nwater\n```\nBread\n=====\nKnead.\n';
    const out = edit(text, 'Soup', 'append_within', 'Add salt.');
    expect(out.text).toBe('## Soup\n```\nwater\n```\nAdd salt.\n\nBread\n=====\nKnead.\n');
    expect(headings(out.text)).toEqual(['2:Soup', '1:Bread']);
    expect(out.lines).toEqual({ start: 5, end: 5 });
  });

  test('insert_after and replace of a setext heading go after its underline', () => {
    const text = 'Title\n=====\nBody.\n\n# Next\n';
    expect(edit(text, 'Title', 'insert_after', 'Intro.').text).toBe('Title\n=====\nIntro.\nBody.\n\n# Next\n');
    expect(edit(text, 'Title', 'replace', 'New.').text).toBe('Title\n=====\nNew.\n\n# Next\n');
    expect(edit('Two line\ntitle\n-----\nx\n', 'Two line title', 'append_within', 'y').text).toBe('Two line\ntitle\n-----\nx\ny\n');
  });

  test('content starting with --- or === after a paragraph line gets a blank line first', () => {
    const out = edit('## A\ntext\n## B\n', 'A', 'append_within', '---\nmore');
    expect(out.text).toBe('## A\ntext\n\n---\nmore\n## B\n');
    expect(headings(out.text)).toEqual(['2:A', '2:B']);
    expect(out.lines).toEqual({ start: 4, end: 5 });
  });

  test('content ending right above a --- line or a setext heading gets a blank line after', () => {
    expect(edit('## A\n---\ntext\n', 'A', 'insert_after', 'Intro.').text).toBe('## A\nIntro.\n\n---\ntext\n');
    expect(edit('## A\ntext\n\nB\n---\nx\n', 'B', 'insert_before', 'before').text).toBe('## A\ntext\n\nbefore\n\nB\n---\nx\n');
    expect(edit('# T\n\n## A\n```\nc\n```\nB\n---\nx\n', 'A', 'replace', 'new').text).toBe('# T\n\n## A\nnew\n\nB\n---\nx\n');
  });

  test('append_note: content starting with --- or === after a paragraph line does not make it a heading', () => {
    expect(appendText('a\nb\n', '---\nc', true).text).toBe('a\nb\n\n---\nc\n');
    expect(appendText('a\nb', '===', true).text).toBe('a\nb\n\n===');
    expect(appendText('a\nb\n', 'c', true).text).toBe('a\nb\nc\n');
    expect(appendText('# A\n', '---', true).text).toBe('# A\n---\n');
  });

  test('a heading line in the content starts a section of its own, as documented', () => {
    const text = '## Soup\nBoil.\n\n## Bread\nKnead.\n';
    const once = edit(text, 'Soup', 'append_within', '### Tips\nSalt.');
    expect(headings(once.text)).toEqual(['2:Soup', '3:Tips', '2:Bread']);
    // A deeper heading stays inside the section: the next append_within lands after it.
    expect(edit(once.text, 'Soup', 'append_within', 'Serve hot.').text).toBe(
      '## Soup\nBoil.\n### Tips\nSalt.\nServe hot.\n\n## Bread\nKnead.\n',
    );
  });
});

describe('property: a heading edit keeps every other heading', () => {
  const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta');
  const block = markdownBlock(word, fc.constant('***'));
  const note = fc
    .array(fc.tuple(block, fc.constantFrom('\n', '\n\n')), { minLength: 1, maxLength: 8 }) // A first line of text: content starting with `---` at a note's very start would open a
    // frontmatter block, which the write guard judges (frontmatter-guard.ts), not this property.
    .map((parts) => 'intro\n\n' + parts.map(([b, sep]) => b + sep).join(''));
  const contentLine = fc.oneof(
    word.map((w) => `${w} new`),
    fc.constantFrom('---', '===', '- item', '***'),
  );
  const content = fc.array(contentLine, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
  const op = fc.constantFrom<EditOp>('append_within', 'insert_before', 'insert_after', 'replace');

  test('headings outside the edited part stay, in order, and the content adds only its own', () => {
    fc.assert(
      fc.property(note, content, op, fc.nat(), (text, added, edOp, pick) => {
        const sections = outline(text);
        fc.pre(sections.length > 0);
        const target = sections[pick % sections.length];
        const out = editAtHeading(text, sections, target.path, edOp, added, 'n.md');
        const kept = (parseNoteMetadata(text).headings ?? [])
          .filter((h) => edOp !== 'replace' || h.position.start.offset <= target.start || h.position.start.offset >= target.end)
          .map((h) => `${h.level}:${h.heading}`);
        const own = headings(`\n${added}\n`).length;
        const after = headings(out.text);
        expect(after.length).toBe(kept.length + own);
        let i = 0;
        for (const h of after) if (h === kept[i]) i++;
        expect(i).toBe(kept.length);
      }),
      { numRuns: 1000 },
    );
  });
});
