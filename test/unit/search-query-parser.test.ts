import { ToolError } from '../../src/errors';
import type { QueryNode } from '../../src/search/query/query-ast';
import { parseQuery, regexQuery } from '../../src/search/query/query-parser';

/** A compact, comparable rendering of a parsed query. */
function show(node: QueryNode): string {
  switch (node.kind) {
    case 'and':
      return `(${node.children.map(show).join(' & ')})`;
    case 'or':
      return `(${node.children.map(show).join(' | ')})`;
    case 'not':
      return `!${show(node.child)}`;
    case 'word':
      return node.text;
    case 'phrase':
      return `"${node.text}"`;
    case 'regex':
      return `/${node.regex.source}/${node.regex.flags}`;
    case 'path':
    case 'file':
      return `${node.kind}:${node.match.kind === 'text' ? node.match.text : `/${node.match.regex.source}/`}`;
    case 'tag':
      return `tag:${node.tag}`;
    case 'property': {
      const t = node.test;
      return t.op === 'exists' ? `[${node.name}]` : t.op === 'contains' ? `[${node.name}~${t.value}]` : `[${node.name}${t.cmp}${t.value}]`;
    }
  }
}

describe('parseQuery', () => {
  it.each([
    ['canvas', 'canvas'],
    ['canvas plugin', '(canvas & plugin)'],
    ['"exact phrase"', '"exact phrase"'],
    ['-draft', '!draft'],
    ['-"old idea"', '!"old idea"'],
    ['a OR b', '(a | b)'],
    // Obsidian precedence: OR binds tighter than the implicit AND.
    ['meeting work OR personal', '(meeting & (work | personal))'],
    ['a OR b c OR d', '((a | b) & (c | d))'],
    ['(a b) OR c', '((a & b) | c)'],
    ['-(a OR b) c', '(!(a | b) & c)'],
    ['or and', '(or & and)'],
    ['ORANGE', 'ORANGE'],
    ['path:Plugins canvas', '(path:Plugins & canvas)'],
    ['path:"Daily notes"', 'path:Daily notes'],
    ['path:/^Daily\\//', 'path:/^Daily\\//'],
    ['file:Canvas', 'file:Canvas'],
    ['tag:#Project', 'tag:project'],
    ['tag:project/alpha', 'tag:project/alpha'],
    ['[status]', '[status]'],
    ['[status:done]', '[status~done]'],
    ['[status:"in progress"]', '[status~in progress]'],
    ['[priority:>5]', '[priority>5]'],
    ['[due: <= 2024-06-01]', '[due<=2024-06-01]'],
    ['[rating:=3]', '[rating=3]'],
    ['has:due', '[due]'],
    ['-has:due', '![due]'],
    ['/colou?r/', '/colou?r/m'],
    ['/todo/i', '/todo/im'],
    ['/a[/]b/', '/a[/]b/m'],
    ['10:30 http://example.com', '(10:30 & http://example.com)'],
    ['日本語 検索', '(日本語 & 検索)'],
  ])('parses %s', (input, expected) => {
    expect(show(parseQuery(input))).toBe(expected);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['(a b', /'\(' at character 1 without a matching '\)'/],
    ['a b)', /'\)' at character 4/],
    ['()', /empty group/],
    ['"open phrase', /without a closing quote/],
    ['""', /empty phrase/],
    ['a OR', /OR at character 3 without a term after it/],
    ['OR a', /without a term before it/],
    ['a -', /'-' at character 3 with nothing after it/],
    ['path:', /path: at character 1 without a value/],
    ['a file:', /file: at character 3 without a value/],
    ['tag:#', /tag: at character 1 without a tag name/],
    ['[status', /without a matching '\]'/],
    ['[:x]', /without a property name/],
    ['[status:]', /without a value after the colon/],
    ['/(unclosed/', /regular expression \/\(unclosed\/ is invalid/],
    ['/abc', /without a closing '\/'/],
    ['/abc/gx', /unsupported flags/],
    ['line:(a b)', /operator line:/],
    ['task-todo:x', /operator task-todo:/],
  ])('rejects %j', (input, message) => {
    let caught: unknown;
    try {
      parseQuery(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ToolError);
    expect((caught as ToolError).code).toBe('invalid_argument');
    expect((caught as ToolError).message).toMatch(message);
  });
});

describe('regexQuery', () => {
  it('compiles the whole query as one multiline regex', () => {
    const node = regexQuery('^- \\[ \\] (call|email)');
    expect(node.kind).toBe('regex');
    expect(node.kind === 'regex' && node.regex.test('x\n- [ ] email Bob')).toBe(true);
  });

  it('rejects an empty or invalid pattern', () => {
    expect(() => regexQuery('')).toThrow(/empty/);
    expect(() => regexQuery('a(')).toThrow(ToolError);
  });
});
