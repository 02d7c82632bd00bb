import { TermDictionary } from '../../../../src/search/engine/postings/term-dictionary';
import { LexicalEngine } from '../../../../src/search/engine/lexical-engine';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import { seededRandom } from '../../../harness/seeded-random';

const LETTERS = ['a', 'b', 'c', 'ab', 'é', 'e\u0301', 'z', '0', 'Ω', 'ß'];

/** `count` distinct made-up terms (seeded), some sharing long prefixes, some not ASCII. */
function terms(random: () => number, count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) {
    let t = '';
    const n = 1 + Math.floor(random() * 6);
    for (let i = 0; i < n; i++) t += LETTERS[Math.floor(random() * LETTERS.length)];
    out.add(t);
  }
  return [...out];
}

/** Every prefix lookup the test asks, as term lists in the order the dictionary gives them. */
function lookups(dict: TermDictionary, prefixes: string[]): string[][] {
  return prefixes.map((p) => dict.withPrefix(p).map((id) => dict.term(id)));
}

const PREFIXES = ['', 'a', 'ab', 'b', 'é', 'e', 'z0', 'Ω', 'ßa', 'q'];

describe('TermDictionary.sortSteps: the sorted view made ahead of the first prefix lookup', () => {
  it('gives the lookups of a dictionary that sorts at its first lookup, in the same order (seeded)', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const list = terms(seededRandom(seed), 9000 + seed * 4000);
      const ahead = new TermDictionary();
      const atLookup = new TermDictionary();
      for (const t of list) {
        ahead.intern(t);
        atLookup.intern(t);
      }
      let steps = 0;
      for (const step of ahead.sortSteps()) steps += step === undefined ? 1 : 0;
      expect(steps).toBeGreaterThan(1);
      expect(lookups(ahead, PREFIXES)).toEqual(lookups(atLookup, PREFIXES));
    }
  });

  it('keeps the terms added while it runs, and gives up when a lookup sorts meanwhile', () => {
    const random = seededRandom(11);
    const list = terms(random, 20000);
    const dict = new TermDictionary();
    const reference = new TermDictionary();
    for (const t of list.slice(0, 19000)) {
      dict.intern(t);
      reference.intern(t);
    }
    const steps = dict.sortSteps();
    steps.next();
    for (const t of list.slice(19000, 19050)) {
      dict.intern(t);
      reference.intern(t);
    }
    for (let next = steps.next(); next.done !== true; next = steps.next());
    const sorted = (d: TermDictionary, p: string): string[] => lookups(d, [p])[0].sort();
    for (const p of PREFIXES) expect(sorted(dict, p)).toEqual(sorted(reference, p));
    // A lookup between two steps folds every term itself: the steps leave its view as it is.
    const other = new TermDictionary();
    for (const t of list) other.intern(t);
    const again = other.sortSteps();
    again.next();
    const seen = lookups(other, PREFIXES);
    for (let next = again.next(); next.done !== true; next = again.next());
    expect(lookups(other, PREFIXES)).toEqual(seen);
  });
});

describe('LexicalEngine.rankingSteps: the tag table listed ahead of the first tag: query', () => {
  it('answers tag: queries as an engine that lists its tags at the query', async () => {
    const random = seededRandom(3);
    const tags = ['alpha', 'alpha/beta', 'gamma', 'delta'];
    const ahead = new LexicalEngine();
    const atQuery = new LexicalEngine();
    for (let i = 0; i < 300; i++) {
      const note = {
        path: `n${i}.md`,
        id: `n${i}`,
        title: `n${i}`,
        tags: tags.filter(() => random() < 0.3),
        frontmatter: {},
        text: 'word',
        headings: [],
      };
      ahead.add(note);
      atQuery.add(note);
    }
    for (const step of ahead.rankingSteps()) void step;
    const all = { key: 'all', allow: () => true };
    for (const q of ['tag:alpha', 'tag:#alpha/beta', 'tag:gamma word', '-tag:delta tag:gamma']) {
      const want = await atQuery.match(parseQuery(q), () => Promise.resolve(''), all, new RegexGuard());
      const got = await ahead.match(parseQuery(q), () => Promise.resolve(''), all, new RegexGuard());
      expect(got.total).toBe(want.total);
      expect(got.matches.map((m) => [m.note.path, m.score])).toEqual(want.matches.map((m) => [m.note.path, m.score]));
    }
  });
});
