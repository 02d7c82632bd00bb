import { isSpace } from '../../../../src/search/engine/filters/phrase-filter';
import type { Span } from '../../../../src/search/results/match-spans';
import { marked, snippetText } from '../../../../src/search/results/snippet';
import { displayText, fencesOf, highlightMask, type DisplayText } from '../../../../src/search/results/snippet-display';
import { seededRandom } from '../../../harness/seeded-random';

/**
 * The snippet builds its display text over a region near the match first and falls back to the
 * whole reach (4 × width source chars each side, whole lines) only when the window might differ:
 * the text must be exactly what the whole reach gives, whatever the syntax around the match.
 * And the display text shows a whitespace run as one space, word by word.
 */

/** Pieces of Markdown, syntax that spans lines included (fences, HTML comments and tags, `%%` comments). */
const PIECES = [
  'alpha ',
  'word ',
  'Get-Process ',
  'naïve café ',
  '日本語 ',
  '\u00a0',
  '\n',
  '\n\n',
  '  ',
  '\t',
  '```\nalpha code\n```\n',
  '~~~~\nx\n',
  '`alpha code` ',
  '[[Link#Part|alpha alias]] ',
  '[[Page#Head#alpha]] ',
  '[alpha text](http://x.org/a) ',
  'https://x.org/alpha ',
  '<!-- alpha\ncomment -->',
  '%%alpha\nhidden%%',
  '<div\nclass="alpha">',
  '<b>',
  '% ',
  '> quote alpha ',
  '# Head alpha\n',
  '**bold alpha** ',
  '==mark== ',
  '\\*',
  '![[embed.png]] ',
  'x'.repeat(300) + ' ',
  `![[${'long-embed-name-'.repeat(25)}.png]] `,
  `[a](http://x.org/${'p'.repeat(400)}) `,
  `\`${'code '.repeat(60)}\` `,
];

