import { parseYaml } from 'obsidian';
import { patchFrontmatterText, validatePropertyPatch } from '../../../../src/vault/writes/frontmatter/property-patch';
import { errorOf } from '../../../harness/server/tool-errors';
import { topLevelEntries } from '../../../../src/vault/writes/frontmatter/frontmatter-lines';
import { walkOnce, withMergeKeys } from '../../../../src/vault/content/frontmatter/yaml-merge-keys';
import { assertWritableFrontmatter, isProtectedKey } from '../../../../src/vault/writes/frontmatter/frontmatter-guard';
import { parse as yamlParse } from 'yaml';

/**
 * Property writes on a block with a YAML merge key (`<<: *b`), run with both kinds of parser:
 * one that expands merge keys (YAML 1.1, as Obsidian shows the merged properties) and the test
 * host's, which does not (YAML 1.2 core: a plain `<<` key). The answers must be the same.
 */
let mockExpandMerges = false;
jest.mock('obsidian', () => {
  const host = jest.requireActual<typeof import('obsidian')>('obsidian');
  const yaml = jest.requireActual<typeof import('yaml')>('yaml');
  return { ...host, parseYaml: (text: string): unknown => (mockExpandMerges ? yaml.parse(text, { merge: true }) : host.parseYaml(text)) };
});

/** The properties `text`'s block shows, merge keys expanded (with the expanding parser). */
function shown(text: string): unknown {
  const was = mockExpandMerges;
  mockExpandMerges = true;
  try {
    return parseYaml(/^---\n([\s\S]*?)---\n/.exec(text)?.[1] ?? '') as unknown;
  } finally {
    mockExpandMerges = was;
  }
}

