import type { QueryNode, TextScope } from '../parser/query-ast';
import type { NoteText, TermLookup, Truth, Verdict } from '../eval-types';
import { matchFile, matchPath, matchProperty, matchTag, type NoteRecord } from '../note-filters';
import { hasTaskMarker, noteBlocks, noteLines, noteSections, noteTasks, type NoteBlock, type TextRange } from './note-blocks';
import { cachedPattern, decidedByIndex } from '../text-match';
import { clip, firstPairFrom, mergePairs, rangeAt, spanWithin } from './text-ranges';
import { matchedTermSpans, queryTerms } from '../../engine/text/tokenizer';

/**
 * Evaluates the operators that look at one stretch of a note's text at a time: `line:`,
 * `block:`, `section:`, `task:`, `task-todo:`, `task-done:`, `content:` (the stretch is the
 * whole body) and `match-case:`/`ignore-case:` (outside those: the title and the body). Every
 * stretch lies in the note body, after the frontmatter: frontmatter is data, searched with
 * `[property]` filters.
 * Inside a stretch, terms keep the meaning they have anywhere in a query: a word matches
 * the index terms it expands to (prefix, typo, as found by the index), a phrase matches its
 * words in order, a regex runs through the RegexGuard (answers in `NoteText.runs`); `path:`,
 * `file:`, `tag:` and property filters are about the note and hold or not for every stretch.
 * Under `match-case:` a word must appear with exactly its case at the start of a word, a
 * phrase with exactly its case.
 */

/** One stretch of the note body being searched: `[start, end)` offsets into the whole file text. */
type Stretch = TextRange;

/**
 * How leaves are tested: case-sensitively (`match-case:`), and whether the note title counts
 * as well (a `match-case:`/`ignore-case:` outside any stretch operator, where a word means
 * what it means in a plain query: found in the title or the text).
 */
interface Mode {
  sensitive: boolean;
  title: boolean;
}

/** What one note's evaluation shares: the note, the index answers, the text and its parsed stretches. */
interface Ctx {
  note: NoteRecord;
  lookup: TermLookup;
  text: NoteText;
  parsed: Parsed;
  /** The index-decided words under the operator node being evaluated: their terms are found in one scan. */
  words: QueryNode[];
}

/** Parsed facts of one note text, computed when first needed and kept for the batch. */
interface Parsed {
  blocks: NoteBlock[] | null;
  scopes: Map<TextScope, TextRange[]>;
  /** Spans of an operator's words' index terms in the file text and title, by term (see termPositions), per operator word list. */
  positions: Map<QueryNode[], Partial<Record<'full' | 'title', Map<string, number[]>>>>;
  /** Spans of each word node's index terms, flat pairs sorted by start. */
  spans: Map<QueryNode, Partial<Record<'full' | 'title', number[]>>>;
}

const parsedTexts = new WeakMap<NoteText, Parsed>();

/**
 * Whether a `scope` or `case` node can hold for `note`, from the index alone: false only
 * when a word or phrase every match needs is missing from the note or a note filter fails.
 * @returns `no` or `maybe` (the text decides)
 */
export function scopeWithoutText(node: QueryNode & { kind: 'scope' | 'case' }, note: NoteRecord, lookup: TermLookup): Truth {
  return possible(node.child, note, lookup) ? 'maybe' : 'no';
}

/**
 * Evaluates a `scope` or `case` node on the note text.
 * @returns yes with the summed index scores of the node's positive words and phrases; no;
 *   or maybe while regex answers are still being collected (see `NoteText.runs`)
 */
export function scopeWithText(node: QueryNode & { kind: 'scope' | 'case' }, note: NoteRecord, lookup: TermLookup, text: NoteText): Verdict {
  let parsed = parsedTexts.get(text);
  if (parsed === undefined) {
    parsed = { blocks: null, scopes: new Map(), positions: new Map(), spans: new Map() };
    parsedTexts.set(text, parsed);
  }
  const ctx: Ctx = { note, lookup, text, parsed, words: decidedWords(node) };
  // The note text: its body. Frontmatter is data, searched with [property] filters (and by plain words through the index).
  const whole = { start: text.full.length - text.body.length, end: text.full.length };
  const truth =
    node.kind === 'scope'
      ? some(stretches(node.scope, node.child, whole, ctx, false), (r) => within(node.child, r, ctx, { sensitive: false, title: false }))
      : within(node.child, whole, ctx, { sensitive: node.sensitive, title: true });
  return truth === 'yes' ? { truth, score: positiveScore(node.child, note, lookup) } : { truth, score: 0 };
}