function body(next: () => number, pieces: number): string {
  let out = '';
  for (let k = 0; k < pieces; k++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

/** The snippet text over the whole reach, spelled out as it was before the near region: the reference. */
function plainSnippetText(body: string, spans: readonly Span[], longAnchor: Span | null, width: number): string {
  const reach = 4 * width;
  // A match longer than the width is shown from its start, its first `width` characters.
  const anchor =
    longAnchor !== null && longAnchor.end - longAnchor.start > width
      ? { start: longAnchor.start, end: longAnchor.start + width }
      : longAnchor;
  const lineStart = (at: number, floor: number): number => Math.max(body.lastIndexOf('\n', at - 1) + 1, floor, 0);
  const lineEnd = (at: number, ceiling: number): number => {
    const nl = body.indexOf('\n', at);
    return Math.min(nl < 0 ? body.length : nl, Math.max(ceiling, at), body.length);
  };
  const hasText = (from: number, to: number): boolean => body.slice(from, to).trim() !== '';
  const from = anchor === null ? 0 : lineStart(Math.max(0, anchor.start - reach), anchor.start - 2 * reach);
  const to = lineEnd(Math.min(body.length, (anchor?.end ?? 0) + reach), (anchor?.end ?? 0) + 2 * reach);
  const display = displayText(body, from, to, fencesOf(body));
  const mask = highlightMask(display, spans);
  const n = display.text.length;
  let a = 0;
  let aEnd = 0;
  if (anchor !== null) {
    a = display.src.findIndex((s, k) => s >= anchor.start && (mask[k] || s >= anchor.end));
    if (a < 0) a = n;
    aEnd = a;
    while (aEnd < n && mask[aEnd]) aEnd++;
  }
  const shownRun = Math.min(aEnd - a, width);
  let start = Math.max(0, a - Math.floor((width - shownRun) * 0.4));
  let end = Math.min(n, start + width);
  if (end === n) start = Math.max(0, Math.min(a, end - width));
  start = snap(display, start, a, 1);
  end = snap(display, end, Math.max(a + shownRun, start), -1);
  const shown = marked(display, mask, start, end).trim();
  return (start > 0 || hasText(0, from) ? '…' : '') + shown + (end < n || hasText(to, body.length) ? '…' : '');
}

/** A window edge moved to a word boundary within 30 chars: towards `limit` first (`dir` 1: forward to it; -1: back to it), then away. */
function snap(display: DisplayText, at: number, limit: number, dir: 1 | -1): number {
  const cuttable = (k: number): boolean => {
    const { text, atom } = display;
    if (k <= 0 || k >= text.length) return true;
    if (atom[k] > 0 && atom[k - 1] === atom[k]) return false;
    return text[k - 1] === ' ' || text[k] === ' ';
  };
  for (let k = at; dir * (limit - k) >= 0 && Math.abs(k - at) <= 30; k += dir) if (cuttable(k)) return k;
  for (let k = at - dir; k >= 0 && k <= display.text.length && Math.abs(k - at) <= 30; k -= dir) if (cuttable(k)) return k;
  return at;
}

/** Every `alpha` in a body (case-insensitive), as the query's matches. */
function alphas(text: string): Span[] {
  return [...text.matchAll(/alpha/gi)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

describe('snippetText over the near region', () => {
  it('gives exactly the text of the whole reach, for every match of syntax-heavy bodies', () => {
    const next = seededRandom(17);
    let compared = 0;
    for (let round = 0; round < 300; round++) {
      const text = body(next, 20 + Math.floor(next() * 200));
      const spans = alphas(text);
      const width = next() < 0.7 ? 160 : 20 + Math.floor(next() * 200);
      expect(snippetText(text, spans, null, width)).toBe(plainSnippetText(text, spans, null, width));
      for (const anchor of spans.filter(() => next() < 0.3)) {
        expect(snippetText(text, spans, anchor, width)).toBe(plainSnippetText(text, spans, anchor, width));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('gives the text of the whole reach on a huge single-line note and on notes of short lines', () => {
    const line = Array.from({ length: 20_000 }, (_, k) => (k % 97 === 0 ? 'alpha' : `w${k}`)).join(' ');
    const lines = Array.from({ length: 3000 }, (_, k) => (k % 41 === 0 ? `- alpha item ${k}` : `- item ${k}`)).join('\n');
    for (const text of [line, lines]) {
      const spans = alphas(text);
      for (const anchor of [spans[0], spans[Math.floor(spans.length / 2)], spans[spans.length - 1]])
        expect(snippetText(text, spans, anchor, 160)).toBe(plainSnippetText(text, spans, anchor, 160));
    }
  });

  it('shows the match and cuts with an ellipsis on both sides of a long body', () => {
    const text = `${'lead '.repeat(200)}the alpha word${' tail'.repeat(200)}`;
    const shown = snippetText(text, alphas(text), alphas(text)[0], 160);
    expect(shown).toMatch(/^….*\*\*alpha\*\*.*…$/);
  });
});

describe('displayText word by word', () => {
  /** The definition for text without syntax: each whitespace run one space, none first; each char its own source offset. */
  function plainDisplay(text: string): { text: string; src: number[] } {
    let out = '';
    const src: number[] = [];
    for (let k = 0; k < text.length; k++) {
      const space = isSpace(text.charCodeAt(k));
      if (space && (out === '' || out.endsWith(' '))) continue;
      out += space ? ' ' : text[k];
      src.push(k);
    }
    return { text: out, src };
  }

  it('collapses every kind of whitespace run to one space and keeps each char’s source offset', () => {
    const next = seededRandom(23);
    const chars = ['a', 'é', '日', '😀', ' ', '\t', '\n', '\u00a0', '\u2028', '\u3000', 'b'];
    for (let round = 0; round < 500; round++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => chars[Math.floor(next() * chars.length)]).join('');
      const shown = displayText(text, 0, text.length, []);
      expect({ text: shown.text, src: shown.src }).toEqual(plainDisplay(text));
      expect(shown.atom).toEqual(shown.src.map(() => 0));
    }
  });

  it('collapses whitespace inside inline code and a link alias, with the unit’s own id', () => {
    const shown = displayText('x `a  \t b` [[P|c   d]]  y', 0, 25, []);
    expect(shown.text).toBe('x `a b` c d y');
    const code = shown.atom.slice(2, 7);
    expect(new Set(code).size).toBe(1);
    expect(code[0]).toBeGreaterThan(0);
    expect(shown.src.slice(2, 7)).toEqual([2, 3, 4, 8, 9]);
  });
});
