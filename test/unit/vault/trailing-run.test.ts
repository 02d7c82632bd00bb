import { trailingBlankLines, trailingRunStart } from '../../../src/vault/content/text/trailing-run';
import { importPathsIn } from '../../../src/vault/instructions/instruction-imports';
import { getFrontMatterInfo } from '../../host/markdown/frontmatter';
import { seededRandom } from '../../harness/seeded-random';

/**
 * trailing-run.ts: the runs at a text's end found in one backward pass, where end-anchored regexes
 * retried a long run from each of its starts (seconds of a held event loop; newcomer finding,
 * session 39). Each answers as the regex it replaced, on random texts and on the long runs.
 */
describe('trailing runs', () => {
  const random = seededRandom(39);
  const texts = Array.from({ length: 3000 }, () =>
    Array.from({ length: Math.floor(random() * 12) }, () => ['\r', '\n', ' ', '\t', 'a', '.', '#'][Math.floor(random() * 7)]).join(''),
  );

  test('trailingBlankLines is /(?:\\r?\\n[ \\t]*)*$/ on random texts', () => {
    for (const text of texts) expect(trailingBlankLines(text)).toBe(/(?:\r?\n[ \t]*)*$/.exec(text)?.[0]);
  });

  test('trailingRunStart is /[. ]+$/ on random texts, and stops at `end`', () => {
    const inRun = (unit: string): boolean => unit === '.' || unit === ' ';
    for (const text of texts) expect(text.slice(0, trailingRunStart(text, inRun))).toBe(text.replace(/[. ]+$/, ''));
    expect(trailingRunStart('ab..cd..', inRun, 4)).toBe(2);
    expect(trailingRunStart('', inRun)).toBe(0);
  });

  test('long runs: blank lines, an import path of dots, and frontmatter lines indented by thousands of spaces', () => {
    const blank = '\n  \t'.repeat(50_000);
    expect(trailingBlankLines(`body${blank}`)).toBe(blank);
    expect(trailingBlankLines(`${blank}x`)).toBe('');
    const dots = '.'.repeat(100_000);
    expect(importPathsIn(`See @rules.md${dots}\n`)).toEqual([`rules.md${dots}`, 'rules.md']);
    const deep = `---\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')}\n---\nbody\n`;
    const info = getFrontMatterInfo(deep);
    expect(info.exists).toBe(true);
    expect(deep.slice(info.contentStart)).toBe('body\n');
  });
});
