import { bodyStart } from '../../vault/content/note-body';
import { withPreamble, type NoteSection } from '../../vault/content/sections';
import { matchSpans, type Span } from './match-spans';
import type { QueryNode } from '../query/parser/query-ast';
import type { RegexGuard } from '../query/regex-guard';
import { bestSection, densestSpan } from './section-rank';
import { queryTerms } from '../engine/text/tokenizer';
import { isSpace } from '../engine/filters/phrase-filter';
import { displayText, fencesOf, highlightMask, type DisplayText, type Fence } from './snippet-display';
import { clusterAround, clusterEnd, clusterStart } from '../../vault/content/text/graphemes';

/** Where the snippet's match sits and the text shown around it. Offsets are UTF-16 indexes into the full note text. */
export interface Snippet {
  /**
   * About `width` characters of the body as a reader sees it (see snippet-display.ts), on one
   * line, cut at word boundaries (else between grapheme clusters, never inside one: see
   * vault/content/text/graphemes.ts), `…` where cut, matches wrapped in `**` around whole clusters
   * (never nested, never inside a link target, code span, URL or HTML).
   */
  text: string;
  /** Start of the match the snippet is centred on, in the full text; null when nothing matched in the body (e.g. a title-only match). */
  matchOffset: number | null;
  /** The section where the matches concentrate (see section-rank.ts), the preamble included; null without a body match. */
  section: NoteSection | null;
}

/** Display characters a snippet shows (the `**` marks and `…` come on top): short enough to scan, long enough to judge. */
export const SNIPPET_WIDTH = 160;

/** How far around the match, in source chars, the display text is built before the window is chosen. */
const REGION_FACTOR = 4;
/** How far around the match, in source chars, the display text is first built (see {@link nearRegion}). */
const NEAR_FACTOR = 2;
/** Share of a snippet's room shown before its anchor match; the rest, and the match, come after it. */
const LEAD = 0.4;
/** How far a cut may move to reach a word boundary, display chars. */
const SNAP = 30;

/** Where a snippet goes in one note: the body's matches, the match to centre on and the section (see {@link placeSnippet}). */
export interface SnippetPlace {
  /** Offset of the body (text after the frontmatter) in the full text. */
  bodyAt: number;
  /** Every match in the body, as offsets into the body, sorted, not overlapping. */
  spans: Span[];
  /** The match to centre on, as offsets into the body; null without a body match. */
  anchor: Span | null;
  /** Start of `anchor` in the full text; null without a body match. */
  matchOffset: number | null;
  /** The section where the matches concentrate; null without a body match. */
  section: NoteSection | null;
}

/**
 * Places the snippet for one note without building its text (what a page without snippets,
 * `fields: "metadata"`, still needs for `section`): finds the matches of the query's positive
 * words, phrases and regexes in the body (never in the frontmatter), picks the section where
 * they concentrate, and the match starting the densest cluster of `width` characters in it.
 * Parameters and throws as {@link buildSnippet}; `note`, the note's vault path, is named when a regex is too slow on it.
 * @returns the place; without a body match, `anchor`, `matchOffset` and `section` null
 */
export function placeSnippet(
  text: string,
  leaves: QueryNode[],
  matchedTerms: ReadonlySet<string>,
  guard: RegexGuard,
  outline: readonly NoteSection[] = [],
  width = SNIPPET_WIDTH,
  note?: string,
): SnippetPlace {
  const bodyAt = bodyStart(text);
  const spans = matchSpans(text.slice(bodyAt), leaves, matchedTerms, guard, note);
  const inText = spans.map((s) => ({ start: bodyAt + s.start, end: bodyAt + s.end }));
  const words = leaves.flatMap((leaf) => (leaf.kind === 'word' ? queryTerms(leaf.text) : []));
  const ranked = bestSection(text, withPreamble(outline, text, bodyAt), inText, words);
  // Matches are counted over the stretch shown after the anchor, so those that made a window the densest are in the snippet.
  const at = densestSpan(text, ranked?.spans ?? inText, Math.floor(width * (1 - LEAD)), words) ?? null;
  const anchor = at === null ? null : { start: at.start - bodyAt, end: at.end - bodyAt };
  return { bodyAt, spans, anchor, matchOffset: at?.start ?? null, section: ranked?.section ?? null };
}

/**
 * Builds the snippet for one note: {@link placeSnippet}, then about `width` display
 * characters centred on its anchor, marking every match inside that window.
 * @param text full note text
 * @param leaves positive word/phrase/regex nodes (see `positiveLeaves`)
 * @param matchedTerms index terms the note matched for its words (exact, prefix or fuzzy), normalized
 * @param guard runs the user's regexes with the search's time budget
 * @param outline the note's heading outline (NoteStore.outline); the preamble is added here
 * @param width display characters to show (default {@link SNIPPET_WIDTH})
 * @returns the snippet; without a body match, the start of the body unmarked, `matchOffset` and `section` null
 * @throws ToolError('invalid_argument') from `guard` when a user regex exceeds the time budget
 */
