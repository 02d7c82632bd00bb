import fc from 'fast-check';
import { bodyStart, endsAtFence, fenceSeparators } from '../../../../src/vault/content/note-body';
import { parseFrontmatter } from '../../../../src/vault/writes/frontmatter/frontmatter-guard';
import { appendText, editAtAnchor, lineEndingOf, replaceBody } from '../../../../src/vault/writes/edits/text-edits';

/**
 * A note may end right after the closing `---` of its frontmatter, with no line break (an
 * agent can create one: create_note with "---\ntags: [x]\n---"). Text placed after it must
 * start on a new line: glued on (`---hello`) the block ends nowhere, every property reads as
 * body, and a later write_note body deletes it. note-body.ts endsAtFence / fenceSeparators,
 * used by every write route in text-edits.ts.
 */

const NOTE = '---\ntags: [x]\nstatus: draft\n---';
const PROPS = { tags: ['x'], status: 'draft' };

/** The properties of a note text, as the guard (and the app) reads them; null when the block does not parse. */
const props = (text: string): Record<string, unknown> | null => {
  const parsed = parseFrontmatter(text);
  return parsed.state === 'invalid' ? null : parsed.data;
};

describe('endsAtFence', () => {
  test('true when the note ends right after its closing ---: LF, CRLF, trailing spaces, a BOM, an empty block', () => {
    for (const text of [NOTE, '---\r\na: 1\r\n---', '---\na: 1\n--- \t', '\uFEFF---\na: 1\n---', '---\n---']) {
      expect(endsAtFence(text)).toBe(true);
    }
  });

  test('false when a line break follows the fence, or without a frontmatter block', () => {
    for (const text of [`${NOTE}\n`, `${NOTE}\nbody`, '---\r\na: 1\r\n---\r\n', '', 'plain', '---', '---\na: 1', 'x\n---\na: 1\n---']) {
      expect(endsAtFence(text)).toBe(false);
    }
  });
});

