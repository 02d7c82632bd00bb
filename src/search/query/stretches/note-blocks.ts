import { bodyStart } from '../../../vault/content/note-body';

/**
 * The stretches of a note's text that `line:`, `block:`, `section:` and the `task` operators
 * look in, computed from the text alone (the search engine holds plain text, not the
 * metadata cache). Blocks follow Obsidian's notion, which is CommonMark's (Obsidian Help,
 * "Link to blocks": a block is a paragraph, list item, heading, quote, callout, code block,
 * table or math block) with the same boundaries Obsidian's metadata cache gives its
 * `sections` and `listItems`: the frontmatter is one block, each list item is its own block
 * (its nested items are blocks of their own), fenced code and `$$`/`%%` blocks are one block
 * whatever they hold, and a line under a paragraph that is all `=` or `-` makes it a heading.
 */

/** A stretch of the note text: UTF-16 offsets into the whole file text, `start` inclusive, `end` exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/** One Markdown block, from its first non-blank character. `task` is set on a task list item: its status character (a space for an open task). */
export interface NoteBlock extends TextRange {
  kind: 'yaml' | 'heading' | 'paragraph' | 'list-item' | 'code' | 'quote' | 'math' | 'comment' | 'rule';
  task?: string;
  /** For a task, where its text starts (after the `[ ]`); the task operators look from here. */
  taskTextStart?: number;
}

interface Line {
  start: number;
  /** End of the line's text, before `\r\n` or `\n`. */
  end: number;
  text: string;
  /** The line's first character that is not a space or tab ('' for a blank line): most lines are prose, and a block start needs one of {@link MARKS}. */
  first: string;
}

/** First characters a line that starts a block other than a paragraph can have (`=` for a setext underline). */
const MARKS = new Set([...'`~$%#-*_+>=0123456789']);

const FENCE = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])(?:([ \t]+)|$)/;
const TASK = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[([^\]])\](?=[ \t]|$)/;
const TASK_LINE = new RegExp(TASK.source, 'm');
const QUOTE = /^ {0,3}>/;
const MATH = /^[ \t]*\$\$/;
const COMMENT = /^[ \t]*%%/;

/**
 * The lines of `text` as ranges (line breaks excluded), frontmatter lines included.
 * @returns one range per line, in order; a final empty line after a trailing newline is left out
 */
export function noteLines(text: string): TextRange[] {
  const out: TextRange[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const stop = nl < 0 ? text.length : nl;
    if (nl < 0 && stop === start) break;
    out.push({ start, end: stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop });
    start = stop + 1;
  }
  return out;
}

/** True when `text` has a line that opens a task list item (`- [ ]`, `1. [x]`...): a cheap test before parsing blocks for the task operators. */
export function hasTaskMarker(text: string): boolean {
  return TASK_LINE.test(text);
}

/**
 * The Markdown blocks of `text` in order (see the comment at the top of this file).
 * @param text the whole note text, frontmatter included
 */
export function noteBlocks(text: string): NoteBlock[] {
  const lines = splitLines(text);
  const blocks: NoteBlock[] = [];
  const body = bodyStart(text);
  let i = 0;
  if (body > 0 && text.startsWith('---', text.charCodeAt(0) === 0xfeff ? 1 : 0)) {
    while (i < lines.length && lines[i].start < body) i++;
    blocks.push({ kind: 'yaml', start: lines[0].start, end: lines[i - 1].end });
  }
  while (i < lines.length) {
    const t = lines[i].text;
    if (isBlank(t)) {
      i++;
      continue;
    }
    const next = blockAt(lines, i);
    blocks.push(next.block);
    i = next.after;
  }
  return blocks;
}

/**
 * The sections of `text`: from each heading to the next heading of any level, and from the
 * start of the note to its first heading (when anything is there), as Obsidian Help's
 * `section:` ("text between two headings") describes.
 * @param blocks the note's blocks (see {@link noteBlocks})
 */
export function noteSections(text: string, blocks: readonly NoteBlock[]): TextRange[] {
  const starts = blocks.filter((b) => b.kind === 'heading').map((b) => b.start);
  if (starts.length === 0 || blocks[0].kind !== 'heading') starts.unshift(0);
  return starts.map((start, k) => ({ start, end: k + 1 < starts.length ? starts[k + 1] : text.length }));
}

/**
 * The task list items among `blocks`, as the stretch after their checkbox.
 * @param which every task, open ones (status space) or done ones (any other status
 *   character: Obsidian counts `[x]`, `[X]`, `[-]`, `[>]`... as completed)
 */
export function noteTasks(blocks: readonly NoteBlock[], which: 'all' | 'todo' | 'done'): TextRange[] {
  return blocks
    .filter((b) => b.task !== undefined && (which === 'all' || (which === 'todo') === (b.task === ' ')))
    .map((b) => ({ start: b.taskTextStart ?? b.start, end: b.end }));
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const stop = nl < 0 ? text.length : nl;
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    const line = text.slice(start, end);
    lines.push({ start, end, text: line, first: FIRST_MARK.exec(line)?.[0] ?? '' });
    if (nl < 0) return lines;
    start = nl + 1;
  }
}

const FIRST_MARK = /[^ \t]/;

function isBlank(t: string): boolean {
  return !/\S/.test(t);
}

