import { LexicalEngine, type EngineResult } from '../../../../src/search/engine/lexical-engine';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';

/**
 * A filter query keeps its words' scores and its candidates in arrays the engine lends from a
 * pool (FilterScratch.lend) and takes back, zeroed, once the query is done: queries whose text
 * passes interleave (each waits on its reads) must each get the answer it gets alone, and so must
 * every query after them, including after one that failed midway.
 */

const VOCAB = ['alpha', 'beta', 'gamma', 'delta', 'omega'];

/** A small engine of 400 notes over {@link VOCAB} (deterministic), and their texts. */
function build(): { engine: LexicalEngine; texts: Map<string, string> } {
  const engine = new LexicalEngine({ exactTotalUpTo: 50, estimateSample: 5, readBatch: 4 });
  const texts = new Map<string, string>();
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 400; i++) {
    const path = `n${String(i).padStart(3, '0')}.md`;
    const words = Array.from({ length: 3 + Math.floor(next() * 12) }, () => VOCAB[Math.floor(next() * VOCAB.length)]);
    const text = words.join(' ');
    texts.set(path, text);
    engine.add({ path, id: `path:${path}`, title: path.slice(0, -3), tags: [], frontmatter: {}, text, headings: [] });
  }
  return { engine, texts };
}

/** A result as comparable data: total, estimate flag, and the matches in order with their exact scores. */
function signature(r: EngineResult): unknown {
  return { total: r.total, estimated: r.estimated === true, matches: r.matches.map((m) => [m.note.path, m.score]) };
}

const QUERIES = ['"alpha beta"', 'alpha -beta', '"beta gamma" -delta', 'gamma -"alpha beta"', 'delta -omega -alpha', '"omega delta" gamma'];
const who = { key: 'all', allow: (): boolean => true };

describe('the score arrays a filter query borrows', () => {
  it('give every query its own answer while text passes interleave, and after', async () => {
    const { engine, texts } = build();
    // Each read waits a few turns of the event loop, so the queries' passes run side by side.
    const read = async (path: string): Promise<string> => {
      for (let i = 0; i < 1 + (path.length % 3); i++) await new Promise((resolve) => setImmediate(resolve));
      return texts.get(path) as string;
    };
    const run = async (q: string): Promise<unknown> => signature(await engine.match(parseQuery(q), read, who, new RegexGuard(), 5));
    const alone: unknown[] = [];
    for (const q of QUERIES) alone.push(await run(q));
    // Sanity: the queries find something and some estimate their total (they read a page and a sample).
    expect(alone.every((s) => (s as { total: number }).total > 0)).toBe(true);
    expect(alone.some((s) => (s as { estimated: boolean }).estimated)).toBe(true);
    expect(await Promise.all(QUERIES.map(run))).toEqual(alone);
    expect(await Promise.all([...QUERIES, ...QUERIES].map(run))).toEqual([...alone, ...alone]);
    for (const [k, q] of QUERIES.entries()) expect(await run(q)).toEqual(alone[k]);
  });

  it('are given back when a query fails midway', async () => {
    const { engine, texts } = build();
    const read = async (path: string): Promise<string> => texts.get(path) as string;
    const run = async (q: string): Promise<unknown> => signature(await engine.match(parseQuery(q), read, who, new RegexGuard(), 5));
    const alone: unknown[] = [];
    for (const q of QUERIES) alone.push(await run(q));
    // A guard whose budget is spent refuses the body regex after the words were looked up.
    const spent = new RegexGuard(0);
    await expect(engine.match(parseQuery('alpha -beta /gam+a/'), read, who, spent, 5)).rejects.toThrow();
    for (const [k, q] of QUERIES.entries()) expect(await run(q)).toEqual(alone[k]);
  });
});
