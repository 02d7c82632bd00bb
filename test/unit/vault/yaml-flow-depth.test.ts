import fc from 'fast-check';
import { parseYaml } from 'obsidian';
import { MAX_YAML_FLOW_DEPTH, nestsFlowDeeperThan } from '../../../src/vault/content/text/yaml-flow-depth';
import { parseYamlOnce } from '../../../src/vault/content/frontmatter/parsed-yaml';
import { parseFrontmatter } from '../../../src/vault/writes/frontmatter/frontmatter-guard';

/**
 * yaml-flow-depth.ts: frontmatter nesting `[ ]` / `{ }` past MAX_YAML_FLOW_DEPTH is refused before
 * the parse, which held the event loop for seconds on such a block and then overflowed the stack
 * (newcomer finding, session 39: a 4 MB nested block sent to create_note). Structural: the
 * refusal is the plugin's own, not the parser's stack overflow.
 */
describe('nestsFlowDeeperThan', () => {
  const nested = (depth: number, open = '[', close = ']'): string => `a: ${open.repeat(depth)}${close.repeat(depth)}\n`;

  it('counts flow collections as the parser nests them', () => {
    expect(nestsFlowDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsFlowDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsFlowDeeperThan('a: {b: {c: [1, {d: 2}]}}\n', 3)).toBe(true);
    expect(nestsFlowDeeperThan('a: {b: {c: [1, {d: 2}]}}\n', 4)).toBe(false);
    expect(nestsFlowDeeperThan('- [x]\n- [[y]]\n', 2)).toBe(false);
    expect(nestsFlowDeeperThan('list:\n  - [[[z]]]\n', 2)).toBe(true);
    // Siblings do not add up: depth, not count.
    expect(nestsFlowDeeperThan(`a: [${'[1], '.repeat(1000)}[2]]\n`, 2)).toBe(false);
  });

  it('does not count brackets in quoted scalars, comments or plain scalars, nor a closing bracket with nothing open', () => {
    const deep = '[['.repeat(10);
    expect(nestsFlowDeeperThan(`title: "${deep} \\" ${deep}"\n`, 2)).toBe(false);
    expect(nestsFlowDeeperThan(`title: '${deep} '' ${deep}'\n`, 2)).toBe(false);
    expect(nestsFlowDeeperThan(`title: x # ${deep}\nnext: 1\n`, 2)).toBe(false);
    expect(nestsFlowDeeperThan(`# ${deep}`, 2)).toBe(false);
    expect(nestsFlowDeeperThan(`title: a${deep}\n`, 2)).toBe(false);
    expect(nestsFlowDeeperThan(`a: ]]]]\nb: [[1]]\n`, 1)).toBe(true);
    // A quote inside a plain scalar opens nothing: the brackets after it still count.
    expect(nestsFlowDeeperThan(`title: it's\nb: [[[1]]]\n`, 2)).toBe(true);
  });

  it('agrees with the real depth of any JSON value (JSON is YAML flow), strings holding brackets, quotes and escapes included', () => {
    const depthOf = (value: unknown): number =>
      value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    const text = fc.string({ unit: fc.constantFrom('a', '[', ']', '{', '}', '"', "'", '\\', ',', ':', ' ', '#'), maxLength: 8 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, text, fc.integer(), tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), (v, spaced) => {
        const json = JSON.stringify(v, null, spaced ? 1 : undefined);
        const yaml = `key: ${json}\nnext: 1\n`;
        expect(parseYaml(yaml)).toEqual({ key: v, next: 1 });
        const depth = depthOf(v);
        expect(nestsFlowDeeperThan(yaml, depth)).toBe(false);
        if (depth > 0) expect(nestsFlowDeeperThan(yaml, depth - 1)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('parseYamlOnce refuses a block nested past the limit before parsing it; the limit itself parses', () => {
    const ok = nested(MAX_YAML_FLOW_DEPTH);
    expect(parseYamlOnce(ok)).toEqual(parseYaml(ok));
    expect(() => parseYamlOnce(nested(MAX_YAML_FLOW_DEPTH + 1, '{a: ', '}'))).toThrow(
      `the YAML nests [ ] or { } more than ${MAX_YAML_FLOW_DEPTH} deep`,
    );
    const note = `---\n${nested(200_000)}---\nbody\n`;
    expect(parseFrontmatter(note)).toMatchObject({
      state: 'invalid',
      error: `the YAML nests [ ] or { } more than ${MAX_YAML_FLOW_DEPTH} deep`,
    });
  });
});
