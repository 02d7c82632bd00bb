import { describeParamsIssue } from '../../../src/server/http/request-params';
import { inputExcerpt, MAX_ECHO_CHARS, quoteInput } from '../../../src/errors';
import { loneSurrogateIn, MAX_ARGUMENT_DEPTH, nestsDeeperThan } from '../../../src/server/session/tool-dispatch';

describe('describeParamsIssue: one sentence per malformed request', () => {
  it.each([
    [
      [
        {
          code: 'invalid_type',
          path: ['params', 'cursor'],
          expected: 'string',
          message: 'Invalid input: expected string, received number',
        },
      ],
      'Invalid params for m: params.cursor must be a string.',
    ],
    [
      [
        {
          code: 'invalid_type',
          path: ['params', 'capabilities'],
          expected: 'object',
          message: 'Invalid input: expected object, received undefined',
        },
      ],
      'Invalid params for m: params.capabilities is required.',
    ],
    [
      [{ code: 'invalid_value', path: ['params', 'level'], values: ['debug', 'info'], message: 'Invalid option' }],
      'Invalid params for m: params.level must be one of debug, info.',
    ],
    [[{ code: 'custom', path: [], message: 'x' }], 'Invalid params for m: params is invalid.'],
    [
      [{ code: 'invalid_type', path: ['params', 'arguments', 'k'.repeat(100_000)], expected: 'string', message: 'Invalid input' }],
      `Invalid params for m: params.arguments.${'k'.repeat(80)}… must be a string.`,
    ],
    [[], 'Invalid params for m: params is invalid.'],
  ])('%j → %p', (issues, sentence) => {
    expect(describeParamsIssue('m', issues)).toBe(sentence);
  });
});

describe('nestsDeeperThan', () => {
  const deep = (n: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < n; i++) value = [value];
    return value;
  };
  it('counts objects and arrays, not scalars', () => {
    expect(nestsDeeperThan({ a: 1, b: 'x' }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: { b: 1 } }, 1)).toBe(true);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan(deep(MAX_ARGUMENT_DEPTH), MAX_ARGUMENT_DEPTH)).toBe(false);
    expect(nestsDeeperThan(deep(MAX_ARGUMENT_DEPTH + 1), MAX_ARGUMENT_DEPTH)).toBe(true);
  });
  it('measures a value far deeper than the stack allows without recursion', () => {
    expect(nestsDeeperThan(deep(200_000), MAX_ARGUMENT_DEPTH)).toBe(true);
  });
});

describe('quoting what a caller sent', () => {
  it('inputExcerpt keeps short input whole and cuts long input to MAX_ECHO_CHARS with a visible …', () => {
    expect(inputExcerpt('Inbox')).toBe('Inbox');
    expect(inputExcerpt('x'.repeat(MAX_ECHO_CHARS))).toBe('x'.repeat(MAX_ECHO_CHARS));
    expect(inputExcerpt('x'.repeat(1 << 20))).toBe(`${'x'.repeat(MAX_ECHO_CHARS)}…`);
    expect(quoteInput('y'.repeat(1 << 20))).toBe(`'${'y'.repeat(MAX_ECHO_CHARS)}…'`);
  });

  it('never cuts a surrogate pair in two', () => {
    const text = `${'x'.repeat(MAX_ECHO_CHARS - 1)}😀${'x'.repeat(10)}`;
    expect(inputExcerpt(text)).toBe(`${'x'.repeat(MAX_ECHO_CHARS - 1)}…`);
  });
});

describe("loneSurrogateIn: where a write tool's arguments hold half a character", () => {
  it('finds it in values and keys at any depth, naming where', () => {
    expect(loneSurrogateIn({ path: 'a.md', content: 'ok 😀' })).toBeNull();
    expect(loneSurrogateIn({ path: 'a.md', content: 'ab\ud83d' })).toEqual({ where: 'Argument content', at: 2 });
    expect(loneSurrogateIn({ path: 'E/lone\udc00' })).toEqual({ where: 'Argument path', at: 6 });
    expect(loneSurrogateIn({ properties: { tags: ['a', '\udc00b'] } })).toEqual({ where: 'Argument properties.tags.1', at: 0 });
    expect(loneSurrogateIn({ frontmatter_patch: { ['t\ud800']: 1 } })).toEqual({ where: 'A key name in frontmatter_patch', at: 1 });
    expect(loneSurrogateIn({ ['\ud800']: 1 })).toEqual({ where: 'An argument name', at: 0 });
    expect(loneSurrogateIn({ text: '\udc00\ud800' })).toEqual({ where: 'Argument text', at: 0 });
  });
});
