import fc from 'fast-check';
import { LexicalEngine, type EngineResult } from '../../../../src/search/engine/lexical-engine';
import { flatBound, flatPhrasePass } from '../../../../src/search/engine/filters/flat-phrases';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/**
 * A query of phrases beside index-decided parts (engine/flat-phrases.ts) is judged and read
 * without the query tree walk: its answers must be the walk's. The walk still answers the same
 * query with each phrase wrapped in `ignore-case:(…)` (a transparent group: the same meaning and
 * score, but not the flat shape), so the two are compared over random vaults, both reading every
 * candidate and reading lazily (pages, estimated totals).
 */

/** Words of the notes: few, so phrases are common; case variants, characters `iu` folds to ASCII, accents both ways, stop words, punctuation. */
const WORDS = ['tok', 'TOK', 'aka', 'the', 'of', 'The', 'ſs', 'ss', 'Kel', '\u212ael', 'café', 'cafe\u0301', '->', 'x-y', 'a.b'];
const GAPS = [' ', ' ', ' ', '\n', '\t', '\u00a0', '\u3000', '\n# ', '\n- [ ] '];

const arbText = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS)), { minLength: 1, maxLength: 25 })
  .map((ws) => ws.map(([w, g]) => w + g).join(''));
const arbNote = fc.record({
  folder: fc.constantFrom('A', 'B'),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')),
  text: arbText,
  tag: fc.constantFrom('t1', 't2'),
  /** What reading the note gives: its indexed text, a text edited since (the phrase added or dropped), or a failed read. */
  read: fc.constantFrom('same', 'same', 'same', 'same', 'edited', 'gone'),
});
/** Phrases: two or three words, one word, stop words, punctuation only, non-ASCII; any case. */
const arbPhrase = fc.oneof(
  fc
    .array(fc.constantFrom('tok', 'TOK', 'aka', 'the', 'of', 'ss', 'ſs', 'KEL', 'café'), { minLength: 2, maxLength: 3 })
    .map((ws) => ws.join(' ')),
  fc.constantFrom('tok', 'the of', 'of the', '->', '-> x-y', 'a.b tok', 'cafe\u0301 tok', '\u212ael ss'),
);
const arbQuery = fc.tuple(arbPhrase, arbPhrase, fc.constantFrom('tok', 'aka', 'kel', 'cafe'), fc.nat(8)).map(([p, q, w, t]) => {
  const flat = [
    `"${p}"`,
    `"${p}" ${w}`,
    `${w} -"${p}"`,
    `"${p}" tag:#t1`,
    `"${p}" -"${q}"`,
    `"${p}" "${q}"`,
    `"${p}" path:/^A/`,
    `-"${p}" -${w} tag:t2`,
    `"${p}" -${w}`,
    `${w} -"${p}" -"${q}"`,
  ];
  return flat[t % flat.length];
});

/** The same query with every phrase of its top level inside `ignore-case:(…)`, which the tree walk answers. */
const walked = (q: string): string => q.replace(/(-?)"([^"]*)"/g, (_, minus: string, p: string) => `${minus}ignore-case:("${p}")`);

function engine(notes: { folder: string; title: string; text: string; tag: string }[], lazy: boolean): LexicalEngine {
  const e = lazy ? new LexicalEngine({ exactTotalUpTo: 0, estimateSample: 2, readBatch: 3 }) : new LexicalEngine();
  notes.forEach((n, i) => {
    const path = `${n.folder}/${n.title} ${i}.md`;
    e.add({ path, id: `path:${path}`, title: `${n.title} ${i}`, tags: [n.tag], frontmatter: {}, text: n.text, headings: [] });
  });
  return e;
}

const signature = (r: EngineResult, k: number): unknown => ({
  page: r.matches.slice(0, k).map((m) => [m.note.path, m.score, m.text]),
  total: r.total,
  estimated: r.estimated,
});

