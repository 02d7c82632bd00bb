import fc from 'fast-check';
import { LexicalEngine } from '../../src/search/engine/lexical-engine';
import type { EngineMatch, EngineResult } from '../../src/search/engine/engine-match';
import { textPass, type TextCandidate } from '../../src/search/engine/text-pass';
import type { NoteRecord } from '../../src/search/query/note-filters';
import { parseQuery } from '../../src/search/query/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';

/**
 * The text pass of filter queries (engine/text-pass.ts): reading candidates best bound first
 * and stopping once the page is settled must give the first page a full read gives, for every
 * query; and what it reads, and the total it reports, must say so truthfully.
 */

function record(path: string): NoteRecord {
  return { path, id: `path:${path}`, title: path, tags: [], frontmatter: {} };
}

/** A candidate at `bound`; `decided` makes it a match at its bound that needs no read. */
function candidate(doc: number, path: string, bound: number, decided = false): TextCandidate {
  const note = record(path);
  return { doc, note, bound, decided: decided ? match(note, bound) : null };
}

function match(note: NoteRecord, score: number): EngineMatch {
  return { note, score, terms: new Set() };
}

const byRank = (a: EngineMatch, b: EngineMatch): number => b.score - a.score || (a.note.path < b.note.path ? -1 : 1);

describe('textPass', () => {
  /** Candidates 0..n-1, bound n-i, scoring their bound when `hit(i)`; `log` gets every doc read. */
  function scene(n: number, hit: (i: number) => boolean): { candidates: TextCandidate[]; log: number[]; verify: (b: readonly TextCandidate[]) => Promise<(EngineMatch | null)[]> } {
    const candidates = Array.from({ length: n }, (_, i) => candidate(i, `n${String(i).padStart(4, '0')}.md`, n - i));
    const log: number[] = [];
    const verify = async (batch: readonly TextCandidate[]): Promise<(EngineMatch | null)[]> =>
      batch.map((c) => {
        log.push(c.doc);
        return hit(c.doc) ? match(c.note, c.bound) : null;
      });
    return { candidates, log, verify };
  }

  it('reads best bound first and stops once the page and one more match are known', async () => {
    const { candidates, log, verify } = scene(1000, (i) => i % 3 === 0);
    const out = await textPass(candidates, verify, { ranked: 5, batch: 4, exactUpTo: 10, sample: 50 });
    const first = out.matches.sort(byRank).slice(0, 5).map((m) => m.note.path);
    expect(first).toEqual(['n0000.md', 'n0003.md', 'n0006.md', 'n0009.md', 'n0012.md']);
    // 6 matches need 16 candidates in bound order (batches of 4), then an even sample of 50 of the rest.
    expect(log.slice(0, 16)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(log.length).toBe(16 + 50);
    expect(out.estimated).toBe(true);
    // 1000 candidates, a third matching: an estimate near 334, within what is known.
    expect(out.total).toBeGreaterThanOrEqual(300);
    expect(out.total).toBeLessThanOrEqual(370);
  });

  it('reads everything, for an exact total, when asked for all matches or when few need reading', async () => {
    const all = scene(300, (i) => i % 2 === 0);
    const every = await textPass(all.candidates, all.verify, { ranked: Infinity, batch: 32, exactUpTo: 0, sample: 10 });
    expect([every.total, every.estimated, all.log.length]).toEqual([150, false, 300]);
    const few = scene(300, (i) => i % 2 === 0);
    const small = await textPass(few.candidates, few.verify, { ranked: 3, batch: 32, exactUpTo: 300, sample: 10 });
    expect([small.total, small.estimated, few.log.length]).toEqual([150, false, 300]);
    // The remainder after the page no larger than the sample: read whole, exact.
    const rest = scene(40, (i) => i % 2 === 0);
    const exact = await textPass(rest.candidates, rest.verify, { ranked: 3, batch: 4, exactUpTo: 0, sample: 100 });
    expect([exact.total, exact.estimated, rest.log.length]).toEqual([20, false, 40]);
  });

  it('never reads a decided candidate, and counts the unread ones exactly', async () => {
    const candidates = Array.from({ length: 500 }, (_, i) => candidate(i, `d${String(i).padStart(3, '0')}.md`, 0, i % 2 === 1));
    const read: number[] = [];
    const verify = async (batch: readonly TextCandidate[]): Promise<(EngineMatch | null)[]> =>
      batch.map((c) => {
        read.push(c.doc);
        return null;
      });
    const out = await textPass(candidates, verify, { ranked: 10, batch: 8, exactUpTo: 0, sample: 20 });
    expect(read.every((d) => d % 2 === 0)).toBe(true);
    // Ties at bound 0 go by path: the first 11 decided ones (odd docs) settle the page.
    expect(out.matches.sort(byRank).slice(0, 3).map((m) => m.note.path)).toEqual(['d001.md', 'd003.md', 'd005.md']);
    // The sample of the 250 undecided unread found none: the total is the 250 decided, exactly known, as an estimate.
    expect(out.total).toBe(250);
    expect(out.estimated).toBe(true);
  });

  it('keeps a match whose score is below its bound out of the page until no bound can beat it', async () => {
    // Candidate 0 has the best bound but scores 1 once read; the others score their bound, 599 down to 1.
    const candidates = Array.from({ length: 600 }, (_, i) => candidate(i, `p${String(i).padStart(3, '0')}.md`, i === 0 ? 1000 : 600 - i));
    const verify = async (batch: readonly TextCandidate[]): Promise<(EngineMatch | null)[]> =>
      batch.map((c) => match(c.note, c.doc === 0 ? 1 : c.bound));
    const out = await textPass(candidates, verify, { ranked: 3, batch: 2, exactUpTo: 0, sample: 5 });
    expect(out.matches.sort(byRank).slice(0, 3).map((m) => m.score)).toEqual([599, 598, 597]);
    expect(out.total).toBe(600);
  });

  it('refuses options that are not whole numbers', async () => {
    const verify = async (): Promise<(EngineMatch | null)[]> => [];
    await expect(textPass([], verify, { ranked: -1, batch: 1, exactUpTo: 0, sample: 1 })).rejects.toThrow(/ranked must be a whole number/);
    await expect(textPass([], verify, { ranked: 1.5, batch: 1, exactUpTo: 0, sample: 1 })).rejects.toThrow(/ranked must be a whole number/);
    await expect(textPass([], verify, { ranked: 1, batch: 0, exactUpTo: 0, sample: 1 })).rejects.toThrow(/batch must be a whole number/);
    await expect(textPass([], verify, { ranked: 1, batch: 1, exactUpTo: 0, sample: 0 })).rejects.toThrow(/sample must be a whole number/);
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
const arbQuery = fc.tuple(arbPhrase, arbPhrase, fc.constantFrom('tok', 'aka', 'the', 'kel', 'cafe', 'zed'), fc.nat(20)).map(([p, q, w, t]) => {
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
  const lazy = new LexicalEngine({ exactTotalUpTo: 0, estimateSample: 3, readBatch: 2 });
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
      fc.asyncProperty(fc.array(arbNote, { minLength: 1, maxLength: 50 }), fc.array(arbQuery, { minLength: 1, maxLength: 4 }), async (notes, queries) => {
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
      }),
      { numRuns: 150 },
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
