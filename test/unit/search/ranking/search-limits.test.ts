import { ToolError } from '../../../../src/errors';
import { LexicalEngine } from '../../../../src/search/engine/lexical-engine';
import {
  MAX_QUERY_CHARS,
  MAX_QUERY_DEPTH,
  MAX_QUERY_TERMS,
  parseQuery,
  regexQuery,
} from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/** The ToolError thrown by `fn`, or a test failure when it returns or throws something else. */
function toolError(fn: () => unknown): ToolError {
  let caught: unknown = null;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ToolError);
  expect((caught as ToolError).code).toBe('invalid_argument');
  return caught as ToolError;
}

describe('query limits', () => {
  it('refuses a query longer than the limit, naming the limit', () => {
    expect(toolError(() => parseQuery('a'.repeat(60000))).message).toMatch(`the limit is ${MAX_QUERY_CHARS}`);
    expect(toolError(() => regexQuery('a'.repeat(MAX_QUERY_CHARS + 1))).message).toMatch(`the limit is ${MAX_QUERY_CHARS}`);
    expect(parseQuery('a'.repeat(MAX_QUERY_CHARS))).toEqual({ kind: 'word', text: 'a'.repeat(MAX_QUERY_CHARS) });
  });

  it('refuses more terms than the limit', () => {
    const many = Array.from({ length: MAX_QUERY_TERMS + 1 }, () => '"a"').join(' ');
    expect(toolError(() => parseQuery(many)).message).toMatch(`more than ${MAX_QUERY_TERMS} terms`);
    const filters = Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => (i % 2 ? `tag:t${i}` : `-w${i}`)).join(' OR ');
    expect(toolError(() => parseQuery(filters)).message).toMatch(`more than ${MAX_QUERY_TERMS} terms`);
    expect(() => parseQuery(Array.from({ length: MAX_QUERY_TERMS }, () => '"a"').join(' '))).not.toThrow();
  });

  it('refuses nesting deeper than the limit instead of overflowing the stack', () => {
    for (const q of ['-'.repeat(10000) + 'a', '('.repeat(20000) + 'a' + ')'.repeat(20000)]) {
      expect(() => parseQuery(q)).toThrow(ToolError);
    }
    const deep = MAX_QUERY_DEPTH + 1;
    expect(toolError(() => parseQuery('-'.repeat(deep) + 'a')).message).toMatch('nested too deeply');
    expect(toolError(() => parseQuery('('.repeat(deep) + 'a' + ')'.repeat(deep))).message).toMatch('nested too deeply');
    expect(toolError(() => parseQuery('(-'.repeat(deep) + 'a' + ')'.repeat(deep))).message).toMatch('nested too deeply');
    expect(parseQuery('('.repeat(MAX_QUERY_DEPTH) + 'a' + ')'.repeat(MAX_QUERY_DEPTH))).toEqual({ kind: 'word', text: 'a', grouped: true });
    expect(parseQuery('-'.repeat(2) + 'a')).toEqual({ kind: 'not', child: { kind: 'not', child: { kind: 'word', text: 'a' } } });
  });

  it('names the unclosed parenthesis instead of an empty group past the end', () => {
    expect(toolError(() => parseQuery('(((((((')).message).toBe(
      "The search query has an unclosed '(' at character 7; put terms inside and close the group with ')'.",
    );
    expect(toolError(() => parseQuery('a (  ')).message).toMatch("unclosed '(' at character 3");
    expect(toolError(() => parseQuery('a ()')).message).toMatch('empty group at character 4');
  });
});

describe('LexicalEngine limits', () => {
  const engine = new LexicalEngine();
  const long = 'a'.repeat(40);
  beforeAll(() => {
    for (const [path, text] of Object.entries({ 'Long.md': `${long}\n`, 'Longer.md': `${long}b\n`, 'Typo.md': `${long.slice(1)}b\n` })) {
      engine.add({ path, id: `path:${path}`, title: path.slice(0, -3), tags: [], frontmatter: {}, text, headings: [] });
    }
  });
  const find = async (q: string): Promise<string[]> =>
    (await engine.match(parseQuery(q), async () => '', { key: 'all', allow: () => true }, new RegexGuard())).matches
      .map((m) => m.note.path)
      .sort();

  it('matches a term longer than 32 characters exactly, without prefix or fuzzy expansion', async () => {
    expect(await find(long)).toEqual(['Long.md']);
    expect(await find('a'.repeat(MAX_QUERY_CHARS))).toEqual([]);
    // Short terms still expand.
    expect(await find('lon')).toEqual(['Long.md', 'Longer.md']);
  });
});

