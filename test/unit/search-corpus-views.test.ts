import { CorpusViews } from '../../src/search/engine/corpus-views';
import { LexicalEngine, type CallerAccess } from '../../src/search/engine/lexical-engine';
import { TermIndex, type CorpusView } from '../../src/search/engine/term-index';
import { parseQuery } from '../../src/search/query/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';
import { seededRandom } from '../harness/seeded-random';

/** Fields in index order (title, path, body, headings, tags, properties, aliases). */
const fields = (title: string, text: string): string[] => [title, '', text, '', '', '', ''];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

/** A view as plain data, for comparing a kept (patched) view with one made afresh. */
function plain(view: CorpusView): { visible: number[]; count: number; fieldTotal: number[] } {
  return { visible: [...view.visible], count: view.count, fieldTotal: [...view.fieldTotal] };
}

describe('CorpusViews: a kept view patched with the documents changed since', () => {
  it('equals the view made afresh after every batch of adds, removes and access changes (seeded)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const index = new TermIndex();
      const views = new CorpusViews(() => index);
      // The access rule by key: a document's answer may change only when the document is added again (as an edit does).
      const allowedKeys = new Map<string, boolean>();
      const live = new Map<string, number>();
      const allow = (doc: number): boolean => allowedKeys.get(index.keyOf(doc) as string) === true;
      const text = (): string =>
        Array.from({ length: 1 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
      let patchedViews = 0;
      for (let step = 0; step < 40; step++) {
        const changes = 1 + Math.floor(random() * 6);
        for (let c = 0; c < changes; c++) {
          const key = `n${Math.floor(random() * 30)}`;
          const old = live.get(key);
          if (old !== undefined) {
            index.remove(old);
            views.changed(old);
            live.delete(key);
          }
          if (old === undefined || random() < 0.7) {
            allowedKeys.set(key, random() < 0.7);
            const doc = index.add(key, fields(key, text()));
            views.changed(doc);
            live.set(key, doc);
          }
        }
        const kept = views.of('caller', allow);
        if (step > 0) patchedViews++;
        expect(plain(kept)).toEqual(plain(index.view(allow)));
        expect(views.of('caller', allow)).toBe(kept);
      }
      expect(patchedViews).toBeGreaterThan(0);
    }
  });

  it('is made again, not patched, when a change was not reported or too many were', () => {
    const index = new TermIndex();
    const views = new CorpusViews(() => index);
    let allowed = true;
    const allow = (): boolean => allowed;
    views.changed(index.add('a', fields('a', 'alpha beta')));
    expect(views.of('caller', allow).count).toBe(1);
    // An add the views were not told of: the version moved by more than the changes reported.
    index.add('b', fields('b', 'gamma'));
    allowed = false;
    expect(plain(views.of('caller', allow))).toEqual(plain(index.view(allow)));
    allowed = true;
    views.of('caller', allow);
    for (let i = 0; i < 5000; i++) views.changed(index.add(`c${i}`, fields('c', 'delta')));
    const spied = jest.spyOn(index, 'patched');
    expect(plain(views.of('caller', allow))).toEqual(plain(index.view(allow)));
    expect(spied).not.toHaveBeenCalled();
    spied.mockRestore();
  });
});

describe('LexicalEngine: results over a kept view equal those over a view made afresh', () => {
  it('after notes are edited, hidden, shown again, moved out of a root and removed (seeded)', async () => {
    const random = seededRandom(7);
    const engine = new LexicalEngine();
    const texts = new Map<string, string>();
    /** Paths the caller may not read (an access rule in the note, or outside its roots): changed only with the note. */
    const hidden = new Set<string>();
    const put = (path: string, text: string, hide: boolean): void => {
      texts.set(path, text);
      if (hide) hidden.add(path);
      else hidden.delete(path);
      engine.add({ path, id: path, title: path, tags: [], frontmatter: {}, text, headings: [] });
    };
    const words = (): string =>
      Array.from({ length: 3 + Math.floor(random() * 20) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    for (let i = 0; i < 60; i++) put(`Root/n${i}.md`, words(), random() < 0.2);
    const load = (path: string): Promise<string> => Promise.resolve(texts.get(path) ?? '');
    const queries = ['alpha', 'alpha beta', 'gamma -delta', '"beta gamma"', 'eps', 'zeta OR theta'];
    const kept: CallerAccess = { key: 'kept', allow: (path) => path.startsWith('Root/') && !hidden.has(path) };
    let fresh = 0;
    const run = async (access: CallerAccess): Promise<unknown[]> =>
      Promise.all(queries.map(async (q) => engine.match(parseQuery(q), load, access, new RegexGuard(), 20))).then((results) =>
        results.map((r) => ({ total: r.total, matches: r.matches.map((m) => [m.note.path, m.score]) })),
      );
    for (let round = 0; round < 12; round++) {
      for (let c = 0; c < 4; c++) {
        const path = `Root/n${Math.floor(random() * 60)}.md`;
        const roll = random();
        if (roll < 0.15) {
          // Moved out of the root: the note goes from its path to one the caller may not read.
          engine.remove(path);
          texts.delete(path);
          put(path.replace('Root/', 'Out/'), words(), false);
        } else if (roll < 0.25) {
          engine.remove(path);
          texts.delete(path);
        } else put(path, words(), random() < 0.3);
      }
      const got = await run(kept);
      const want = await run({ key: `fresh${fresh++}`, allow: kept.allow });
      expect(got).toEqual(want);
      for (const result of got as { matches: [string, number][] }[])
        for (const [path] of result.matches) expect(kept.allow(path)).toBe(true);
    }
  });
});
