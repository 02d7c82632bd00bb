import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { positiveLeaves } from '../../../../src/search/query/query-eval';
import { buildSnippet, snippetText } from '../../../../src/search/results/snippet';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import { queryTerms } from '../../../../src/search/engine/text/tokenizer';
import { CLUSTER_REACH, clusterAround, clusterEnd, clusterPrefix, clusterStart } from '../../../../src/vault/content/text/graphemes';
import { pageText } from '../../../../src/tools/read/read-note';
import { inputExcerpt, MAX_ECHO_CHARS } from '../../../../src/errors';

/**
 * Text handed to an agent is cut and marked only between grapheme clusters (docs/search.md,
 * snippets; docs/tool-reference.md, read_note pages): never a lone surrogate (strict JSON
 * decoders refuse the whole answer), never a bare accent, half a flag or a joined emoji in parts.
 */

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const clusters = (text: string): string[] => [...graphemes.segment(text)].map((s) => s.segment);

/**
 * Fails unless `shown` holds no lone surrogate and every grapheme cluster of it is one of
 * `source`'s or a snippet's own (`*` of a bold mark, `…`, a space): a cut or a `**` inside a
 * cluster leaves a piece (`👩‍`, a bare U+0301, one flag letter, `*́`, `🏽` alone) that is not.
 */
function expectWhole(shown: string, source: string): void {
  expect(shown).not.toMatch(LONE);
  const allowed = new Set([...clusters(source), '*', '…', ' ']);
  const pieces = clusters(shown).filter((c) => !allowed.has(c));
  expect(pieces.map((c) => [...c].map((ch) => ch.codePointAt(0)!.toString(16)).join(' '))).toEqual([]);
}

function snip(text: string, query: string): string {
  const leaves = positiveLeaves(parseQuery(query));
  const words = leaves.flatMap((leaf) => (leaf.kind === 'word' ? queryTerms(leaf.text) : []));
  return buildSnippet(text, leaves, new Set(words), new RegexGuard()).text;
}

const KANJI = `${'𠮷野家'.repeat(60)}牛丼${'𠮷田さん'.repeat(60)}`;
const EMOJI = `${'😀'.repeat(100)} targetemoji ${'👩‍💻'.repeat(60)}`;
const MARKS = `${'e\u0301'.repeat(100)} combtarget ${'🇯🇵'.repeat(60)}`;

describe('snippets cut between grapheme clusters', () => {
  it('a CJK note of surrogate pairs without spaces: no lone low surrogate at the start (the report: "…\\udfb7野家")', () => {
    const s = snip(KANJI, '牛丼');
    expectWhole(s, KANJI);
    expect(s).toMatch(/^…𠮷野家/);
    expect(s).toContain('**牛丼**');
  });

  it.each(['targetemoji', '"targetemoji"', '/targetemoji/', 'line:targetemoji', 'block:targetemoji', 'section:targetemoji'])(
    'ZWJ emoji after the match stay whole for %s (the report: "…👩‍\\ud83d…")',
    (query) => {
      const s = snip(EMOJI, query);
      expectWhole(s, EMOJI);
      expect(s).toContain('**targetemoji**');
      expect(s).toMatch(/👩‍💻…$/);
    },
  );

  it('no bare combining accent at the start and no half flag at the end', () => {
    const s = snip(MARKS, 'combtarget');
    expectWhole(s, MARKS);
    expect(s).toMatch(/^…e\u0301/);
    expect(s).toMatch(/🇯🇵…$/);
  });

  it('flags are paired as the note pairs them, whatever the parity of the cut', () => {
    for (const lead of ['', 'x', 'xy']) {
      const text = `${lead}${'🇯🇵🇫🇷'.repeat(80)} flagword ${'🇩🇪🇮🇹'.repeat(80)}`;
      expectWhole(snip(text, 'flagword'), text);
    }
  });

  it('clusters of every kind around a match, with no space within reach, stay whole whatever the window', () => {
    const kinds = ['𠮷', '👍🏽', '👩‍👩‍👧‍👦', '🇯🇵', 'e\u0301\u0323', '각', '\u1100\u1161\u11a8', 'क्षि', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '1️⃣', '\r\n'];
    for (let shift = 0; shift < 12; shift++) {
      for (const kind of kinds) {
        const text = `${'a'.repeat(shift)}${kind.repeat(90)} middle ${kind.repeat(90)}`;
        expectWhole(snip(text, 'middle'), text);
      }
    }
  });

  it("a semantic hit's snippet (no match, anchored at the chunk start) cuts whole too", () => {
    for (let at = 100; at < 130; at++) {
      const s = snippetText(KANJI, [], { start: at, end: at }, 160);
      expectWhole(s, KANJI);
      expect(s.startsWith('…')).toBe(true);
    }
  });
});

describe('bold marks cover whole clusters', () => {
  it('a regex match before a combining accent bolds the letter with its accent (not "**Cafe**́")', () => {
    const text = 'Cafe\u0301 and more 👍🏽 end';
    expect(snip(text, '/Cafe/')).toBe('**Cafe\u0301** and more 👍🏽 end');
    expectWhole(snip(text, '/Cafe/'), text);
  });

  it('an emoji search bolds the emoji with its skin tone (not "**👍**🏽")', () => {
    const text = 'Cafe\u0301 and more 👍🏽 end';
    expect(snip(text, '👍')).toBe('Cafe\u0301 and more **👍🏽** end');
  });

  it('a match of the accent alone marks its whole letter; one of a ZWJ part marks the whole emoji', () => {
    expect(snip('the cafe\u0301 opens', '/\u0301/')).toBe('the caf**e\u0301** opens');
    expect(snip('coder 👩‍💻 here', '/💻/')).toBe('coder **👩‍💻** here');
  });

  it('a cluster that holds a character never marked (an escaped mark) is left unmarked, not split', () => {
    const text = 'literal \\*\u0301 star';
    const s = snip(text, '/\u0301/');
    expect(s).not.toContain('**');
    expectWhole(s, text);
  });
});

