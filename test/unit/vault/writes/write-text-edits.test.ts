import { guardFrontmatter, parseFrontmatter } from '../../../../src/vault/writes/frontmatter/frontmatter-guard';
import { findHeadingSection } from '../../../../src/vault/content/heading-target';
import { assertValidName } from '../../../../src/vault/paths/note-names';
import { applyPropertyPatch, validatePropertyPatch } from '../../../../src/vault/writes/frontmatter/property-patch';
import { buildOutline } from '../../../../src/vault/content/sections';
import fc from 'fast-check';
import { anchorOccurrences } from '../../../../src/vault/writes/edits/anchor-match';
import { appendText, editAtAnchor, editAtHeading, findAnchor, replaceBody } from '../../../../src/vault/writes/edits/text-edits';
import { parseNoteMetadata } from '../../../host/index';
import { errorOf } from '../../../harness/server/tool-errors';

/** Sections of a text from the host's metadata parser (as the metadata cache builds them). */
const outline = (text: string) => buildOutline(parseNoteMetadata(text).headings, text.length);

describe('heading edits', () => {
  const text = '# Top\n\n## A\n\none\n\n### A1\n\ndeep\n\n## B\nlast';

  test('replace keeps the heading, subsections go with the body, blank lines stay', () => {
    const out = editAtHeading(text, outline(text), 'A', 'replace', 'new', 'n.md');
    expect(out.text).toBe('# Top\n\n## A\n\nnew\n\n## B\nlast');
    expect(out.lines).toEqual({ start: 5, end: 5 });
  });

  test('append_within lands after the last non-blank line before the next same-level heading', () => {
    expect(editAtHeading(text, outline(text), 'A', 'append_within', 'x', 'n.md').text).toBe(
      '# Top\n\n## A\n\none\n\n### A1\n\ndeep\nx\n\n## B\nlast',
    );
    expect(editAtHeading(text, outline(text), 'B', 'append_within', 'x', 'n.md').text).toBe(
      '# Top\n\n## A\n\none\n\n### A1\n\ndeep\n\n## B\nlast\nx\n',
    );
    const bare = '## Empty';
    expect(editAtHeading(bare, outline(bare), 'Empty', 'append_within', 'x', 'n.md').text).toBe('## Empty\nx\n');
  });

  test('CRLF sections stay CRLF', () => {
    const crlf = text.replace(/\n/g, '\r\n');
    const out = editAtHeading(crlf, outline(crlf), 'A1', 'replace', 'line 1\nline 2', 'n.md');
    expect(out.text).toBe('# Top\r\n\r\n## A\r\n\r\none\r\n\r\n### A1\r\n\r\nline 1\r\nline 2\r\n\r\n## B\r\nlast');
    expect(out.lines).toEqual({ start: 9, end: 10 });
  });

  test('a lone \r in the text written stays as written in LF and CRLF notes; \n and \r\n take the note style', () => {
    const written = 'a\rb\nc\r\nd';
    for (const eol of ['\n', '\r\n']) {
      const note = `# T${eol}${eol}one${eol}`;
      const want = `a\rb${eol}c${eol}d`;
      expect(replaceBody(note, written).text).toBe(`${want}`);
      expect(appendText(note, written, true).text).toBe(`${note}${want}${eol}`);
      expect(editAtAnchor(note, 'one', 'replace', written, 'n.md').text).toBe(`# T${eol}${eol}${want}${eol}`);
      expect(editAtHeading(note, outline(note), 'T', 'append_within', written, 'n.md').text).toContain(want);
    }
  });

  test('heading lookup: outline path, NFD/NFC, Parent/Child, "#" marks; duplicates and misses list candidates', () => {
    const doc = '# Café\n\n## Notes\n\n# Other\n\n## Notes\n';
    const sections = outline(doc);
    expect(findHeadingSection(sections, 'Cafe\u0301', 'n.md').path).toBe('1');
    expect(findHeadingSection(sections, 'Other/Notes', 'n.md').path).toBe('2.1');
    expect(errorOf(() => findHeadingSection(sections, '## Notes', 'n.md')).message).toMatch(
      /matches 2 headings .*1\.1 "Notes", 2\.1 "Notes"/,
    );
    expect(findHeadingSection(sections, '2.1', 'n.md').heading).toBe('Notes');
    expect(errorOf(() => findHeadingSection(sections, 'Missing', 'n.md')).code).toBe('not_found');
    expect(errorOf(() => findHeadingSection([], 'x', 'n.md')).message).toMatch(/no headings; use an anchor/);
    const slash = '# Input/Output\n';
    expect(findHeadingSection(outline(slash), 'Input/Output', 'n.md').path).toBe('1');
  });
});