describe('RegexGuard', () => {
  it('stops a backtracking regex with an invalid_argument error', () => {
    const err = toolError(() => new RegexGuard(200).testAll(/^(a+)+$/, ['a'.repeat(30000) + '!']));
    expect(err.message).toMatch(/too slow.*it nests repeats/);
  });

  it('answers fast regexes per input and lists matches up to the limit', () => {
    const guard = new RegexGuard();
    expect(guard.testAll(/^b/m, ['a\nb', 'abc', 'b'])).toEqual([true, false, true]);
    expect(guard.matchAll(/a+/g, 'xaa-a-aaa', 2)).toEqual([
      { start: 1, end: 3 },
      { start: 4, end: 5 },
    ]);
    expect(guard.matchAll(/(?:)/g, 'abc', 1000)).toHaveLength(4);
  });

  it('refuses every run once the budget is spent', () => {
    const guard = new RegexGuard(50);
    toolError(() => guard.testAll(/^(a+)+$/, ['a'.repeat(30000) + '!']));
    expect(toolError(() => guard.testAll(/b/, ['b'])).message).toMatch('too slow');
  });

  it('a regex that outruns one run on one input is too slow with budget left, and the search refuses it from then on', () => {
    // The budget (1000 ms) is far from spent: one synchronous run may take RUN_LIMIT_MS only.
    const guard = new RegexGuard();
    expect(toolError(() => guard.testAll(/^(a+)+$/, ['aa', 'a'.repeat(30000) + '!', 'a'])).message).toMatch('too slow on these notes');
    expect(toolError(() => guard.testAll(/b/, ['b'])).message).toMatch('too slow');
  });

  it('names the note whose one input outran the run, when the caller gives the notes', () => {
    const long = 'a'.repeat(30000) + '!';
    expect(toolError(() => new RegexGuard().testAll(/^(a+)+$/, ['aa', long, 'a'], ['A.md', 'Long/B.md', 'C.md'])).message).toMatch(
      /^The regular expression \/\^\(a\+\)\+\$\/ is too slow on the note 'Long\/B\.md', over 50 ms on it alone \(it nests repeats.* Or search without it: -path:"Long\/B\.md" leaves that note out\.$/,
    );
    expect(toolError(() => new RegexGuard().testAll(/^(a+)+$/, [long], ['Long/B.md'])).message).toMatch("on the note 'Long/B.md'");
    expect(toolError(() => new RegexGuard().matchAll(/^(a+)+$/g, long, 10, 'Long/B.md')).message).toMatch("on the note 'Long/B.md'");
    // A path the message cuts short, or one holding a double quote, gets no -path: term that would name another note.
    const deep = `${'d'.repeat(90)}/B.md`;
    expect(toolError(() => new RegexGuard().testAll(/^(a+)+$/, [long], [deep])).message).toMatch(
      /Or search without it: leave that note out with -path:\.$/,
    );
    expect(toolError(() => new RegexGuard().testAll(/^(a+)+$/, [long], ['Say "hi".md'])).message).toMatch(
      /leave that note out with -path:\.$/,
    );
  });

  /** The order in which an already queued macrotask and `await guard.pause()` finish. */
  async function orderAfterPause(guard: RegexGuard): Promise<string[]> {
    const order: string[] = [];
    setImmediate(() => order.push('other session'));
    await guard.pause();
    order.push('search');
    await new Promise((resolve) => setImmediate(resolve));
    return order;
  }

  it('pause lets other work run once the guard has run regexes for a slice, and not before', async () => {
    expect(await orderAfterPause(new RegexGuard())).toEqual(['search', 'other session']);
    const slow = new RegexGuard();
    expect(slow.testAll(/b/, ['b'])).toEqual([true]);
    toolError(() => slow.testAll(/^(a+)+$/, ['a'.repeat(30000) + '!']));
    expect(await orderAfterPause(slow)).toEqual(['other session', 'search']);
    // The slice starts again after a yield.
    expect(await orderAfterPause(slow)).toEqual(['search', 'other session']);
  });

  it('testAllInSlices answers as testAll does, across slices', async () => {
    const inputs = Array.from({ length: 700 }, (_, i) => `note ${i}`);
    const expected = inputs.map((input) => /7$/.test(input));
    expect(await new RegexGuard().testAllInSlices(/7$/, inputs)).toEqual(expected);
    expect(new RegexGuard().testAll(/7$/, inputs)).toEqual(expected);
  });
});
