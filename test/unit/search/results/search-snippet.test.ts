import { parseQuery } from '../../../../src/search/query/parser/query-parser';
import { positiveLeaves } from '../../../../src/search/query/query-eval';
import { buildSnippet, SNIPPET_WIDTH } from '../../../../src/search/results/snippet';
import type { HeadingCache } from 'obsidian';
import { bodyStart } from '../../../../src/vault/content/note-body';
import { buildOutline, type NoteSection } from '../../../../src/vault/content/sections';
import { RegexGuard } from '../../../../src/search/query/regex-guard';
import { indexTerms, queryTerms, termSpans } from '../../../../src/search/engine/text/tokenizer';

describe('tokenizer', () => {
  it('keeps non-ASCII words whole and folds case and Latin/Greek diacritics', () => {
    expect(indexTerms('Über Café, ΕΛΛΗΝΙΚΆ naïve_x 42')).toEqual(['uber', 'cafe', 'ελληνικα', 'naive', 'x', '42']);
    expect(indexTerms('がっこう مَدْرَسَة')).toEqual(indexTerms('がっこう مَدْرَسَة'.normalize('NFC')));
    expect(indexTerms('が').join('')).toContain('が');
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

  it('centres about 160 chars on the first match, on word boundaries, with the match in bold', () => {
    const text = `---\ntitle: canvas\n---\n${filler}the Canvas plugin draws ${filler}`;
    const s = buildSnippet(text, positiveLeaves(parseQuery('canvas')), new Set(['canvas']), new RegexGuard());
    expect(s.text).toMatch(/^….* the \*\*Canvas\*\* plugin draws .*…$/);
    expect(s.text.length).toBeLessThanOrEqual(SNIPPET_WIDTH + 6);
    expect(s.text.length).toBeGreaterThan(SNIPPET_WIDTH - 40);
    // Cut on word boundaries: every word shown is a whole word of the note.
    const words = new Set(['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'the', '**Canvas**', 'plugin', 'draws']);
    for (const w of s.text.slice(1, -1).split(' ')) expect(words).toContain(w);
    expect(text.slice(s.matchOffset ?? -1, (s.matchOffset ?? 0) + 6)).toBe('Canvas');
  });

  it('a match only in a link target the display hides marks the link text shown', () => {
    const snip = (body: string, query: string) =>
      buildSnippet(body, positiveLeaves(parseQuery(query)), new Set([query.toLowerCase()]), new RegexGuard()).text;
    expect(snip('See [[Recipes#Sourdough|the bread]] for more.\n', 'sourdough')).toBe('See **the bread** for more.');
    expect(snip('See [the bread](Recipes.md#Sourdough) now.\n', 'sourdough')).toBe('See **the bread** now.');
    expect(snip('See [[Recipes#^sourdough]] now.\n', 'sourdough')).toBe('See **Recipes** now.');
    expect(snip('See [[Recipes#Sourdough|the bread]] now.\n', '/Sourdough/')).toBe('See **the bread** now.');
    // A shown subpath is marked where it stands, as before.
    expect(snip('See [[Recipes#Sourdough]] now.\n', 'sourdough')).toBe('See Recipes > **Sourdough** now.');
    // An embed shows nothing, so there is nothing to mark; the snippet still has its text.
    expect(snip('![[Recipes#Sourdough]] and more text.\n', 'sourdough')).toBe('and more text.');
  });

  it('never anchors on the frontmatter', () => {
    const text = '---\ndescription: a canvas note\n---\nNo match here.';
    const s = buildSnippet(text, positiveLeaves(parseQuery('canvas')), new Set(['canvas']), new RegexGuard());
    expect(s).toEqual({ text: 'No match here.', matchOffset: null, section: null });
  });

  it('marks phrases case-insensitively across line breaks and regex matches', () => {
    const text = 'Intro.\n\nOpen the Command\npalette now.';
    const phrase = buildSnippet(text, positiveLeaves(parseQuery('"command palette"')), new Set(), new RegexGuard());
    expect(phrase.text).toBe('Intro. Open the **Command palette** now.');
    const regex = buildSnippet(text, positiveLeaves(parseQuery('/pal+ette/')), new Set(), new RegexGuard());
    expect(regex.text).toBe('Intro. Open the Command **palette** now.');
  });

  it('anchors on the densest cluster of matches and marks every match in the window, never excluded ones', () => {
    const text = 'alpha beta gamma';
    const s = buildSnippet(text, positiveLeaves(parseQuery('gamma -"alpha" beta')), new Set(['gamma', 'beta']), new RegexGuard());
    expect(s).toMatchObject({ text: 'alpha **beta gamma**', matchOffset: 6, section: { path: '0', heading: '(preamble)' } });
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

/** The snippet of `text` for `query`, the note having matched `terms` in the index. */
function snip(text: string, query: string, terms: string[] = []): string {
  return buildSnippet(text, positiveLeaves(parseQuery(query)), new Set(terms), new RegexGuard()).text;
}

/**
 * Fails unless `snippet` is safe Markdown: `**` marks pair up around non-empty text that does
 * not start or end with a space, no `****`, no link syntax, and no mark inside a code span.
 */
function expectWellFormed(snippet: string): void {
  expect(snippet).not.toMatch(/\*{3,}/);
  const parts = snippet.split('**');
  expect(parts.length % 2).toBe(1);
  for (let k = 1; k < parts.length; k += 2) {
    expect(parts[k]).not.toBe('');
    expect(parts[k]).toBe(parts[k].trim());
  }
  expect(snippet).not.toMatch(/\[\[|\]\]|\]\(/);
  for (const code of snippet.match(/`[^`]*`/g) ?? []) expect(code).not.toContain('**');
}

describe('buildSnippet points at the section where the query terms concentrate', () => {
  /** A heading outline for `text` as the metadata cache gives it: one section per `#` line. */
  function outlineOf(text: string): NoteSection[] {
    const headings: HeadingCache[] = [];
    let offset = 0;
    for (const line of text.split('\n')) {
      const m = /^(#{1,6}) (.+)$/.exec(line);
      if (m)
        headings.push({
          heading: m[2],
          level: m[1].length,
          position: { start: { line: 0, col: 0, offset }, end: { line: 0, col: 0, offset } },
        });
      offset += line.length + 1;
    }
    return buildOutline(headings, text.length);
  }
  const best = (text: string, query: string, terms: string[]) =>
    buildSnippet(text, positiveLeaves(parseQuery(query)), new Set(terms), new RegexGuard(), outlineOf(text));

  const NOTE = [
    '---',
    'title: Sync guide',
    '---',
    'This guide covers sync options for your notes.',
    '# Sync guide',
    '## Backups',
    'Back up your notes before you sync anything.',
    '## Devices',
    'To sync notes between devices, install the app on each device and turn on sync for the vault.',
    '### Phones',
    'Phones sync the same way.',
    '## Git',
    'Git is another way to sync.',
  ].join('\n');

  it('picks the section holding most of the distinct terms, not the first match, and centres the snippet there', () => {
    const s = best(NOTE, 'sync devices', ['sync', 'devices', 'device']);
    expect(s.section).toMatchObject({ path: '1.2', heading: 'Devices', level: 2 });
    expect(s.text).toContain('**Devices** To **sync** notes between **devices**');
    expect(NOTE.slice(s.matchOffset ?? 0).startsWith('Devices')).toBe(true);
  });

  it('a match in the heading line weighs more than the same match in the text', () => {
    expect(best(NOTE, 'git', ['git']).section).toMatchObject({ path: '1.3', heading: 'Git' });
    expect(best(NOTE, 'phones', ['phones']).section).toMatchObject({ path: '1.2.1' });
  });

  it('text before the first heading is the preamble, section "0"; a note without headings has only that', () => {
    expect(best(NOTE, 'guide covers', ['guide', 'covers']).section).toMatchObject({ path: '0', heading: '(preamble)', level: 0 });
    const flat = best('No headings here, just words about canvas.', 'canvas', ['canvas']);
    expect(flat.section).toMatchObject({ path: '0', start: 0, end: 42 });
    expect(best(NOTE, 'nothing', []).section).toBeNull();
  });
});

describe('buildSnippet keeps Markdown safe (adversarial notes)', () => {
  it('never nests emphasis: existing bold, italics and highlights lose their marks', () => {
    const s = snip('Obsidian uses the open **JSON Canvas** format and ***bold canvas*** and ==canvas==.', 'canvas', ['canvas']);
    expect(s).toBe('Obsidian uses the open JSON **Canvas** format and bold **canvas** and **canvas**.');
    expectWellFormed(s);
    const italic = snip('An *italic canvas* note with __strong canvas__ and snake_case_canvas.', 'canvas', ['canvas']);
    expect(italic).toBe('An *italic **canvas*** note with strong **canvas** and snake_case_**canvas**.');
    // A link's shown text loses its marks too (a newcomer s35: `the ****home**** link`, and a false bold where nothing matched).
    const alias = 'match [[Home|the **home** link]] and [the ==home== link](Home.md) match';
    expect(snip(alias, 'home', ['home'])).toBe('match the **home** link and the **home** link match');
    expect(snip(alias, 'match', ['match'])).toBe('**match** the home link and the home link **match**');
    expectWellFormed(snip(alias, 'home', ['home']));
    expect(snip('see [[Home|snake_case __x__]] now', 'snake', ['snake'])).toBe('see **snake**_case x now');
  });

  it("the issue's own cases: no **JSON **Canvas****, no [[**Canvas**|**canvas**]]", () => {
    const text =
      'Canvas is a [[Core plugins|core plugin]] for visual note-taking.\n\n' +
      'Obsidian saves canvases as `.canvas` files using the open [JSON Canvas](https://jsoncanvas.org/) format. ' +
      'See [[Canvas|canvas]] and **JSON Canvas**.';
    const s = snip(text, 'canvas', ['canvas', 'canvases']);
    expectWellFormed(s);
    expect(s).not.toContain('**JSON **');
    expect(s).not.toContain('jsoncanvas.org');
    expect(s).toContain('**`.canvas`**');
    expect(s).toContain('JSON **Canvas** format');
    expect(s).toContain('See **canvas** and JSON **Canvas**');
  });

  it('wikilinks show their visible text: the alias, or the target with " > " for a heading; a match in a hidden target marks the alias', () => {
    const s = snip(
      'See [[Canvas|the board]], [[Canvas#Create a new canvas]], [[Plugins/Canvas#Add cards|cards]] and [[Canvas^abc123]].',
      'canvas',
      ['canvas'],
    );
    expect(s).toBe('See **the board**, **Canvas** > Create a new **canvas**, **cards** and **Canvas**.');
    expectWellFormed(s);
    expect(snip('Jump to [[#Canvas basics]] now.', 'canvas', ['canvas'])).toBe('Jump to **Canvas** basics now.');
  });

  it('Markdown links show their text, never their URL; images and embeds are left out', () => {
    const s = snip(
      'Read the [JSON Canvas spec](https://jsoncanvas.org/canvas) and ![canvas](canvas.png) ![[canvas.svg#icon]] now.',
      'canvas',
      ['canvas'],
    );
    expect(s).toBe('Read the JSON **Canvas** spec and now.');
    expectWellFormed(s);
  });

  it('inline code is marked whole or not at all, with its backticks', () => {
    const s = snip('Save as `file.canvas` or ``the `canvas` type`` files, not canvas.', 'canvas', ['canvas']);
    expect(s).toBe('Save as **`file.canvas`** or **``the `canvas` type``** files, not **canvas**.');
    expectWellFormed(s);
  });

  it('URLs and HTML are never marked; tags and comments are left out', () => {
    const s = snip(
      'Visit https://obsidian.md/canvas or <https://canvas.example> for <span class="canvas">Canvas</span> docs %%canvas%% <!-- canvas -->.',
      'canvas',
      ['canvas'],
    );
    expect(s).toBe('Visit https://obsidian.md/canvas or https://canvas.example for **Canvas** docs .');
    expectWellFormed(s);
  });

  it('callouts, quotes and headings lose their line marks; fenced code is shown but never marked', () => {
    const s = snip(
      '## Canvas basics\n\n> [!note] The canvas format\n> Obsidian stores canvas data.\n\n```js\ncanvas.draw();\n```\nThe end.',
      'canvas',
      ['canvas'],
    );
    expect(s).toBe('**Canvas** basics The **canvas** format Obsidian stores **canvas** data. canvas.draw(); The end.');
    expectWellFormed(s);
  });

  it('a phrase in an alias is marked there, not in the target; a match in a link target only marks the alias shown', () => {
    expect(snip('Open [[Command palette|the Command palette]] now.', '"command palette"')).toBe('Open the **Command palette** now.');
    expect(snip('Use [[Canvas|this board]] daily.', 'canvas', ['canvas'])).toBe('Use **this board** daily.');
  });

  it('cuts at word boundaries and never inside inline code, within about SNIPPET_WIDTH display chars', () => {
    const filler = 'word '.repeat(60);
    const text = `${filler}\`a long code span that must stay whole\` then canvas here ${filler}`;
    const s = snip(text, 'canvas', ['canvas']);
    expectWellFormed(s);
    expect((s.match(/`/g) ?? []).length % 2).toBe(0);
    expect(s.replace(/\*\*/g, '').length).toBeLessThanOrEqual(SNIPPET_WIDTH + 2);
    for (const w of s.replace(/^…|…$/g, '').replace(/\*\*/g, '').split(' ')) {
      expect(['word', 'then', 'canvas', 'here', '`a', 'long', 'code', 'span', 'that', 'must', 'stay', 'whole`']).toContain(w);
    }
  });

  it('a match longer than the width shows its first SNIPPET_WIDTH characters, marked, then …: a regex over a whole note, a long word', () => {
    const run = `Intro line.\n\nx${'a'.repeat(20_000)}b tail\n`;
    const regex = buildSnippet(run, positiveLeaves(parseQuery('/xa{2,}b/')), new Set(), new RegexGuard()).text;
    expect(regex).toBe(`…**x${'a'.repeat(SNIPPET_WIDTH - 1)}**…`);
    // Every line of a long note matched by one regex: the snippet is still one window, not the note.
    const note = Array.from({ length: 400 }, (_, i) => `Line ${i} of the note.`).join('\n');
    const whole = buildSnippet(note, positiveLeaves(parseQuery('/[\\s\\S]+/')), new Set(), new RegexGuard()).text;
    expect(whole.startsWith('**Line 0 of the note.')).toBe(true);
    expect(whole.endsWith('**…')).toBe(true);
    expect(whole.replace(/\*\*/g, '').length).toBeLessThanOrEqual(SNIPPET_WIDTH + 1);
    // A long word (a pasted hash or blob) matched by its prefix: the same window.
    const blob = `See ${'f0'.repeat(5_000)} here.`;
    const word = snip(blob, 'f0f0*', ['f0'.repeat(5_000)]);
    expect(word.replace(/\*\*/g, '').length).toBeLessThanOrEqual(SNIPPET_WIDTH + 5);
    expect(word).toMatch(/^…\*\*(f0)+\*\*…$/);
  });

  it('shows the stretch holding most of the query words, a word and its longer forms counting once (a newcomer s35: line 4999 showed line 0)', () => {
    const note = `# Many lines\n\n${Array.from({ length: 5000 }, (_, i) => `line ${i} alpha beta gamma`).join('\n')}`;
    const s = buildSnippet(note, positiveLeaves(parseQuery('line 4999')), new Set(['line', 'lines', '4999']), new RegexGuard()).text;
    expect(s).toMatch(/\*\*line 4999\*\*/);
    expectWellFormed(s);
  });

  it('escaped marks stay escaped, so they stay literal next to a highlight', () => {
    const s = snip('Price \\*canvas\\* is 2\\*3 \\[[not a link]].', 'canvas', ['canvas']);
    expect(s).toBe('Price \\***canvas**\\* is 2\\*3 \\[[not a link]].');
  });
});

function normalize(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}