export function buildSnippet(
  text: string,
  leaves: QueryNode[],
  matchedTerms: ReadonlySet<string>,
  guard: RegexGuard,
  outline: readonly NoteSection[] = [],
  width = SNIPPET_WIDTH,
): Snippet {
  const place = placeSnippet(text, leaves, matchedTerms, guard, outline, width);
  return {
    text: snippetText(text.slice(place.bodyAt), place.spans, place.anchor, width),
    matchOffset: place.matchOffset,
    section: place.section,
  };
}

/**
 * The snippet text of `body` around `anchor`.
 * @param body note body (text after the frontmatter)
 * @param spans every match in `body`, sorted, not overlapping (see `matchSpans`); those in the window are marked
 * @param anchor the match to centre on, or null for the start of the body
 * @param width display characters to show
 * @returns one line of about `width` display characters: display text cut at word boundaries (never inside inline code; with no
 *   space near, between grapheme clusters), `…` where cut; no lone surrogate, no half cluster. A
 *   match longer than `width` (a regex over a long stretch, a long word) shows its first `width` characters, marked, then `…`
 */
export function snippetText(body: string, spans: readonly Span[], anchor: Span | null, width: number): string {
  const reach = REGION_FACTOR * width;
  // A match longer than the width is shown from its start: the regions need reach only past the part shown.
  const shown = anchor !== null && anchor.end - anchor.start > width ? { start: anchor.start, end: anchor.start + width } : anchor;
  // A very long line's region starts and ends at its reach: on a cluster boundary, so its display text holds no half character.
  const from = shown === null ? 0 : clusterStart(body, lineStart(body, Math.max(0, shown.start - reach), shown.start - 2 * reach));
  const to = clusterEnd(body, lineEnd(body, Math.min(body.length, (shown?.end ?? 0) + reach), (shown?.end ?? 0) + 2 * reach));
  const fences = fencesOf(body, to);
  const full = { from, to, cutStart: false, cutEnd: false };
  const near = nearRegion(body, shown, width, full, fences);
  return (near && windowText(body, spans, shown, width, near, fences)) ?? windowText(body, spans, shown, width, full, fences)!;
}

/** A stretch of a body the display text is built over: `from` a line start (or the start of a very long line's reach), `to` exclusive. */
interface Region {
  from: number;
  to: number;
  /** True when the region starts after the full region (see {@link nearRegion}). */
  cutStart: boolean;
  /** True when the region ends before the full region. */
  cutEnd: boolean;
}

/**
 * A region inside `full` that usually holds the whole window around `anchor` (about
 * {@link NEAR_FACTOR} × `width` source chars on each side), so most snippets build the display
 * text of far fewer chars than `full` holds. Its start moves in only to a line start that the
 * display text of `full` reaches in its plain state: no fence and no syntax that may span lines
 * (HTML comments and tags, `%%` comments) lies between the two starts. {@link windowText} checks
 * the window it finds inside it; when the window might differ from the one of `full`, it falls
 * back to `full`.
 * @returns the region, or null when it would be `full` itself
 */
function nearRegion(body: string, anchor: Span | null, width: number, full: Region, fences: readonly Fence[]): Region | null {
  const reach = NEAR_FACTOR * width;
  const to = Math.min(full.to, (anchor?.end ?? 0) + reach);
  let from = anchor === null ? full.from : lineStart(body, Math.max(0, anchor.start - reach), 0);
  if (from <= full.from || fences.some((f) => f.start < from && from < f.end) || /[<%]/.test(body.slice(full.from, from))) from = full.from;
  return from === full.from && to === full.to ? null : { from, to, cutStart: from > full.from, cutEnd: to < full.to };
}

/**
 * The snippet text shown from the display text of `region`. The display text of a region cut
 * at its start ({@link nearRegion}) is that of the full region less the characters before the
 * cut (both reach that line start in the same state: a space last or nothing shown), and that
 * of a region cut at its end is a prefix of the full one but for its last character (a fence
 * cut there closes with a space); so the window is the same when it was neither clamped at a
 * cut start nor within {@link SNAP} + 3 characters of a cut end.
 * @returns the snippet; null when the region is cut and the window might differ from the full region's
 */
function windowText(
  body: string,
  spans: readonly Span[],
  anchor: Span | null,
  width: number,
  region: Region,
  fences: readonly Fence[],
): string | null {
  const { from, to, cutStart, cutEnd } = region;
  const display = displayText(body, from, to, fences);
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
  // A match longer than the width shows its first `width` characters, cut with `…`: a snippet stays about `width` long whatever a regex or a long word matched.
  const shownRun = Math.min(aEnd - a, width);
  const room = width - shownRun;
  let start = a - Math.floor(room * LEAD);
  let end = Math.min(n, Math.max(0, start) + width);
  if (end === n) start = Math.min(a, end - width);
  start = snapStart(display, Math.max(0, start), a);
  end = snapEnd(display, end, Math.max(a + shownRun, start));
  // Where no space is near (CJK, a run of emoji), the cut falls between two characters as a reader sees them: never inside a cluster.
  start = clusterStart(display.text, start);
  end = clusterEnd(display.text, end);
  // The last display character of a region cut short may differ (and the highlight of the one before it); a window start of 0 reads the text before the region.
  if ((cutStart && start < 1) || (cutEnd && end + SNAP + 3 > n)) return null;
  wholeClusters(display, mask, start, end);
  const shown = trimSpaces(marked(display, mask, start, end));
  const before = start > 0 || hasText(body, 0, from);
  const after = end < n || hasText(body, to, body.length);
  return (before ? '…' : '') + shown + (after ? '…' : '');
}

