import type * as O from 'obsidian';
import { GFM, parser as baseParser } from '@lezer/markdown';
import type { SyntaxNode } from '@lezer/common';
import { parseYaml as parseYamlText } from './yaml';
import { obsidianSyntax } from './markdown-syntax';
import { getFrontMatterInfo } from './frontmatter';
import { decodeDestination, isInternalDestination, splitWikilink, wikilinkDisplayText } from './link-text';
import { frontmatterLinks } from './frontmatter-links';

/** CommonMark + GFM (tables, task lists, strikethrough, autolinks) + Obsidian syntax. */
const mdParser = baseParser.configure([GFM, obsidianSyntax]);

/** Top-level node name → Obsidian `SectionCache.type`. */
const SECTION_TYPES: Record<string, string> = {
  Paragraph: 'paragraph',
  FencedCode: 'code',
  CodeBlock: 'code',
  BulletList: 'list',
  OrderedList: 'list',
  Table: 'table',
  HorizontalRule: 'thematicBreak',
  HTMLBlock: 'html',
  CommentBlock: 'html',
  ProcessingInstructionBlock: 'html',
  MathBlock: 'math',
  ObsidianComment: 'comment',
};

const BLOCK_ID_AT_END = /(?:^|\s)\^([A-Za-z0-9-]+)$/;
const STANDALONE_BLOCK_ID = /^\^([A-Za-z0-9-]+)$/;
const CALLOUT_START = /^\[![^\]\s]+\]/;

/**
 * Offsets of the first char of every line. Lines end at `\n`, `\r\n` or a `\r` alone
 * (CommonMark's line endings; CodeMirror 6, Obsidian's editor, splits a document the same way),
 * so a note with old Mac line endings has its lines, headings and sections like an LF one.
 */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(LINE_BREAK)) starts.push(m.index + m[0].length);
  return starts;
}

/** One line break: `\r\n`, `\r` or `\n`. */
const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * The text handed to the Markdown parser, line by line the same as the note but with the BOM,
 * trailing spaces/tabs removed, every line break as `\n` (CRLF and `\r`-only notes parse like
 * LF ones; lezer reads `\n` only, and would otherwise miss a table whose rows end in
 * whitespace) and the frontmatter lines emptied (YAML, not Markdown). Line count is unchanged
 * and only line ends lose characters, so a parser offset maps back to the note by line number
 * and column (see MetadataBuilder.loc).
 */
function normalizeForParser(text: string, frontmatterLines: number, bom: boolean): string {
  const lines = text.split(LINE_BREAK);
  if (bom) lines[0] = lines[0].slice(1);
  return lines.map((l, i) => (i < frontmatterLines ? '' : l.replace(/[ \t]+$/, ''))).join('\n');
}

/**
 * Builds Obsidian's `CachedMetadata` for a note's text (obsidian.d.ts `CachedMetadata`):
 * frontmatter (+ position, links), sections, headings, links, embeds, tags, list items and
 * block ids. All positions are `{line, col, offset}` into `text` exactly as given (a BOM and
 * `\r` count as characters). Invalid YAML leaves `frontmatter` unset while
 * `frontmatterPosition` and the `yaml` section stay. Keys with nothing to report are absent.
 * Never throws on any input.
 */
export function parseNoteMetadata(text: string): O.CachedMetadata {
  return new MetadataBuilder(text).build();
}

/**
 * True when `node` lies inside a blockquote (callouts included) or a list item. Obsidian's
 * metadata cache lists only the note's own headings: a `> ## Title` in a callout or quote, or a
 * `- ## Title` list item, renders as a heading but is not in `CachedMetadata.headings`, the
 * outline pane or heading links (reported by plugin authors who rely on the cache:
 * Vinzent03/obsidian-advanced-uri#124, darlal/obsidian-switcher-plus#195).
 */
function inContainer(node: SyntaxNode): boolean {
  for (let up = node.parent; up; up = up.parent) if (up.name === 'Blockquote' || up.name === 'ListItem') return true;
  return false;
}

