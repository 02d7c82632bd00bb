import fc from 'fast-check';
import { LexicalEngine, type EngineResult, type IndexedNote } from '../../../../src/search/engine/lexical-engine';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/**
 * Filters the index decides alone (words, -words, OR, groups, `tag:`, `path:`, `file:`,
 * properties) are compiled into a test by doc id and their candidates taken from a tag's notes
 * when that is the shortest list (engine/index-filter.ts, tag-docs.ts). Checked against the
 * same query joined to a regex every note matches (`/[\s\S]?/`), which sends it through the
 * per-note query evaluation and text pass instead: the same matches, order and scores, and the
 * same total, for any k, two callers, and after notes are removed and added again (new doc ids).
 */

const WORDS = ['alpha', 'alphabet', 'beta', 'gamma', 'delta', 'deltas'];
const TAGS = ['red', 'red/dark', 'redder', 'blue', 'blue/sky/deep'];

const arbNote = fc.record({
  folder: fc.constantFrom('A', 'B/C'),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
  body: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 10 }),
  tags: fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }),
  status: fc.option(fc.constantFrom('draft', 'done')),
});

const arbLeaf = fc.constantFrom(
  ...WORDS,
  'alp',
  ...TAGS.map((t) => `tag:${t}`),
  'tag:#red',
  'tag:blue/sky',
  'path:B/',
  'file:alpha',
  '[status]',
  '[status:draft]',
);
const arbQuery: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    arbLeaf,
    arbLeaf.map((l) => `-${l}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} ${b}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a} OR ${b})`),
  ),
})).q;

type NoteSpec = typeof arbNote extends fc.Arbitrary<infer T> ? T : never;

function notesOf(specs: NoteSpec[]): IndexedNote[] {
  return specs.map((s, i) => ({
    path: `${s.folder}/${s.title.join(' ')} ${i}.md`,
    id: `n${i}`,
    title: `${s.title.join(' ')} ${i}`,
    tags: s.tags,
    frontmatter: s.status === null ? {} : { status: s.status },
    text: s.body.join(' '),
    headings: [],
  }));
}

/** The result as the page reads it: total, and each listed match's path and score. */
const summary = (r: EngineResult, k: number): unknown => ({
  total: r.total,
  top: r.matches.slice(0, k).map((m) => [m.note.path, m.score]),
});

describe('filters the index decides alone', () => {
  it('match, rank and count as the per-note evaluation does, for any k, caller and doc ids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbNote, { minLength: 1, maxLength: 30 }), arbQuery, fc.nat(5), async (specs, query, moved) => {
        const notes = notesOf(specs);
        const engine = new LexicalEngine();
        for (const n of notes) engine.add(n);
        // Re-added notes get new doc ids; the old ids stay listed in the tag table and must be skipped.
        for (const n of notes.slice(0, moved)) {
          engine.remove(n.path);
          engine.add(n);
        }
        const texts = new Map(notes.map((n) => [n.path, n.text]));
        const read = async (p: string): Promise<string> => texts.get(p) as string;
        for (const who of [
          { key: 'all', allow: (): boolean => true },
          { key: 'A', allow: (p: string): boolean => p.startsWith('A/') },
        ]) {
          // `-zzzz` (no note holds it) keeps a query of plain words a filter rather than ranked retrieval.
          const filter = `(${query}) -zzzz`;
          const reference = await engine.match(parseQuery(`${filter} /[\\s\\S]?/`), read, who, new RegexGuard());
          for (const k of [1, 3, 100]) {
            const found = await engine.match(parseQuery(filter), read, who, new RegexGuard(), k);
            expect(summary(found, k)).toEqual(summary(reference, k));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
