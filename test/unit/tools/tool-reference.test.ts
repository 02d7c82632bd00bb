/**
 * The tool tables of docs/tool-reference.md (linked from the README) describe every tool
 * tools/list can show, with every input: each tool in ALL_TOOLS (src/tools/registry.ts) has a
 * row `| \`name\` | inputs | ... |` in a table of the page, and each property of its input schema
 * appears in that row's inputs cell as `name`, `name?` or `name: ...`. A failure names the tool
 * and input to add to docs/tool-reference.md.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { ALL_TOOLS } from '../../../src/tools/registry';

const PAGE = 'docs/tool-reference.md';
const REFERENCE = readFileSync(nodePath.resolve(__dirname, '../../..', PAGE), 'utf8').replace(/\r\n/g, '\n');

/** The page's tool table rows by tool name: the inputs cell's text. */
function toolRows(markdown: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const match = /^\| `([a-z_]+)` \| ([^|]*) \|/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  return rows;
}

/** The input names a cell mentions: every backticked word at the start of a code span (`path`, `max_chars?`, `confirm: true`). */
function inputsIn(cell: string): Set<string> {
  return new Set([...cell.matchAll(/`([a-z_]+)\??(?::[^`]*)?`/g)].map((m) => m[1]!));
}

describe(`${PAGE} tool tables`, () => {
  const rows = toolRows(REFERENCE);

  it('have a row for every tool in ALL_TOOLS', () => {
    const missing = ALL_TOOLS.map((t) => t.name).filter((name) => !rows.has(name));
    expect(missing.map((name) => `${PAGE} has no table row for tool "${name}"`)).toEqual([]);
  });

  it('list every input property of every tool in its row', () => {
    const missing: string[] = [];
    for (const tool of ALL_TOOLS) {
      const cell = rows.get(tool.name);
      if (cell === undefined) continue;
      const named = inputsIn(cell);
      for (const input of Object.keys(tool.inputSchema)) {
        if (!named.has(input))
          missing.push(
            `${PAGE} row for "${tool.name}" does not list input "${input}" (add \`${input}\` or \`${input}?\` to its inputs cell)`,
          );
      }
    }
    expect(missing).toEqual([]);
  });

  it('name no tool that ALL_TOOLS lacks', () => {
    const known = new Set(ALL_TOOLS.map((t) => t.name));
    expect([...rows.keys()].filter((name) => !known.has(name)).map((name) => `${PAGE} lists "${name}", which is not a tool`)).toEqual([]);
  });
});
