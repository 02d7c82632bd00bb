import { parseYaml } from 'obsidian';
import { splicedYaml, topLevelEntries } from '../../src/vault/writes/frontmatter-lines';
import { guardFrontmatter } from '../../src/vault/writes/frontmatter-guard';
import { patchFrontmatterText } from '../../src/vault/writes/property-patch';
import { errorOf } from '../harness/tool-errors';

describe('topLevelEntries', () => {
  test('an entry runs through its indented and column-0 list lines; blank and comment lines after it belong to none', () => {
    const source = '# lead\ntags:\n- a\n# inside\n- b\n\n# gap\ndesc: |\n  one\n\n  two\nx: 1 # note\n';
    const entries = topLevelEntries(source);
    expect(entries?.map((e) => [e.key, source.slice(e.from, e.to)])).toEqual([
      ['tags', 'tags:\n- a\n# inside\n- b\n'],
      ['desc', 'desc: |\n  one\n\n  two\n'],
      ['x', 'x: 1 # note\n'],
    ]);
  });

  test('quoted, numeric and alias-using keys are read as the parser reads them', () => {
    const source = '"a: b": 1\n2: two\nbase: &b [1]\ncopy: *b\n';
    expect(topLevelEntries(source)?.map((e) => e.key)).toEqual(['a: b', '2', 'base', 'copy']);
  });

  test('refuses layouts whose key lines cannot be told apart: flow mapping, complex key, indented mapping, directive', () => {
    for (const source of ['{a: 1, b: 2}\n', '? complex\n: v\n', '  a: 1\n  b: 2\n', '%YAML 1.2\na: 1\n', '- a\n- b\n']) {
      expect(topLevelEntries(source)).toBeNull();
    }
  });
});

describe('splicedYaml', () => {
  test('rewrites only the changed keys and checks the result parses back to the wanted data', () => {
    const source = 'a: 1 # keep\nb:   2\n';
    const out = splicedYaml(source, { a: 1, b: 2 }, { a: 1, b: 3, c: ['x'] }, ['b', 'c']);
    expect(out).toBe('a: 1 # keep\nb: 3\nc:\n  - x\n');
    expect(parseYaml(out ?? '')).toEqual({ a: 1, b: 3, c: ['x'] });
  });

  test('gives up (null) rather than leave a dangling alias or a duplicate key', () => {
    const aliased = 'x: &a [1]\ny: *a\n';
    expect(splicedYaml(aliased, { x: [1], y: [1] }, { y: [1] }, ['x'])).toBeNull();
    expect(splicedYaml('k: 1\nk: 2\n', { k: 2 }, { k: 3 }, ['k'])).toBeNull();
  });
});

describe('patchFrontmatterText on layouts it cannot splice', () => {
  test('an alias target changed or removed: the block is written out whole, still valid YAML with the same data', () => {
    const text = '---\nx: &a [1]\ny: *a\n---\nbody\n';
    const out = patchFrontmatterText(text, { x: null }, 'N.md').text;
    expect(out).toBe('---\ny:\n  - 1\n---\nbody\n');
    const changed = patchFrontmatterText(text, { x: 'new' }, 'N.md').text;
    expect(parseYaml(changed.split('---\n')[1])).toEqual({ x: ['new'], y: [1] });
  });

  test('an alias-using block still gets a new key appended without touching its lines', () => {
    const text = '---\nbase: &b [1]\ncopy: *b\n---\n';
    expect(patchFrontmatterText(text, { added: true }, 'N.md').text).toBe('---\nbase: &b [1]\ncopy: *b\nadded: true\n---\n');
  });

  test('a flow-style block and an indented block are re-rendered in block style with every property kept', () => {
    expect(patchFrontmatterText('---\n{a: 1, b: 2}\n---\n', { b: null }, 'N.md').text).toBe('---\na: 1\n---\n');
    expect(patchFrontmatterText('---\n  a: 1\n  b: 2\n---\n', { a: 'x' }, 'N.md').text).toBe('---\na: x\nb: 2\n---\n');
  });
});

describe('guardFrontmatter with YAML merge keys (expanded by our code, as the app parser may not)', () => {
  test('a merge key from a list of mappings, or one inside agent_overrides, cannot bring in an access rule', () => {
    const smuggled = '---\nm1: &m1 {x: 1}\nm2: &m2 {access: private}\n<<: [*m1, *m2]\n---\n';
    expect(errorOf(() => guardFrontmatter('---\nm1: {x: 1}\n---\n', smuggled, 'n.md')).code).toBe('forbidden');
    const nested = '---\nbase: &b {A: read-only}\nagent_overrides: {B: read-only}\n---\n';
    const nestedMerge = '---\nbase: &b {A: read-only}\nagent_overrides: {B: read-only, <<: *b}\n---\n';
    expect(errorOf(() => guardFrontmatter(nested, nestedMerge, 'n.md')).code).toBe('forbidden');
  });

  test('a merge key holding a scalar is a plain key and changes no rule', () => {
    expect(() => guardFrontmatter('---\na: 1\n---\n', '---\na: 1\n<<: 5\n---\n', 'n.md')).not.toThrow();
  });
});
