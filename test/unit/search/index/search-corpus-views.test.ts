import { CorpusViews } from '../../../../src/search/engine/corpus-views';
import { LexicalEngine, type CallerAccess } from '../../../../src/search/engine/lexical-engine';
import { TermIndex } from '../../../../src/search/engine/term-index';
import type { CorpusView } from '../../../../src/search/engine/corpus-view';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import { seededRandom } from '../../../harness/seeded-random';

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

describe("CorpusViews: a new caller's view derived from the base view (baseSteps, BaseNarrowing)", () => {
  /** A note as the access rules see it: whether the unrestricted scope reads it, and the labels a rule of its own closes it to (null: none). */
  interface Rules {
    open: boolean;
    closedTo: string[] | null;
  }
  const LABELS = ['Claude', 'Cursor'];
  const FOLDERS = ['A', 'B', 'A/Sub'];
  const SCOPES = [
    { label: 'Claude', roots: [] as string[] },
    { label: 'Cursor', roots: ['A'] },
    { label: 'Other', roots: ['B', 'A/Sub'] },
  ];
  const within = (path: string, roots: string[]): boolean => roots.length === 0 || roots.some((r) => path.startsWith(`${r}/`));

  /** An index of notes with rules, the access of a scope over it, and the base view made over every note. */
  function setUp(seed: number) {
    const random = seededRandom(seed);
    const index = new TermIndex();
    const views = new CorpusViews(() => index);
    const rules = new Map<string, Rules>();
    const docs = new Map<string, number>();
    const text = (): string =>
      Array.from({ length: 1 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    const put = (path: string): void => {
      const old = docs.get(path);
      if (old !== undefined) {
        index.remove(old);
        views.changed(old);
      }
      const byLabel = random() < 0.2;
      rules.set(path, { open: random() < 0.8, closedTo: byLabel ? LABELS.filter(() => random() < 0.5) : null });
      const doc = index.add(path, fields(path, text()));
      views.changed(doc);
      docs.set(path, doc);
    };
    const drop = (path: string): void => {
      const doc = docs.get(path);
      if (doc === undefined) return;
      index.remove(doc);
      views.changed(doc);
      docs.delete(path);
    };
    const path = (): string => `${FOLDERS[Math.floor(random() * FOLDERS.length)]}/n${Math.floor(random() * 40)}.md`;
    for (let i = 0; i < 60; i++) put(path());
    const allowOf =
      (scope: { label: string; roots: string[] }) =>
      (doc: number): boolean => {
        const key = index.keyOf(doc);
        const r = key === null ? undefined : rules.get(key);
        return r !== undefined && r.open && within(key as string, scope.roots) && !(r.closedTo ?? []).includes(scope.label);
      };
    return { random, index, views, rules, docs, put, drop, path, allowOf };
  }

  it('equals the view made afresh for keys with and without roots, by-label notes and notes changed since the base (seeded)', () => {
    let derived = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const { random, index, views, rules, docs, put, drop, path, allowOf } = setUp(seed);
      for (const step of views.baseSteps('base', allowOf({ label: '', roots: [] }))) void step;
      // The notes whose access may differ by label, as the build's scan listed them.
      const asked = [...rules].filter(([, r]) => r.closedTo !== null).map(([p]) => p);
      const changes = Math.floor(random() * 8);
      for (let c = 0; c < changes; c++)
        if (random() < 0.25) drop(path());
        else put(path());
      const made = jest.spyOn(index, 'view');
      SCOPES.forEach((scope, k) => {
        const allow = allowOf(scope);
        const narrowing = {
          base: 'base',
          keep: scope.roots.length === 0 ? null : (doc: number) => within(index.keyOf(doc) ?? '', scope.roots),
          asked: () => asked.map((p) => docs.get(p)).filter((d): d is number => d !== undefined),
        };
        const view = views.of(`caller${k}`, allow, narrowing);
        expect(plain(view)).toEqual(plain(index.view(allow)));
        derived++;
      });
      // Every view above was derived (the calls to `view` are the test's own).
      expect(made).toHaveBeenCalledTimes(SCOPES.length);
      made.mockRestore();
    }
    expect(derived).toBe(25 * SCOPES.length);
  });

  it('asks no note of a key without roots in a vault without by-label notes, and only the changed ones after changes', () => {
    const { index, views, docs, put } = setUp(3);
    for (const step of views.baseSteps('base', (doc) => index.keyOf(doc) !== null)) void step;
    const asked: number[] = [];
    const allow = (doc: number): boolean => {
      asked.push(doc);
      return index.keyOf(doc) !== null;
    };
    const narrowing = { base: 'base', keep: null, asked: () => [] };
    expect(plain(views.of('first', allow, narrowing))).toEqual(plain(index.view(() => true)));
    expect(asked).toEqual([]);
    put('A/new.md');
    asked.length = 0;
    expect(plain(views.of('second', allow, narrowing))).toEqual(plain(index.view((doc) => index.keyOf(doc) !== null)));
    expect(asked).toEqual([docs.get('A/new.md')]);
  });

  it('gives up a base view whose index changed during its steps, and drops it after too many changes or a clear', () => {
    const { index, views, put } = setUp(5);
    const all = (doc: number): boolean => index.keyOf(doc) !== null;
    const narrowing = { base: 'base', keep: null, asked: () => [] };
    // More notes than one step of the base view judges (BASE_STEP_DOCS).
    for (let i = 0; i < 9000; i++) put(`A/more${i}.md`);
    const made = jest.spyOn(index, 'view');
    // The base's steps see a note added between two of them: no base view is kept.
    let steps = 0;
    for (const step of views.baseSteps('base', all)) {
      void step;
      steps++;
      put('B/during.md');
    }
    expect(steps).toBe(1);
    views.of('a', all, narrowing);
    expect(made).toHaveBeenCalledTimes(1);
    // A base under another name is not taken.
    for (const step of views.baseSteps('base', all)) void step;
    views.of('b', all, { ...narrowing, base: 'other' });
    expect(made).toHaveBeenCalledTimes(2);
    views.of('c', all, narrowing);
    expect(made).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 5000; i++) put(`A/many${i}.md`);
    views.of('d', all, narrowing);
    expect(made).toHaveBeenCalledTimes(3);
    for (const step of views.baseSteps('base', all)) void step;
    views.clear();
    views.of('e', all, narrowing);
    expect(made).toHaveBeenCalledTimes(4);
    made.mockRestore();
  });
});
