import type { QueryNode } from '../query/query-ast';
import { decidedByIndex, literalPattern } from '../query/query-eval';
import type { RegexGuard } from '../query/regex-guard';
import { matchedTermSpans } from '../engine/tokenizer';

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
 * @returns spans into `body`, sorted by start, overlapping or touching spans merged
 * @throws ToolError('invalid_argument') from `guard` when a user regex exceeds the time budget
 */
export function matchSpans(body: string, leaves: QueryNode[], matchedTerms: ReadonlySet<string>, guard: RegexGuard): Span[] {
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
      for (const t of matchedTermSpans(body, matchedTerms)) found.push({ start: t.start, end: t.end });
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