describe.each([
  ['a parser that expands merge keys', true],
  ["the test host's parser, which does not", false],
])('merge keys with %s', (_name, expands) => {
  beforeEach(() => {
    mockExpandMerges = expands;
  });
  afterAll(() => {
    mockExpandMerges = false;
  });

  it('a merge key whose mapping starts on the next line is the `<<` line, not the keys it brings in', () => {
    expect(topLevelEntries('<<:\n  a: 1\nb: 2\n')?.map((e) => e.key)).toEqual(['<<', 'b']);
  });

  const NOTE = '---\nbase: &b {status: draft, owner: ana}\n<<: *b\ntitle: T  # keep\n---\nbody\n';

  test('the mock parser is the one named', () => {
    expect(Object.hasOwn(parseYaml('a: &a {x: 1}\n<<: *a\n') as object, 'x')).toBe(expands);
  });

  test('deleting a property only the merge key gives is refused, saying why and what to do, in any case of its name', () => {
    for (const patch of [{ status: null }, { STATUS: null }, { status: null, title: 'U' }]) {
      const err = errorOf(() => patchFrontmatterText(NOTE, patch, 'N.md'));
      expect(err.code).toBe('invalid_argument');
      expect(err.message).toMatch(
        /^Nothing was changed in 'N.md': the YAML merge key `<<: \*b` gives 'status', so the note would still show it; to delete it, remove it from the merged mapping or remove the << line, with edit_note/,
      );
    }
  });

  test('deleting a property that has its own line and that the merge key also gives is refused (the merged value would show)', () => {
    const text = NOTE.replace('title: T', 'status: done\ntitle: T');
    const err = errorOf(() => patchFrontmatterText(text, { status: null }, 'N.md'));
    expect(err.message).toMatch(
      /^Nothing was changed in 'N.md': the YAML merge key `<<: \*b` gives 'status', so the note would still show it/,
    );
    expect(patchFrontmatterText(text, { status: 'ok' }, 'N.md').text).toBe(text.replace('status: done', 'status: ok'));
  });

  test("setting a property only the merge key gives adds the note's own line, which wins over the merge; its value as merged changes nothing", () => {
    const set = patchFrontmatterText(NOTE, { status: 'done' }, 'N.md').text;
    expect(set).toBe(NOTE.replace('---\nbody', 'status: done\n---\nbody'));
    expect(shown(set)).toEqual({ base: { status: 'draft', owner: 'ana' }, status: 'done', owner: 'ana', title: 'T' });
    const cased = patchFrontmatterText(NOTE, { Owner: 'ben' }, 'N.md');
    expect(cased.text).toBe(NOTE.replace('---\nbody', 'owner: ben\n---\nbody'));
    expect(cased.note).toMatch(/applied 'Owner' as the note's 'owner'/);
    expect(patchFrontmatterText(NOTE, { status: 'draft' }, 'N.md').text).toBe(NOTE);
  });

  test('other properties are patched in place; the merged mapping and the << line cannot be changed by a patch', () => {
    expect(patchFrontmatterText(NOTE, { title: 'U', added: 1 }, 'N.md').text).toBe(
      NOTE.replace('title: T', 'title: U').replace('---\nbody', 'added: 1\n---\nbody'),
    );
    expect(errorOf(() => patchFrontmatterText(NOTE, { base: { status: 'x' } }, 'N.md')).message).toMatch(
      /'base' holds the YAML anchor &b, which the merge key `<<: \*b` copies, so changing it alone would change the properties it gives too/,
    );
    for (const value of [null, 'x'])
      expect(errorOf(() => validatePropertyPatch({ '<<': value }, 'N.md')).message).toMatch(/merge key, not a property/);
  });

  test('an inline merged mapping and a list of merged mappings are read the same way', () => {
    const inline = '---\n<<: {status: draft}\ntitle: T\n---\n';
    expect(errorOf(() => patchFrontmatterText(inline, { status: null }, 'N.md')).message).toMatch(
      /the YAML merge key `<<: \{status: draft\}` gives 'status'/,
    );
    expect(patchFrontmatterText(inline, { status: 'done' }, 'N.md').text).toBe('---\n<<: {status: draft}\ntitle: T\nstatus: done\n---\n');
    expect(errorOf(() => patchFrontmatterText('---\n<<: {x: 1}\n---\nbody\n', { x: null }, 'N.md')).message).toMatch(
      /the YAML merge key `<<: \{x: 1\}` gives 'x'/,
    );
    const list = '---\na: &a {x: 1}\nb: &b {y: 2}\n<<: [*a, *b]\n---\n';
    expect(errorOf(() => patchFrontmatterText(list, { y: null }, 'N.md')).message).toMatch(
      /the YAML merge key `<<: \[\*a, \*b\]` gives 'y'/,
    );
  });
});

describe('withMergeKeys', () => {
  it('expands each object once however many aliases share it, and ends an alias cycle where it comes back', () => {
    // 25 levels of `&aN [*aN-1, *aN-1]` parsed without an alias limit (as a parser with none returns them): shared arrays, 2^25 leaves as a tree.
    let text = 'a0: &a0 {<<: {x: 1}, y: 2}\n';
    for (let i = 1; i <= 25; i++) text += `a${i}: &a${i} [*a${i - 1}, *a${i - 1}]\n`;
    const parsed = yamlParse(text, { maxAliasCount: -1 }) as Record<string, unknown[]>;
    expect(parsed.a25[0]).toBe(parsed.a25[1]);
    const out = withMergeKeys(parsed) as Record<string, unknown[]>;
    // Expanded once: what two aliases shared is one object still.
    expect(out.a25[0]).toBe(out.a25[1]);
    expect(out.a0).toEqual({ x: 1, y: 2 });
    let level = out.a25 as unknown[];
    for (let i = 25; i > 1; i--) level = level[1] as unknown[];
    expect(level).toEqual([
      { x: 1, y: 2 },
      { x: 1, y: 2 },
    ]);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect((withMergeKeys({ '<<': cycle, own: 1 }) as Record<string, unknown>).own).toBe(1);
  });

  it('gives back the very objects that hold nothing to expand (no copy of a large frontmatter), and copies only where a merge key expands', () => {
    const big: Record<string, unknown> = { tags: ['a', 'b'], nested: { list: [1, { deep: true }] } };
    for (let i = 0; i < 5000; i++) big[`key${i}`] = `value ${i}`;
    expect(withMergeKeys(big) === big).toBe(true);
    const plain = { n: 1 };
    const merging = { keep: plain, list: [plain, { '<<': { x: 1 }, y: 2 }], '<<': 5 };
    const out = withMergeKeys(merging) as { keep: unknown; list: unknown[]; '<<': unknown };
    // A `<<` that expands nothing (not a mapping) stays a key; only the path down to the expanded mapping is new.
    expect(out).not.toBe(merging);
    expect(out.keep).toBe(plain);
    expect(out.list[0]).toBe(plain);
    expect(out.list[1]).toEqual({ x: 1, y: 2 });
    expect(out['<<']).toBe(5);
    expect(merging.list[1]).toEqual({ '<<': { x: 1 }, y: 2 });
  });

  it('expands a merge chain thousands of levels deep without overflowing the stack', () => {
    let chain: Record<string, unknown> = { access: 'read-only' };
    for (let i = 0; i < 20_000; i++) chain = { '<<': chain };
    expect(withMergeKeys({ '<<': chain, title: 't' })).toEqual({ access: 'read-only', title: 't' });
  });
});

describe('walkOnce', () => {
  it('enters each object once in depth-first order, leaves it after what it scheduled, and ends a cycle', () => {
    const shared = { name: 'shared' };
    const list: unknown[] = [shared, shared, 'text'];
    const root = { a: list, b: shared, c: null as unknown };
    root.c = root;
    const log: string[] = [];
    const name = (node: object): string => (node === root ? 'root' : node === list ? 'list' : 'shared');
    walkOnce(
      root,
      (node, next) => {
        log.push(`enter ${name(node)}`);
        for (const child of Object.values(node)) next(child);
      },
      (node) => log.push(`leave ${name(node)}`),
    );
    expect(log).toEqual(['enter root', 'enter list', 'enter shared', 'leave shared', 'leave list', 'leave root']);
  });
});

describe('the write guard reads rule names and merge keys as access rules do', () => {
  it('a read-only refusal from an agent_overrides a merge key brings in names agent_overrides (it said the frontmatter does not parse)', () => {
    const scope = { label: 'Bot', roots: [] };
    expect(errorOf(() => assertWritableFrontmatter({ '<<': { agent_overrides: { Bot: 'read-only' } } }, scope, 'N.md')).message).toBe(
      "Note 'N.md' is read-only for this key (frontmatter 'agent_overrides' gives 'Bot' read-only); leave it unchanged or ask the user to edit it.",
    );
    expect(errorOf(() => assertWritableFrontmatter({ '<<': { access: 'read-only' } }, scope, 'N.md')).message).toMatch(
      /read-only for agents \(frontmatter 'access: read-only'\)/,
    );
  });

  it('protected property names: the rule names in any case and spacing, not the merge key', () => {
    for (const name of ['access', ' Access ', 'AGENT_OVERRIDES', '\tagent_overrides']) expect(isProtectedKey(name)).toBe(true);
    for (const name of ['<<', 'accessible', 'agent', 'title']) expect(isProtectedKey(name)).toBe(false);
  });
});