/** The index-decided words in `node` (computed once per node). */
function decidedWords(node: QueryNode): QueryNode[] {
  let words = wordLists.get(node);
  if (words === undefined) {
    const walk = (n: QueryNode): QueryNode[] =>
      n.kind === 'word'
        ? decidedByIndex(n.text)
          ? [n]
          : []
        : n.kind === 'and' || n.kind === 'or'
          ? n.children.flatMap(walk)
          : n.kind === 'not' || n.kind === 'scope' || n.kind === 'case'
            ? walk(n.child)
            : [];
    words = walk(node);
    wordLists.set(node, words);
  }
  return words;
}

const wordLists = new WeakMap<QueryNode, QueryNode[]>();

/** True when `node` could hold in some stretch of the note, judged by the index and note filters only. */
function possible(node: QueryNode, note: NoteRecord, lookup: TermLookup): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((c) => possible(c, note, lookup));
    case 'or':
      return node.children.some((c) => possible(c, note, lookup));
    case 'not':
    case 'regex':
      return true;
    case 'word':
    case 'phrase':
      return queryTerms(node.text).length === 0 || lookup.score(node, note.path) !== null;
    case 'scope':
    case 'case':
      return possible(node.child, note, lookup);
    default:
      return noteFilter(node, note, lookup);
  }
}

/**
 * The answer of a filter about the note itself (`path:`, `file:`, `tag:`, properties), the
 * same for every stretch of its text.
 */
export function noteFilter(node: QueryNode, note: NoteRecord, lookup: TermLookup): boolean {
  switch (node.kind) {
    case 'path':
      return node.match.kind === 'regex' ? lookup.regex(node, note.path) : matchPath(note, node.match.text);
    case 'file':
      return node.match.kind === 'regex' ? lookup.regex(node, note.path) : matchFile(note, node.match.text);
    case 'tag':
      return matchTag(note, node.tag);
    case 'property':
      return node.test.op === 'regex' ? lookup.regex(node, note.path) : matchProperty(note, node.name, node.test);
    default:
      throw new Error(`noteFilter called on a ${node.kind} node`);
  }
}

/** Three-valued truth of `node` within one stretch. */
function within(node: QueryNode, s: Stretch, ctx: Ctx, mode: Mode): Truth {
  switch (node.kind) {
    case 'and': {
      let maybe = false;
      for (const c of node.children) {
        const t = within(c, s, ctx, mode);
        if (t === 'no') return 'no';
        if (t === 'maybe') maybe = true;
      }
      return maybe ? 'maybe' : 'yes';
    }
    case 'or': {
      let maybe = false;
      for (const c of node.children) {
        const t = within(c, s, ctx, mode);
        if (t === 'yes') return 'yes';
        if (t === 'maybe') maybe = true;
      }
      return maybe ? 'maybe' : 'no';
    }
    case 'not': {
      const t = within(node.child, s, ctx, mode);
      return t === 'yes' ? 'no' : t === 'no' ? 'yes' : 'maybe';
    }
    case 'word':
      return truth(wordIn(node, s, ctx, mode.sensitive) || (mode.title && wordInTitle(node, ctx, mode.sensitive)));
    case 'phrase': {
      const p = cachedPattern(node.text, mode.sensitive ? 'phrase-case' : 'phrase');
      return truth(p.test(slice(s, ctx)) || (mode.title && p.test(ctx.note.title)));
    }
    case 'regex': {
      const inText = regexIn(node, s, ctx);
      return inText === 'yes' || !mode.title ? inText : or(inText, regexIn(node, null, ctx));
    }
    case 'scope':
      return some(stretches(node.scope, node.child, s, ctx, mode.sensitive), (r) =>
        within(node.child, r, ctx, { sensitive: mode.sensitive, title: false }),
      );
    case 'case':
      return within(node.child, s, ctx, { sensitive: node.sensitive, title: mode.title });
    default:
      return truth(noteFilter(node, ctx.note, ctx.lookup));
  }
}

