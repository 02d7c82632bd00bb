import { patchFrontmatterText, validatePropertyPatch } from '../../../../src/vault/writes/frontmatter/property-patch';
import type { PropertyPatch } from '../../../../src/vault/writes/write-types';
import { errorOf } from '../../../harness/server/tool-errors';

describe('patchFrontmatterText', () => {
  test('rewrites only the patched keys; untouched lines, comments and order stay; the body is kept', () => {
    const text = '---\n# comment\ndue: 2026-03-31\ntags: [a, b]\nowner: Ana\n---\n# Body\n';
    const out = patchFrontmatterText(text, { owner: null, tags: 'c', priority: 2 }, 'N.md');
    expect(out.text).toBe('---\n# comment\ndue: 2026-03-31\ntags:\n  - c\npriority: 2\n---\n# Body\n');
    expect(out.lines).toEqual({ start: 1, end: 7 });
  });

  test('a note without frontmatter gets a block; deleting every key removes it; CRLF and BOM stay', () => {
    const added = patchFrontmatterText('\uFEFFline one\r\nline two\r\n', { status: 'draft' }, 'N.md');
    expect(added.text).toBe('\uFEFF---\r\nstatus: draft\r\n---\r\nline one\r\nline two\r\n');
    const removed = patchFrontmatterText(added.text, { status: null }, 'N.md');
    expect(removed).toEqual({ text: '\uFEFFline one\r\nline two\r\n' });
  });

  test('the fences and every untouched line keep their own bytes: trailing spaces, mixed line endings, a fence at the end of the note', () => {
    // Security helper finding: a closing `---  ` became `---`, and an LF line of a mixed note became CRLF.
    const spaced = '---\ntitle: t1\n---  \nbody\n';
    expect(patchFrontmatterText(spaced, { newp: 'v' }, 'N.md').text).toBe('---\ntitle: t1\nnewp: v\n---  \nbody\n');
    const opened = '---\t\r\ntitle: t\r\n---\r\n';
    expect(patchFrontmatterText(opened, { title: 'u' }, 'N.md').text).toBe('---\t\r\ntitle: u\r\n---\r\n');
    const mixed = '---\r\ntitle: t6\nstatus: draft\r\nowner: Ana\n---\r\nbody\n';
    expect(patchFrontmatterText(mixed, { status: 'done', added: 1 }, 'N.md').text).toBe(
      '---\r\ntitle: t6\nstatus: done\r\nowner: Ana\nadded: 1\r\n---\r\nbody\n',
    );
    const deleted = patchFrontmatterText(mixed, { status: null }, 'N.md');
    expect(deleted.text).toBe('---\r\ntitle: t6\nowner: Ana\n---\r\nbody\n');
    expect(deleted.lines).toEqual({ start: 1, end: 4 });
    expect(patchFrontmatterText('---\na: 1\n---', { a: 2 }, 'N.md').text).toBe('---\na: 2\n---');
  });

  test("says which values were stored otherwise than given: text as a list, a tag's '#' dropped, one value on a list (newcomer finding)", () => {
    const tags = patchFrontmatterText('body\n', { tags: '#notatag' }, 'N.md');
    expect(tags.text).toBe('---\ntags:\n  - notatag\n---\nbody\n');
    expect(tags.note).toBe(
      `'tags' is a list in Obsidian, so "#notatag" is stored as ["notatag"] (a tag in properties is written without '#').`,
    );
    const listed = patchFrontmatterText('---\nrelated: [a]\n---\n', { related: 'b', aliases: [' A ', 'B'], tags: ['#x', 'y'] }, 'N.md');
    expect(listed.note).toBe(
      `'related' is a list in this note, so "b" is stored as ["b"]. It replaced ["a"]; to add to a list, send the whole list. ` +
        `'aliases' is stored as ["A","B"]. ` +
        `'tags' is stored as ["x","y"] (a tag in properties is written without '#').`,
    );
    expect(patchFrontmatterText('body\n', { tags: ['x'], status: 'done' }, 'N.md').note).toBeUndefined();
  });

  test("says when a value is stored as given but read otherwise: a date that is no calendar day, an id with 'path:' (session 43 newcomer)", () => {
    const due = patchFrontmatterText('body\n', { due: '2026-02-30' }, 'N.md');
    expect(due.text).toBe('---\ndue: 2026-02-30\n---\nbody\n');
    expect(due.note).toBe(
      `'2026-02-30' in 'due' is stored as given, but it names no calendar day (a month of 01–12, a day the month has): ` +
        'Obsidian shows it as an invalid date, and date comparisons in search and query_notes skip it.',
    );
    expect(patchFrontmatterText('body\n', { seen: ['2026-01-02', '2026-13-01T10:00'] }, 'N.md').note).toMatch(
      /^'2026-13-01T10:00' in 'seen'/,
    );
    const id = patchFrontmatterText('body\n', { ID: 'path:Inbox.md' }, 'N.md');
    expect(id.text).toBe('---\nID: path:Inbox.md\n---\nbody\n');
    expect(id.note).toMatch(/^'path:Inbox\.md' is stored as 'id', but an id starting with 'path:' names a note by its path/);
    // Real days (a leap day in a leap year), other ids and other text say nothing.
    expect(
      patchFrontmatterText('body\n', { due: '2028-02-29', id: 'n-1', note: 'path: and 2026-02-30 inside' }, 'N.md').note,
    ).toBeUndefined();
  });

  test('one value given for a list names what the list held that it replaced (session 43 newcomer: aliases went unsaid)', () => {
    const aliases = patchFrontmatterText('---\naliases: [Ben, B.]\n---\n', { aliases: 'Benjamin' }, 'N.md');
    expect(aliases.text).toBe('---\naliases:\n  - Benjamin\n---\n');
    expect(aliases.note).toBe(
      `'aliases' is a list in Obsidian, so "Benjamin" is stored as ["Benjamin"]. It replaced ["Ben","B."]; to add to a list, send the whole list.`,
    );
    // Text naming every item it held again replaces nothing; a whole list given is the agent's own replacement.
    expect(patchFrontmatterText('---\ntags: [a]\n---\n', { tags: 'a, b' }, 'N.md').note).toBe(
      `'tags' is a list in Obsidian, so "a, b" is stored as ["a","b"].`,
    );
    expect(patchFrontmatterText('---\naliases: [Ben]\n---\n', { aliases: ['Benjamin'] }, 'N.md').note).toBeUndefined();
  });

  test("a tag's symbols that carry its meaning are spelt out in the suggestion, not dropped (c++ became c: session 41's leftover)", () => {
    const fix = (tag: string): string | undefined =>
      /to make it one, write '(.*)'\.$/.exec(patchFrontmatterText('body\n', { tags: [tag] }, 'N.md').note ?? '')?.[1];
    expect(fix('c++')).toBe('c-plus-plus');
    expect(fix('C#')).toBe('C-sharp');
    expect(fix('r&d')).toBe('r-and-d');
    expect(fix('.net')).toBe('dot-net');
    expect(fix('a.b')).toBe('a-b');
    expect(fix('my tag')).toBe('my-tag');
  });

  test('says when a tag it stores is no tag to Obsidian (a space, punctuation, only digits), and stores it as given', () => {
    const spaced = patchFrontmatterText('body\n', { tags: ['my tag', 'ok/nested'] }, 'N.md');
    expect(spaced.text).toBe('---\ntags:\n  - my tag\n  - ok/nested\n---\nbody\n');
    expect(spaced.note).toBe(
      `'my tag' in 'tags' is stored as given, but it is no valid Obsidian tag (a tag holds letters, digits, '_', '-' and '/', ` +
        `and not only digits: help.obsidian.md/tags): to make it one, write 'my-tag'.`,
    );
    expect(patchFrontmatterText('body\n', { tags: ['1984', 'a.b', 'c d'] }, 'N.md').note).toMatch(
      /^'1984' \(and 2 more\) in 'tags' .* add a letter \('y1984'\)\.$/,
    );
    // A string is a list split at commas (this tool) and then at spaces (Obsidian's `tag:` string); both are read.
    expect(patchFrontmatterText('body\n', { tags: 'work, to do' }, 'N.md').note).toMatch(/'to do' in 'tags' .* write 'to-do'\.$/);
    expect(patchFrontmatterText('body\n', { Tag: 'alpha beta' }, 'N.md').note).toBeUndefined();
    expect(patchFrontmatterText('body\n', { tag: 'done!' }, 'N.md').note).toMatch(/^'done!' in 'tag' .* write 'done'\.$/);
    // A number is read as its digits: only digits, no tag.
    expect(patchFrontmatterText('body\n', { tags: 5 }, 'N.md').note).toMatch(/'5' in 'tags' .* add a letter \('y5'\)\.$/);
    expect(patchFrontmatterText('body\n', { tag: 2024 }, 'N.md').note).toMatch(/^'2024' in 'tag' /);
    // Well-formed tags, non-tag properties and a deleted tags property say nothing.
    expect(patchFrontmatterText('body\n', { tags: ['año', 'x_y-z', '2024/q1'], title: 'a b' }, 'N.md').note).toBeUndefined();
    expect(patchFrontmatterText('---\ntags: [a b]\n---\n', { tags: null }, 'N.md').note).toBeUndefined();
  });

  test('tags given an object, a nested list or null in a list are refused, naming what to give (they became #[object and #Object])', () => {
    const refusal = (patch: PropertyPatch): string => {
      try {
        validatePropertyPatch(patch, 'N.md');
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ tags: { a: 1 } })).toBe(
      `'tags' holds an object: give a tag ("project") or a list of tags (["project", "idea"]), or null to delete it; nothing was changed.`,
    );
    expect(refusal({ Tags: ['a', ['nested']] })).toMatch(/^'Tags' holds a list in its list: /);
    expect(refusal({ tag: ['x', 7, null] })).toMatch(/^'tag' holds null in its list: /);
    expect(refusal({ tags: ['x', 7, true] })).toBe('accepted');
    expect(refusal({ tags: null })).toBe('accepted');
    expect(refusal({ other: { a: 1 } })).toBe('accepted');
  });

  test('new keys are added in the patch order whether or not the note had frontmatter (issue 12.11)', () => {
    const patch = { zeta: 1, alpha: 2 };
    expect(patchFrontmatterText('body\n', patch, 'N.md').text).toBe('---\nzeta: 1\nalpha: 2\n---\nbody\n');
    expect(patchFrontmatterText('---\nk: v\n---\nbody\n', patch, 'N.md').text).toBe('---\nk: v\nzeta: 1\nalpha: 2\n---\nbody\n');
    expect(patchFrontmatterText('---\n---\nbody\n', patch, 'N.md').text).toBe('---\nzeta: 1\nalpha: 2\n---\nbody\n');
  });

  test('a patch that changes nothing returns the very same text', () => {
    const text = '---\ncount:   3   # odd spacing\n---\nbody\n';
    expect(patchFrontmatterText(text, { count: 3, missing: null }, 'N.md').text).toBe(text);
  });

  test('refuses frontmatter that does not parse or is not a mapping, naming the note', () => {
    const broken = errorOf(() => patchFrontmatterText('---\ntitle: [unclosed\n---\nbody\n', { x: 1 }, 'Broken.md'));
    expect(broken.code).toBe('invalid_argument');
    expect(broken.message).toMatch(/frontmatter of 'Broken.md' does not parse as YAML/);
    expect(errorOf(() => patchFrontmatterText('---\n- a\n- b\n---\n', { x: 1 }, 'List.md')).code).toBe('invalid_argument');
  });

  test('the anchored-value repro: set and delete are refused and the block stays byte for byte (no re-render: 01234, [a, b], the comment)', () => {
    const text = '---\n# keep this comment\nzip: 01234\ntags: [a, b]\nbase: &b blue\ncolor: *b\n---\nbody\n';
    for (const patch of [{ base: 'green' }, { base: null }]) {
      const err = errorOf(() => patchFrontmatterText(text, patch, 'y.md'));
      expect(err.message).toMatch(/'base' holds the YAML anchor &b, repeated by 'color'/);
    }
    expect(patchFrontmatterText(text, { zip: '02134' }, 'y.md').text).toBe(text.replace('zip: 01234', 'zip: "02134"'));
  });
});

