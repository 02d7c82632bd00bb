import type { QueryNode } from '../query/parser/query-ast';
import { decidedByIndex, literalPattern } from '../query/query-eval';
import type { RegexGuard } from '../query/regex-guard';
import { matchedTermSpans } from '../engine/text/tokenizer';

/** A stretch of text, as UTF-16 offsets: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Most matches of one regex leaf looked at per note: enough for the snippet and the section
 * ranking, bounded so a pathological regex cannot flood them.
 */
const MAX_LEAF_MATCHES = 1000;

/**
 * Where a query's positive leaves match a note body: index-decided words where the note has
 * one of the index terms it matched (exact, prefix or fuzzy), phrases and token-less words
 * as literal text (case-insensitive, NFC/NFD-tolerant, any whitespace between words), user
 * regexes through `guard`.
 * @param body the note body (text after the frontmatter)
 * @param leaves positive word/phrase/regex nodes (see `positiveLeaves`)
 * @param matchedTerms normalized index terms the note matched for its words
 * @param guard runs the user's regexes with the search's time budget
 * @param note the note's vault path, named when a regex is too slow on it (RegexGuard.matchAll)
 * @returns spans into `body`, sorted by start, overlapping or touching spans merged
 * @throws ToolError('invalid_argument') from `guard` when a user regex exceeds the time budget
 */
export function matchSpans(body: string, leaves: QueryNode[], matchedTerms: ReadonlySet<string>, guard: RegexGuard, note?: string): Span[] {
  const found: Span[] = [];
  let termsDone = false;
  for (const leaf of leaves) {
    if (leaf.kind === 'regex') {
      found.push(...guard.matchAll(globalRegex(leaf.regex), body, MAX_LEAF_MATCHES, note));
    } else if (leaf.kind === 'phrase' || (leaf.kind === 'word' && !decidedByIndex(leaf.text))) {
      const literal = literalPattern(leaf.text);
      found.push(...allMatches(new RegExp(literal.source, literal.flags + 'g'), body));
    } else if (leaf.kind === 'word' && !termsDone) {
      termsDone = true;
      for (const t of termSpansIn(body, matchedTerms)) found.push(t);
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of found) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** A term as the index keeps an ASCII word: lower-case letters and digits. */
const ASCII_TERM = /^[a-z0-9]+$/;
/** A UTF-16 unit above U+007F. */
const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * Where the index terms `terms` occur in `body`: the spans of `matchedTermSpans(body, terms)`,
 * cheaper on a mostly-ASCII note with a few non-ASCII characters (a dash, a quote, a name).
 * A term never spans a line break, so the lines holding a non-ASCII character go through
 * the tokenizer one by one and the rest through one native regex pass, as wholly ASCII text
 * does in `matchedTermSpans`.
 * @param terms normalized index terms
 * @returns spans into `body` (start, end), in text order (as matchedTermSpans gives them)
 */
export function termSpansIn(body: string, terms: ReadonlySet<string>): Span[] {
  const ascii = [...terms];
  if (ascii.length === 0 || !ascii.every((t) => ASCII_TERM.test(t))) return toSpans(matchedTermSpans(body, terms), 0);
  NON_ASCII.lastIndex = 0;
  let hit = NON_ASCII.exec(body);
  if (hit === null) return toSpans(matchedTermSpans(body, terms), 0);
  // The lines holding a non-ASCII unit, in order: [start, end) without their line break.
  const lines: Span[] = [];
  while (hit !== null) {
    const next = body.indexOf('\n', hit.index);
    const end = next < 0 ? body.length : next;
    lines.push({ start: body.lastIndexOf('\n', hit.index) + 1, end });
    NON_ASCII.lastIndex = end;
    hit = NON_ASCII.exec(body);
  }
  const spans: Span[] = [];
  for (const line of lines) spans.push(...toSpans(matchedTermSpans(body.slice(line.start, line.end), terms), line.start));
  // A match never holds a line break, so each lies wholly inside or outside those lines.
  const words = new RegExp(`(?<![A-Za-z0-9])(?:${ascii.join('|')})(?![A-Za-z0-9])`, 'gi');
  let k = 0;
  for (const m of body.matchAll(words)) {
    while (k < lines.length && lines[k].end <= m.index) k++;
    if (k < lines.length && lines[k].start <= m.index) continue;
    spans.push({ start: m.index, end: m.index + m[0].length });
  }
  return spans.sort((x, y) => x.start - y.start);
}

function toSpans(terms: readonly { start: number; end: number }[], offset: number): Span[] {
  return terms.map((t) => ({ start: offset + t.start, end: offset + t.end }));
}

const globals = new WeakMap<RegExp, RegExp>();

/** The `g` twin of a user regex, compiled once per query. */
function globalRegex(regex: RegExp): RegExp {
  let g = globals.get(regex);
  if (g === undefined) {
    g = new RegExp(regex.source, regex.flags + 'g');
    globals.set(regex, g);
  }
  return g;
}

/** Every match of a global regex; an empty match marks nothing but still counts as a location. */
function allMatches(regex: RegExp, body: string): Span[] {
  const spans: Span[] = [];
  for (const m of body.matchAll(regex)) spans.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  return spans;
}
