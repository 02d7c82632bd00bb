import fc from 'fast-check';
import { LexicalEngine, type EngineResult, type IndexedNote } from '../../../../src/search/engine/lexical-engine';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/**
 * Excluded words (`a -b`): the engine only marks the notes holding them (TermIndex.mark, no
 * BM25F), since a negation scores 0 whatever it holds, and it expands as the word does when
 * included (prefix, one typo for a word no note holds as typed or by prefix). Checked against the
 * same query with the notes the excluded word finds removed: the same matches with the same scores.
 */

const WORDS = ['alpha', 'alphabet', 'beta', 'betamax', 'gamma', 'delta', 'deltas', 'epsilon'];

const arbNote = fc.record({
  folder: fc.constantFrom('A', 'B'),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
  body: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }),
  tag: fc.option(fc.constantFrom('red', 'blue')),
});

function notesOf(specs: { folder: string; title: string[]; body: string[]; tag: string | null }[]): IndexedNote[] {
  return specs.map((s, i) => ({
    path: `${s.folder}/${s.title.join(' ')} ${i}.md`,
    id: `n${i}`,
    title: `${s.title.join(' ')} ${i}`,
    tags: s.tag === null ? [] : [s.tag],
    frontmatter: {},
    text: s.body.join(' '),
    headings: [],
  }));
}

/** The query's matches as `path score` lines, by path. */
const lines = (r: EngineResult): string[] => r.matches.map((m) => `${m.note.path} ${m.score}`).sort();

/** True when a word of the note (title or text) starts with `prefix` (a word of 3+ letters expands by prefix). */
const holds = (n: IndexedNote, prefix: string): boolean => `${n.title} ${n.text}`.split(/\s+/).some((w) => w.startsWith(prefix));

describe('excluded words', () => {
  it('rule out exactly the notes the word finds when included (prefix, typo) and leave every other score as the positive part gives it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbNote, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(...WORDS),
        fc.constantFrom(...WORDS, 'alp', 'del', 'deltaa', 'gamme'),
        fc.constantFrom('', ' tag:red', ' -tag:blue'),
        async (specs, word, excluded, filter) => {
          const notes = notesOf(specs);
          const engine = new LexicalEngine();
          for (const n of notes) engine.add(n);
          const texts = new Map(notes.map((n) => [n.path, n.text]));
          const read = async (p: string): Promise<string> => texts.get(p) as string;
          for (const who of [
            { key: 'all', allow: (): boolean => true },
            { key: 'A', allow: (p: string): boolean => p.startsWith('A/') },
          ]) {
            const match = (q: string): Promise<EngineResult> => engine.match(parseQuery(q), read, who, new RegexGuard());
            // `word -zzz` is the same filter without the exclusion (no note holds zzz).
            const positive = await match(`${word}${filter} -zzz`);
            // The notes the word finds when included (`-zzz` makes it a filter); by prefix, these are the notes holding it.
            const found = new Set((await match(`${excluded} -zzz`)).matches.map((m) => m.note.path));
            const byPrefix = notes.filter((n) => who.allow(n.path) && holds(n, excluded));
            if (byPrefix.length > 0) expect([...found].sort()).toEqual(byPrefix.map((n) => n.path).sort());
            const kept = new Set(notes.filter((n) => !found.has(n.path)).map((n) => n.path));
            const expected = lines(positive).filter((l) => kept.has(l.slice(0, l.lastIndexOf(' '))));
            for (const q of [`${word}${filter} -${excluded}`, `-${excluded} ${word}${filter}`, `${word}${filter} -(${excluded} OR zzz)`]) {
              const found = await match(q);
              expect(lines(found)).toEqual(expected);
              expect(found.total).toBe(expected.length);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
