/**
 * src/ has no circular imports (CONTRIBUTING.md: floors import downwards only), type-only imports
 * included: a cycle of types today is a cycle of values after the next refactor.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import * as nodePath from 'node:path';

const SRC = nodePath.resolve(__dirname, '../../../src');

/** Every .ts file below `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = nodePath.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The files of src/ that `file` imports or re-exports from (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms)) {
    const base = nodePath.resolve(nodePath.dirname(file), match[1]!);
    const target = [`${base}.ts`, nodePath.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    if (target) found.push(target);
  }
  return found;
}

/** Each cycle once, as `a -> b -> ...` (depth-first search over `graph`: file → the files it imports). */
function cyclesIn(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const done = new Set<string>();
  const onPath: string[] = [];
  const cycles = new Set<string>();
  const visit = (file: string): void => {
    done.add(file);
    onPath.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = onPath.indexOf(next);
      if (at !== -1) cycles.add(onPath.slice(at).join(' -> '));
      else if (!done.has(next)) visit(next);
    }
    onPath.pop();
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return [...cycles];
}

describe('imports in src/', () => {
  it('form no cycle', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const graph = new Map(files.map((file) => [nodePath.relative(SRC, file), importsOf(file).map((f) => nodePath.relative(SRC, f))]));
    // The reading of imports sees multi-line and type-only ones (settings.ts imports key-record.ts's types).
    expect(graph.get('settings/settings.ts')).toContain('settings/key-record.ts');
    expect(cyclesIn(graph)).toEqual([]);
  });

  it('the search finds a cycle, and one only once, wherever it enters it', () => {
    const graph = new Map([
      ['d.ts', ['a.ts']],
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'e.ts']],
      ['c.ts', ['a.ts']],
      ['e.ts', []],
    ]);
    expect(cyclesIn(graph)).toEqual(['a.ts -> b.ts -> c.ts']);
    expect(cyclesIn(new Map([['x.ts', ['x.ts']]]))).toEqual(['x.ts']);
    expect(
      cyclesIn(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});