describe('fenceSeparators', () => {
  test('a line break before text that would continue the fence line, after text that would run into it', () => {
    expect(fenceSeparators(NOTE, 31, 31, 'hello', '\n')).toEqual({ before: '\n', after: '' });
    expect(fenceSeparators(NOTE, 31, 31, '\nhello', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators(NOTE, 31, 31, '  ', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators(NOTE, 28, 28, 'more: 1', '\n')).toEqual({ before: '', after: '\n' });
    expect(fenceSeparators(NOTE, 28, 28, 'more: 1\n', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators(`${NOTE}\nbody`, 31, 31, 'x', '\n')).toEqual({ before: '\n', after: '' });
    expect(fenceSeparators('---\r\na: 1\r\n---\r\nbody', 14, 14, 'x', '\r\n')).toEqual({ before: '\r\n', after: '' });
    expect(fenceSeparators('---\na: 1\n---  ', 14, 14, 'x', '\n')).toEqual({ before: '\n', after: '' });
    expect(fenceSeparators('\uFEFF---\na: 1\n---', 13, 13, 'x', '\n')).toEqual({ before: '\n', after: '' });
    // A deletion that would bring the next line's text up onto the fence.
    expect(fenceSeparators(`${NOTE}\nbody more`, 31, 36, '', '\n')).toEqual({ before: '\n', after: '' });
  });

  test('nothing away from the fence, for an empty change, or without frontmatter', () => {
    expect(fenceSeparators(NOTE, 31, 31, '', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators(NOTE, 10, 10, 'y', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators(`${NOTE}\nbody`, 36, 36, 'x', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators('plain ---', 9, 9, 'x', '\n')).toEqual({ before: '', after: '' });
    expect(fenceSeparators('---', 3, 3, 'x', '\n')).toEqual({ before: '', after: '' });
  });
});

describe('write routes on a note that ends at its closing fence', () => {
  test('write_note body starts on a new line; the properties stay and the body reads back as written', () => {
    const out = replaceBody(NOTE, 'hello');
    expect(out.text).toBe(`${NOTE}\nhello`);
    expect(out.lines).toEqual({ start: 5, end: 5 });
    expect(props(out.text)).toEqual(PROPS);
    // A second body replaces the first; the block is still there.
    expect(replaceBody(out.text, 'again').text).toBe(`${NOTE}\nagain`);
    // A body that starts with a blank line keeps it (read_note's body is exactly what was written).
    const blank = replaceBody(NOTE, '\nhello').text;
    expect(blank).toBe(`${NOTE}\n\nhello`);
    expect(blank.slice(bodyStart(blank))).toBe('\nhello');
    // An empty body changes nothing.
    expect(replaceBody(NOTE, '').text).toBe(NOTE);
  });

  test('write_note body: CRLF stays CRLF, trailing spaces after ---, a BOM, an empty block', () => {
    expect(replaceBody('---\r\ntags: [x]\r\n---', 'a\nb').text).toBe('---\r\ntags: [x]\r\n---\r\na\r\nb');
    expect(replaceBody('---\ntags: [x]\n---  ', 'hello').text).toBe('---\ntags: [x]\n---  \nhello');
    expect(replaceBody('\uFEFF---\ntags: [x]\n---', 'hello').text).toBe('\uFEFF---\ntags: [x]\n---\nhello');
    expect(replaceBody('---\n---', 'hello').text).toBe('---\n---\nhello');
    // A note whose fence already has its line break is unchanged in behaviour.
    expect(replaceBody(`${NOTE}\n`, 'hello').text).toBe(`${NOTE}\nhello`);
    expect(replaceBody(`${NOTE}\nold`, 'hello').text).toBe(`${NOTE}\nhello`);
  });

  test('edit_note insert_after an anchor ending at the fence, insert_before / replace one starting right after it', () => {
    const after = editAtAnchor(NOTE, 'draft\n---', 'insert_after', 'body', 'n.md');
    expect(after.text).toBe(`${NOTE}\nbody`);
    expect(after.lines).toEqual({ start: 5, end: 5 });
    expect(editAtAnchor(NOTE, 'draft\n---', 'insert_after', '\nbody', 'n.md').text).toBe(`${NOTE}\nbody`);
    const withBody = `${NOTE}\nfoo`;
    expect(editAtAnchor(withBody, 'draft\n---', 'insert_after', 'x', 'n.md').text).toBe(`${NOTE}\nx\nfoo`);
    expect(editAtAnchor(withBody, '\nfoo', 'insert_before', 'x', 'n.md').text).toBe(`${NOTE}\nx\nfoo`);
    expect(editAtAnchor(withBody, '\nfoo', 'replace', 'bar', 'n.md').text).toBe(`${NOTE}\nbar`);
    // Text going in just before the closing line gets its own line too.
    expect(editAtAnchor(withBody, 'draft\n', 'insert_after', 'more: 1', 'n.md').text).toBe(
      '---\ntags: [x]\nstatus: draft\nmore: 1\n---\nfoo',
    );
    // CRLF, trailing spaces.
    expect(editAtAnchor('---\r\na: 1\r\n---', '1\n---', 'insert_after', 'x\ny', 'n.md').text).toBe('---\r\na: 1\r\n---\r\nx\r\ny');
    expect(editAtAnchor('---\na: 1\n---  ', '---  ', 'insert_after', 'x', 'n.md').text).toBe('---\na: 1\n---  \nx');
    // Away from the fence an anchor edit stays verbatim.
    expect(editAtAnchor(withBody, 'foo', 'insert_after', 'bar', 'n.md').text).toBe(`${NOTE}\nfoobar`);
  });

  test('append_note with ensure_newline false does not continue the fence line (with it, it never did)', () => {
    expect(appendText(NOTE, 'x', false)).toEqual({ text: `${NOTE}\nx`, lines: { start: 5, end: 5 } });
    expect(appendText(NOTE, '\nx', false).text).toBe(`${NOTE}\nx`);
    expect(appendText('---\r\na: 1\r\n---', 'x', false).text).toBe('---\r\na: 1\r\n---\r\nx');
    expect(appendText(NOTE, 'x', true).text).toBe(`${NOTE}\nx`);
    expect(appendText(`${NOTE}\nbody`, 'x', false).text).toBe(`${NOTE}\nbodyx`);
  });

  test('any text put after a closing fence the note ends with keeps every property (LF / CRLF, spaces, BOM)', () => {
    const note = fc
      .record({
        crlf: fc.boolean(),
        bom: fc.boolean(),
        spaces: fc.constantFrom('', ' ', '  \t'),
      })
      .map(({ crlf, bom, spaces }) => {
        const eol = crlf ? '\r\n' : '\n';
        return `${bom ? '\uFEFF' : ''}---${eol}tags: [x]${eol}status: draft${eol}---${spaces}`;
      });
    const content = fc
      .array(fc.constantFrom('a', 'b', ' ', '\n', '\r\n', '-', '#'), { minLength: 1, maxLength: 8 })
      .map((parts) => parts.join(''))
      .filter((c) => !c.startsWith('---'));
    fc.assert(
      fc.property(note, content, (text, c) => {
        const fenceLine = text.slice(text.lastIndexOf('\n') + 1);
        const anchor = `draft${lineEndingOf(text)}${fenceLine}`.replace(/\r\n/g, '\n');
        for (const next of [
          replaceBody(text, c).text,
          editAtAnchor(text, anchor, 'insert_after', c, 'n.md').text,
          appendText(text, c, false).text,
          appendText(text, c, true).text,
        ]) {
          expect(props(next)).toEqual(PROPS);
          expect(next.startsWith(text)).toBe(true);
          if (text.includes('\r\n')) expect(next.replace(/\r\n/g, '')).not.toMatch(/\n/);
        }
        const body = replaceBody(text, c).text;
        expect(body.slice(bodyStart(body))).toBe(c.replace(/\r\n|\n/g, lineEndingOf(text)));
      }),
      { numRuns: 500 },
    );
  });
});