describe('anchors, bodies, appends', () => {
  test('anchors match across CRLF; overlapping occurrences count as ambiguous', () => {
    expect(findAnchor('a\r\nb\r\n', 'a\nb', 'n.md')).toEqual({ from: 0, to: 4 });
    expect(errorOf(() => findAnchor('aaa', 'aa', 'n.md')).message).toMatch(/occurs 2 times in 'n.md' \(line 1 \(2 times\)\)/);
    expect(errorOf(() => findAnchor('x', '', 'n.md')).code).toBe('invalid_argument');
    expect(editAtAnchor('one two', 'two', 'insert_before', 'and ', 'n.md').text).toBe('one and two');
  });

  test('an anchor of any length or content is plain text: a long one is not found (or found), never a thrown SyntaxError', () => {
    const note = `# Inbox\n\n${'x'.repeat(50_000)}\n`;
    for (const anchor of ['x'.repeat(40_000) + 'y', 'y'.repeat(1 << 20), 'a\n'.repeat(60_000), '('.repeat(50_000), '\\'.repeat(50_000)]) {
      const error = errorOf(() => findAnchor(note, anchor, 'n.md'));
      expect(error.code).toBe('not_found');
      expect(error.message.length).toBeLessThan(200);
    }
    expect(findAnchor(note, `\n${'x'.repeat(50_000)}\n`, 'n.md')).toEqual({ from: 8, to: 50_010 });
    expect(errorOf(() => findAnchor(note, 'x'.repeat(40_000), 'n.md')).message).toMatch(
      /occurs more than 20 times in 'n.md' \(line 3 \(20 times\), \.\.\.\)/,
    );
    // Half a MB of one char sought in a MB of it: 500k overlapping places, only the first 21 compared.
    const run = 'a'.repeat(1 << 20);
    expect(errorOf(() => findAnchor(run, 'a'.repeat(1 << 19), 'n.md')).message).toMatch(/occurs more than 20 times/);
    expect(errorOf(() => findAnchor('ab'.repeat(30), 'ab', 'n.md')).message).toMatch(
      /occurs more than 20 times .*\(line 1 \(20 times\), \.\.\.\)/,
    );
    const lines = 'a\n'.repeat(60_000);
    expect(findAnchor(`${lines}end`, `${lines}e`, 'n.md')).toEqual({ from: 0, to: 120_001 });
  });

  test('anchor matching keeps the RegExp reading it replaced: line breaks match \\n or \\r\\n, overlaps count', () => {
    // The RegExp findAnchor built before (escaped anchor, each line break as \r?\n, every start position).
    const byRegExp = (text: string, anchor: string): Array<{ from: number; to: number }> => {
      const source = anchor
        .split(/\r\n|\r|\n/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('\\r?\\n');
      const re = new RegExp(source, 'g');
      const out: Array<{ from: number; to: number }> = [];
      for (let m = re.exec(text); m; m = re.exec(text)) {
        out.push({ from: m.index, to: m.index + m[0].length });
        re.lastIndex = m.index + 1;
      }
      // Its one fault: an anchor starting with a line break also matched from the \n of a \r\n, a second time.
      return out.filter((hit) => !(/^(?:\r\n|\r|\n)/.test(anchor) && text[hit.from] === '\n' && text[hit.from - 1] === '\r'));
    };
    const piece = fc.constantFrom('a', 'b', 'A', ' ', '\t', '\n', '\r', '\r\n', '.', '*', '\\', '😀');
    const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));
    const anchor = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, anchor, (t, a) => {
        expect(anchorOccurrences(t, a)).toEqual(byRegExp(t, a));
      }),
      { numRuns: 3000 },
    );
  });

  test('an anchor starting with a line break occurs once per line break of a CRLF note, not twice', () => {
    expect(findAnchor('a\r\nb\r\n', '\nb', 'n.md')).toEqual({ from: 1, to: 4 });
    expect(editAtAnchor('a\r\nb\r\n', '\nb', 'replace', '\nc', 'n.md').text).toBe('a\r\nc\r\n');
    expect(errorOf(() => findAnchor('a\r\nb\r\nb', '\nb', 'n.md')).message).toMatch(/occurs 2 times in 'n.md' \(lines 1, 2\)/);
  });

  test('a missing anchor hints at text differing only in case or spacing, on its lines', () => {
    const note = 'one\nTwo   Words here\nthree\ntwo\twords\n';
    expect(errorOf(() => findAnchor(note, ' two words ', 'n.md')).message).toMatch(/differing only in case or spacing is on lines 2, 4;/);
    expect(errorOf(() => findAnchor(note, 'four', 'n.md')).message).toMatch(/Copy the anchor exactly/);
    expect(errorOf(() => findAnchor(note, '\n \t', 'n.md')).message).toMatch(/Copy the anchor exactly/);
  });

  test('replaceBody keeps the frontmatter block and its line endings; appendText adds the missing line break', () => {
    expect(replaceBody('---\r\na: 1\r\n---\r\nold', 'new\nbody').text).toBe('---\r\na: 1\r\n---\r\nnew\r\nbody');
    expect(replaceBody('\uFEFFold', 'new').text).toBe('\uFEFFnew');
    expect(appendText('x', 'y', true)).toEqual({ text: 'x\ny', lines: { start: 2, end: 2 } });
    expect(appendText('x', 'y', false).text).toBe('xy');
    expect(appendText('', 'y', true).text).toBe('y');
  });

  test('appendText keeps the final-newline state: a note ending in a line break still ends in one', () => {
    expect(appendText('a\nb\n', 'c', true)).toEqual({ text: 'a\nb\nc\n', lines: { start: 3, end: 3 } });
    expect(appendText('a\nb\n', 'c\n', true).text).toBe('a\nb\nc\n');
    expect(appendText('a\nb', 'c', true)).toEqual({ text: 'a\nb\nc', lines: { start: 3, end: 3 } });
    expect(appendText('a\nb', 'c\n', true).text).toBe('a\nb\nc\n');
    expect(appendText('a\r\nb\r\n', 'c\nd', true).text).toBe('a\r\nb\r\nc\r\nd\r\n');
    expect(appendText('a\r\nb', 'c', true).text).toBe('a\r\nb\r\nc');
    expect(appendText('a\nb\n', 'c', false).text).toBe('a\nb\nc');
    expect(appendText('a\nb\n', '\n', true).text).toBe('a\nb\n\n');
  });
});

