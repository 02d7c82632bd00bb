import { bodyStart } from '../vault/note-body';
import type { QueryNode } from './query-ast';
import { decidedByIndex, literalPattern } from './query-eval';
import type { RegexGuard } from './regex-guard';
import { termSpans } from './tokenizer';

/** Where the first match sits and the text shown around it. Offsets are UTF-16 indexes into the full note text. */
export interface Snippet {
  /** About `width` characters of body text, whitespace collapsed, the match wrapped in `**`, `…` where cut. */
  text: string;
  /** Start of the match in the full text, or null when nothing matched in the body (e.g. a title-only match). */
  matchOffset: number | null;
}

/**
 * Builds the snippet for one note: finds the earliest match of the query's positive words,
 * phrases and regexes in the body (never in the frontmatter), cuts about `width` characters
 * around it on word boundaries, and wraps every match inside that window in `**`.
 * @param text full note text
 * @param leaves positive word/phrase/regex nodes (see `positiveLeaves`)
 * @param matchedTerms index terms the note matched for its words (exact, prefix or fuzzy), normalized
 * @param guard runs the user's regexes with the search's time budget
 * @param width target snippet length in characters (default 200)
 * @returns the snippet; without a body match, the start of the body unmarked and `matchOffset: null`
 * @throws ToolError('invalid_argument') from `guard` when a user regex exceeds the time budget
 */
export function buildSnippet(text: string, leaves: QueryNode[], matchedTerms: ReadonlySet<string>, guard: RegexGuard, width = 200): Snippet {
  const bodyAt = bodyStart(text);
  const body = text.slice(bodyAt);
  const spans = matchSpans(body, leaves, matchedTerms, guard);
  if (spans.length === 0) {
    const lead = body.length - body.trimStart().length;
    const end = snapEnd(body, Math.min(body.length, lead + width), lead);
    return { text: collapse(body.slice(lead, end)) + (end < body.length ? '…' : ''), matchOffset: null };
  }
  const s = spans[0].start;
  const e = Math.min(spans[0].end, s + width);
  const room = Math.max(0, width - (e - s));
  let start = Math.max(0, s - Math.floor(room * 0.4));
  let end = Math.min(body.length, e + room - (s - start));
  if (end === body.length) start = Math.max(0, Math.min(s, end - width));
  start = snapStart(body, start, s);
  end = snapEnd(body, end, e);
  let out = '';
  let at = start;
  for (const span of spans) {
    const from = Math.max(span.start, at);
    const to = Math.min(span.end, end);
    if (from >= end) break;
    if (to <= from) continue;
    out += collapse(body.slice(at, from)) + `**${collapse(body.slice(from, to))}**`;
    at = to;
  }
  out = (out + collapse(body.slice(at, end))).trim();
  return { text: (start > 0 ? '…' : '') + out + (end < body.length ? '…' : ''), matchOffset: bodyAt + s };
}

interface Span {
  start: number;
  end: number;
}

/**
 * Most matches of one regex leaf looked at: the window spans at most `width` + 30 chars
 * after the first match, so later matches never show.
 */
const MAX_LEAF_MATCHES = 1000;

/** Every span of `body` matched by a leaf, sorted, overlapping or touching spans merged. */
function matchSpans(body: string, leaves: QueryNode[], matchedTerms: ReadonlySet<string>, guard: RegexGuard): Span[] {
  const found: Span[] = [];
  let termsDone = false;
  for (const leaf of leaves) {
    if (leaf.kind === 'regex') {
      found.push(...guard.matchAll(globalRegex(leaf.regex), body, MAX_LEAF_MATCHES));
    } else if (leaf.kind === 'phrase' || (leaf.kind === 'word' && !decidedByIndex(leaf.text))) {
      const literal = literalPattern(leaf.text);
      found.push(...allMatches(new RegExp(literal.source, literal.flags + 'g'), body));
    } else if (leaf.kind === 'word' && !termsDone) {
      termsDone = true;
      for (const t of termSpans(body, 'index')) if (matchedTerms.has(t.term)) found.push({ start: t.start, end: t.end });
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

/** Moves a cut start forward to just after whitespace (within 30 chars, never past `limit`), and off a low surrogate. */
function snapStart(body: string, start: number, limit: number): number {
  if (start === 0) return 0;
  for (let i = start; i < limit && i < start + 30; i++) {
    if (/\s/.test(body[i])) return i + 1;
  }
  return /[\uDC00-\uDFFF]/.test(body[start] ?? '') ? start + 1 : start;
}

/** Moves a cut end back to whitespace (within 30 chars, never before `limit`), and off a high surrogate. */
function snapEnd(body: string, end: number, limit: number): number {
  if (end >= body.length) return body.length;
  for (let i = end; i > limit && i > end - 30; i--) {
    if (/\s/.test(body[i])) return i;
  }
  return /[\uD800-\uDBFF]/.test(body[end - 1] ?? '') ? end - 1 : end;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ');
}