class MetadataBuilder {
  private readonly starts: number[];
  private readonly normStarts: number[];
  private readonly bom: boolean;
  /** The parser's view of the note (see normalizeForParser); node offsets index into it. */
  private readonly masked: string;
  private readonly fm: O.FrontMatterInfo;
  private readonly cache: O.CachedMetadata = {};
  private readonly sections: O.SectionCache[] = [];
  private readonly headings: O.HeadingCache[] = [];
  private readonly links: O.LinkCache[] = [];
  private readonly embeds: O.EmbedCache[] = [];
  private readonly tags: O.TagCache[] = [];
  private readonly listItems: O.ListItemCache[] = [];
  private readonly blocks: Record<string, O.BlockCache> = {};

  constructor(text: string) {
    this.starts = lineStarts(text);
    this.fm = getFrontMatterInfo(text);
    this.bom = text.charCodeAt(0) === 0xfeff;
    const fmLines = this.fm.exists ? this.lineOf(this.starts, this.fm.to) + 1 : 0;
    this.masked = normalizeForParser(text, fmLines, this.bom);
    this.normStarts = lineStarts(this.masked);
  }

  build(): O.CachedMetadata {
    if (this.fm.exists) this.addFrontmatter();
    const top = mdParser.parse(this.masked).topNode;
    for (let node = top.firstChild; node; node = node.nextSibling) this.addSection(node);
    top.cursor().iterate((ref) => {
      this.visit(ref.node);
    });
    const c = this.cache;
    if (this.sections.length) c.sections = this.sections;
    if (this.headings.length) c.headings = this.headings;
    if (this.links.length) c.links = this.links;
    if (this.embeds.length) c.embeds = this.embeds;
    if (this.tags.length) c.tags = this.tags;
    if (this.listItems.length) c.listItems = this.listItems;
    if (Object.keys(this.blocks).length) c.blocks = this.blocks;
    return c;
  }

