import { LexicalEngine, type CallerAccess, type EngineResult, type IndexedNote } from '../../src/search/engine/lexical-engine';
import { parseQuery } from '../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';

/**
 * What the property tests of ranked retrieval's shortcuts (search-pruning, search-dense) share:
 * notes, an engine built as a build ends, and the check that a query's page for each k equals
 * the first k of the exhaustive order (k Infinity: every hit scored).
 */

/** A note to index at `path` (id `path:<path>`, no frontmatter or headings). */
export function note(path: string, title: string, text: string, tags: string[] = []): IndexedNote {
  return { path, id: `path:${path}`, title, tags, frontmatter: {}, text, headings: [] };
}

/** An engine holding `notes`, after a build's end (trimmed lists, block bounds and dense terms made). */
export function built(notes: IndexedNote[]): LexicalEngine {
  const engine = new LexicalEngine();
  for (const n of notes) engine.add(n);
  for (const step of engine.trimSteps()) void step;
  return engine;
}

/** A caller who may read every note. */
export const everyone: CallerAccess = { key: 'all', allow: (): boolean => true };

/** `q`'s result for a page of `k` (no note text: these queries read none). */
export function match(engine: LexicalEngine, q: string, k: number, who: CallerAccess = everyone): Promise<EngineResult> {
  return engine.match(parseQuery(q), async () => '', who, new RegexGuard(), k);
}

/** The first `k` matches as [path, score, allTerms, missing] rows. */
export function page(r: EngineResult, k: number): unknown[] {
  return r.matches.slice(0, k).map((m) => [m.note.path, m.score, m.allTerms, m.missing ?? null]);
}

/**
 * Expects every query's total, ranked summary and page, for each k of `ks`, to equal the exhaustive
 * order's first k.
 * @param spyOnShortcut spies on the shortcut under test (it returns null when it does not answer)
 * @returns how many of the answers the shortcut gave (a test asserts it is not zero, else it showed nothing)
 */
export async function sameAsExhaustive(
  engine: LexicalEngine,
  queries: readonly string[],
  ks: readonly number[],
  spyOnShortcut: () => jest.SpyInstance,
  who: CallerAccess = everyone,
): Promise<number> {
  const spy = spyOnShortcut();
  let answered = 0;
  try {
    for (const q of queries) {
      const whole = await match(engine, q, Infinity, who);
      for (const k of ks) {
        spy.mockClear();
        const top = await match(engine, q, k, who);
        answered += spy.mock.results.filter((r) => r.value !== null).length;
        expect([q, k, top.total, top.ranked]).toEqual([q, k, whole.total, whole.ranked]);
        expect([q, k, page(top, k)]).toEqual([q, k, page(whole, k)]);
      }
    }
  } finally {
    spy.mockRestore();
  }
  return answered;
}
