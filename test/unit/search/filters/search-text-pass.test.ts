import fc from 'fast-check';
import { LexicalEngine } from '../../../../src/search/engine/lexical-engine';
import type { EngineMatch, EngineResult } from '../../../../src/search/engine/engine-match';
import { textPass, type TextCandidates, type VerifyBatch } from '../../../../src/search/engine/filters/text-pass';
import type { NoteRecord } from '../../../../src/search/query/note-filters';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/**
 * The text pass of filter queries (engine/text-pass.ts): reading candidates best bound first
 * and stopping once the page is settled must give the first page a full read gives, for every
 * query; and what it reads, and the total it reports, must say so truthfully.
 */

function record(path: string): NoteRecord {
  return { path, id: `path:${path}`, title: path, tags: [], frontmatter: {} };
}

function match(path: string, score: number): EngineMatch {
  return { note: record(path), score, terms: new Set() };
}

const byRank = (a: EngineMatch, b: EngineMatch): number => b.score - a.score || (a.note.path < b.note.path ? -1 : 1);

/** One candidate of a scene: its bound, and what judging (`no`, `decided` at its bound, else `read`) and reading (`score`, null: no match) give. */
interface Spec {
  bound: number;
  judged?: 'no' | 'decided' | 'read';
  score?: number | null;
}

/** Candidates doc 0..n-1 named `c0000.md`...; `judged` and `read` log the docs judged and read. */
function scene(specs: Spec[]): { candidates: TextCandidates; judged: number[]; read: number[]; verify: VerifyBatch } {
  const path = (doc: number): string => `c${String(doc).padStart(4, '0')}.md`;
  const judged: number[] = [];
  const read: number[] = [];
  const candidates: TextCandidates = {
    docs: specs.map((_, i) => i),
    bounds: specs.map((s) => s.bound),
    path,
    judge: (doc) => {
      judged.push(doc);
      const s = specs[doc];
      return s.judged === 'no' ? null : s.judged === 'decided' ? match(path(doc), s.bound) : undefined;
    },
  };
  const verify: VerifyBatch = async (batch) =>
    batch.map((doc) => {
      read.push(doc);
      const score = specs[doc].score === undefined ? specs[doc].bound : specs[doc].score;
      return score === null ? null : match(path(doc), score);
    });
  return { candidates, judged, read, verify };
}

/** Page paths of a result: its matches best first, the first `k`. */
const page = (matches: EngineMatch[], k: number): string[] =>
  [...matches]
    .sort(byRank)
    .slice(0, k)
    .map((m) => m.note.path);

