import fc from 'fast-check';

/**
 * One Markdown block built from `word`, for property tests of heading and section parsing: an
 * ATX heading (`## w`, `# w`), a setext heading (`w` over `===` or `---`), a text line, a code
 * fence, a list item, or one of `more`. The first six are the blocks whose lines a heading parser
 * can take for headings or not; `more` adds a test's own (a `***` rule...).
 */
export function markdownBlock(word: fc.Arbitrary<string>, ...more: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  return fc.oneof(
    word.map((w) => `## ${w}`),
    word.map((w) => `# ${w}`),
    fc.tuple(word, fc.constantFrom('===', '---')).map(([w, u]) => `${w}\n${u}`),
    word.map((w) => `${w} text`),
    fc.constant('```\ncode\n```'),
    word.map((w) => `- ${w}`),
    ...more,
  );
}
