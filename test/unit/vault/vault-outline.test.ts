import type { HeadingCache } from 'obsidian';
import { ToolError } from '../../../src/errors';
import { linkGraphOf } from '../../../src/vault/content/links';
import { buildOutline, sectionAt } from '../../../src/vault/content/sections';
import { findHeadingSection } from '../../../src/vault/content/heading-target';
import { countTags } from '../../../src/vault/content/tags';

/** Heading caches for `text`, located by the given heading lines (as a metadata cache would report them). */
function headingsOf(text: string, lines: Array<[level: number, heading: string]>): HeadingCache[] {
  let from = 0;
  return lines.map(([level, heading]) => {
    const marker = `${'#'.repeat(level)} ${heading}`;
    const offset = text.indexOf(marker, from);
    if (offset < 0) throw new Error(`fixture lacks ${marker}`);
    from = offset + marker.length;
    const line = text.slice(0, offset).split('\n').length - 1;
    return {
      heading,
      level,
      position: { start: { line, col: 0, offset }, end: { line, col: marker.length, offset: offset + marker.length } },
    };
  });
}

const TEXT = [
  '# Alpha meeting notes', // 1
  '',
  '## 2026-01-08 Kickoff', // 1.1
  '### Decisions', // 1.1.1
  'a',
  '### Action items', // 1.1.2
  'b',
  '## 2026-01-15 Data access', // 1.2
  '### Action items', // 1.2.1
  'c',
  '#### Open   questions', // 1.2.1.1
  'd',
  '# Appendix', // 2
  'e',
].join('\n');

const HEADINGS = headingsOf(TEXT, [
  [1, 'Alpha meeting notes'],
  [2, '2026-01-08 Kickoff'],
  [3, 'Decisions'],
  [3, 'Action items'],
  [2, '2026-01-15 Data access'],
  [3, 'Action items'],
  [4, 'Open   questions'],
  [1, 'Appendix'],
]);

describe('buildOutline', () => {
  const outline = buildOutline(HEADINGS, TEXT.length);

  test('numbers headings by nesting and collapses whitespace', () => {
    expect(outline.map((s) => `${s.path} ${s.heading}`)).toEqual([
      '1 Alpha meeting notes',
      '1.1 2026-01-08 Kickoff',
      '1.1.1 Decisions',
      '1.1.2 Action items',
      '1.2 2026-01-15 Data access',
      '1.2.1 Action items',
      '1.2.1.1 Open questions',
      '2 Appendix',
    ]);
  });

  test('a section ends at the next heading of the same or a higher level', () => {
    const byPath = new Map(outline.map((s) => [s.path, s]));
    expect(TEXT.slice(byPath.get('1.1.1')!.start, byPath.get('1.1.1')!.end)).toBe('### Decisions\na\n');
    expect(TEXT.slice(byPath.get('1.2')!.start, byPath.get('1.2')!.end)).toBe(
      '## 2026-01-15 Data access\n### Action items\nc\n#### Open   questions\nd\n',
    );
    expect(byPath.get('1')!.end).toBe(byPath.get('2')!.start);
    expect(byPath.get('2')!.end).toBe(TEXT.length);
  });

  test('top-level headings are numbered 1, 2… whatever their level', () => {
    const text = '### Deep first\nx\n## Then two\ny\n### Three under two\n# One\n';
    const out = buildOutline(
      headingsOf(text, [
        [3, 'Deep first'],
        [2, 'Then two'],
        [3, 'Three under two'],
        [1, 'One'],
      ]),
      text.length,
    );
    expect(out.map((s) => s.path)).toEqual(['1', '2', '2.1', '3']);
  });

  test('every end is the start of the first later heading of the same or a higher level (one pass, any levels)', () => {
    let state = 29;
    const next = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 300; round++) {
      const levels = Array.from({ length: Math.floor(next() * 60) }, () => 1 + Math.floor(next() * 6));
      const text = levels.map((level, k) => `${'#'.repeat(level)} H${k}\nbody\n`).join('');
      const out = buildOutline(
        headingsOf(
          text,
          levels.map((level, k) => [level, `H${k}`]),
        ),
        text.length,
      );
      const ends = out.map((s, i) => out.slice(i + 1).find((later) => later.level <= s.level)?.start ?? text.length);
      expect(out.map((s) => s.end)).toEqual(ends);
    }
  });

  test('no headings → empty outline', () => {
    expect(buildOutline(undefined, 10)).toEqual([]);
  });

  test('sectionAt returns the innermost section, null before the first heading', () => {
    const offsetOfC = TEXT.indexOf('\nc\n') + 1;
    expect(sectionAt(outline, offsetOfC)?.path).toBe('1.2.1');
    expect(sectionAt(outline, TEXT.indexOf('\nd\n') + 1)?.path).toBe('1.2.1.1');
    expect(sectionAt(outline, TEXT.length - 1)?.path).toBe('2');
    expect(sectionAt(buildOutline(headingsOf('intro\n# H\n', [[1, 'H']]), 9), 2)).toBeNull();
  });
});

