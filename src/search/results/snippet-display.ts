import { isSpace } from '../engine/filters/phrase-filter';
import { firstEndingAfter } from '../query/stretches/text-ranges';
import type { Span } from './match-spans';

/**
 * The text a snippet shows for a stretch of Markdown: what a reader sees in Obsidian's
 * reading view, as one line. Emphasis marks (`**`, `__`, `==`), link syntax, embeds, images,
 * HTML tags, comments, footnote marks and line prefixes (headings, quotes, callouts) are
 * left out; a wikilink or Markdown link shows its visible text (the alias when it has one);
 * inline code keeps its backticks; whitespace collapses to single spaces. Every character
 * remembers where it came from and whether a highlight may land on it, so the snippet can
 * wrap matches in `**` without ever nesting emphasis or marking inside link targets, code
 * spans, URLs or HTML.
 */

/** How highlighting treats one display character. */
export interface DisplayText {
  /** The display characters (UTF-16 code units), whitespace collapsed to single spaces. */
  text: string;
  /** For each code unit of `text`, its offset in the source. */
  src: number[];
  /**
   * For each code unit of `text`: 0 for free text (a highlight may start or end anywhere);
   * a positive id for inline code (highlighted whole or not at all, never cut); a negative id
   * for text a highlight never lands on (URLs, fenced code, link separators).
   */
  atom: number[];
  /**
   * Links whose source holds text the display hides (a wikilink's target before its `|alias`,
   * a `#^block` id, a Markdown link's destination): a match there marks the link's shown text
   * (see {@link highlightMask}), so a snippet whose only match is in a link's target still
   * shows it.
   */
  links: LinkShown[];
}

/** A link's hidden source range `[hiddenFrom, hiddenTo)` and the display range `[shownFrom, shownTo)` that stands for it. */
export interface LinkShown {
  hiddenFrom: number;
  hiddenTo: number;
  shownFrom: number;
  shownTo: number;
}

/** A fenced code block: the whole block and the lines between its fences, as offsets. */
export interface Fence {
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})[^\n]*$/gm;

/**
 * The fenced code blocks of a body (CommonMark: a line of ≥ 3 backticks or tildes opens, a
 * line of at least as many of the same character closes; an unclosed block runs to the end).
 * @param until only blocks opening before this offset (default: all); a block that opens
 *   before it is returned whole, however far it runs
 * @returns blocks in text order, not overlapping; empty when the body has no fence line.
 */
export function fencesOf(body: string, until = body.length): Fence[] {
  if (!body.includes('```') && !body.includes('~~~')) return [];
  const fences: Fence[] = [];
  FENCE_OPEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = FENCE_OPEN.exec(body)) !== null && m.index < until) {
    const marker = m[1];
    if (marker[0] === '`' && m[0].slice(m[0].indexOf(marker) + marker.length).includes('`')) continue;
    const contentStart = Math.min(body.length, m.index + m[0].length + 1);
    const close = closingFence(marker);
    close.lastIndex = contentStart;
    const c = close.exec(body);
    const contentEnd = c ? c.index : body.length;
    const end = c ? c.index + c[0].length : body.length;
    fences.push({ start: m.index, end, contentStart: Math.min(contentStart, contentEnd), contentEnd });
    FENCE_OPEN.lastIndex = Math.max(end, m.index + 1);
  }
  return fences;
}

/** The closing-line regexes by opening marker (`` ``` ``, `~~~~`, …): few distinct ones, compiled once. */
const closers = new Map<string, RegExp>();
/** Bound of {@link closers}: real notes use a handful of markers; a note with hundreds of lengths only recompiles. */
const MAX_CLOSERS = 32;

/** The regex of a line closing a fence opened by `marker`: at least as many of its character, then only spaces or tabs. */
function closingFence(marker: string): RegExp {
  let close = closers.get(marker);
  if (close === undefined) {
    if (closers.size >= MAX_CLOSERS) closers.clear();
    close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'gm');
    closers.set(marker, close);
  }
  return close;
}