describe('property names match ignoring case, as in Obsidian', () => {
  test('a set or delete under another spelling acts on the existing key, keeps its spelling and says so', () => {
    const text = '---\npriority: low\nDue: 2026-01-01\n---\nbody\n';
    const set = patchFrontmatterText(text, { Priority: 'high' }, 'N.md');
    expect(set.text).toBe('---\npriority: high\nDue: 2026-01-01\n---\nbody\n');
    expect(set.note).toBe("Property names ignore case, as in Obsidian: applied 'Priority' as the note's 'priority'.");
    const removed = patchFrontmatterText(text, { PRIORITY: null, due: '2026-02-02' }, 'N.md');
    expect(removed.text).toBe('---\nDue: 2026-02-02\n---\nbody\n');
    expect(removed.note).toMatch(/'PRIORITY' as the note's 'priority', 'due' as the note's 'Due'/);
    expect(patchFrontmatterText(text, { priority: 'high', New: 1 }, 'N.md')).not.toHaveProperty('note');
  });

  test('an exact spelling wins when the note has several; none exact is ambiguous, naming them', () => {
    const text = '---\npriority: low\nPriority: high\n---\n';
    expect(patchFrontmatterText(text, { Priority: null }, 'N.md').text).toBe('---\npriority: low\n---\n');
    const err = errorOf(() => patchFrontmatterText(text, { PRIORITY: 'x' }, 'N.md'));
    expect(err.code).toBe('ambiguous');
    expect(err.message).toMatch(/has properties 'priority', 'Priority' \(one in Obsidian\), none spelled 'PRIORITY'/);
  });

  test('two keys of one patch that differ only in case are refused before anything is read', () => {
    const err = errorOf(() => validatePropertyPatch({ priority: 'high', Priority: null }, 'N.md'));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toBe("Properties 'priority' and 'Priority' differ only in case (one property in Obsidian); give it once.");
  });

  test("k names matched against n keys fold each once (n + k case foldings, not n × k), with the note's spellings and ambiguity kept", () => {
    const n = 2000;
    const k = 1000;
    const lines = Array.from({ length: n }, (_, i) => `key${i}: v${i}`);
    const text = `---\n${lines.join('\n')}\nTwin: 1\nTWIN: 2\n---\nbody\n`;
    // Each name in another case, set to the value it has: matched to the note's key, nothing to write.
    const patch = Object.fromEntries(Array.from({ length: k }, (_, i) => [`KEY${i}`, `v${i}`]));
    const lowerCase = jest.spyOn(String.prototype, 'toLowerCase');
    let result;
    let foldings: number;
    try {
      result = patchFrontmatterText(text, patch, 'N.md');
    } finally {
      foldings = lowerCase.mock.calls.length;
      lowerCase.mockRestore();
    }
    // Once per key and a few times per name; the name-by-key scan made n × k = 2,000,000.
    expect(foldings).toBeLessThan(3 * (n + k));
    expect(result.text).toBe(text);
    expect(result.note).toMatch(
      /^Property names ignore case, as in Obsidian: applied 'KEY0' as the note's 'key0', 'KEY1' as the note's 'key1', /,
    );
    expect(errorOf(() => patchFrontmatterText(text, { ...patch, twin: 3 }, 'N.md')).message).toMatch(
      /has properties 'Twin', 'TWIN' \(one in Obsidian\), none spelled 'twin'/,
    );
  });
});

describe('validatePropertyPatch: numbers YAML would not keep (newcomer F5)', () => {
  test('a number JSON cannot hold (1e400 arrives as Infinity) is refused, not turned into a delete', () => {
    for (const patch of [JSON.parse('{"v":1e400}'), JSON.parse('{"v":[1e999]}'), { v: { deep: -Infinity } }, { v: NaN }]) {
      const err = errorOf(() => validatePropertyPatch(patch, 'N.md'));
      expect(err.code).toBe('invalid_argument');
      expect(err.message).toMatch(/^Property 'v' holds a number JSON cannot represent.*as a string/);
    }
  });

  test('an integer past 2^53 is refused (it arrives rounded); safe integers and fractions pass', () => {
    const err = errorOf(() => validatePropertyPatch(JSON.parse('{"big":12345678901234567890}'), 'N.md'));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toMatch(/^Property 'big' holds an integer past 2\^53.*as a string/);
    expect(() =>
      validatePropertyPatch({ n: Number.MAX_SAFE_INTEGER, f: 1.5, l: [-3, 0.25], s: '12345678901234567890' }, 'N.md'),
    ).not.toThrow();
  });
});