/** The block starting on non-blank line `i`, and the index of the first line after it. */
function blockAt(lines: Line[], i: number): { block: NoteBlock; after: number } {
  const t = lines[i].text;
  if (!MARKS.has(lines[i].first)) return paragraphAt(lines, i);
  const span = (kind: NoteBlock['kind'], last: number): { block: NoteBlock; after: number } => ({
    block: { kind, start: lines[i].start + leading(t).length, end: lines[last].end },
    after: last + 1,
  });
  const fence = FENCE.exec(t);
  if (fence) {
    const close = fenceCloser(fence[1]);
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j].text)) j++;
    return span('code', Math.min(j, lines.length - 1));
  }
  if (MATH.test(t)) return span('math', closingLine(lines, i, '$$'));
  if (COMMENT.test(t)) return span('comment', closingLine(lines, i, '%%'));
  if (ATX_HEADING.test(t)) return span('heading', i);
  if (RULE.test(t)) return span('rule', i);
  const item = LIST_ITEM.exec(t);
  if (item) return listItemAt(lines, i, item);
  if (QUOTE.test(t)) {
    // A line without '>' continues the quote only while a paragraph in it is open (lazy continuation).
    let j = i + 1;
    let open = !isBlank(t.replace(QUOTE, ''));
    while (j < lines.length && !isBlank(lines[j].text)) {
      const tj = lines[j].text;
      if (QUOTE.test(tj)) open = !isBlank(tj.replace(QUOTE, ''));
      else if (!open || startsBlock(tj)) break;
      j++;
    }
    return span('quote', j - 1);
  }
  return paragraphAt(lines, i);
}

/** A paragraph from line `i`, or a setext heading when a `===`/`---` line ends it. */
function paragraphAt(lines: Line[], i: number): { block: NoteBlock; after: number } {
  const start = lines[i].start + lines[i].text.indexOf(lines[i].first);
  let j = i + 1;
  while (j < lines.length) {
    const line = lines[j];
    if (line.first === '') break;
    if (MARKS.has(line.first)) {
      if ((line.first === '=' || line.first === '-') && SETEXT_UNDERLINE.test(line.text)) {
        return { block: { kind: 'heading', start, end: line.end }, after: j + 1 };
      }
      if (startsBlock(line.text) || interruptsWithItem(line.text)) break;
    }
    j++;
  }
  return { block: { kind: 'paragraph', start, end: lines[j - 1].end }, after: j };
}

/** True when a line starts a block that ends a paragraph before it (list items aside, see {@link interruptsWithItem}). */
function startsBlock(t: string): boolean {
  return FENCE.test(t) || ATX_HEADING.test(t) || RULE.test(t) || QUOTE.test(t) || MATH.test(t) || COMMENT.test(t);
}

/** CommonMark: a list item interrupts a paragraph when it has text, and an ordered one only when it starts at 1. */
function interruptsWithItem(t: string): boolean {
  const m = LIST_ITEM.exec(t);
  if (!m || m[3] === undefined || isBlank(t.slice(m[0].length))) return false;
  return !/^\d/.test(m[2]) || /^0*1[.)]$/.test(m[2]);
}

/** The last line of a `$$` or `%%` block opened on line `i` (the line that closes it, or the note's last line). */
function closingLine(lines: Line[], i: number, mark: string): number {
  const first = lines[i].text;
  const opened = first.indexOf(mark);
  if (first.indexOf(mark, opened + 2) >= 0) return i;
  let j = i + 1;
  while (j < lines.length && !lines[j].text.includes(mark)) j++;
  return Math.min(j, lines.length - 1);
}

/**
 * A list item from line `i`: its first line, lazy continuation lines, and lines (also after
 * blank lines) indented to its content; a nested or following item starts a new block.
 */
function listItemAt(lines: Line[], i: number, item: RegExpExecArray): { block: NoteBlock; after: number } {
  const first = lines[i].text;
  const spaces = item[3] ?? ' ';
  const indent = width(item[1]) + item[2].length + (width(spaces) > 4 ? 1 : width(spaces));
  let last = i;
  let j = i + 1;
  // Whether a paragraph of the item is open, so an unindented line still continues it (lazily).
  let lazy = true;
  while (j < lines.length) {
    const tj = lines[j].text;
    const fence = width(leading(tj)) >= indent ? FENCE.exec(tj.trimStart()) : null;
    if (fence) {
      const close = fenceCloser(fence[1]);
      j++;
      while (j < lines.length && !close.test(lines[j].text.trimStart())) j++;
      last = Math.min(j, lines.length - 1);
      j = last + 1;
      lazy = false;
      continue;
    }
    if (isBlank(tj)) {
      let k = j + 1;
      while (k < lines.length && isBlank(lines[k].text)) k++;
      if (k < lines.length && width(leading(lines[k].text)) >= indent && !LIST_ITEM.test(lines[k].text)) {
        j = k;
        continue;
      }
      break;
    }
    if (LIST_ITEM.test(tj)) break;
    const inside = width(leading(tj)) >= indent;
    if (!inside && (startsBlock(tj) || !lazy)) break;
    lazy = true;
    last = j++;
  }
  const block: NoteBlock = { kind: 'list-item', start: lines[i].start + item[1].length, end: lines[last].end };
  const task = TASK.exec(first);
  if (task) {
    block.task = task[1];
    block.taskTextStart = lines[i].start + task[0].length;
  }
  return { block, after: last + 1 };
}

/** The line that closes a fence opened with `mark` (three or more backticks or tildes): the same character, at least as many. */
function fenceCloser(mark: string): RegExp {
  return new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}[ \\t]*$`);
}

function leading(t: string): string {
  return /^[ \t]*/.exec(t)?.[0] ?? '';
}

/** Columns of leading whitespace, a tab advancing to the next multiple of 4 (CommonMark's tab stop). */
function width(ws: string): number {
  let col = 0;
  for (const c of ws) col = c === '\t' ? col + 4 - (col % 4) : col + 1;
  return col;
}