describe('flatPhrasePass', () => {
  it('answers as the tree walk does: matches, scores, pages and totals, for random vaults and flat phrase queries', async () => {
    const access = [
      { key: 'all', allow: (): boolean => true },
      { key: 'A only', allow: (p: string): boolean => p.startsWith('A/') },
    ];
    let matched = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbNote, { minLength: 1, maxLength: 60 }),
        fc.array(arbQuery, { minLength: 1, maxLength: 3 }),
        async (notes, queries) => {
          const texts = new Map<string, string | null>();
          notes.forEach((n, i) => {
            const path = `${n.folder}/${n.title} ${i}.md`;
            texts.set(
              path,
              n.read === 'gone'
                ? null
                : n.read === 'edited'
                  ? `${n.text.slice(n.text.length >> 1)} TOK aka the of tok the ss ſs kel café tok`
                  : n.text,
            );
          });
          const read = async (p: string): Promise<string> => {
            const t = texts.get(p);
            if (t === null || t === undefined) throw new Error('gone');
            return t;
          };
          for (const lazy of [false, true]) {
            const e = engine(notes, lazy);
            for (const q of queries) {
              for (const who of access) {
                for (const k of lazy ? [1, 3] : [Infinity]) {
                  const fast = await e.match(parseQuery(q), read, who, new RegexGuard(), k);
                  const walk = await e.match(parseQuery(walked(q)), read, who, new RegexGuard(), k);
                  const n = k === Infinity ? fast.total : k;
                  expect(signature(fast, n)).toEqual(signature(walk, n));
                  matched += Math.min(n, fast.matches.length);
                }
              }
            }
          }
        },
      ),
      { numRuns: 80 },
    );
    expect(matched).toBeGreaterThan(200);
  });

  it('keeps the index verdict on a phrase of a note edited since it was indexed, as the walk does', async () => {
    const e = engine(
      [
        { folder: 'A', title: 'one', text: 'tok aka', tag: 't1' },
        { folder: 'A', title: 'two', text: 'tok aka the of', tag: 't1' },
      ],
      false,
    );
    // Both notes now read with "the of": the first one's indexed text lacks its terms (the index rules it out), the second holds it.
    const read = async (p: string): Promise<string> => `tok aka the of ${p}`;
    const who = { key: 'all', allow: (): boolean => true };
    for (const q of ['"tok aka" -"the of"', '"tok aka" "the of"']) {
      const fast = await e.match(parseQuery(q), read, who, new RegexGuard());
      const walk = await e.match(parseQuery(walked(q)), read, who, new RegexGuard());
      expect(signature(fast, 2)).toEqual(signature(walk, 2));
    }
    const excluded = await e.match(parseQuery('"tok aka" -"the of"'), read, who, new RegexGuard());
    expect(excluded.matches.map((m) => m.note.path)).toEqual(['A/one 0.md']);
  });

  it('takes only the flat shape: a phrase or an AND of phrases, excluded phrases and parts the index decides', () => {
    const source = {
      note: () => undefined,
      lookup: { score: () => null, terms: () => new Set<string>(), regex: () => false },
      focus: () => undefined,
      match: () => {
        throw new Error('not asked');
      },
      loadText: () => Promise.reject(new Error('not asked')),
    };
    const shape = (q: string): boolean => {
      const ast = parseQuery(q);
      return flatPhrasePass(ast, new Map(), flatBound(ast, new Map()), source, () => undefined) !== null;
    };
    expect(['"a b"', '"a b" c', 'c -"a b"', '"a b" tag:#x', '"a b" -"c d"', '"->"', '"a b" path:/re/'].map(shape)).toEqual(
      Array(7).fill(true),
    );
    // No phrase, an OR, a group, a text operator, a body regex, a case-sensitive part, an excluded group: the tree walk.
    expect(
      [
        'a b',
        'a -b',
        '"a b" OR c',
        '("a b" OR c) d',
        'line:("a b")',
        '"a b" /re/',
        'match-case:"a b"',
        '"a b" -(c "d e")',
        'ignore-case:("a b")',
      ].map(shape),
    ).toEqual(Array(9).fill(false));
  });
});