const LINE_PREFIX = /[ \t]*(?:>[ \t]*)*(?:\[![^\]\n]*\][+-]?[ \t]*|#{1,6}(?=[ \t\n]|$)[ \t]*)?/y;
const INLINE_CODE = /(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/y;
const EMBED = /!\[\[[^\]\n]*\]\]/y;
const IMAGE = /!\[[^\]\n]*\]\([^)\n]*\)/y;
const WIKILINK = /\[\[([^[\]\n]+?)\]\]/y;
const FOOTNOTE = /\[\^[^\]\n]+\]/y;
const MD_LINK = /\[((?:[^[\]\n]|\[[^\]\n]*\])+)\]\(([^()\n]*(?:\([^()\n]*\)[^()\n]*)*)\)/y;
const HTML_COMMENT = /<!--[\s\S]*?-->/y;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/y;
const AUTOLINK = /<((?:https?|mailto|obsidian):[^<>\s]+)>/y;
const OBSIDIAN_COMMENT = /%%[\s\S]*?%%/y;
const EMPHASIS_RUN = /\*{2,}|_{2,}|==/y;
const BARE_URL = /(?:https?:\/\/|www\.)[^\s<>()[\]]*[^\s<>()[\].,;:!?'"*_]/y;
/**
 * 1 for the characters that may start Markdown syntax (`` ` `` `!` `[` `<` `%` `*` `_` `=` `\\`
 * `h` `w`), by char code below 128; everything else is plain text. A table: this is read for
 * every source char a snippet shows.
 */
const SPECIAL = new Uint8Array(128);
for (const ch of '`![<%*_=\\hw') SPECIAL[ch.charCodeAt(0)] = 1;

/**
 * Builds a {@link DisplayText} piece by piece: the text as slices of stretches without
 * whitespace (one append per word, not per character), a whitespace run as one space unless
 * one is already last (or nothing is shown yet).
 */
class DisplayBuilder {
  private text = '';
  readonly src: number[] = [];
  readonly atom: number[] = [];
  readonly links: LinkShown[] = [];
  private atoms = 0;
  /** True when nothing is shown yet or the last character shown is a space: a whitespace character then adds nothing. */
  private spaceLast = true;

  /** Source text shown as itself, free for highlighting. */
  free(source: string, from: number, to: number): void {
    this.append(source, from, to, from, true, 0);
  }

  /** Text shown as one unit: `whole` (inline code) or `never` (URL, fenced code, separators). */
  unit(text: string, srcStart: number, kind: 'whole' | 'never', sameAsSource: boolean): void {
    this.append(text, 0, text.length, srcStart, sameAsSource, ++this.atoms * (kind === 'whole' ? 1 : -1));
  }

  /**
   * Shows `text[from, to)`: each stretch without whitespace as it is, each whitespace character as
   * {@link gap}. A shown character's source offset is `srcAt` plus its offset from `from` when
   * `sameAsSource`, else `srcAt`; its atom id is `atom`.
   */
  private append(text: string, from: number, to: number, srcAt: number, sameAsSource: boolean, atom: number): void {
    let run = from;
    for (let k = from; k <= to; k++) {
      if (k < to && !isSpace(text.charCodeAt(k))) continue;
      if (k > run) {
        this.text += text.slice(run, k);
        for (let j = run; j < k; j++) {
          this.src.push(sameAsSource ? srcAt + (j - from) : srcAt);
          this.atom.push(atom);
        }
        this.spaceLast = false;
      }
      if (k < to) this.gap(sameAsSource ? srcAt + (k - from) : srcAt, atom);
      run = k + 1;
    }
  }

  /**
   * A whitespace character or hidden syntax that separates words (tags, embeds) at source offset
   * `at`: one space, unless nothing is shown yet or a space is last.
   */
  gap(at: number, atom = 0): void {
    if (this.spaceLast) return;
    this.text += ' ';
    this.src.push(at);
    this.atom.push(atom);
    this.spaceLast = true;
  }

  /** How many display characters are shown so far (where the next one goes). */
  get length(): number {
    return this.text.length;
  }

  /**
   * Records that the display characters from `shownFrom` to the current end stand for the
   * hidden source `[hiddenFrom, hiddenTo)` of a link (nothing when none were shown).
   */
  link(hiddenFrom: number, hiddenTo: number, shownFrom: number): void {
    if (hiddenTo > hiddenFrom && this.text.length > shownFrom)
      this.links.push({ hiddenFrom, hiddenTo, shownFrom, shownTo: this.text.length });
  }

  result(): DisplayText {
    return { text: this.text, src: this.src, atom: this.atom, links: this.links };
  }
}

/**
 * The display text of `source[from, to)`.
 * @param source a note body; `from`/`to` should be line starts/ends so no construct is cut
 * @param fences the body's fenced code blocks (see {@link fencesOf})
 */
export function displayText(source: string, from: number, to: number, fences: readonly Fence[]): DisplayText {
  const out = new DisplayBuilder();
  let i = from;
  let plainFrom = i;
  const flush = (upTo: number): void => {
    if (upTo > plainFrom) out.free(source, plainFrom, upTo);
  };
  // Fences are in text order and do not overlap, and `i` only grows: the one fence that can hold `i` is the first ending after it.
  let next = 0;
  while (i < to) {
    while (next < fences.length && fences[next].end <= i) next++;
    const fence = next < fences.length && fences[next].start <= i ? fences[next] : undefined;
    if (fence) {
      flush(i);
      const a = Math.max(i, fence.contentStart);
      const b = Math.min(to, fence.contentEnd);
      out.gap(i);
      if (b > a) out.unit(source.slice(a, b), a, 'never', true);
      out.gap(i);
      i = plainFrom = Math.min(to, Math.max(fence.end, i + 1));
      continue;
    }
    if (i === 0 || source[i - 1] === '\n') {
      const prefix = sticky(LINE_PREFIX, source, i);
      if (prefix !== null && prefix[0].length > 0) {
        flush(i);
        i = plainFrom = Math.min(to, i + prefix[0].length);
        continue;
      }
    }
    const code = source.charCodeAt(i);
    if (code >= 128 || SPECIAL[code] === 0) {
      i++;
      continue;
    }
    const taken = syntaxAt(source, i, out, () => flush(i));
    if (taken > 0) {
      i = plainFrom = Math.min(to, i + taken);
    } else {
      i++;
    }
  }
  flush(to);
  return out.result();
}

/**
 * Recognizes one piece of inline syntax at `i` and adds its display to `out` (after calling
 * `flush` for the plain text before it).
 * @returns how many source chars it took; 0 when `i` starts no syntax.
 */
function syntaxAt(source: string, i: number, out: DisplayBuilder, flush: () => void): number {
  const ch = source[i];
  let m: RegExpExecArray | null;
  if (ch === '\\' && i + 1 < source.length && /[!-/:-@[-`{-~]/.test(source[i + 1])) {
    flush();
    out.unit(source.slice(i, i + 2), i, 'never', true);
    return 2;
  }
  if (ch === '`' && (m = sticky(INLINE_CODE, source, i))) {
    flush();
    out.unit(m[0], i, 'whole', true);
    return m[0].length;
  }
  if (ch === '!' && ((m = sticky(EMBED, source, i)) || (m = sticky(IMAGE, source, i)))) {
    flush();
    out.gap(i);
    return m[0].length;
  }
  if (ch === '[') {
    if ((m = sticky(WIKILINK, source, i))) {
      flush();
      wikilink(source, i + 2, m[1].length, out);
      return m[0].length;
    }
    if ((m = sticky(FOOTNOTE, source, i))) {
      flush();
      return m[0].length;
    }
    if ((m = sticky(MD_LINK, source, i))) {
      flush();
      const shownFrom = out.length;
      freeWithoutEmphasis(source, i + 1, i + 1 + m[1].length, out);
      out.link(i + m[1].length + 3, i + m[0].length - 1, shownFrom);
      return m[0].length;
    }
  }
  if (ch === '<') {
    if ((m = sticky(AUTOLINK, source, i))) {
      flush();
      out.unit(m[1], i + 1, 'never', true);
      return m[0].length;
    }
    if ((m = sticky(HTML_COMMENT, source, i)) || (m = sticky(HTML_TAG, source, i))) {
      flush();
      out.gap(i);
      return m[0].length;
    }
  }
  if (ch === '%' && (m = sticky(OBSIDIAN_COMMENT, source, i))) {
    flush();
    out.gap(i);
    return m[0].length;
  }
  if ((ch === '*' || ch === '_' || ch === '=') && (m = sticky(EMPHASIS_RUN, source, i))) {
    if (ch === '_' && /[\p{L}\p{N}]/u.test(source[i - 1] ?? '') && /[\p{L}\p{N}]/u.test(source[i + m[0].length] ?? '')) return 0;
    flush();
    return m[0].length;
  }
  if ((ch === 'h' || ch === 'w') && !/[\p{L}\p{N}]/u.test(source[i - 1] ?? '') && (m = sticky(BARE_URL, source, i))) {
    flush();
    out.unit(m[0], i, 'never', true);
    return m[0].length;
  }
  return 0;
}

/**
 * A wikilink's visible text: the alias after `|` when there is one, else the link text with
 * `#` shown as ` > ` and a `^block` id left out (as Obsidian shows an unaliased link).
 * @param source the body; @param at offset of the text between `[[` and `]]`; @param length its length
 */
function wikilink(source: string, at: number, length: number, out: DisplayBuilder): void {
  const inner = source.slice(at, at + length);
  const bar = inner.indexOf('|');
  const shownFrom = out.length;
  if (bar >= 0) {
    freeWithoutEmphasis(source, at + bar + 1, at + length, out);
    out.link(at, at + bar, shownFrom);
    return;
  }
  const block = inner.indexOf('^');
  const shown = block >= 0 ? inner.slice(0, block) : inner;
  let k = 0;
  let before = false;
  for (const part of shown.split('#')) {
    if (part.trim() !== '') {
      if (before) out.unit(' > ', at + k - 1, 'never', false);
      out.free(source, at + k, at + k + part.length);
      before = true;
    }
    k += part.length + 1;
  }
  if (block >= 0) out.link(at + block, at + length, shownFrom);
}

/**
 * Shows `source[from, to)` as free text less its emphasis marks (`**`, `__`, `==` runs; `_` inside a word stays),
 * as the body's text loses them: a link's shown text such as `the **home** link` must not bring its own `**` next to a highlight's.
 */
function freeWithoutEmphasis(source: string, from: number, to: number, out: DisplayBuilder): void {
  let start = from;
  for (let k = from; k < to; k++) {
    const ch = source[k];
    if (ch !== '*' && ch !== '_' && ch !== '=') continue;
    const m = sticky(EMPHASIS_RUN, source, k);
    if (m === null || k + m[0].length > to) continue;
    if (ch === '_' && /[\p{L}\p{N}]/u.test(source[k - 1] ?? '') && /[\p{L}\p{N}]/u.test(source[k + m[0].length] ?? '')) continue;
    if (k > start) out.free(source, start, k);
    k += m[0].length - 1;
    start = k + 1;
  }
  if (to > start) out.free(source, start, to);
}

/** `regex.exec` anchored at `at` (the regex must be sticky). */
function sticky(regex: RegExp, text: string, at: number): RegExpExecArray | null {
  regex.lastIndex = at;
  return regex.exec(text);
}

/**
 * Which display characters a highlight covers: free characters whose source offset lies in a
 * span, the shown text of a link whose hidden part (target, `#^block` id, destination) a span
 * touches when none of that text is marked already (so `[[Recipes#Sourdough|the bread]]` found
 * by "sourdough" shows `**the bread**`, while a match in the alias itself is marked where it
 * stands), every character of an inline-code unit any of whose characters does, and a single
 * space between two covered characters (so `**JSON Canvas**`, not `**JSON** **Canvas**`).
 * @param spans source spans, sorted by start, not overlapping
 * @returns one flag per display code unit
 */
export function highlightMask(display: DisplayText, spans: readonly Span[]): boolean[] {
  const mask = new Array<boolean>(display.text.length).fill(false);
  let p = 0;
  for (let k = 0; k < display.text.length; k++) {
    const at = display.src[k];
    while (p < spans.length && spans[p].end <= at) p++;
    if (p < spans.length && spans[p].start <= at && display.atom[k] >= 0) mask[k] = true;
  }
  for (const link of display.links) {
    if (!overlapsSpan(spans, link.hiddenFrom, link.hiddenTo) || mask.slice(link.shownFrom, link.shownTo).includes(true)) continue;
    for (let k = link.shownFrom; k < link.shownTo; k++) if (display.atom[k] === 0 && display.text[k] !== ' ') mask[k] = true;
  }
  for (let k = 0; k < mask.length; k++) {
    const id = display.atom[k];
    if (id <= 0 || !mask[k]) continue;
    let a = k;
    while (a > 0 && display.atom[a - 1] === id) a--;
    let b = k;
    while (b + 1 < mask.length && display.atom[b + 1] === id) b++;
    for (let j = a; j <= b; j++) mask[j] = true;
    k = b;
  }
  for (let k = 1; k + 1 < mask.length; k++) {
    if (!mask[k] && mask[k - 1] && mask[k + 1] && display.text[k] === ' ' && display.atom[k] === 0) mask[k] = true;
  }
  return mask;
}

/** True when some span of `spans` (sorted by start, not overlapping) overlaps `[from, to)`. */
function overlapsSpan(spans: readonly Span[], from: number, to: number): boolean {
  const k = firstEndingAfter(spans, from);
  return k < spans.length && spans[k].start < to;
}
