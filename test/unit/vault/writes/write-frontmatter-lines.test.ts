import { parseYaml } from 'obsidian';
import { splicedYaml, topLevelEntries } from '../../../../src/vault/writes/frontmatter/frontmatter-lines';
import { guardFrontmatter } from '../../../../src/vault/writes/frontmatter/frontmatter-guard';
import { patchFrontmatterText } from '../../../../src/vault/writes/frontmatter/property-patch';
import { errorOf } from '../../../harness/server/tool-errors';

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

  test('plain-word keys are read without a parse, as a parser reads them; schema words, merge keys and others by the parser', () => {
    const source = 'status: draft\ndue_date:\n  - 1\n<<:\n  a: 1\nyes: 1\nNull: 2\nkey-2: x # c\n"quoted": 3\n1.0: one\nlast:';
    expect(topLevelEntries(source)?.map((e) => e.key)).toEqual(['status', 'due_date', '<<', 'yes', '', 'key-2', 'quoted', '1', 'last']);
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
    const out = splicedYaml(source, { a: 1, b: 3, c: ['x'] }, ['b', 'c']);
    expect(out).toEqual({ yaml: 'a: 1 # keep\nb: 3\nc:\n  - x\n' });
    expect(parseYaml('yaml' in out ? out.yaml : '')).toEqual({ a: 1, b: 3, c: ['x'] });
  });

  test('refuses (never re-renders) rather than leave a dangling alias or a duplicate key, naming the alias user', () => {
    const aliased = 'x: &a [1]\ny: *a\n';
    expect(splicedYaml(aliased, { y: [1] }, ['x'])).toEqual({
      refusal: expect.stringMatching(/'x' holds the YAML anchor &a, repeated by 'y' \(\*a\)/),
    });
    expect(splicedYaml('k: 1\nk: 2\n', { k: 3 }, ['k'])).toEqual({ refusal: "'k' is written twice" });
  });

  test('a key only a merge key gives: set gets a line of its own (it wins over the merge), delete is refused', () => {
    // As a parser that expands merge keys (YAML 1.1) reads `<<: *b`: `x` is a property with no line of its own.
    const source = 'base: &b {x: 1}\n<<: *b\n';
    expect(splicedYaml(source, { base: { x: 1 } }, ['x'])).toEqual({
      refusal: expect.stringMatching(/^the YAML merge key `<<: \*b` gives 'x', so the note would still show it; .*edit_note$/),
    });
    const set = splicedYaml(source, { base: { x: 1 }, '<<': { x: 1 }, x: 2 }, ['x']);
    expect(set).toEqual({ yaml: 'base: &b {x: 1}\n<<: *b\nx: 2\n' });
  });

  test('a patched key whose line repeats a changed anchor is written out with its own value; other alias lines block the change', () => {
    const source = 'base: &b blue\ncolor: *b\nshade: *b\n';
    const both = splicedYaml(source, { base: 'green', color: 'blue', shade: 'blue' }, ['base'], ['base', 'color', 'shade']);
    expect(both).toEqual({ yaml: 'base: green\ncolor: blue\nshade: blue\n' });
    const one = splicedYaml(source, { base: 'green', color: 'blue', shade: 'blue' }, ['base'], ['base', 'color']);
    expect(one).toEqual({ refusal: expect.stringMatching(/repeated by 'shade' \(\*b\)/) });
  });

  test('names each layout it cannot edit line by line', () => {
    const refusal = (source: string): string => {
      const out = splicedYaml(source, { z: 1 }, ['z']);
      return 'refusal' in out ? out.refusal : `spliced: ${out.yaml}`;
    };
    expect(refusal('{a: 1, b: 2}\n')).toMatch(/flow mapping/);
    expect(refusal('? complex\n: v\n')).toMatch(/complex key/);
    expect(refusal('[a, b]: v\n')).toMatch(/complex key/);
    expect(refusal('  a: 1\n  b: 2\n')).toMatch(/indented or list line/);
    expect(refusal('%YAML 1.2\na: 1\n')).toMatch(/directive/);
    expect(refusal('a: 1\n...\n')).toMatch(/document marker/);
  });
});