describe('frontmatter guard', () => {
  test('a YAML merge key cannot bring in an access rule (judged with merge keys expanded too)', () => {
    const smuggled = '---\nbase: &b {access: private}\n<<: *b\n---\nbody\n';
    expect(errorOf(() => guardFrontmatter('', smuggled, 'n.md')).code).toBe('forbidden');
    expect(
      errorOf(() =>
        guardFrontmatter('---\nbase: &b {x: 1}\n---\n', '---\nbase: &b {x: 1, agent_overrides: {A: read-only}}\n<<: *b\n---\n', 'n.md'),
      ).code,
    ).toBe('forbidden');
    expect(() => guardFrontmatter('', '---\nbase: &b {x: 1}\n<<: *b\n---\nbody\n', 'n.md')).not.toThrow();
  });

  test('protected keys may not appear, change or vanish; other keys may', () => {
    expect(() => guardFrontmatter('---\na: 1\n---\n', '---\na: 2\n---\n', 'n.md')).not.toThrow();
    expect(errorOf(() => guardFrontmatter('x', '---\naccess: private\n---\nx', 'n.md')).code).toBe('forbidden');
    expect(errorOf(() => guardFrontmatter('---\naccess: read-only\n---\n', 'no block', 'n.md')).code).toBe('forbidden');
    expect(
      errorOf(() =>
        guardFrontmatter('---\nagent_overrides:\n  A: read-only\n---\n', '---\nagent_overrides:\n  A: no-access\n---\n', 'n.md'),
      ).code,
    ).toBe('forbidden');
  });

  test('never leaves unparseable frontmatter, but leaves an already broken block alone', () => {
    expect(errorOf(() => guardFrontmatter('---\na: 1\n---\n', '---\na: [1\n---\n', 'n.md')).message).toMatch(/unparseable/);
    expect(() => guardFrontmatter('---\na: [1\n---\nbody', '---\na: [1\n---\nbody more', 'n.md')).not.toThrow();
    expect(errorOf(() => guardFrontmatter('---\na: [1\naccess: private\n---\n', '---\na: [1\n---\n', 'n.md')).code).toBe(
      'invalid_argument',
    );
    expect(errorOf(() => guardFrontmatter('---\na: [1\naccess: private\n---\n', '---\na: 1\n---\n', 'n.md')).code).toBe('forbidden');
    expect(parseFrontmatter('---\n- a\n---\n').state).toBe('invalid');
  });

  test('fixing a broken block may not drop a rule it names in any position (indented, flow, explicit)', () => {
    for (const rule of [
      '  agent_overrides: {A: no-access}\n  bad: [',
      '{agent_overrides: {A: no-access}, bad: [',
      '? access\n: private\nbad: [',
    ]) {
      expect(errorOf(() => guardFrontmatter(`---\n${rule}\n---\nbody\n`, '---\nbad: []\n---\nbody\n', 'n.md')).code).toBe('forbidden');
    }
    // A rule left as it was, and a block that names none, may still be fixed.
    expect(() =>
      guardFrontmatter('---\naccess: read-write\ntitle: "unclosed\n---\n', '---\naccess: read-write\ntitle: "closed"\n---\n', 'n.md'),
    ).not.toThrow();
    expect(() =>
      guardFrontmatter('---\nRemote access: VPN\nbad: [\n---\n', '---\nRemote access: VPN\nbad: []\n---\n', 'n.md'),
    ).not.toThrow();
  });
});

