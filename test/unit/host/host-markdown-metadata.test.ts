import {
  parseNoteMetadata,
  getAllTags,
  parseFrontMatterTags,
  parseFrontMatterAliases,
  getFrontMatterInfo,
  getLinkpath,
  parseLinktext,
} from '../../host/index';

/** The text a cache position covers. */
const at = (text: string, p: { start: { offset: number }; end: { offset: number } }): string => text.slice(p.start.offset, p.end.offset);

describe('host metadata: headings', () => {
  it('ignores # lines inside code fences and indented code, keeps ATX and setext headings', () => {
    const text = [
      '# Top',
      '',
      '```md',
      '# not a heading',
      '## nor this',
      '```',
      '',
      '    # indented code',
      '',
      'Setext one',
      '===',
      '',
      'Setext two',
      '---',
      '',
    ].join('\n');
    const c = parseNoteMetadata(text);
    expect(c.headings?.map((h) => [h.level, h.heading])).toEqual([
      [1, 'Top'],
      [1, 'Setext one'],
      [2, 'Setext two'],
    ]);
    expect(at(text, c.headings![1].position)).toBe('Setext one\n===');
  });

  it('does not treat table cells or code spans as headings, strips closing #s', () => {
    const text = '| # cell | b |\n|---|---|\n| x | y |\n\n`# span`\n\n## Real ##\n#nospace\n';
    const c = parseNoteMetadata(text);
    expect(c.headings?.map((h) => h.heading)).toEqual(['Real']);
    expect(c.sections?.map((s) => s.type)).toEqual(['table', 'paragraph', 'heading', 'paragraph']);
    expect(c.tags?.map((t) => t.tag)).toEqual(['#nospace']);
  });

  it('gives offsets into the original text for CRLF notes', () => {
    const text = '---\r\ntitle: x\r\n---\r\n# One\r\n\r\nText [[Link]] #tag\r\n\r\n## Two\r\n';
    const c = parseNoteMetadata(text);
    expect(c.frontmatter).toEqual({ title: 'x' });
    expect(c.headings?.map((h) => at(text, h.position))).toEqual(['# One', '## Two']);
    expect(c.headings?.[1].position.start).toEqual({ line: 7, col: 0, offset: text.indexOf('## Two') });
    expect(at(text, c.links![0].position)).toBe('[[Link]]');
    expect(c.tags?.[0].position.start.line).toBe(5);
    expect(at(text, c.tags![0].position)).toBe('#tag');
  });

  it('handles a UTF-8 BOM before the frontmatter, counting it in offsets', () => {
    const text = '\uFEFF---\ntags: [a]\n---\n# H\n';
    const c = parseNoteMetadata(text);
    expect(c.frontmatter).toEqual({ tags: ['a'] });
    expect(c.frontmatterPosition?.start.offset).toBe(1);
    expect(at(text, c.frontmatterPosition!)).toBe('---\ntags: [a]\n---');
    expect(at(text, c.headings![0].position)).toBe('# H');
  });

  it('finds a heading on the first line of a BOM note', () => {
    const text = '\uFEFF# Title\nbody';
    const c = parseNoteMetadata(text);
    expect(c.headings?.[0]).toMatchObject({ heading: 'Title', level: 1, position: { start: { line: 0, col: 1, offset: 1 } } });
  });
});

describe('host metadata: headings inside containers', () => {
  it('lists no heading from inside a callout, a blockquote or a list item, as Obsidian does', () => {
    const text = [
      '# Top',
      '> [!note] Callout',
      '> ## In callout',
      '',
      '> ## In quote',
      '> Quoted',
      '> ===',
      '',
      '- ## In list',
      '  1. ### In nested item',
      '',
      '# Bottom',
    ].join('\n');
    expect(parseNoteMetadata(text).headings?.map((h) => h.heading)).toEqual(['Top', 'Bottom']);
  });
});