  /** Index of the line containing `offset`, given a table of line starts. */
  private lineOf(starts: number[], offset: number): number {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Maps a parser offset to a location in the original note text. */
  private loc(normOffset: number): O.Loc {
    const line = this.lineOf(this.normStarts, normOffset);
    const col = normOffset - this.normStarts[line] + (line === 0 && this.bom ? 1 : 0);
    return { line, col, offset: this.starts[line] + col };
  }

  /** Position from `from` to `to` with trailing whitespace (and masked `\r`) trimmed. */
  private pos(from: number, to: number): O.Pos {
    let end = to;
    while (end > from && /\s/.test(this.masked[end - 1])) end--;
    return { start: this.loc(from), end: this.loc(end) };
  }

  private addFrontmatter(): void {
    const closeLine = this.lineOf(this.starts, this.fm.to);
    const position: O.Pos = {
      start: { line: 0, col: this.bom ? 1 : 0, offset: this.bom ? 1 : 0 },
      end: { line: closeLine, col: 3, offset: this.fm.to + 3 },
    };
    this.cache.frontmatterPosition = position;
    this.sections.push({ type: 'yaml', position });
    let data: unknown;
    try {
      data = parseYamlText(this.fm.frontmatter.replace(/\r\n?/g, '\n'));
    } catch {
      return;
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
    this.cache.frontmatter = data as O.FrontMatterCache;
    const links = frontmatterLinks(data as Record<string, unknown>);
    if (links.length) this.cache.frontmatterLinks = links;
  }

  private addSection(node: SyntaxNode): void {
    const name = node.name;
    let type = SECTION_TYPES[name];
    if (/^(ATX|Setext)Heading/.test(name)) type = 'heading';
    else if (name === 'Blockquote') type = this.isCallout(node) ? 'callout' : 'blockquote';
    else if (name === 'LinkReference') type = this.masked.startsWith('[^', node.from) ? 'footnoteDefinition' : 'definition';
    const section: O.SectionCache = { type: type ?? name.toLowerCase(), position: this.pos(node.from, node.to) };
    const own = this.masked.slice(node.from, node.to).trimEnd();
    const standalone = type === 'paragraph' ? STANDALONE_BLOCK_ID.exec(own) : null;
    const previous = this.sections[this.sections.length - 1];
    if (standalone && previous && previous.type !== 'yaml') {
      this.addBlock(standalone[1], previous);
    } else if (type === 'paragraph' || type === 'blockquote' || type === 'callout') {
      const m = BLOCK_ID_AT_END.exec(own);
      if (m) this.addBlock(m[1], section);
    }
    this.sections.push(section);
  }

  private addBlock(id: string, item: O.SectionCache | O.ListItemCache): void {
    item.id = id;
    this.blocks[id.toLowerCase()] = { id, position: item.position };
  }

  private isCallout(quote: SyntaxNode): boolean {
    const mark = quote.getChild('QuoteMark');
    if (!mark) return false;
    const lineEnd = this.masked.indexOf('\n', mark.to);
    return CALLOUT_START.test(this.masked.slice(mark.to, lineEnd < 0 ? undefined : lineEnd).trimStart());
  }

  private visit(node: SyntaxNode): void {
    const name = node.name;
    if (/^ATXHeading[1-6]$/.test(name)) {
      if (!inContainer(node)) this.addAtxHeading(node, Number(name.slice(-1)));
    } else if (/^SetextHeading[12]$/.test(name)) {
      if (!inContainer(node)) this.addSetextHeading(node, Number(name.slice(-1)));
    } else if (name === 'Wikilink') this.addWikilink(node, 2, this.links);
    else if (name === 'Embed') this.addWikilink(node, 3, this.embeds);
    else if (name === 'Link') this.addMarkdownLink(node, this.links);
    else if (name === 'Image') this.addMarkdownLink(node, this.embeds);
    else if (name === 'Tag') this.tags.push({ tag: this.masked.slice(node.from, node.to), position: this.pos(node.from, node.to) });
    else if (name === 'ListItem') this.addListItem(node);
  }

  private addAtxHeading(node: SyntaxNode, level: number): void {
    const marks = node.getChildren('HeaderMark');
    const from = marks[0] ? marks[0].to : node.from;
    const closing = marks.length > 1 ? marks[marks.length - 1].from : node.to;
    const heading = this.masked.slice(from, closing).trim();
    this.headings.push({ heading, level, position: this.pos(node.from, node.to) });
  }

  private addSetextHeading(node: SyntaxNode, level: number): void {
    const underline = node.getChild('HeaderMark');
    const body = this.masked.slice(node.from, underline ? underline.from : node.to);
    const heading = body
      .split('\n')
      .map((l) => l.replace(/^\s*(>\s?)*/, '').trim())
      .filter((l) => l !== '')
      .join(' ');
    this.headings.push({ heading, level, position: this.pos(node.from, node.to) });
  }

  private addWikilink(node: SyntaxNode, openLen: number, into: O.ReferenceCache[]): void {
    const original = this.masked.slice(node.from, node.to);
    const { link, alias } = splitWikilink(this.masked.slice(node.from + openLen, node.to - 2));
    const displayText = alias ?? wikilinkDisplayText(link);
    into.push({ link, original, displayText, position: this.pos(node.from, node.to) });
  }

  private addMarkdownLink(node: SyntaxNode, into: O.ReferenceCache[]): void {
    const marks = node.getChildren('LinkMark');
    const textFrom = marks[0] ? marks[0].to : node.from;
    const textTo = marks[1] ? marks[1].from : textFrom;
    // The destination is the URL after `](`; GFM autolinks can add URL nodes inside the text.
    const url = node.getChildren('URL').find((u) => u.from >= textTo);
    if (!url) return;
    const dest = this.masked.slice(url.from, url.to).replace(/^<(.*)>$/, '$1');
    if (!isInternalDestination(dest)) return;
    into.push({
      link: decodeDestination(dest),
      original: this.masked.slice(node.from, node.to),
      displayText: this.masked.slice(textFrom, textTo),
      position: this.pos(node.from, node.to),
    });
  }

  private addListItem(node: SyntaxNode): void {
    const nested = node.getChild('BulletList') ?? node.getChild('OrderedList');
    const position = this.pos(node.from, nested ? nested.from : node.to);
    const list = node.parent;
    const parentItem = list?.parent?.name === 'ListItem' ? list.parent : null;
    const parent = parentItem ? this.loc(parentItem.from).line : -this.loc(list?.firstChild?.from ?? node.from).line;
    const item: O.ListItemCache = { position, parent };
    const task = node.getChild('Task')?.getChild('TaskMarker');
    if (task) item.task = this.masked.charAt(task.from + 1);
    const own = this.masked.slice(node.from, nested ? nested.from : node.to).trimEnd();
    const m = BLOCK_ID_AT_END.exec(own);
    if (m) this.addBlock(m[1], item);
    this.listItems.push(item);
  }
}