describe('patchFrontmatterText never writes the whole block out again', () => {
  const NOTE = '---\n# keep this comment\nzip: 01234\ntags: [a, b]\nbase: &b blue\ncolor: *b\n---\nbody\n';

  test('setting or deleting an anchored value that another property repeats is refused, naming both; nothing changes', () => {
    for (const patch of [{ base: 'green' }, { base: null }]) {
      const err = errorOf(() => patchFrontmatterText(NOTE, patch, 'y.md'));
      expect(err.code).toBe('invalid_argument');
      expect(err.message).toMatch(/^Nothing was changed in 'y.md': 'base' holds the YAML anchor &b, repeated by 'color' \(\*b\)/);
      expect(err.message).toMatch(/edit_note/);
    }
  });

  test('naming the alias user in the same call edits both lines in place; every other line stays byte for byte', () => {
    const out = patchFrontmatterText(NOTE, { base: 'green', color: 'blue' }, 'y.md').text;
    expect(out).toBe('---\n# keep this comment\nzip: 01234\ntags: [a, b]\nbase: green\ncolor: blue\n---\nbody\n');
    const removed = patchFrontmatterText(NOTE, { base: null, color: 'blue' }, 'y.md').text;
    expect(removed).toBe('---\n# keep this comment\nzip: 01234\ntags: [a, b]\ncolor: blue\n---\nbody\n');
  });

  test('plain keys, the alias key itself and unaliased anchors are still edited in place', () => {
    expect(patchFrontmatterText(NOTE, { color: 'red' }, 'y.md').text).toBe(NOTE.replace('color: *b', 'color: red'));
    expect(patchFrontmatterText(NOTE, { color: null }, 'y.md').text).toBe(NOTE.replace('color: *b\n', ''));
    expect(patchFrontmatterText(NOTE, { extra: 1 }, 'y.md').text).toBe(NOTE.replace('---\nbody', 'extra: 1\n---\nbody'));
    const lone = '---\nzip: 01234\nbase: &b blue\n---\n';
    expect(patchFrontmatterText(lone, { base: 'green' }, 'y.md').text).toBe('---\nzip: 01234\nbase: green\n---\n');
  });

  test('tags (!!str), merge keys, comments between entries: in place when the lines stand alone, else refused', () => {
    const tagged = '---\nzip: !!str 01234\n# between\nn: 1\n---\n';
    expect(patchFrontmatterText(tagged, { n: 2 }, 'N.md').text).toBe('---\nzip: !!str 01234\n# between\nn: 2\n---\n');
    const merged = '---\nbase: &b {x: 1}\n<<: *b\nzip: 01234\n---\n';
    expect(patchFrontmatterText(merged, { zip: 5 }, 'N.md').text).toBe('---\nbase: &b {x: 1}\n<<: *b\nzip: 5\n---\n');
    expect(errorOf(() => patchFrontmatterText(merged, { base: null }, 'N.md')).message).toMatch(
      /anchor &b, which the merge key `<<: \*b` copies, so changing it alone would change the properties it gives too.*edit_note/,
    );
  });

  test('a flow-style or indented block is refused saying why, not re-rendered', () => {
    const flow = errorOf(() => patchFrontmatterText('---\n{a: 1, b: 02}\n---\n', { a: null }, 'N.md'));
    expect(flow.code).toBe('invalid_argument');
    expect(flow.message).toMatch(/^Nothing was changed in 'N.md': the block is one flow mapping \{…\}\. .*edit_note/);
    expect(errorOf(() => patchFrontmatterText('---\n  a: 1\n  b: 2\n---\n', { a: 'x' }, 'N.md')).message).toMatch(/indented/);
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

describe('a comment on the changed property’s own line stays', () => {
  const patched = (block: string, patch: Record<string, unknown>): string =>
    patchFrontmatterText(`---\n${block}---\nbody\n`, patch, 'N.md')
      .text.replace(/^---\n/, '')
      .replace(/---\nbody\n$/, '');

  test('after a value written on one line, with its spacing; other lines byte for byte', () => {
    expect(patched('status: draft  # todo\nx: 1 # other\n', { status: 'done' })).toBe('status: done  # todo\nx: 1 # other\n');
    expect(patched('status: draft\t# todo\n', { status: 'done' })).toBe('status: done\t# todo\n');
    expect(patched("title: 'a # b'  # c\n", { title: 'x' })).toBe('title: x  # c\n');
    expect(patched('title: "a \\" # b" # c\n', { title: 'x' })).toBe('title: x # c\n');
    expect(patched("note: it's here # c\n", { note: 'x' })).toBe('note: x # c\n');
    expect(patched('tags: [a, "b # c"] # t\n', { tags: ['z'] })).toBe('tags: # t\n  - z\n');
    expect(patched('n: 1 # one\n', { n: 2 })).toBe('n: 2 # one\n');
  });

  test('after the name when the new value takes several lines (a block list, a multi-line text); YAML reads the value wanted', () => {
    const list = patched('status: draft # todo\n', { status: ['a', 'b'] });
    expect(list).toBe('status: # todo\n  - a\n  - b\n');
    expect(parseYaml(list)).toEqual({ status: ['a', 'b'] });
    const text = patched('status: draft # todo\n', { status: 'one\ntwo' });
    expect(text).toBe('status: |- # todo\n  one\n  two\n');
    expect(parseYaml(text)).toEqual({ status: 'one\ntwo' });
    const back = patched('tags: # the list\n  - a # first\n  - b\n', { tags: 'c' });
    expect(back).toBe('tags: # the list\n  - c\n');
    expect(parseYaml(back)).toEqual({ tags: ['c'] });
  });

  test('an alias line written out keeps its comment; a deleted line goes with its comment', () => {
    expect(patched('base: &b blue # the base\ncolor: *b # same\n', { base: 'green', color: 'blue' })).toBe(
      'base: green # the base\ncolor: blue # same\n',
    );
    expect(patched('a: 1 # one\nb: 2\n', { a: null })).toBe('b: 2\n');
  });

  test('a # that is not a comment is not carried over', () => {
    expect(patched('url: http://x.org/#top\n', { url: 'y' })).toBe('url: y\n');
    expect(patched('k: !!str "a # b"\n', { k: 'c' })).toBe('k: c\n');
    expect(patched('k: a#b\n', { k: 'c' })).toBe('k: c\n');
  });
});
