import type { BlockContext, InlineContext, Line, MarkdownConfig } from '@lezer/markdown';

/**
 * @lezer/markdown extensions for Obsidian's own syntax (https://help.obsidian.md/syntax and
 * https://help.obsidian.md/Editing+and+formatting/Obsidian+Flavored+Markdown):
 * - `Wikilink` `[[target#sub|alias]]` and `Embed` `![[target]]` (before Link/Image);
 * - `Tag` `#tag`: after whitespace or at the start of inline text, at least one non-digit;
 * - `ObsidianComment` blocks and `ObsidianCommentInline` spans `%%...%%` (hidden text);
 * - `MathBlock` `$$...$$` and `InlineMath` `$...$` (LaTeX, where `#` is not a tag).
 * Because these are inline/block parsers, code spans, fenced/indented code, HTML and
 * comments are consumed first by the Markdown grammar and never yield links or tags.
 */

const HASH = 35;
const BRACKET = 91;
const BANG = 33;
const PERCENT = 37;
const DOLLAR = 36;

/** Characters that end a tag (Obsidian stops tags at whitespace and ASCII/general punctuation). */
const TAG_STOP = /[\s!"#$%&'()*+,.:;<=>?@^`{|}~[\]\\\u2000-\u206F\u2E00-\u2E7F\u3000-\u303F]/u;

/** Whitespace test on a char code; -1 (outside the inline section) counts as a boundary. */
function isSpaceCode(ch: number): boolean {
  return ch === -1 || ch === 32 || ch === 9 || ch === 10 || ch === 13 || ch === 0xa0;
}

/** Finds the end (exclusive) of `]]` closing a wikilink opened at `open`, or -1. */
function wikilinkEnd(cx: InlineContext, open: number): number {
  const close = cx.text.indexOf(']]', open - cx.offset + 2);
  if (close < 0) return -1;
  const inner = cx.text.slice(open - cx.offset + 2, close);
  if (inner.trim() === '' || inner.includes('\n') || inner.includes('[[')) return -1;
  return cx.offset + close + 2;
}

const wikilinkParser = {
  name: 'Wikilink',
  before: 'Link',
  parse(cx: InlineContext, next: number, pos: number): number {
    if (next !== BRACKET || cx.char(pos + 1) !== BRACKET) return -1;
    const end = wikilinkEnd(cx, pos);
    return end < 0 ? -1 : cx.addElement(cx.elt('Wikilink', pos, end));
  },
};

const embedParser = {
  name: 'Embed',
  before: 'Image',
  parse(cx: InlineContext, next: number, pos: number): number {
    if (next !== BANG || cx.char(pos + 1) !== BRACKET || cx.char(pos + 2) !== BRACKET) return -1;
    const end = wikilinkEnd(cx, pos + 1);
    return end < 0 ? -1 : cx.addElement(cx.elt('Embed', pos, end));
  },
};

const tagParser = {
  name: 'Tag',
  parse(cx: InlineContext, next: number, pos: number): number {
    if (next !== HASH || (pos > cx.offset && !isSpaceCode(cx.char(pos - 1)))) return -1;
    let end = pos + 1;
    while (end < cx.end && !TAG_STOP.test(String.fromCodePoint(cx.char(end)))) end++;
    const body = cx.slice(pos + 1, end);
    if (body === '' || /^[0-9]+$/.test(body)) return -1;
    return cx.addElement(cx.elt('Tag', pos, end));
  },
};

const commentInlineParser = {
  name: 'ObsidianCommentInline',
  before: 'Escape',
  parse(cx: InlineContext, next: number, pos: number): number {
    if (next !== PERCENT || cx.char(pos + 1) !== PERCENT) return -1;
    const close = cx.text.indexOf('%%', pos - cx.offset + 2);
    const end = close < 0 ? cx.end : cx.offset + close + 2;
    return cx.addElement(cx.elt('ObsidianCommentInline', pos, end));
  },
};

const mathInlineParser = {
  name: 'InlineMath',
  before: 'Escape',
  parse(cx: InlineContext, next: number, pos: number): number {
    if (next !== DOLLAR || cx.char(pos - 1) === 92) return -1;
    const rel = pos - cx.offset;
    if (cx.char(pos + 1) === DOLLAR) {
      const close = cx.text.indexOf('$$', rel + 2);
      return close < 0 ? -1 : cx.addElement(cx.elt('InlineMath', pos, cx.offset + close + 2));
    }
    if (isSpaceCode(cx.char(pos + 1))) return -1;
    for (let i = rel + 1; i < cx.text.length; i++) {
      const ch = cx.text.charCodeAt(i);
      if (ch === 10) return -1;
      if (ch === DOLLAR && !isSpaceCode(cx.text.charCodeAt(i - 1)) && cx.text.charCodeAt(i - 1) !== 92) {
        const after = cx.text.charCodeAt(i + 1);
        if (after >= 48 && after <= 57) continue;
        return cx.addElement(cx.elt('InlineMath', pos, cx.offset + i + 1));
      }
    }
    return -1;
  },
};

/** Whether `line` (after container markers) starts with the two-character marker `mark`. */
function startsWithMark(line: Line, mark: string): boolean {
  return line.indent - line.baseIndent < 4 && line.text.startsWith(mark, line.pos);
}

/**
 * Whether the current line still belongs to the container (blockquote, list item) the block
 * started in. Uses the same internal fields as lezer's own FencedCode parser (`line.depth`,
 * `cx.stack`), which the public typings do not declare.
 */
function stillInside(cx: BlockContext, line: Line): boolean {
  const depth = (line as unknown as { depth: number }).depth;
  const stack = (cx as unknown as { stack: unknown[] }).stack;
  return depth >= stack.length;
}

/**
 * Builds an eager block parser for a fenced construct (`%%` or `$$`): a first line starting
 * with `mark` opens it; it closes on the first later line containing `mark` (or on the first
 * line itself when it also ends with `mark`), or at the end of the container.
 */
function fencedBlock(name: string, mark: string) {
  return {
    name,
    before: 'FencedCode',
    parse(cx: BlockContext, line: Line): boolean {
      if (!startsWithMark(line, mark)) return false;
      const from = cx.lineStart + line.pos;
      const rest = line.text.slice(line.pos + 2);
      const closeInFirst = rest.indexOf(mark);
      if (closeInFirst >= 0 && rest.slice(closeInFirst + 2).trim() !== '') return false;
      let closed = closeInFirst >= 0;
      while (!closed && cx.nextLine() && stillInside(cx, line)) {
        closed = line.text.slice(line.pos).includes(mark);
      }
      if (closed) cx.nextLine();
      cx.addElement(cx.elt(name, from, cx.prevLineEnd()));
      return true;
    },
    endLeaf(_cx: BlockContext, line: Line): boolean {
      return startsWithMark(line, mark);
    },
  };
}

/** The Obsidian syntax extension to pass to `parser.configure([GFM, obsidianSyntax])`. */
export const obsidianSyntax: MarkdownConfig = {
  defineNodes: [
    'Wikilink',
    'Embed',
    'Tag',
    'ObsidianCommentInline',
    'InlineMath',
    { name: 'ObsidianComment', block: true },
    { name: 'MathBlock', block: true },
  ],
  parseInline: [commentInlineParser, mathInlineParser, embedParser, wikilinkParser, tagParser],
  parseBlock: [fencedBlock('ObsidianComment', '%%'), fencedBlock('MathBlock', '$$')],
};