describe('clusterAround: the cluster a cut would split, from a bounded look around the cut', () => {
  it('finds surrogate pairs, accents, ZWJ sequences, flags and CR LF; boundaries elsewhere', () => {
    const text = 'a😀e\u0301👩‍💻🇯🇵\r\nb';
    expect(clusterAround(text, 2)).toEqual({ start: 1, end: 3 });
    expect(clusterAround(text, 4)).toEqual({ start: 3, end: 5 });
    expect(clusterAround(text, 7)).toEqual({ start: 5, end: 10 });
    expect(clusterAround(text, 12)).toEqual({ start: 10, end: 14 });
    expect(clusterAround(text, 15)).toEqual({ start: 14, end: 16 });
    for (const at of [0, 1, 3, 5, 10, 14, 16, 17]) expect(clusterAround(text, at)).toEqual({ start: at, end: at });
    expect(clusterStart(text, 7)).toBe(5);
    expect(clusterEnd(text, 7)).toBe(10);
  });

  it('agrees with segmenting the whole text at every offset, on text mixing every kind of cluster', () => {
    const pieces = [
      'a',
      ' ',
      '\r',
      '\n',
      '©',
      '®',
      '\u200d',
      '\u0301',
      '\u0600',
      '\u{110bd}',
      '𠮷',
      '野',
      'か',
      '\u3099',
      '㊗',
      '👩',
      '💻',
      '👍',
      '🏽',
      '🇯',
      '🇵',
      'क',
      '्',
      'ष',
      'ि',
      '\u1100',
      '\u1161',
      '각',
      '\ufe0f',
      '1',
      'é',
      'Ж',
      'ا',
    ];
    let seed = 11;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 200; round++) {
      let text = '';
      const length = 1 + Math.floor(next() * 40);
      for (let k = 0; k < length; k++) text += pieces[Math.floor(next() * pieces.length)];
      const starts = new Set([...graphemes.segment(text)].map((g) => g.index));
      for (let at = 0; at <= text.length; at++) {
        const { start, end } = clusterAround(text, at);
        if (starts.has(at) || at === text.length) expect({ text, at, start, end }).toEqual({ text, at, start: at, end: at });
        else {
          expect(starts.has(start) && start < at && at < end && (starts.has(end) || end === text.length)).toBe(true);
          for (let k = start + 1; k < end; k++) expect(starts.has(k)).toBe(false);
        }
      }
    }
  });

  it('a cluster longer than the reach (stacked accents) is cut between code points, still never inside a pair', () => {
    const zalgo = `a${'\u0301'.repeat(3 * CLUSTER_REACH)}😀`;
    expect(clusterAround(zalgo, 2 * CLUSTER_REACH)).toEqual({ start: 2 * CLUSTER_REACH, end: 2 * CLUSTER_REACH });
    const pairs = `a${'\u{1d167}'.repeat(2 * CLUSTER_REACH)}`; // a combining mark outside the BMP
    expect(clusterAround(pairs, 2 * CLUSTER_REACH)).toEqual({ start: 2 * CLUSTER_REACH - 1, end: 2 * CLUSTER_REACH + 1 });
  });

  it('clusterPrefix cuts short text to whole clusters, and keeps a first cluster longer than the room whole', () => {
    expect(clusterPrefix('ab👩‍💻c', 4)).toBe('ab');
    expect(clusterPrefix('ab👩‍💻c', 7)).toBe('ab👩‍💻');
    expect(clusterPrefix('👩‍💻c', 2)).toBe('👩‍💻');
    expect(clusterPrefix('abc', 5)).toBe('abc');
  });
});

describe('read_note pages and echoed input never split a cluster', () => {
  it('a page that would end inside a cluster ends before it; an offset inside one starts the page at its start', () => {
    const text = 'ab👩‍💻cde\u0301f🇯🇵g';
    expect(pageText(text, 0, 4)).toMatchObject({ text: 'ab', next: 2, hasMore: true });
    expect(pageText(text, 4, 5)).toMatchObject({ text: '👩‍💻', offset: 2, next: 7 });
    expect(pageText(text, 0, 10)).toMatchObject({ text: 'ab👩‍💻cd', next: 9 });
    expect(pageText(text, 0, 14)).toMatchObject({ text: 'ab👩‍💻cde\u0301f', next: 12 });
    // Never empty: a cluster longer than max_chars comes whole.
    expect(pageText(text, 2, 1)).toMatchObject({ text: '👩‍💻', offset: 2, next: 7 });
    expect(pageText(text, 13, 1)).toMatchObject({ text: '🇯🇵', offset: 12, next: 16 });
  });

  it('paging on from each next reads every cluster once, whole, at every page size', () => {
    const text = `${KANJI.slice(0, 30)}${EMOJI.slice(190, 260)}${MARKS.slice(190, 240)}`;
    for (let size = 1; size <= 12; size++) {
      const pages: string[] = [];
      for (let at = 0; at < text.length;) {
        const page = pageText(text, at, size);
        pages.push(page.text);
        at = page.next;
      }
      expect(pages.join('')).toBe(text);
      for (const page of pages) expectWhole(page, text);
    }
  });

  it('an echoed argument is cut between clusters', () => {
    const input = `${'x'.repeat(MAX_ECHO_CHARS - 2)}👩‍💻${'x'.repeat(10)}`;
    expect(inputExcerpt(input)).toBe(`${'x'.repeat(MAX_ECHO_CHARS - 2)}…`);
  });
});
