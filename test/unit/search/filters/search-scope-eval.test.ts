import { ToolError } from '../../../../src/errors';
import { LexicalEngine } from '../../../../src/search/engine/lexical-engine';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/**
 * The text operators (line:, block:, section:, task…:, content:, match-case:, ignore-case:)
 * through the real LexicalEngine: what a word means inside them, scripts without spaces,
 * scores, and the regex time guard on every route a user regex takes.
 */

const NOTES: Record<string, { text: string; frontmatter?: Record<string, unknown> }> = {
  'Recipes/Bread.md': { text: 'Mixing the flours with water.\nAdd salt.\n' },
  'Recipes/Cake.md': { text: 'Mix sugar.\nSift the flour.\n' },
  'Code/Cpp.md': { text: 'Write c++ code here.\nNothing else.\n' },
  'Journal/日本.md': { text: '今日は日本語の検索をテストしました。\n別の行です。\n' },
  'Journal/Scattered.md': { text: '日本の人。\n本語り。\n' },
  'Slow.md': { text: `${'a'.repeat(30000)}!\n- [ ] ${'a'.repeat(30000)}!\n`, frontmatter: { code: `${'a'.repeat(30000)}!` } },
  'Nfd.md': { text: 'Pastel de nata: paste\u0301is da casa.\n' },
  'flour mill.md': { text: 'A building by the river.\n' },
  'Tasks.md': { text: 'Intro line.\n- [ ] call Bob\n' },
};

const engine = new LexicalEngine();
/** A caller who may read every note. */
const EVERYONE = { key: 'everyone', allow: (): boolean => true };
beforeAll(() => {
  for (const [path, { text, frontmatter }] of Object.entries(NOTES)) {
    engine.add({
      path,
      id: `path:${path}`,
      title: path.slice(path.lastIndexOf('/') + 1, -3),
      tags: [],
      frontmatter: frontmatter ?? {},
      text,
      headings: [],
    });
  }
});

async function find(query: string, guard = new RegexGuard()): Promise<string[]> {
  const { matches } = await engine.match(parseQuery(query), async (p) => NOTES[p].text, EVERYONE, guard);
  return matches.map((m) => m.note.path).sort();
}

describe('words inside text operators', () => {
  it('match the index terms they match anywhere: prefixes and small typos, on one line', async () => {
    expect(await find('line:(mix flour)')).toEqual(['Recipes/Bread.md']);
    expect(await find('line:(mixing flours)')).toEqual(['Recipes/Bread.md']);
    expect(await find('line:(mixng water)')).toEqual(['Recipes/Bread.md']);
    expect(await find('line:(sift flour)')).toEqual(['Recipes/Cake.md']);
    expect(await find('line:(sugar flour)')).toEqual([]);
    // Two operators in one query, each with its own words.
    expect(await find('line:(mix) line:(salt)')).toEqual(['Recipes/Bread.md']);
    expect(await find('line:(mix) OR block:(sift)')).toEqual(['Recipes/Bread.md', 'Recipes/Cake.md']);
  });

  it('words without letters or digits and words in scripts without spaces are found literally within the stretch', async () => {
    expect(await find('line:(c++ code)')).toEqual(['Code/Cpp.md']);
    expect(await find('line:(c++ nothing)')).toEqual([]);
    expect(await find('line:(日本語 検索)')).toEqual(['Journal/日本.md']);
    expect(await find('line:(日本 本語)')).toEqual(['Journal/日本.md']);
    expect(await find('block:(日本語)')).toEqual(['Journal/日本.md']);
  });

  it('phrases match across composed and decomposed spellings inside a line', async () => {
    expect(await find('line:("pastéis da")')).toEqual(['Nfd.md']);
  });

  it('content: looks at the note text only, not its title or path', async () => {
    expect(await find('flour')).toContain('flour mill.md');
    expect(await find('content:flour')).toEqual(['Recipes/Bread.md', 'Recipes/Cake.md']);
    expect(await find('content:recipes')).toEqual([]);
    expect(await find('path:recipes')).toEqual(['Recipes/Bread.md', 'Recipes/Cake.md']);
  });

  it('scores a match by the index scores of the words inside the operator', async () => {
    const { matches } = await engine.match(parseQuery('line:(flour)'), async (p) => NOTES[p].text, EVERYONE, new RegexGuard());
    expect(matches.map((m) => m.score).every((s) => s > 0)).toBe(true);
    expect(matches.find((m) => m.note.path === 'Recipes/Bread.md')?.terms).toEqual(new Set(['flours']));
  });
});

describe('the regex guard covers regexes inside every operator', () => {
  it.each([
    'line:(/^(a+)+$/)',
    'block:/^(a+)+$/',
    'section:(/^(a+)+$/ -x)',
    'task-todo:/^ (a+)+$/',
    'content:/^(a+)+$/',
    'match-case:/^(a+)+$/',
    '[code:/^(a+)+$/]',
  ])('%s is stopped with an invalid_argument error instead of freezing the app', async (query) => {
    const err: unknown = await find(query, new RegexGuard(100)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).message).toMatch(/too slow.*it nests repeats/);
  });

  it('answers fast regexes inside operators per stretch', async () => {
    expect(await find('line:(/^Add/ salt)')).toEqual(['Recipes/Bread.md']);
    expect(await find('line:(/^Add/ flour)')).toEqual([]);
    expect(await find('match-case:/^sift/')).toEqual([]);
    expect(await find('match-case:/^Sift/')).toEqual(['Recipes/Cake.md']);
  });

  it('anchors and word boundaries apply to the stretch, not the whole file, and regexes without them are pre-tested on the file', async () => {
    // The task text starts after its checkbox, mid-line in the file.
    expect(await find('task:/^ call/')).toEqual(['Tasks.md']);
    expect(await find('task:/^- \\[/')).toEqual([]);
    expect(await find('task:/call B/')).toEqual(['Tasks.md']);
    expect(await find('line:/Bob$/')).toEqual(['Tasks.md']);
    expect(await find('line:(/l B/ -intro)')).toEqual(['Tasks.md']);
  });
});