describe('textPass', () => {
  it('reads best bound first and stops once the page and one more match are known', async () => {
    const { candidates, read, verify } = scene(
      Array.from({ length: 1000 }, (_, i) => ({ bound: 1000 - i, score: i % 3 === 0 ? 1000 - i : null })),
    );
    const out = await textPass(candidates, verify, { ranked: 5, batch: 4, exactUpTo: 10, sample: 50 });
    expect(page(out.matches, 5)).toEqual(['c0000.md', 'c0003.md', 'c0006.md', 'c0009.md', 'c0012.md']);
    // 6 matches need 16 candidates in bound order (batches of 4), then an evenly spread sample of the rest until it holds 50 matches (about 150).
    expect(read.slice(0, 16)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(read.length).toBeGreaterThan(16 + 120);
    expect(read.length).toBeLessThan(16 + 200);
    expect(out.estimated).toBe(true);
    // 1000 candidates, a third matching: an estimate near 334, within what is known.
    expect(out.total).toBeGreaterThanOrEqual(300);
    expect(out.total).toBeLessThanOrEqual(370);
  });

  it('decides everything, for an exact total, when asked for all matches, when there are few, or when few are left', async () => {
    const half = (n: number): Spec[] => Array.from({ length: n }, (_, i) => ({ bound: i, score: i % 2 === 0 ? i : null }));
    const all = scene(half(300));
    const every = await textPass(all.candidates, all.verify, { ranked: Infinity, batch: 32, exactUpTo: 0, sample: 10 });
    expect([every.total, every.estimated, all.read.length]).toEqual([150, false, 300]);
    const few = scene(half(300));
    const small = await textPass(few.candidates, few.verify, { ranked: 3, batch: 32, exactUpTo: 300, sample: 10 });
    expect([small.total, small.estimated, few.read.length]).toEqual([150, false, 300]);
    const rest = scene(half(40));
    const exact = await textPass(rest.candidates, rest.verify, { ranked: 3, batch: 4, exactUpTo: 0, sample: 100 });
    expect([exact.total, exact.estimated, rest.read.length]).toEqual([20, false, 40]);
  });

  it('judges only the candidates that come up, and reads none that judging decides', async () => {
    // Every third candidate is ruled out without its text, every third decided; ties at bound 0 go by path.
    const specs: Spec[] = Array.from({ length: 600 }, (_, i) => ({
      bound: 0,
      judged: (['no', 'decided', 'read'] as const)[i % 3],
      score: null,
    }));
    const { candidates, judged, read, verify } = scene(specs);
    const out = await textPass(candidates, verify, { ranked: 10, batch: 8, exactUpTo: 0, sample: 30 });
    expect(page(out.matches, 3)).toEqual(['c0001.md', 'c0004.md', 'c0007.md']);
    expect(read.every((d) => d % 3 === 2)).toBe(true);
    // The page (11 decided among the first 33) and a sample holding 30 matches (about 90): not the other 500.
    expect(judged.length).toBeLessThan(150);
    // A third of the sample matched (the decided ones): about 200 in all.
    expect(out.estimated).toBe(true);
    expect(out.total).toBeGreaterThanOrEqual(180);
    expect(out.total).toBeLessThanOrEqual(220);
  });

  it('keeps a match whose score is below its bound out of the page until no bound can beat it', async () => {
    // Candidate 0 has the best bound but scores 1 once read; the others score their bound, 599 down to 1.
    const { candidates, verify } = scene(
      Array.from({ length: 600 }, (_, i) => ({ bound: i === 0 ? 1000 : 600 - i, score: i === 0 ? 1 : 600 - i })),
    );
    const out = await textPass(candidates, verify, { ranked: 3, batch: 2, exactUpTo: 0, sample: 5 });
    expect(
      [...out.matches]
        .sort(byRank)
        .slice(0, 3)
        .map((m) => m.score),
    ).toEqual([599, 598, 597]);
    expect(out.total).toBe(600);
  });

  it('judges in the order of one heap of all candidates when the first tier of best bounds runs out', async () => {
    // 6,000 candidates (two tiers: about the best 1/16 first), bounds in 40 values so many tie (ties by path), in a scrambled order;
    // one in 300 matches, so the page of 20 needs nearly all of them judged, through both tiers.
    const specs: Spec[] = Array.from({ length: 6000 }, (_, i) => {
      const bound = (i * 7919) % 40;
      return { bound, judged: i % 300 === 7 ? 'read' : 'no', score: bound };
    });
    const { candidates, judged, verify } = scene(specs);
    const out = await textPass(candidates, verify, { ranked: 20, batch: 8, exactUpTo: 0, sample: 5 });
    const order = specs.map((_, i) => i).sort((a, b) => specs[b].bound - specs[a].bound || a - b);
    expect(judged.length).toBeGreaterThan(6000 / 16);
    expect(judged).toEqual(order.slice(0, judged.length));
    const full = await textPass(scene(specs).candidates, verify, { ranked: Infinity, batch: 8, exactUpTo: 0, sample: 5 });
    expect(page(out.matches, 20)).toEqual(page(full.matches, 20));
  });

  it('refuses options that are not whole numbers', async () => {
    const { candidates, verify } = scene([]);
    await expect(textPass(candidates, verify, { ranked: -1, batch: 1, exactUpTo: 0, sample: 1 })).rejects.toThrow(
      /ranked must be a whole number/,
    );
    await expect(textPass(candidates, verify, { ranked: 1.5, batch: 1, exactUpTo: 0, sample: 1 })).rejects.toThrow(
      /ranked must be a whole number/,
    );
    await expect(textPass(candidates, verify, { ranked: 1, batch: 0, exactUpTo: 0, sample: 1 })).rejects.toThrow(
      /batch must be a whole number/,
    );
    await expect(textPass(candidates, verify, { ranked: 1, batch: 1, exactUpTo: 0, sample: 0 })).rejects.toThrow(
      /sample must be a whole number/,
    );
    expect(() => new LexicalEngine({ exactTotalUpTo: -1 })).toThrow(/exactTotalUpTo must be a whole number/);
    expect(() => new LexicalEngine({ estimateSample: 0 })).toThrow(/estimateSample must be a whole number/);
    expect(() => new LexicalEngine({ readBatch: 0.5 })).toThrow(/readBatch must be a whole number/);
  });
});

/** Words of the random notes: few, so phrases of them are common; case variants, the characters `iu` folds to ASCII, accents both ways. */
const WORDS = ['tok', 'TOK', 'aka', 'the', 'The', 'ſs', 'ss', 'Kel', '\u212ael', 'café', 'cafe\u0301'];
/** Rarer words: punctuation, a heading mark, a hyphenated word. */
const RARE = ['x-y', '#', '-', 'a.b', 'zed'];
/** Whitespace between words: spaces, tabs, no-break and ideographic spaces, line breaks, headings, tasks. */
const GAPS = [' ', ' ', ' ', ' ', '\n', '\t', '\u00a0', '\u3000', '\u2028', '\n# ', '\n\n## ', '\n- [ ] ', '\n\n'];

const arbWord = fc.oneof(
  { arbitrary: fc.constantFrom('tok', 'aka', 'the', 'ss'), weight: 6 },
  { arbitrary: fc.constantFrom(...WORDS), weight: 4 },
  { arbitrary: fc.constantFrom(...RARE), weight: 1 },
);
const arbText = fc
  .array(fc.tuple(arbWord, fc.constantFrom(...GAPS)), { minLength: 1, maxLength: 30 })
  .map((ws) => ws.map(([w, g]) => w + g).join(''));
const arbNote = fc.record({
  folder: fc.constantFrom('A', 'B', 'A/C'),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')),
  text: arbText,
  tags: fc.subarray(['t1', 't2']),
  status: fc.constantFrom('draft', 'done', undefined),
});
/** Phrases of the commonest words (so they match often), any case. */
const arbPhrase = fc
  .tuple(
    fc.array(fc.constantFrom('tok', 'TOK', 'aka', 'the', 'The', 'ss', 'ſs', 'KEL'), { minLength: 2, maxLength: 3 }),
    fc.constantFrom(' ', ' ', '  ', '\u00a0'),
  )
  .map(([ws, gap]) => ws.join(gap));
const arbQuery = fc
  .tuple(arbPhrase, arbPhrase, fc.constantFrom('tok', 'aka', 'the', 'kel', 'cafe', 'zed'), fc.nat(20))
  .map(([p, q, w, t]) => {
    const templates = [
      `"${p}"`,
      `"${p}" ${w}`,
      `-"${p}"`,
      `${w} -"${p}"`,
      `"${p}" OR ${w}`,
      `"${p}" OR "${q}"`,
      `line:("${p}")`,
      `section:("${p}" ${w})`,
      `"${p}" path:A`,
      `"${p}" tag:#t1`,
      `"${p}" [status:draft]`,
      `match-case:"${p}"`,
      `/tok\\s+aka/`,
      `"${p}" -${w}`,
      `(${w} OR "${q}") -"${p}"`,
      `ignore-case:("${p}") block:(${w})`,
      `"${p}" OR ${w}`,
      `section:("${p}" ${w})`,
      `line:("${p}") OR ${w}`,
      `(${w} OR "${q}") "${p}"`,
      `block:("${p}" OR ${w})`,
    ];
    return templates[t % templates.length];
  });

/** Two engines over the same notes: one reading every candidate, one always lazy, two notes at a time, with a tiny sample. */
function engines(notes: { folder: string; title: string; text: string; tags: string[]; status?: string }[]): {
  exact: LexicalEngine;
  lazy: LexicalEngine;
  texts: Map<string, string>;
} {
  const exact = new LexicalEngine();
  const lazy = new LexicalEngine({ exactTotalUpTo: 0, estimateSample: 1, readBatch: 2 });
  const texts = new Map<string, string>();
  notes.forEach((n, i) => {
    const path = `${n.folder}/${n.title} ${i}.md`;
    texts.set(path, n.text);
    const note = {
      path,
      id: `path:${path}`,
      title: `${n.title} ${i}`,
      tags: n.tags,
      frontmatter: n.status === undefined ? {} : { status: n.status },
      text: n.text,
      headings: [...n.text.matchAll(/^#+ (.*)$/gm)].map((m) => m[1]),
    };
    exact.add(note);
    lazy.add(note);
  });
  return { exact, lazy, texts };
}

const signature = (r: EngineResult, k: number): [string, number][] => r.matches.slice(0, k).map((m) => [m.note.path, m.score]);

describe('the lazy text pass through LexicalEngine', () => {
  it('gives the first page a full read gives, with a truthful total and next page, for random vaults and queries', async () => {
    const access = [
      { key: 'all', allow: (): boolean => true },
      { key: 'A only', allow: (p: string): boolean => p.startsWith('A/') },
    ];
    // Comparisons where the page was a strict part of several matches with different scores: the cases that can go wrong.
    let telling = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbNote, { minLength: 1, maxLength: 80, size: 'max' }),
        fc.array(arbQuery, { minLength: 1, maxLength: 4 }),
        async (notes, queries) => {
          const { exact, lazy, texts } = engines(notes);
          const read = async (p: string): Promise<string> => texts.get(p) as string;
          for (const q of queries) {
            const ast = parseQuery(q);
            for (const who of access) {
              const full = await exact.match(ast, read, who, new RegexGuard());
              expect(full.estimated).toBeUndefined();
              for (const k of [1, 2, 5]) {
                const page = await lazy.match(ast, read, who, new RegexGuard(), k);
                expect(signature(page, k)).toEqual(signature(full, k));
                if (full.total > k && new Set(full.matches.map((m) => m.score)).size > 1) telling++;
                // The next page exists exactly when it does for the full read.
                expect(page.total > k).toBe(full.total > k);
                if (page.estimated === true) expect(page.total).toBeGreaterThan(k);
                else expect(page.total).toBe(full.total);
              }
            }
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(telling).toBeGreaterThan(100);
  });

  it('reads a page and a sample, not every candidate, when a common phrase matches hundreds of notes', async () => {
    const engine = new LexicalEngine();
    const texts = new Map<string, string>();
    for (let i = 0; i < 1500; i++) {
      const path = `n${String(i).padStart(4, '0')}.md`;
      const text = `${i % 3 === 0 ? 'of the' : 'the of'} note ${'word '.repeat(i % 7)}end`;
      texts.set(path, text);
      engine.add({ path, id: `path:${path}`, title: path.slice(0, -3), tags: [], frontmatter: {}, text, headings: [] });
    }
    let reads = 0;
    const read = async (p: string): Promise<string> => {
      reads++;
      return texts.get(p) as string;
    };
    const who = { key: 'all', allow: (): boolean => true };
    const page = await engine.match(parseQuery('"of the"'), read, who, new RegexGuard(), 10);
    expect(page.estimated).toBe(true);
    expect(reads).toBeLessThan(400);
    expect(page.total).toBeGreaterThanOrEqual(400);
    expect(page.total).toBeLessThanOrEqual(600);
    reads = 0;
    const all = await engine.match(parseQuery('"of the"'), read, who, new RegexGuard());
    expect([all.total, all.estimated, reads]).toEqual([500, undefined, 1500]);
    expect(signature(page, 10)).toEqual(signature(all, 10));
  });
});
