/**
 * docs/tools.md (every tool with an example call and its real result, linked from the README and docs/tool-reference.md)
 * is what `npm run docs:tools` writes today: the examples are re-run in memory against the
 * plugin and compared line by line, so its examples never drift from the tools.
 * Also: a tool without an example fails the run naming it, and the masking and trimming rules.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import type { PluginClass } from '../../../scripts/bench/plugin-class';
import { EXAMPLE_CALLS, missingExamples } from '../../../scripts/tool-examples/example-calls';
import { runToolExamples } from '../../../scripts/tool-examples/generate';
import {
  ARRAY_HEAD_ITEMS,
  compactJson,
  MAX_ARRAY_ITEMS,
  MAX_STRING_CHARS,
  maskRunValues,
  renderToolDocs,
  trimForDocs,
} from '../../../scripts/tool-examples/render';
import { ALL_TOOLS } from '../../../src/tools/registry';

const DOCS = nodePath.resolve(__dirname, '../../../docs/tools.md');
const Plugin = VaultMcpPlugin as unknown as PluginClass;

/** The first line where `actual` and `expected` differ, as "line N: expected … / got …". */
function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i])
      return `line ${i + 1}: the file has ${JSON.stringify(a[i] ?? '<end of file>')}, the tools give ${JSON.stringify(e[i] ?? '<end of file>')}`;
  }
  return 'no difference';
}

describe('docs/tools.md', () => {
  it('matches what the example calls return today (else: run npm run docs:tools)', async () => {
    const run = await runToolExamples(Plugin);
    const expected = renderToolDocs(run.examples, run.vaultDir);
    const actual = readFileSync(DOCS, 'utf8').replace(/\r\n/g, '\n');
    if (actual !== expected) throw new Error(`docs/tools.md is out of date: run npm run docs:tools (${firstDifference(actual, expected)})`);
    expect(run.examples.map((e) => e.name)).toEqual(ALL_TOOLS.map((t) => t.name));
  });

  it('has an example for every tool in the registry', () => {
    expect(missingExamples(ALL_TOOLS.map((t) => t.name))).toEqual([]);
  });

  it('refuses to generate when a listed tool has no example, naming it and the file to edit', async () => {
    const { search: _search, skill_read: _skillRead, ...without } = EXAMPLE_CALLS;
    await expect(runToolExamples(Plugin, without)).rejects.toThrow(
      /No example call for tools "search", "skill_read": add a line `search: \{ \.\.\.arguments \},` to EXAMPLE_CALLS in scripts\/tool-examples\/example-calls\.ts/,
    );
  });

  it('refuses to generate when an example call fails, naming the tool and the error', async () => {
    await expect(runToolExamples(Plugin, { ...EXAMPLE_CALLS, read_note: { path: 'No such note' } })).rejects.toThrow(
      /The example call of "read_note" failed .*: .*No such note/s,
    );
  });
});

describe('tool example rendering', () => {
  it('masks times, hashes and the vault folder, leaving other values alone', () => {
    const masked = maskRunValues(
      {
        mtime: '2026-02-02T09:00:00.000Z',
        hash: 'abc123',
        agent_md_hash: 'def',
        path: '/tmp/v-1/Note.md',
        handle: 'v-1',
        size: 12,
        when: '2026-02-02',
        list: ['2026-01-01T00:00:00Z'],
      },
      '/tmp/v-1',
    );
    expect(masked).toEqual({
      mtime: '<time>',
      hash: '<hash>',
      agent_md_hash: '<hash>',
      path: '<vault path>/Note.md',
      handle: '<vault name>',
      size: 12,
      when: '2026-02-02',
      list: ['<time>'],
    });
  });

  it('cuts long strings with "…" and long arrays to their head plus a count, at every depth', () => {
    const long = 'word '.repeat(100);
    const trimmed = trimForDocs({
      a: long,
      b: Array.from({ length: MAX_ARRAY_ITEMS + 4 }, (_, i) => i),
      c: [1, 2],
      d: { e: long },
    }) as Record<string, any>;
    expect(trimmed.a.endsWith('…')).toBe(true);
    expect(trimmed.a.length).toBeLessThanOrEqual(MAX_STRING_CHARS + 1);
    expect(trimmed.b).toEqual([...Array(ARRAY_HEAD_ITEMS).keys(), `… ${MAX_ARRAY_ITEMS + 4 - ARRAY_HEAD_ITEMS} more items`]);
    expect(trimmed.c).toEqual([1, 2]);
    expect(trimmed.d.e.endsWith('…')).toBe(true);
  });

  it('prints JSON that parses back to the value, short parts on one line', () => {
    const value = {
      short: { a: 1, b: ['x', 'y'] },
      text: 'brackets [ { inside ] } stay',
      long: Array.from({ length: 30 }, (_, i) => ({ n: i, name: `item ${i}` })),
    };
    const text = compactJson(value);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('"short": {"a": 1, "b": ["x", "y"]}');
    expect(text.split('\n').length).toBeGreaterThan(30);
  });
});