/** Whether a word occurs in the stretch: case-sensitively at a word start, else by its index terms (or literally, for words the index cannot decide). */
function wordIn(node: QueryNode & { kind: 'word' }, s: Stretch, ctx: Ctx, sensitive: boolean): boolean {
  if (sensitive) return cachedPattern(node.text, 'word-case').test(slice(s, ctx));
  if (!decidedByIndex(node.text)) return cachedPattern(node.text, 'phrase').test(slice(s, ctx));
  return spanWithin(wordSpans(node, 'full', ctx), s);
}

function wordInTitle(node: QueryNode & { kind: 'word' }, ctx: Ctx, sensitive: boolean): boolean {
  if (sensitive) return cachedPattern(node.text, 'word-case').test(ctx.note.title);
  if (!decidedByIndex(node.text)) return cachedPattern(node.text, 'phrase').test(ctx.note.title);
  return wordSpans(node, 'title', ctx).length > 0;
}

/** Where the word's index terms occur in the file text or title (as the index tokenized it): flat `[start, end]` pairs sorted by start, computed once per word and note. */
function wordSpans(node: QueryNode, src: 'full' | 'title', ctx: Ctx): number[] {
  let bySource = ctx.parsed.spans.get(node);
  if (bySource === undefined) {
    bySource = {};
    ctx.parsed.spans.set(node, bySource);
  }
  let spans = bySource[src];
  if (spans === undefined) {
    const byTerm = termPositions(src, ctx);
    const lists: number[][] = [];
    for (const term of ctx.lookup.terms(node)) {
      const found = byTerm.get(term);
      if (found !== undefined) lists.push(found);
    }
    spans = lists.length === 1 ? lists[0] : mergePairs(lists);
    bySource[src] = spans;
  }
  return spans;
}

/**
 * The spans of every index term of the operator's words in the file text or title, by term,
 * found in one scan of the text (see `matchedTermSpans`).
 */
function termPositions(src: 'full' | 'title', ctx: Ctx): Map<string, number[]> {
  let bySource = ctx.parsed.positions.get(ctx.words);
  if (bySource === undefined) {
    bySource = {};
    ctx.parsed.positions.set(ctx.words, bySource);
  }
  let byTerm = bySource[src];
  if (byTerm === undefined) {
    byTerm = new Map();
    const wanted = new Set<string>();
    for (const word of ctx.words) for (const term of ctx.lookup.terms(word)) wanted.add(term);
    for (const t of matchedTermSpans(src === 'full' ? ctx.text.full : ctx.note.title, wanted)) {
      const list = byTerm.get(t.term);
      if (list === undefined) byTerm.set(t.term, [t.start, t.end]);
      else list.push(t.start, t.end);
    }
    bySource[src] = byTerm;
  }
  return byTerm;
}

/**
 * A user regex on one stretch of the file text (or on the title, for `s` null): answered from
 * `runs`, or `maybe` after asking for the run. A regex the whole file text does not match
 * (see `ScopedRegexRuns.absent`) is answered no at once for every stretch of it.
 */
function regexIn(node: QueryNode, s: Stretch | null, ctx: Ctx): Truth {
  const runs = ctx.text.runs;
  if (runs === undefined) return 'maybe';
  if (s !== null && runs.absent.get(node)?.has(ctx.text) === true) return 'no';
  const text = s === null ? ctx.note.title : slice(s, ctx);
  const known = runs.answers.get(node)?.get(text);
  if (known !== undefined) return truth(known);
  let wanted = runs.wanted.get(node);
  if (wanted === undefined) {
    wanted = new Set();
    runs.wanted.set(node, wanted);
  }
  wanted.add(text);
  return 'maybe';
}

/**
 * The stretches of kind `scope` inside `outer` where `child` may hold. When `child` needs a
 * word (a plain word of it, or of its top AND), only the stretches holding one of that
 * word's spans are returned (the word with the fewest spans is picked): a line is then found
 * around the span without splitting the note into lines.
 */
