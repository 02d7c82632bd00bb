import { parseQuery } from '../../src/search/query-parser';
import { positiveLeaves } from '../../src/search/query-eval';
import { buildSnippet } from '../../src/search/snippet';
import { bodyStart } from '../../src/vault/note-body';
import { RegexGuard } from '../../src/search/regex-guard';
import { indexTerms, queryTerms, termSpans } from '../../src/search/tokenizer';

describe('tokenizer', () => {
  it('keeps non-ASCII words whole and folds case', () => {
    expect(indexTerms('Über Café, ΕΛΛΗΝΙΚΆ naïve_x 42')).toEqual(['über', 'café', 'ελληνικά', 'naïve', 'x', '42']);
  });

  it('indexes CJK runs as bigrams plus the final character, queries them as bigrams', () => {
    expect(indexTerms('日本語')).toEqual(['日本', '本語', '語']);
    expect(indexTerms('猫 と')).toEqual(['猫', 'と']);
    expect(queryTerms('日本語')).toEqual(['日本', '本語']);
    expect(queryTerms('猫')).toEqual(['猫']);
  });

  it('splits mixed runs by script and keeps UTF-16 offsets of the original text', () => {
    const text = 'iPhone用のアプリ';
    const spans = termSpans(text, 'query');
    expect(spans[0]).toEqual({ term: 'iphone', start: 0, end: 6 });
    for (const s of spans) expect(normalize(text.slice(s.start, s.end))).toBe(s.term);
  });

  it('keeps surrogate pairs (CJK Extension B) whole', () => {
    const spans = termSpans('𠮷野家', 'query');
    expect(spans.map((s) => s.term)).toEqual(['𠮷野', '野家']);
    expect(spans[0]).toMatchObject({ start: 0, end: 3 });
  });
});

describe('bodyStart (the body rule search shares with read_note and write_note)', () => {
  it('finds the end of a YAML block and ignores text without one', () => {
    expect(bodyStart('---\na: 1\n---\nbody')).toBe(13);
    expect(bodyStart('---\r\na: 1\r\n---\r\nbody')).toBe(16);
    expect(bodyStart('body\n---\n')).toBe(0);
    expect(bodyStart('---\nnever closed')).toBe(0);
  });

  it('reads frontmatter after a BOM and, as Obsidian does, does not close a block with "..."', () => {
    expect(bodyStart('\ufeff---\na: 1\n---\nbody')).toBe(14);
    expect(bodyStart('\ufeffbody')).toBe(1);
    expect(bodyStart('---\r\na: 1\r\n...\r\nbody')).toBe(0);
  });

  it('the snippet never shows a frontmatter block that follows a BOM', () => {
    const text = '\ufeff---\nsecret: alpha\n---\nThe alpha body text.';
    const snippet = buildSnippet(text, positiveLeaves(parseQuery('alpha')), new Set(['alpha']), new RegexGuard());
    expect(snippet.text).toBe('The **alpha** body text.');
    expect(snippet.matchOffset).toBe(text.indexOf('alpha body'));
  });
});

describe('buildSnippet', () => {
  const filler = 'lorem ipsum dolor sit amet '.repeat(20);

  it('centres about 200 chars on the first match, on word boundaries, with the match in bold', () => {
    const text = `---\ntitle: canvas\n---\n${filler}the Canvas plugin draws ${filler}`;
    const s = buildSnippet(text, positiveLeaves(parseQuery('canvas')), new Set(['canvas']), new RegexGuard());
    expect(s.text).toMatch(/^….* the \*\*Canvas\*\* plugin draws .*…$/);
    expect(s.text.length).toBeLessThanOrEqual(204);
    expect(s.text.length).toBeGreaterThan(150);
    // Cut on word boundaries: every word shown is a whole word of the note.
    const words = new Set(['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'the', '**Canvas**', 'plugin', 'draws']);
    for (const w of s.text.slice(1, -1).split(' ')) expect(words).toContain(w);
    expect(text.slice(s.matchOffset ?? -1, (s.matchOffset ?? 0) + 6)).toBe('Canvas');
  });

  it('never anchors on the frontmatter', () => {
    const text = '---\ndescription: a canvas note\n---\nNo match here.';
    const s = buildSnippet(text, positiveLeaves(parseQuery('canvas')), new Set(['canvas']), new RegexGuard());
    expect(s).toEqual({ text: 'No match here.', matchOffset: null });
  });

  it('marks phrases case-insensitively across line breaks and regex matches', () => {
    const text = 'Intro.\n\nOpen the Command\npalette now.';
    const phrase = buildSnippet(text, positiveLeaves(parseQuery('"command palette"')), new Set(), new RegexGuard());
    expect(phrase.text).toBe('Intro. Open the **Command palette** now.');
    const regex = buildSnippet(text, positiveLeaves(parseQuery('/pal+ette/')), new Set(), new RegexGuard());
    expect(regex.text).toBe('Intro. Open the Command **palette** now.');
  });

  it('anchors on the earliest match and marks every match in the window, never excluded ones', () => {
    const text = 'alpha beta gamma';
    const s = buildSnippet(text, positiveLeaves(parseQuery('gamma -"alpha" beta')), new Set(['gamma', 'beta']), new RegexGuard());
    expect(s).toEqual({ text: 'alpha **beta** **gamma**', matchOffset: 6 });
    const far = `${filler}late beta ${filler}${filler}gamma`;
    const anchored = buildSnippet(far, positiveLeaves(parseQuery('gamma beta')), new Set(['gamma', 'beta']), new RegexGuard());
    expect(anchored.text).toContain('late **beta**');
    expect(anchored.text).not.toContain('gamma');
  });

  it('marks a CJK word where its characters stand together, not its scattered bigrams', () => {
    const text = '日本の本語り。今日は日本語の勉強をします。';
    const s = buildSnippet(text, positiveLeaves(parseQuery('日本語')), new Set(), new RegexGuard());
    expect(s.text).toBe('日本の本語り。今日は**日本語**の勉強をします。');
    expect(s.matchOffset).toBe(10);
  });
});

function normalize(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}
