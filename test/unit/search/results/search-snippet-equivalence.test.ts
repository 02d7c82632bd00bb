import { isSpace } from '../../../../src/search/engine/filters/phrase-filter';
import { displayText, fencesOf } from '../../../../src/search/results/snippet-display';
import { densestSpan } from '../../../../src/search/results/section-rank';
import type { Span } from '../../../../src/search/results/match-spans';
import { indexTerms, matchedTermSpans, normalizeTerm } from '../../../../src/search/engine/text/tokenizer';
import { termSpansIn } from '../../../../src/search/results/match-spans';
import { buildSnippet, marked, placeSnippet } from '../../../../src/search/results/snippet';
import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { positiveLeaves } from '../../../../src/search/query/query-eval';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import { buildOutline } from '../../../../src/vault/content/sections';

/**
 * The snippet's fast paths (char-code tests instead of a regex per character, fences cut at
 * the region shown, a moving fence pointer, each match's term computed once) give exactly
 * what the plain definitions give.
 */

/** A small seeded generator (LCG), so failures repeat. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PIECES = [
  'word ',
  'Get-Process ',
  '\n',
  '\n\n',
  '```\n',
  '```powershell\n',
  '~~~~\n',
  '````\n',
  '`code` ',
  '[[Link|alias]] ',
  'https://x.org/a ',
  '  ',
  '\t',
  '> quote ',
  '# Head\n',
  '**bold** ',
];

function body(next: () => number, pieces: number): string {
  let out = '';
  for (let k = 0; k < pieces; k++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

describe('snippet fast paths', () => {
  it("isSpace holds for exactly the UTF-16 code units JavaScript's \\s matches", () => {
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++) if (isSpace(code) !== /\s/.test(String.fromCharCode(code))) differ.push(code);
    expect(differ).toEqual([]);
  });

  it('fencesOf(body, until) is the blocks of fencesOf(body) that open before until, in order, not overlapping', () => {
    const next = random(7);
    for (let round = 0; round < 200; round++) {
      const text = body(next, 40);
      const all = fencesOf(text);
      for (let k = 1; k < all.length; k++) expect(all[k].start).toBeGreaterThanOrEqual(all[k - 1].end);
      for (let until = 0; until <= text.length; until += 7) expect(fencesOf(text, until)).toEqual(all.filter((f) => f.start < until));
    }
  });

  it('displayText over a region gives the same text with the fences cut at its end as with all of them', () => {
    const next = random(11);
    for (let round = 0; round < 200; round++) {
      const text = body(next, 60);
      const from = Math.floor(next() * text.length);
      const to = from + Math.floor(next() * (text.length - from + 1));
      expect(displayText(text, from, to, fencesOf(text, to))).toEqual(displayText(text, from, to, fencesOf(text)));
    }
  });

  it('displayText hides every fenced block a region crosses, however many come before it', () => {
    const text = 'a\n```\none\n```\nb\n~~~\ntwo\n~~~\nc `x` d\n```\nthree\n```\ne';
    const shown = displayText(text, 0, text.length, fencesOf(text));
    expect(shown.text).toBe('a one b two c `x` d three e');
    const neverMarked = shown.text.split('').filter((_, k) => shown.atom[k] < 0);
    expect(neverMarked.join('')).toBe('one two three ');
  });

  it('densestSpan picks the span a plain window count picks', () => {
    const next = random(3);
    const words = ['alpha', 'Beta', 'gamma', 'ALPHA', 'beta'];
    for (let round = 0; round < 300; round++) {
      let text = '';
      const spans: Span[] = [];
      for (let k = 0; k < 30; k++) {
        text += ' '.repeat(Math.floor(next() * 40));
        const word = words[Math.floor(next() * words.length)];
        spans.push({ start: text.length, end: text.length + word.length });
        text += word;
      }
      const width = 20 + Math.floor(next() * 200);
      expect(densestSpan(text, spans, width)).toBe(plainDensest(text, spans, width));
    }
    expect(densestSpan('', [], 160)).toBeUndefined();
  });
});

describe('termSpansIn (mostly-ASCII notes line by line)', () => {
  const WORDS = ['Get', 'process', 'café', 'Über', 'naïve', '日本語', '—', 'x—y', 'key2', 'KEY', 'ｋｅｙ', '😀', 'process_id', 'é', 'cafe'];
  it('gives the spans matchedTermSpans gives on the whole body', () => {
    const next = random(5);
    for (let round = 0; round < 400; round++) {
      let text = '';
      for (let k = 0; k < 30; k++) text += WORDS[Math.floor(next() * WORDS.length)] + (next() < 0.2 ? '\n' : next() < 0.5 ? ' ' : '-');
      const all = [...new Set(indexTerms(text))];
      const terms = new Set(all.filter(() => next() < 0.4));
      const plain = matchedTermSpans(text, terms).map((t) => ({ start: t.start, end: t.end }));
      expect(termSpansIn(text, terms)).toEqual(plain);
    }
  });

  it('finds nothing for no terms and handles text without a line break or a non-ASCII unit', () => {
    expect(termSpansIn('café key', new Set())).toEqual([]);
    expect(termSpansIn('key café key', new Set(['key']))).toEqual([
      { start: 0, end: 3 },
      { start: 9, end: 12 },
    ]);
    expect(termSpansIn('a key\nkey', new Set(['key']))).toEqual([
      { start: 2, end: 5 },
      { start: 6, end: 9 },
    ]);
  });
});

describe('placeSnippet (a page without snippets)', () => {
  it('gives the section and match offset buildSnippet gives, with or without a body match', () => {
    const text = '---\ntitle: x\n---\nIntro.\n# Alpha\nalpha text\n## Beta\nbeta and alpha and beta\n';
    const headings = [
      { heading: 'Alpha', level: 1, position: { start: { line: 4, col: 0, offset: text.indexOf('# Alpha') } } },
      { heading: 'Beta', level: 2, position: { start: { line: 6, col: 0, offset: text.indexOf('## Beta') } } },
    ];
    const outline = buildOutline(headings as never, text.length);
    for (const query of ['beta', 'alpha beta', 'nothing', '"and alpha"']) {
      const leaves = positiveLeaves(parseQuery(query));
      const terms = new Set(query.split(' ').filter((w) => text.includes(w)));
      const full = buildSnippet(text, leaves, terms, new RegexGuard(), outline);
      const place = placeSnippet(text, leaves, terms, new RegexGuard(), outline);
      expect({ section: place.section, matchOffset: place.matchOffset }).toEqual({ section: full.section, matchOffset: full.matchOffset });
    }
    expect(placeSnippet(text, positiveLeaves(parseQuery('beta')), new Set(['beta']), new RegexGuard(), outline).section?.heading).toBe(
      'Beta',
    );
  });
});

/** densestSpan's definition, spelled out: the first span starting the window with the most distinct terms. */
function plainDensest(text: string, spans: Span[], width: number): Span | undefined {
  let best: Span | undefined;
  let count = 0;
  for (const span of spans) {
    const inWindow = spans.filter((s) => s.start >= span.start && s.start < span.start + width);
    const distinct = new Set(inWindow.map((s) => normalizeTerm(text.slice(s.start, s.end)))).size;
    if (distinct > count) {
      count = distinct;
      best = span;
    }
  }
  return best;
}

describe('marked (the snippet window with its matches in **)', () => {
  /** The definition: one character at a time. */
  function plainMarked(text: string, mask: readonly boolean[], start: number, end: number): string {
    let out = '';
    let k = start;
    while (k < end) {
      if (!mask[k] || text[k] === ' ') {
        out += text[k++];
        continue;
      }
      let j = k;
      while (j < end && mask[j]) j++;
      let last = j;
      while (last > k && text[last - 1] === ' ') last--;
      out += `**${text.slice(k, last)}**${text.slice(last, j)}`;
      k = j;
    }
    return out;
  }

  it('copies unmarked stretches whole and gives what one character at a time gives', () => {
    const next = random(11);
    for (let round = 0; round < 2000; round++) {
      const n = Math.floor(next() * 30);
      const text = Array.from({ length: n }, () => 'ab `é'[Math.floor(next() * 5)]).join('');
      const mask = Array.from({ length: n }, () => next() < 0.4);
      const start = Math.floor(next() * (n + 1));
      const end = start + Math.floor(next() * (n - start + 1));
      const display = { text, src: [], atom: [], links: [] };
      expect(marked(display, mask, start, end)).toBe(plainMarked(text, mask, start, end));
    }
  });
});