function stretches(scope: TextScope, child: QueryNode, outer: Stretch, ctx: Ctx, sensitive: boolean): Stretch[] {
  if (regexRuledOut(child, ctx)) return [];
  if (scope === 'content') return [outer];
  const ranges = scope === 'line' ? null : rangesOf(scope, ctx);
  if (ranges !== null && ranges.length === 0) return [];
  const anchor = sensitive ? null : anchorSpans(child, ctx);
  if (anchor === null) return clip(ranges ?? rangesOf(scope, ctx), outer);
  const full = ctx.text.full;
  const out: Stretch[] = [];
  let last = -1;
  for (let k = firstPairFrom(anchor, outer.start); k < anchor.length && anchor[k + 1] <= outer.end; k += 2) {
    let range: TextRange | null;
    if (ranges === null) {
      const start = full.lastIndexOf('\n', anchor[k] - 1) + 1;
      const nl = full.indexOf('\n', anchor[k]);
      const stop = nl < 0 ? full.length : nl;
      range = { start, end: stop > start && full.charCodeAt(stop - 1) === 13 ? stop - 1 : stop };
    } else range = rangeAt(ranges, anchor[k]);
    if (range === null || range.start === last) continue;
    last = range.start;
    const start = Math.max(range.start, outer.start);
    const end = Math.min(range.end, outer.end);
    if (start < end) out.push({ start, end });
  }
  return out;
}

/** True when `child` needs a regex (itself or in its top AND) that the whole file text does not match. */
function regexRuledOut(child: QueryNode, ctx: Ctx): boolean {
  const absent = ctx.text.runs?.absent;
  if (absent === undefined || absent.size === 0) return false;
  const needed = child.kind === 'regex' ? [child] : child.kind === 'and' ? child.children.filter((c) => c.kind === 'regex') : [];
  return needed.some((r) => absent.get(r)?.has(ctx.text) === true);
}

/** The spans of the required plain word of `child` with the fewest spans, or null when `child` requires none. */
function anchorSpans(child: QueryNode, ctx: Ctx): number[] | null {
  const words = child.kind === 'word' ? [child] : child.kind === 'and' ? child.children.filter((c) => c.kind === 'word') : [];
  let best: number[] | null = null;
  for (const w of words) {
    if (!decidedByIndex((w as { text: string }).text)) continue;
    const spans = wordSpans(w, 'full', ctx);
    if (best === null || spans.length < best.length) best = spans;
  }
  return best;
}

function rangesOf(scope: TextScope, ctx: Ctx): TextRange[] {
  let ranges = ctx.parsed.scopes.get(scope);
  if (ranges === undefined) {
    const full = ctx.text.full;
    if (scope === 'content') ranges = [{ start: 0, end: full.length }];
    else if (scope === 'line') ranges = noteLines(full);
    else if (scope !== 'block' && scope !== 'section' && !hasTaskMarker(full)) ranges = [];
    else {
      ctx.parsed.blocks ??= noteBlocks(full);
      const blocks = ctx.parsed.blocks;
      if (scope === 'block') ranges = blocks;
      else if (scope === 'section') ranges = noteSections(full, blocks);
      else ranges = noteTasks(blocks, scope === 'task' ? 'all' : scope === 'task-todo' ? 'todo' : 'done');
    }
    ctx.parsed.scopes.set(scope, ranges);
  }
  return ranges;
}

/** Yes when some stretch gives yes; maybe when none does and some gives maybe. */
function some(ranges: readonly TextRange[], test: (r: TextRange) => Truth): Truth {
  let maybe = false;
  for (const r of ranges) {
    const t = test(r);
    if (t === 'yes') return 'yes';
    if (t === 'maybe') maybe = true;
  }
  return maybe ? 'maybe' : 'no';
}

function or(a: Truth, b: Truth): Truth {
  return a === 'yes' || b === 'yes' ? 'yes' : a === 'maybe' || b === 'maybe' ? 'maybe' : 'no';
}

/** The text of a stretch (the file text itself when the stretch is all of it). */
function slice(s: Stretch, ctx: Ctx): string {
  const full = ctx.text.full;
  return s.start === 0 && s.end === full.length ? full : full.slice(s.start, s.end);
}

/**
 * Sum of the index scores of the words and phrases under an even number of negations that the
 * note matched: the score of a `scope`/`case` node that holds for the note (text-free, so the
 * text pass can bound it before reading the note: `scoreBound` in query-eval.ts).
 */
export function positiveScore(node: QueryNode, note: NoteRecord, lookup: TermLookup, negated = false): number {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.reduce((sum, c) => sum + positiveScore(c, note, lookup, negated), 0);
    case 'not':
      return positiveScore(node.child, note, lookup, !negated);
    case 'scope':
    case 'case':
      return positiveScore(node.child, note, lookup, negated);
    case 'word':
    case 'phrase':
      return negated || queryTerms(node.text).length === 0 ? 0 : (lookup.score(node, note.path) ?? 0);
    default:
      return 0;
  }
}

function truth(ok: boolean): Truth {
  return ok ? 'yes' : 'no';
}