/**
 * The window `[start, end)` of a display text with `**` around each run of marked characters
 * (runs trimmed of spaces; a marked space that would start a run is shown as it is).
 * @param mask for each display character, true when it is part of a match
 */
export function marked(display: DisplayText, mask: readonly boolean[], start: number, end: number): string {
  let out = '';
  let k = start;
  while (k < end) {
    // Unmarked characters, and a marked space outside a run, are copied as they are: a run of them at once.
    let plain = k;
    while (plain < end && (!mask[plain] || display.text.charCodeAt(plain) === 0x20)) plain++;
    if (plain > k) {
      out += display.text.slice(k, plain);
      k = plain;
      continue;
    }
    let j = k;
    while (j < end && mask[j]) j++;
    let last = j;
    while (last > k && display.text[last - 1] === ' ') last--;
    out += `**${display.text.slice(k, last)}**${display.text.slice(last, j)}`;
    k = j;
  }
  return out;
}

/**
 * Widens each run of marked characters in the window `[start, end)` (both cluster boundaries)
 * to whole grapheme clusters, so `**` never lands between a letter and its accent or an emoji
 * and its skin tone (`/Cafe/` in `Café` written with U+0301 marks `**Café**`). A cluster that
 * holds a character a highlight never lands on (URL, fenced code, separator) is left unmarked
 * instead. Reads only the clusters at the ends of runs: no segmentation of the whole window.
 * @param mask one flag per display code unit; changed in place inside the window only
 */
function wholeClusters(display: DisplayText, mask: boolean[], start: number, end: number): void {
  const { text, atom } = display;
  let k = start;
  while (k < end) {
    if (!mask[k]) {
      k++;
      continue;
    }
    let j = k;
    while (j < end && mask[j]) j++;
    let from = k;
    let to = j;
    const head = clusterAround(text, from);
    if (head.start < from) from = neverIn(atom, head.start, from) ? head.end : head.start;
    const tail = clusterAround(text, to);
    if (tail.start < to) to = neverIn(atom, to, tail.end) ? tail.start : tail.end;
    mask.fill(false, k, j);
    if (from < to) mask.fill(true, from, to);
    k = Math.max(j, to);
  }
}

/** True when a display character in `[from, to)` is one a highlight never lands on. */
function neverIn(atom: readonly number[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (atom[k] < 0) return true;
  return false;
}

/** `shown` without spaces at its ends, except a space that starts a cluster with a combining mark after it (trimming it would leave the mark bare). */
function trimSpaces(shown: string): string {
  let a = 0;
  while (a < shown.length && shown[a] === ' ' && clusterEnd(shown, a + 1) === a + 1) a++;
  let b = shown.length;
  while (b > a && shown[b - 1] === ' ') b--;
  return shown.slice(a, b);
}

/** True when a cut at display index `k` keeps words and inline code whole. */
function cuttable(display: DisplayText, k: number): boolean {
  const { text, atom } = display;
  if (k <= 0 || k >= text.length) return true;
  if (atom[k] > 0 && atom[k - 1] === atom[k]) return false;
  return text[k - 1] === ' ' || text[k] === ' ';
}

/** Moves a window start to a word boundary: forward (never past `limit`), else backward, within {@link SNAP} chars. */
function snapStart(display: DisplayText, start: number, limit: number): number {
  for (let k = start; k <= limit && k <= start + SNAP; k++) if (cuttable(display, k)) return k;
  for (let k = start - 1; k >= 0 && k >= start - SNAP; k--) if (cuttable(display, k)) return k;
  return start;
}

/** Moves a window end to a word boundary: backward (never before `limit`), else forward, within {@link SNAP} chars. */
function snapEnd(display: DisplayText, end: number, limit: number): number {
  for (let k = end; k >= limit && k >= end - SNAP; k--) if (cuttable(display, k)) return k;
  for (let k = end + 1; k <= display.text.length && k <= end + SNAP; k++) if (cuttable(display, k)) return k;
  return end;
}

/** Offset of the start of the line holding `at`, or `floor` when that line starts before it (a very long line). */
function lineStart(text: string, at: number, floor: number): number {
  return Math.max(text.lastIndexOf('\n', at - 1) + 1, floor, 0);
}

/** Offset of the end of the line holding `at`, or `ceiling` when that line ends after it (a very long line). */
function lineEnd(text: string, at: number, ceiling: number): number {
  const nl = text.indexOf('\n', at);
  return Math.min(nl < 0 ? text.length : nl, Math.max(ceiling, at), text.length);
}

/** True when `text[from, to)` has a non-whitespace character. */
function hasText(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isSpace(text.charCodeAt(k))) return true;
  return false;
}
