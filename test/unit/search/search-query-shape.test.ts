import { parseQuery, regexQuery } from '../../../src/search/query/parser/query-parser';
import { plainWords, queryShape, type QueryShape } from '../../../src/search/query/query-plan';
import { filterReason } from '../../../src/search/hybrid/mode-search';

describe('queryShape: the one judgement of plain words or filter', () => {
  const cases: Array<[string, QueryShape]> = [
    ['starter', 'words'],
    ['starter jar', 'words'],
    ['alpha & beta', 'words'],
    ['meeting at 10:30', 'words'],
    ['"starter jar"', 'syntax'],
    ['sourdough "starter jar"', 'syntax'],
    ['(starter jar)', 'syntax'],
    ['starter (jar)', 'syntax'],
    ['(starter)', 'syntax'],
    ['starter -jar', 'syntax'],
    ['-starter', 'syntax'],
    ['starter OR jar', 'syntax'],
    ['tag:index', 'syntax'],
    ['[status]', 'syntax'],
    ['[status:active] alpha', 'syntax'],
    ['has:status', 'syntax'],
    ['path:Reference starter', 'syntax'],
    ['file:Home', 'syntax'],
    ['content:starter', 'syntax'],
    ['line:(starter jar)', 'syntax'],
    ['task-todo:call', 'syntax'],
    ['match-case:Starter', 'syntax'],
    ['/starter jar/', 'syntax'],
    ['倉庫', 'unsegmented'],
    ['倉庫 warehouse', 'unsegmented'],
    ['warehouse 倉庫', 'unsegmented'],
    ['&', 'symbols'],
    ['& +', 'symbols'],
  ];

  it('names every filter kind of the syntax, and plainWords returns words for `words` only', () => {
    const got = cases.map(([q]) => [q, queryShape(parseQuery(q)), plainWords(parseQuery(q)) !== null]);
    expect(got).toEqual(cases.map(([q, shape]) => [q, shape, shape === 'words']));
    expect(queryShape(regexQuery('starter jar'))).toBe('syntax');
  });

  it('gives hybrid a reason for every filter shape and none for plain words', () => {
    expect(filterReason('words')).toBeNull();
    expect(filterReason('syntax')).toBe('the query is a filter (quotes, parentheses, -, OR, an operator, a property filter or a regex)');
    expect(filterReason('unsegmented')).toMatch(/CJK-like words/);
    expect(filterReason('symbols')).toMatch(/only symbols/);
  });
});