describe('property patches and names', () => {
  test('types kept: lists stay lists, tags lose "#", null deletes, nested maps survive', () => {
    const fm: Record<string, unknown> = { tags: ['a'], aliases: 'x', n: 1, nested: { k: [1] }, gone: 'x', list: [1, 2] };
    applyPropertyPatch(fm, { tags: '#b, c', aliases: ['#y'], n: 2, gone: null, list: 3 });
    expect(fm).toEqual({ tags: ['b', 'c'], aliases: ['#y'], n: 2, nested: { k: [1] }, list: [3] });
    expect(errorOf(() => validatePropertyPatch({ agent_overrides: {} }, 'n.md')).code).toBe('forbidden');
    expect(errorOf(() => validatePropertyPatch({}, 'n.md')).code).toBe('invalid_argument');
  });

  test('a property name holding a control character (NUL, a line break, DEL) is refused, naming it by code point', () => {
    for (const [name, code] of [
      ['a\u0000b', 'U+0000'],
      ['two\nlines', 'U+000A'],
      ['tab\there', 'U+0009'],
      ['del\u007f', 'U+007F'],
    ]) {
      const error = errorOf(() => validatePropertyPatch({ [name]: 'x' }, 'n.md'));
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain(`control character ${code}`);
    }
    expect(() => validatePropertyPatch({ 'due date': 'x', Étape: 1, 'emoji 👍': true }, 'n.md')).not.toThrow();
  });

  test('forbidden characters and trailing dots or spaces are refused with the rule', () => {
    expect(() => assertValidName('Projects/Plan v1.2.md')).not.toThrow();
    expect(errorOf(() => assertValidName('a/b?.md')).message).toMatch(/'\?'.*may not contain/);
    expect(errorOf(() => assertValidName('a^b')).message).toMatch(/break \[\[links\]\]/);
    expect(errorOf(() => assertValidName('trailing.')).message).toMatch(/ends with a dot/);
  });
});