describe('host metadata: callouts, links, tags, blocks', () => {
  const text = [
    '---',
    'tags:',
    '  - project/alpha',
    '  - "#beta"',
    'aliases: First, Second',
    'related: "[[Other note|see]]"',
    '---',
    '> [!note] A callout',
    '> ## Inside heading',
    '> A [[Target#Section|alias]] and #calloutTag',
    '',
    'Links: [[Plain]], [[Folder/Deep]], [[Page#^blockref]], [md](Some%20Note.md), [web](https://example.com/#x)',
    'Embeds: ![[Picture.png]] ![[Note#Heading]] ![img](local.png)',
    'Tags: #one, #two/sub #123 #y1984 not#tag `#code` (#x)',
    '',
    '```js',
    'const c = "#ff0000"; // [[not a link]]',
    '```',
    '',
    'A paragraph with an id ^para-1',
    '',
    '- item one ^item1',
    '  - [x] done task',
    '- [ ] open task',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '^table-id',
    '',
    '%% hidden [[Secret]] #hidden %%',
    '',
    'Math $#notag$ and $$x$$',
  ].join('\n');
  const c = parseNoteMetadata(text);

  it('types the callout section and counts what is inside it', () => {
    expect(c.sections?.map((s) => s.type)).toEqual([
      'yaml',
      'callout',
      'paragraph',
      'code',
      'paragraph',
      'list',
      'table',
      'paragraph',
      'comment',
      'paragraph',
    ]);
    // Obsidian's cache lists no heading from inside a callout (see the next test).
    expect(c.headings).toBeUndefined();
    expect(c.tags?.map((t) => t.tag)).toEqual(['#calloutTag', '#one', '#two/sub', '#y1984']);
  });

  it('parses wikilinks with alias, heading and block subpaths, and internal Markdown links', () => {
    expect(c.links?.map((l) => [l.link, l.displayText, l.original])).toEqual([
      ['Target#Section', 'alias', '[[Target#Section|alias]]'],
      ['Plain', 'Plain', '[[Plain]]'],
      ['Folder/Deep', 'Folder/Deep', '[[Folder/Deep]]'],
      ['Page#^blockref', 'Page > ^blockref', '[[Page#^blockref]]'],
      ['Some Note.md', 'md', '[md](Some%20Note.md)'],
    ]);
    for (const l of c.links ?? []) expect(at(text, l.position)).toBe(l.original);
  });

  it('parses embeds of files and notes', () => {
    expect(c.embeds?.map((e) => [e.link, e.original])).toEqual([
      ['Picture.png', '![[Picture.png]]'],
      ['Note#Heading', '![[Note#Heading]]'],
      ['local.png', '![img](local.png)'],
    ]);
  });

  it('reads frontmatter, its links, tags and aliases', () => {
    expect(c.frontmatter).toEqual({ tags: ['project/alpha', '#beta'], aliases: 'First, Second', related: '[[Other note|see]]' });
    expect(c.frontmatterLinks).toEqual([{ key: 'related', link: 'Other note', original: '[[Other note|see]]', displayText: 'see' }]);
    expect(getAllTags(c)).toEqual(['#project/alpha', '#beta', '#calloutTag', '#one', '#two/sub', '#y1984']);
    expect(parseFrontMatterAliases(c.frontmatter)).toEqual(['First', 'Second']);
  });

  it('records block ids on paragraphs, list items and (standalone) on the previous block', () => {
    expect(Object.keys(c.blocks ?? {}).sort()).toEqual(['item1', 'para-1', 'table-id']);
    expect(at(text, c.blocks!['para-1'].position)).toBe('A paragraph with an id ^para-1');
    expect(at(text, c.blocks!['table-id'].position)).toBe('| a | b |\n|---|---|\n| 1 | 2 |');
    expect(c.sections?.find((s) => s.type === 'table')?.id).toBe('table-id');
  });

  it('lists items with tasks and parents', () => {
    const items = c.listItems ?? [];
    expect(items.map((i) => [at(text, i.position), i.task, i.id])).toEqual([
      ['- item one ^item1', undefined, 'item1'],
      ['- [x] done task', 'x', undefined],
      ['- [ ] open task', ' ', undefined],
    ]);
    expect(items[1].parent).toBe(items[0].position.start.line);
    expect(items[0].parent).toBe(-items[0].position.start.line);
    expect(items[2].parent).toBe(items[0].parent);
  });
});

describe('host metadata: frontmatter edge cases', () => {
  it('keeps frontmatterPosition but no frontmatter object for invalid YAML', () => {
    const text = '---\ntitle: [unclosed\n: bad\n---\n# Body\n';
    const c = parseNoteMetadata(text);
    expect(c.frontmatter).toBeUndefined();
    expect(at(text, c.frontmatterPosition!)).toBe('---\ntitle: [unclosed\n: bad\n---');
    expect(c.sections?.[0].type).toBe('yaml');
    expect(c.headings?.[0].heading).toBe('Body');
  });

  it('only treats a --- block on the very first line as frontmatter', () => {
    const late = parseNoteMetadata('\n---\na: 1\n---\n');
    expect(late.frontmatter).toBeUndefined();
    expect(late.frontmatterPosition).toBeUndefined();
    expect(getFrontMatterInfo('---\na: 1\n').exists).toBe(false);
    const info = getFrontMatterInfo('---\na: 1\n---\nbody');
    expect(info).toEqual({ exists: true, frontmatter: 'a: 1\n', from: 4, to: 9, contentStart: 13 });
  });

  it('parses frontmatter tags given as a string and rejects nothing silently', () => {
    expect(parseFrontMatterTags({ tags: 'a, b c #d' })).toEqual(['#a', '#b', '#c', '#d']);
    expect(parseFrontMatterTags({ Tag: ['x', 2] })).toEqual(['#x', '#2']);
    expect(parseFrontMatterTags({ other: 1 })).toBeNull();
    expect(parseFrontMatterTags(null)).toBeNull();
  });

  it('returns an empty cache for an empty note', () => {
    expect(parseNoteMetadata('')).toEqual({});
  });
});

describe('host link text helpers', () => {
  it('splits linktext into path and subpath', () => {
    expect(parseLinktext('Note#Heading#Sub')).toEqual({ path: 'Note', subpath: '#Heading#Sub' });
    expect(parseLinktext('#^block')).toEqual({ path: '', subpath: '#^block' });
    expect(getLinkpath('Folder/Note#x')).toBe('Folder/Note');
  });
});
