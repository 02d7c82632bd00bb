import { LexicalEngine, type EngineResult, type IndexedNote } from '../../../../src/search/engine/lexical-engine';
import { isStopWord, stemOf } from '../../../../src/search/engine/text/stemming';
import { TITLE_MATCH, titleFactor } from '../../../../src/search/engine/ranked/ranked-search';
import { kthLargest, bestFirst, LargestValues, TopCandidates } from '../../../../src/search/engine/ranked/top-k';
import { TitleStemTable } from '../../../../src/search/engine/ranked/title-stems';
import { queryTerms } from '../../../../src/search/engine/text/tokenizer';
import { positiveLeaves } from '../../../../src/search/query/query-eval';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import { buildSnippet } from '../../../../src/search/results/snippet';

/**
 * Ranked retrieval of plain words (ranked-search.ts) and stemming (stemming.ts), on the engine
 * fed plain notes: tier (every term first), field weights, idf coordination, stop words,
 * stems and where they do not apply (filters, phrases, CJK).
 */

function note(path: string, text: string, extra: Partial<IndexedNote> = {}): IndexedNote {
  return {
    path,
    id: `path:${path}`,
    title: path.replace(/^.*\//, '').replace(/\.md$/, ''),
    tags: [],
    frontmatter: {},
    text,
    headings: [],
    ...extra,
  };
}

function engineOf(notes: IndexedNote[]): LexicalEngine {
  const engine = new LexicalEngine();
  for (const n of notes) engine.add(n);
  return engine;
}

const texts = (notes: IndexedNote[]): Map<string, string> => new Map(notes.map((n) => [n.path, n.text]));

async function run(engine: LexicalEngine, q: string, notes: IndexedNote[] = []): Promise<EngineResult> {
  const byPath = texts(notes);
  return engine.match(parseQuery(q), async (p) => byPath.get(p) ?? '', { key: 'all', allow: () => true }, new RegexGuard());
}

const order = async (engine: LexicalEngine, q: string, notes: IndexedNote[] = []): Promise<string[]> =>
  (await run(engine, q, notes)).matches.map((m) => m.note.path);

describe('ranked retrieval of plain words', () => {
  it('puts notes holding every word above notes holding some, however often those repeat one word', async () => {
    const notes = [
      note('One.md', `${'canvas '.repeat(30)}board`),
      note('Both.md', 'A long note about many things, with one canvas and, far later, a budget line, and more words after it.'),
      note('Other.md', 'budget only'),
      note('None.md', 'nothing relevant'),
    ];
    const result = await run(engineOf(notes), 'canvas budget');
    expect(result.matches.map((m) => m.note.path)).toEqual(['Both.md', 'One.md', 'Other.md']);
    expect(result.matches.map((m) => [m.allTerms, m.missing])).toEqual([
      [true, []],
      [false, ['budget']],
      [false, ['canvas']],
    ]);
    expect(result.matches[1].score).toBeGreaterThan(0);
    expect(result).toMatchObject({ total: 3, ranked: { terms: ['canvas', 'budget'], ignored: [], allTerms: 1 } });
  });

  it('among partial matches, missing a common word costs less than missing a rare one (coordination by idf)', async () => {
    const filler = Array.from({ length: 8 }, (_, i) => note(`F${i}.md`, 'the garden is green'));
    const notes = [...filler, note('HasRare.md', 'orchid seeds'), note('HasCommon.md', 'garden seeds')];
    expect((await order(engineOf(notes), 'orchid garden')).slice(0, 2)).toEqual(['HasRare.md', 'HasCommon.md']);
  });

  it.each([
    ['title', { title: 'Selective sync' }],
    ['aliases', { frontmatter: { aliases: ['Selective sync'] } }],
    ['headings', { headings: ['Selective sync'], text: '## Selective sync\n\nSome words here to fill the note up.' }],
    ['tags', { tags: ['selective', 'sync'] }],
  ])('weights a word in the %s above the same word in the body', async (_field, extra) => {
    const body = 'Some words here to fill the note up, selective sync.';
    const notes = [
      note('Body.md', body),
      note('Field.md', 'Some words here to fill the note up.', extra as Partial<IndexedNote>),
      note('Filler.md', 'unrelated words'),
    ];
    expect(await order(engineOf(notes), 'selective sync')).toEqual(['Field.md', 'Body.md']);
  });

  it('ranks the note whose whole title the query names above notes whose title it only partly names', async () => {
    const notes = [
      note(
        'Show-NetFirewallRule.md',
        'Shows rules. See New-NetFirewallRule, Copy-NetFirewallRule, Set-NetFirewallRule; new ones with New-NetFirewallRule.',
      ),
      note(
        'New-NetFirewallRule.md',
        `Creates an inbound or outbound firewall rule. ${'Parameter text about ports, programs and profiles. '.repeat(40)}`,
      ),
      note('Filler.md', 'other text'),
    ];
    expect(await order(engineOf(notes), 'New-NetFirewallRule')).toEqual(['New-NetFirewallRule.md', 'Show-NetFirewallRule.md']);
    // The title's stop words need not be asked for ("Sync your notes" is named by "sync notes").
    const sync = [
      note('Sync your notes.md', 'Sync notes between devices with notes and more notes, sync.'),
      note('Long.md', `${'sync notes '.repeat(6)}and many other words`),
    ];
    expect((await order(engineOf(sync), 'sync notes'))[0]).toBe('Sync your notes.md');
  });

  it('gives a wholly named title little when it names a small share of the query (an overview titled with one query word)', async () => {
    expect(titleFactor(1)).toBe(TITLE_MATCH);
    expect(titleFactor(0)).toBe(1);
    // Squared share: "Defender" naming 0.45 of "start a Windows Defender scan" gains 1.2, not 1.45.
    expect(titleFactor(0.45)).toBeCloseTo(1.2025, 4);
    expect(() => titleFactor(1.5)).toThrow(/within 0…1/);
    expect(() => titleFactor(Number.NaN)).toThrow(/within 0…1/);
    // Same body: the note whose title names the whole query ranks above the one naming part of it.
    const body = 'start a defender scan of the disk';
    const notes = [
      note('Defender.md', body),
      note('Defender Scan.md', body),
      note('Filler.md', 'other words'),
      note('Filler2.md', 'more words'),
    ];
    expect((await order(engineOf(notes), 'defender scan')).slice(0, 2)).toEqual(['Defender Scan.md', 'Defender.md']);
  });

  it('keeps other frontmatter values below the body, and aliases out of them', async () => {
    const notes = [note('Prop.md', 'text', { frontmatter: { description: 'refund policy' } }), note('Body.md', 'text refund policy')];
    expect(await order(engineOf(notes), 'refund policy')).toEqual(['Body.md', 'Prop.md']);
  });

  it('leaves English stop words out when the query has other words, and says which', async () => {
    const notes = [
      note('Sync.md', 'Selective sync lets you choose folders.'),
      note('Stop.md', 'How do I get to my phone? However, from here to there.'),
      note('Phone.md', 'Mobile phone app.'),
    ];
    const result = await run(engineOf(notes), 'how do I stop some folders from syncing to my phone');
    expect(result.ranked).toEqual({
      terms: ['stop', 'folders', 'syncing', 'phone'],
      ignored: ['how', 'do', 'i', 'some', 'from', 'to', 'my'],
      allTerms: 0,
    });
    expect(new Set(result.matches.map((m) => m.note.path))).toEqual(new Set(['Sync.md', 'Stop.md', 'Phone.md']));
    // "how" neither counts nor expands: a note with only "however" and stop words is not a match.
    expect(await order(engineOf([note('However.md', 'However, it is so.'), note('Sync.md', 'sync')]), 'how to sync')).toEqual(['Sync.md']);
    // A query of stop words only is searched as written.
    expect(await order(engineOf(notes), 'how')).toEqual(['Stop.md']);
    // A hyphenated word keeps all its parts.
    expect((await run(engineOf(notes), 'how-to')).ranked?.terms).toEqual(['how', 'to']);
  });

  it('expands whole words by stem, and only a word no note holds by prefix or typo', async () => {
    const notes = [note('Canvas.md', 'canvases and a canvas'), note('Synchronize.md', 'synchronize now'), note('Sync.md', 'sync now')];
    const engine = engineOf(notes);
    expect(await order(engine, 'sync')).toEqual(['Sync.md']);
    expect(await order(engine, 'canv')).toEqual(['Canvas.md']);
    expect(await order(engine, 'synchronise')).toEqual(['Synchronize.md']);
  });

  it('returns only the best few when asked, with the same total and order', async () => {
    const notes = Array.from({ length: 40 }, (_, i) =>
      note(`N${String(i).padStart(2, '0')}.md`, `${'word '.repeat(i)}apple${i % 3 === 0 ? ' pear' : ''}`),
    );
    const engine = engineOf(notes);
    const all = await run(engine, 'apple pear');
    const top = await engine.match(parseQuery('apple pear'), async () => '', { key: 'all', allow: () => true }, new RegexGuard(), 4);
    expect(top.total).toBe(40);
    expect(top.matches.map((m) => m.note.path)).toEqual(all.matches.slice(0, 4).map((m) => m.note.path));
    expect(all.matches.slice(0, 14).every((m) => m.allTerms)).toBe(true);
  });
});

describe('stemming', () => {
  const notes = [
    note('Sync.md', 'Turn sync on for each device.'),
    note('Snap.md', 'A snapshot is kept for days.'),
    note('Syncing.md', 'Syncing takes a while.'),
  ];
  const engine = engineOf(notes);

  it('finds other forms of English words in ranked queries (syncing ↔ sync, snapshots ↔ snapshot)', async () => {
    expect(await order(engine, 'syncing')).toEqual(['Syncing.md', 'Sync.md']);
    expect(await order(engine, 'sync')).toEqual(['Sync.md', 'Syncing.md']);
    expect(await order(engine, 'snapshots')).toEqual(['Snap.md']);
  });

  it('does not stem in a filter (any operator), and a phrase still checks the literal text', async () => {
    expect(await order(engine, 'syncing -zzz', notes)).toEqual(['Syncing.md']);
    expect(await order(engine, 'snapshotting')).toEqual(['Snap.md']);
    expect(await order(engine, 'snapshotting path:Snap', notes)).toEqual([]);
    expect(await order(engine, '"snapshots"', notes)).toEqual([]);
    expect(await order(engine, '"a snapshot"', notes)).toEqual(['Snap.md']);
  });

  it('highlights the stemmed forms the note holds', async () => {
    const [hit] = (await run(engine, 'snapshots')).matches;
    expect(hit.terms).toEqual(new Set(['snapshot']));
    const snippet = buildSnippet(notes[1].text, positiveLeaves(parseQuery('snapshots')), hit.terms, new RegexGuard());
    expect(snippet.text).toContain('**snapshot**');
  });

  it('stems Latin-letter words only: digits, other scripts and CJK keep their form', async () => {
    expect(stemOf('syncing')).toBe('sync');
    expect(stemOf('policies')).toBe(stemOf('policy'));
    expect(stemOf('win32')).toBe('win32');
    expect(stemOf('λόγοι')).toBe('λόγοι');
    expect(stemOf('日本')).toBe('日本');
    expect(stemOf('is')).toBe('is');
    expect(isStopWord('how')).toBe(true);
    expect(isStopWord('sync')).toBe(false);
    const cjk = [note('Ja.md', '今日は日本語の検索をテストしました。'), note('Mixed.md', '日本の人。本語り。')];
    const result = await run(engineOf(cjk), '日本語', cjk);
    // A CJK word is checked like a phrase on the text (a filter, not ranked): only the adjacent characters match.
    expect(result.matches.map((m) => m.note.path)).toEqual(['Ja.md']);
    expect(result.ranked).toBeNull();
  });
});

describe('top-k selection', () => {
  it('finds the k-th largest value and puts the best k first in order', () => {
    expect(kthLargest([5, 1, 4, 4, 9, 2], 1)).toBe(9);
    expect(kthLargest([5, 1, 4, 4, 9, 2], 3)).toBe(4);
    expect(kthLargest([5, 1, 4, 4, 9, 2], 6)).toBe(1);
    expect(kthLargest([5, 1], 3)).toBe(-Infinity);
    const items = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    const best = bestFirst(
      items.slice(),
      5,
      (x) => x,
      (a, b) => b - a,
    );
    expect(best.slice(0, 5)).toEqual([99, 98, 97, 96, 95]);
    expect(best).toHaveLength(100);
  });

  it('puts the best k first when most items tie on the key (ordered by the full comparison), keeping every item', () => {
    const names = Array.from({ length: 300 }, (_, i) => ({
      key: i % 50 === 0 ? 1 : 0,
      name: `n${String((i * 71) % 300).padStart(3, '0')}`,
    }));
    const order = (a: (typeof names)[number], b: (typeof names)[number]): number =>
      b.key - a.key || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const expected = [...names].sort(order);
    for (const k of [1, 4, 6, 20]) {
      const best = bestFirst(names.slice(), k, (x) => x.key, order);
      expect(best.slice(0, k)).toEqual(expected.slice(0, k));
      expect([...best].sort(order)).toEqual(expected);
    }
  });

  it('keeps the k largest of a stream (LargestValues), ties and all, and refuses a k below 1', () => {
    let seed = 11;
    const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (const k of [1, 2, 7, 50]) {
      const values = Array.from({ length: 200 }, () => Math.floor(random() * 40) / 4);
      const largest = new LargestValues(k);
      values.forEach((v) => largest.offer(v));
      expect(largest.nth(k)).toBe([...values].sort((a, b) => b - a)[k - 1]);
    }
    const few = new LargestValues(3);
    few.offer(1);
    expect(few.nth(3)).toBe(-Infinity);
    expect(() => new LargestValues(0)).toThrow(/k must be a whole number/);
  });

  it('gives the j-th largest of a stream for any j up to k (LargestValues.nth), and refuses a j outside 1…k', () => {
    let seed = 5;
    const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const values = Array.from({ length: 300 }, () => Math.floor(random() * 60) / 4);
    const sorted = [...values].sort((a, b) => b - a);
    const largest = new LargestValues(20);
    values.forEach((v) => largest.offer(v));
    for (const j of [1, 2, 7, 19, 20]) expect(largest.nth(j)).toBe(sorted[j - 1]);
    const few = new LargestValues(5);
    few.offer(3);
    few.offer(1);
    expect([few.nth(1), few.nth(2), few.nth(3)]).toEqual([3, 1, -Infinity]);
    expect(() => few.nth(6)).toThrow(/j must be a whole number from 1 to 5/);
  });

  it('keeps as candidates every item valued at least the j-th largest of a stream (TopCandidates), ties included', () => {
    let seed = 3;
    const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (const k of [1, 3, 20]) {
      // Few distinct values, so the j-th largest ties with many items.
      const values = Array.from({ length: 500 }, () => Math.floor(random() * 12));
      const top = new TopCandidates(k);
      values.forEach((v, item) => top.offer(item, v));
      const sorted = [...values].sort((a, b) => b - a);
      for (let j = 1; j <= k; j++) {
        const floor = top.floor(j);
        expect(floor).toBe(sorted[j - 1]);
        const wanted = values.flatMap((v, item) => (v >= floor ? [item] : []));
        expect(top.items.filter((item) => values[item] >= floor)).toEqual(wanted);
      }
      expect(top.items.length).toBeLessThan(values.length);
    }
    const all = new TopCandidates(Infinity);
    [4, 2, 9].forEach((v, item) => all.offer(item, v));
    expect(all.items).toEqual([0, 1, 2]);
    expect(all.floor(3)).toBe(-Infinity);
    expect(() => all.floor(2)).toThrow(/k is Infinity/);
  });
});

describe('best few of a ranked query', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta'];
  let seed = 7;
  const random = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pick = (): string => words[Math.floor(random() * random() * words.length)];
  const notes = Array.from({ length: 120 }, (_, i) => {
    const titleWords = Array.from({ length: 1 + Math.floor(random() * 2) }, pick);
    const body = Array.from({ length: 3 + Math.floor(random() * 30) }, pick).join(' ');
    // Some notes share a title and body, so equal scores are ordered by path.
    const twin = i % 17 === 0 && i > 0;
    return note(`F${i % 5}/N${String(i).padStart(3, '0')}.md`, twin ? 'alpha beta' : body, {
      title: twin ? 'Alpha' : titleWords.join(' '),
    });
  });
  const engine = engineOf(notes);
  const queries = ['alpha', 'beta gamma', 'alpha omega theta', 'kappa sigma', 'alpha beta', 'delta theta omega kappa'];

  it('returns, for any k, the first k of the whole order (tier, score descending, path ascending), with the same counts', async () => {
    for (const q of queries) {
      const all = await run(engine, q);
      const keys = all.matches.map((m) => [m.allTerms === true ? 1 : 0, m.score, m.note.path] as const);
      const sorted = [...keys].sort((a, b) => b[0] - a[0] || b[1] - a[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
      expect(keys).toEqual(sorted);
      expect(all.matches).toHaveLength(all.total);
      for (const k of [1, 2, 5, 13, 40]) {
        const top = await engine.match(parseQuery(q), async () => '', { key: 'all', allow: () => true }, new RegexGuard(), k);
        expect(top.total).toBe(all.total);
        expect(top.ranked).toEqual(all.ranked);
        expect(top.matches.map((m) => [m.note.path, m.score, m.allTerms, m.missing])).toEqual(
          all.matches.slice(0, k).map((m) => [m.note.path, m.score, m.allTerms, m.missing]),
        );
      }
    }
  });

  it('gives, on random corpora and for any k (around the all-terms count too), the first k of the exhaustive order', async () => {
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'];
    for (let corpus = 0; corpus < 8; corpus++) {
      const size = 20 + Math.floor(random() * 80);
      const word = (): string => vocabulary[Math.floor(random() * random() * vocabulary.length)];
      const made = Array.from({ length: size }, (_, i) =>
        note(`C${corpus}/N${String(i).padStart(3, '0')}.md`, Array.from({ length: 1 + Math.floor(random() * 12) }, word).join(' '), {
          title: Array.from({ length: 1 + Math.floor(random() * 2) }, word).join(' '),
        }),
      );
      const local = engineOf(made);
      for (const q of ['alpha', 'alpha beta', 'gamma delta', 'beta omega sigma', 'alpha beta gamma delta']) {
        const all = await run(local, q);
        const allTerms = all.ranked?.allTerms ?? 0;
        for (const k of [1, 2, 3, 7, allTerms - 1, allTerms, allTerms + 1, allTerms + 5]) {
          if (k < 1) continue;
          const top = await local.match(parseQuery(q), async () => '', { key: 'all', allow: () => true }, new RegexGuard(), k);
          expect([top.total, top.ranked]).toEqual([all.total, all.ranked]);
          expect(top.matches.map((m) => [m.note.path, m.score, m.allTerms, m.missing])).toEqual(
            all.matches.slice(0, k).map((m) => [m.note.path, m.score, m.allTerms, m.missing]),
          );
        }
      }
    }
  });

  it('scores the same after notes are removed and re-added (doc ids grow; titles follow the new ids)', async () => {
    const before = await run(engine, 'alpha omega');
    const changed = notes[3];
    engine.remove(changed.path);
    expect((await run(engine, 'alpha omega')).matches.some((m) => m.note.path === changed.path)).toBe(false);
    engine.add(changed);
    const after = await run(engine, 'alpha omega');
    expect(after.matches.map((m) => [m.note.path, m.score])).toEqual(before.matches.map((m) => [m.note.path, m.score]));
  });
});

describe('filter queries over part of the vault', () => {
  it("match, for a caller who may read some notes, exactly the readable ones among everyone's matches, reading no other note", async () => {
    const notes = ['alpha beta gamma', 'alpha gamma', 'beta gamma alpha', 'alpha beta', 'gamma', 'beta alpha beta'].flatMap((text, i) => [
      note(`A/N${i}.md`, text),
      note(`B/N${i}.md`, text),
    ]);
    const engine = engineOf(notes);
    const byPath = texts(notes);
    const readable = (p: string): boolean => p.startsWith('A/');
    for (const q of ['alpha -beta', '"alpha beta"', 'alpha OR gamma', 'gamma -"beta alpha"', 'path:N1 OR beta']) {
      const everyone = await engine.match(
        parseQuery(q),
        async (p) => byPath.get(p) ?? '',
        { key: 'all', allow: () => true },
        new RegexGuard(),
      );
      const read: string[] = [];
      const some = await engine.match(
        parseQuery(q),
        async (p) => {
          read.push(p);
          return byPath.get(p) ?? '';
        },
        { key: 'A', allow: readable },
        new RegexGuard(),
      );
      const paths = (r: EngineResult): string[] => r.matches.map((m) => m.note.path).sort();
      expect(paths(some)).toEqual(paths(everyone).filter(readable));
      expect(some.total).toBe(some.matches.length);
      expect(read.every(readable)).toBe(true);
    }
  });
});

describe('title stem table', () => {
  it('gives each title its stems by id in doc order, none for a removed doc id, and -1 for a stem no title has', () => {
    const titles = ['Syncing notes', undefined, 'The notes', 'How to'];
    const table = new TitleStemTable((doc) => titles[doc]);
    table.cover(2);
    table.cover(4);
    const stemsOf = (doc: number): number[] => [...table.stems.subarray(table.offsets[doc], table.offsets[doc + 1])];
    expect(stemsOf(0)).toEqual([table.idOf('sync'), table.idOf('note')]);
    expect(stemsOf(1)).toEqual([]);
    expect(stemsOf(2)).toEqual([table.idOf('note')]);
    expect(stemsOf(3)).toEqual([]);
    expect(table.idOf('absent')).toBe(-1);
  });

  it("names the distinct stems of each title's informative words in first-appearance order, covered in steps with one memo or at once", () => {
    const words = ['Syncing', 'syncs', 'the', 'notes', 'Note', 'how', 'déjà', 'win32', '日本語', 'devices', 'a', 'running', 'runs', 'of'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const titles = Array.from({ length: 600 }, (_, i) =>
      i % 97 === 0 ? undefined : Array.from({ length: 1 + next(6) }, () => words[next(words.length)]).join(next(3) === 0 ? '-' : ' '),
    );
    // The definition: the query tokenizer's terms, stop words out, stemmed, each stem once.
    const definition = (title: string | undefined): string[] =>
      title === undefined
        ? []
        : [
            ...new Set(
              queryTerms(title)
                .filter((t) => !isStopWord(t))
                .map(stemOf),
            ),
          ];
    const stepped = new TitleStemTable((doc) => titles[doc]);
    const memo = new Map<string, string>();
    for (let n = 50; n < titles.length + 50; n += 50) stepped.cover(Math.min(n, titles.length), memo);
    const once = new TitleStemTable((doc) => titles[doc]);
    once.cover(titles.length);
    for (const table of [stepped, once]) {
      const stemsOf = (doc: number): number[] => [...table.stems.subarray(table.offsets[doc], table.offsets[doc + 1])];
      titles.forEach((title, doc) => expect(stemsOf(doc)).toEqual(definition(title).map((s) => table.idOf(s))));
    }
    expect(memo.size).toBeGreaterThan(0);
  });
});

describe('ranking work done ahead (LexicalEngine.rankingSteps, run after a build has made the index complete)', () => {
  it('answers a ranked query made between two of its steps as without them, and the steps go on after it', async () => {
    const notes = Array.from({ length: 1200 }, (_, i) =>
      note(`n${i}.md`, `syncing device word${i} ${i % 5 === 0 ? 'snapshots' : ''}`, {
        title: `Syncing t${i} ${i % 4 === 0 ? 'device' : ''}`,
      }),
    );
    const ahead = engineOf(notes);
    const lazy = engineOf(notes);
    const queries = ['sync', 'syncing snapshots', 'device t40', 'word17 synced'];
    const steps = ahead.rankingSteps();
    let taken = 0;
    for (let i = 0; i < 3 && steps.next().done !== true; i++) taken++;
    expect(taken).toBe(3);
    for (const q of queries)
      expect((await run(ahead, q)).matches.map((m) => [m.note.path, m.score])).toEqual(
        (await run(lazy, q)).matches.map((m) => [m.note.path, m.score]),
      );
    while (steps.next().done !== true) taken++;
    for (const q of queries)
      expect((await run(ahead, q)).matches.map((m) => [m.note.path, m.score])).toEqual(
        (await run(lazy, q)).matches.map((m) => [m.note.path, m.score]),
      );
  });

  it('stems the dictionary and the titles in steps, after which every ranked query answers as without it', async () => {
    const notes = Array.from({ length: 2500 }, (_, i) =>
      note(`n${i}.md`, `syncing device ${i % 7 === 0 ? 'snapshots' : 'notes'} word${i} ${i % 3 === 0 ? 'synced' : ''}`, {
        title: `Syncing note ${i % 11 === 0 ? 'snapshots' : 'device'} t${i}`,
      }),
    );
    const ahead = engineOf(notes);
    let steps = 0;
    for (const step of ahead.rankingSteps()) {
      void step;
      steps++;
    }
    // 2,500 titles at 1,000 a step and over 2,500 terms at 2,000 a step: the work is cut up, not done in one go.
    expect(steps).toBeGreaterThanOrEqual(3);
    const lazy = engineOf(notes);
    for (const q of ['sync', 'syncing snapshots', 'device t42', 'snapshot note', 'word17 synced']) {
      const [a, b] = [await run(ahead, q), await run(lazy, q)];
      expect(a.matches.map((m) => [m.note.path, m.score])).toEqual(b.matches.map((m) => [m.note.path, m.score]));
      expect(a.total).toBe(b.total);
      expect(a.matches.length).toBeGreaterThan(0);
    }
    // Notes added after the steps are ranked as well: the queries cover what the steps did not.
    ahead.add(note('late.md', 'syncing late', { title: 'Syncing late' }));
    lazy.add(note('late.md', 'syncing late', { title: 'Syncing late' }));
    expect((await run(ahead, 'syncing late')).matches.map((m) => [m.note.path, m.score])).toEqual(
      (await run(lazy, 'syncing late')).matches.map((m) => [m.note.path, m.score]),
    );
    expect((await run(ahead, 'syncing late')).matches[0].note.path).toBe('late.md');
  });
});