describe('findHeadingSection as read_note uses it', () => {
  const findSection = (sections: Parameters<typeof findHeadingSection>[0], query: string, notePath: string) =>
    findHeadingSection(sections, query, notePath, 'read_note');
  const outline = buildOutline(HEADINGS, TEXT.length);

  test('by path, by exact text, case-insensitively, with # marks and extra spaces', () => {
    expect(findSection(outline, '1.2', 'n.md').heading).toBe('2026-01-15 Data access');
    expect(findSection(outline, 'Decisions', 'n.md').path).toBe('1.1.1');
    expect(findSection(outline, 'open questions', 'n.md').path).toBe('1.2.1.1');
    expect(findSection(outline, '## Appendix', 'n.md').path).toBe('2');
    expect(findSection(outline, '  Open \t questions ', 'n.md').path).toBe('1.2.1.1');
  });

  test('a duplicated heading is ambiguous and lists both paths', () => {
    let error: unknown;
    try {
      findSection(outline, 'Action items', 'Projects/Alpha/Meeting notes.md');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('ambiguous');
    expect((error as ToolError).message).toContain('1.1.2 "Action items"');
    expect((error as ToolError).message).toContain('1.2.1 "Action items"');
  });

  test('a missing heading lists the available ones; a note without headings says so', () => {
    expect(() => findSection(outline, 'Budget', 'n.md')).toThrow(
      /Heading 'Budget' not found in 'n.md'; its headings are: 1 "Alpha meeting notes"/,
    );
    expect(() => findSection(outline, '9.9', 'n.md')).toThrow(ToolError);
    expect(() => findSection([], 'x', 'n.md')).toThrow(/has no headings; read it without section/);
  });

  test('read_note resolves headings as edit_note does: Parent/Child, trailing # marks, NFD text', () => {
    expect(findSection(outline, '2026-01-15 Data access/Action items', 'n.md').path).toBe('1.2.1');
    expect(() => findSection(outline, 'Alpha meeting notes/Action items', 'n.md')).toThrow(/matches 2 headings/);
    expect(findSection(outline, '### Decisions ###', 'n.md').path).toBe('1.1.1');
    const cafe = buildOutline(headingsOf('# Café\n', [[1, 'Café']]), 8);
    expect(findSection(cafe, 'Cafe\u0301', 'n.md').path).toBe('1');
    expect(() => findHeadingSection([], 'x', 'n.md')).toThrow(/has no headings; use an anchor/);
  });

  test('a heading text with "/" that is also a Parent/Child path to another section is ambiguous, both tools', () => {
    const text = '# A/B\nx\n# A\n## B\ny\n';
    const slashed = buildOutline(
      headingsOf(text, [
        [1, 'A/B'],
        [1, 'A'],
        [2, 'B'],
      ]),
      text.length,
    );
    for (const use of ['read_note', 'edit_note'] as const) {
      for (const query of ['A/B', 'a/b', '# A/B']) {
        let error: unknown;
        try {
          findHeadingSection(slashed, query, 'Notes/Headings.md', use);
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(ToolError);
        expect((error as ToolError).code).toBe('ambiguous');
        expect((error as ToolError).message).toMatch(
          /heading text of 1 "A\/B" and, read as Parent\/Child, 2\.1 "B"; pass the outline path/,
        );
      }
      // The outline paths, and a path that only one reading matches, still resolve.
      expect(findHeadingSection(slashed, '1', 'n.md', use).heading).toBe('A/B');
      expect(findHeadingSection(slashed, '2.1', 'n.md', use).heading).toBe('B');
      expect(findHeadingSection(slashed, 'A//B', 'n.md', use).path).toBe('2.1');
    }
    // A heading text with "/" that no Parent/Child reading matches is not ambiguous.
    const alone = buildOutline(
      headingsOf('# A/B\n# C\n', [
        [1, 'A/B'],
        [1, 'C'],
      ]),
      10,
    );
    expect(findHeadingSection(alone, 'A/B', 'n.md').path).toBe('1');
  });
});

describe('countTags', () => {
  test('counts notes per tag case-insensitively, most used first, repeated tags once per note', () => {
    const counts = countTags([['#project', '#client/northwind', '#project'], ['#Project'], ['#project', '#idea'], ['#Idea', '#idea']]);
    expect(counts).toEqual([
      { tag: '#project', count: 3 },
      { tag: '#idea', count: 2 },
      { tag: '#client/northwind', count: 1 },
    ]);
  });
});

describe('linkGraphOf', () => {
  const resolved = {
    'Home.md': { 'A.md': 2, 'Secret.md': 1 },
    'A.md': { 'Home.md': 1 },
    'Secret.md': { 'A.md': 4 },
    'B.md': { 'A.md': 1 },
  };
  const unresolved = { 'A.md': { 'Quarterly review': 1, 'Later idea': 3 } };
  const readable = (path: string) => path !== 'Secret.md';

  test('drops unreadable notes as target and as source; sorts by count', () => {
    expect(linkGraphOf('Home.md', resolved, unresolved, readable).outgoing).toEqual([{ path: 'A.md', count: 2 }]);
    const a = linkGraphOf('A.md', resolved, unresolved, readable);
    expect(a.backlinks).toEqual([
      { path: 'Home.md', count: 2 },
      { path: 'B.md', count: 1 },
    ]);
    expect(a.outgoing).toEqual([{ path: 'Home.md', count: 1 }]);
    expect(a.unresolved).toEqual([
      { link: 'Later idea', count: 3 },
      { link: 'Quarterly review', count: 1 },
    ]);
  });
});
