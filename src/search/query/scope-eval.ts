import type { QueryNode, TextScope } from './query-ast';
import type { NoteText, TermLookup, Truth, Verdict } from './eval-types';
import { matchFile, matchPath, matchProperty, matchTag, type NoteRecord } from './note-filters';
import { noteBlocks, noteLines, noteSections, noteTasks, type TextRange } from './note-blocks';
import { caseSensitiveWordPattern, decidedByIndex, literalPattern } from './text-match';
import { matchedTermSpans, queryTerms, type TermSpan } from '../engine/tokenizer';

/**
 * Evaluates the operators that look at one stretch of a note's text at a time: `line:`,
 * `block:`, `section:`, `task:`, `task-todo:`, `task-done:`, `content:` (the stretch is the
 * whole file) and `match-case:`/`ignore-case:` (outside those: the title and the file text).
 * Inside a stretch, terms keep the meaning they have anywhere in a query: a word matches
 * the index terms it expands to (prefix, typo, as found by the index), a phrase matches its
 * words in order, a regex runs through the RegexGuard (answers in `NoteText.runs`); `path:`,
 * `file:`, `tag:` and property filters are about the note and hold or not for every stretch.
 * Under `match-case:` a word must appear with exactly its case at the start of a word, a
 * phrase with exactly its case.
 */

/** One stretch being searched: `[start, end)` of `src`, which is the file text (`full`) or the title line plus the file text (`titled`). */
interface Stretch {
  src: 'full' | 'titled';
  start: number;
  end: number;
}

/** What one note's evaluation shares: the note, the index answers, the text and its parsed stretches. */
interface Ctx {
  note: NoteRecord;
  lookup: TermLookup;
  text: NoteText;
  parsed: Parsed;
}

/** The stretches of one note text by kind, and word match spans, computed once per text. */
interface Parsed {
  titled: string | null;
  scopes: Map<TextScope, TextRange[]>;
  /** Word match spans per word node, in the file text and in the titled text. */
  spans: Map<QueryNode, Partial<Record<Stretch['src'], TermSpan[]>>>;
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
    parsed = { titled: null, scopes: new Map(), spans: new Map() };
    parsedTexts.set(text, parsed);
  }
  const ctx: Ctx = { note, lookup, text, parsed };
  const truth =
    node.kind === 'scope'
      ? some(rangesOf(node.scope, ctx), (r) => within(node.child, { src: 'full', ...r }, ctx, false))
      : within(node.child, { src: 'titled', start: 0, end: titledText(ctx).length }, ctx, node.sensitive);
  return truth === 'yes' ? { truth, score: positiveScore(node.child, note, lookup) } : { truth, score: 0 };
}

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
function within(node: QueryNode, s: Stretch, ctx: Ctx, sensitive: boolean): Truth {
  switch (node.kind) {
    case 'and': {
      let maybe = false;
      for (const c of node.children) {
        const t = within(c, s, ctx, sensitive);
        if (t === 'no') return 'no';
        if (t === 'maybe') maybe = true;
      }
      return maybe ? 'maybe' : 'yes';
    }
    case 'or': {
      let maybe = false;
      for (const c of node.children) {
        const t = within(c, s, ctx, sensitive);
        if (t === 'yes') return 'yes';
        if (t === 'maybe') maybe = true;
      }
      return maybe ? 'maybe' : 'no';
    }
    case 'not': {
      const t = within(node.child, s, ctx, sensitive);
      return t === 'yes' ? 'no' : t === 'no' ? 'yes' : 'maybe';
    }
    case 'word':
      return truth(wordIn(node, s, ctx, sensitive));
    case 'phrase':
      return truth(pattern(node.text, sensitive ? 'phrase-case' : 'phrase').test(slice(s, ctx)));
    case 'regex':
      return regexIn(node, slice(s, ctx), ctx);
    case 'scope': {
      const inner = node.scope === 'content' ? [{ start: 0, end: ctx.text.full.length }] : rangesOf(node.scope, ctx);
      const clipped = s.src === 'titled' ? inner : clip(inner, s);
      return some(clipped, (r) => within(node.child, { src: 'full', ...r }, ctx, sensitive));
    }
    case 'case':
      return within(node.child, s, ctx, node.sensitive);
    default:
      return truth(noteFilter(node, ctx.note, ctx.lookup));
  }
}

/** Whether a word occurs in the stretch: case-sensitively at a word start, else by its index terms (or literally, for words the index cannot decide). */
function wordIn(node: QueryNode & { kind: 'word' }, s: Stretch, ctx: Ctx, sensitive: boolean): boolean {
  if (sensitive) return pattern(node.text, 'word-case').test(slice(s, ctx));
  if (!decidedByIndex(node.text)) return pattern(node.text, 'phrase').test(slice(s, ctx));
  const spans = wordSpans(node, s.src, ctx);
  // The first span starting in the stretch; tokens never cross a line, so it lies inside when it starts before the end.
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].start < s.start) lo = mid + 1;
    else hi = mid;
  }
  return lo < spans.length && spans[lo].end <= s.end;
}

/** Where the word's index terms occur in the source text, in order (computed once per word and text). */
function wordSpans(node: QueryNode, src: Stretch['src'], ctx: Ctx): TermSpan[] {
  let bySource = ctx.parsed.spans.get(node);
  if (bySource === undefined) {
    bySource = {};
    ctx.parsed.spans.set(node, bySource);
  }
  bySource[src] ??= matchedTermSpans(source(src, ctx), ctx.lookup.terms(node));
  return bySource[src];
}

/** A user regex on one stretch's text: answered from `runs`, or `maybe` after asking for the run. */
function regexIn(node: QueryNode, text: string, ctx: Ctx): Truth {
  const runs = ctx.text.runs;
  if (runs === undefined) return 'maybe';
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

function rangesOf(scope: TextScope, ctx: Ctx): TextRange[] {
  let ranges = ctx.parsed.scopes.get(scope);
  if (ranges === undefined) {
    const full = ctx.text.full;
    if (scope === 'content') ranges = [{ start: 0, end: full.length }];
    else if (scope === 'line') ranges = noteLines(full);
    else {
      const blocks = noteBlocks(full);
      if (scope === 'block') ranges = blocks;
      else if (scope === 'section') ranges = noteSections(full, blocks);
      else ranges = noteTasks(blocks, scope === 'task' ? 'all' : scope === 'task-todo' ? 'todo' : 'done');
    }
    ctx.parsed.scopes.set(scope, ranges);
  }
  return ranges;
}

/** The parts of `ranges` inside the stretch `s` (a block inside a section, a line inside a block...). */
function clip(ranges: TextRange[], s: Stretch): TextRange[] {
  const out: TextRange[] = [];
  for (const r of ranges) {
    const start = Math.max(r.start, s.start);
    const end = Math.min(r.end, s.end);
    if (start < end) out.push({ start, end });
  }
  return out;
}

/** Yes when some range gives yes; maybe when none does and some gives maybe. */
function some(ranges: readonly TextRange[], test: (r: TextRange) => Truth): Truth {
  let maybe = false;
  for (const r of ranges) {
    const t = test(r);
    if (t === 'yes') return 'yes';
    if (t === 'maybe') maybe = true;
  }
  return maybe ? 'maybe' : 'no';
}

function titledText(ctx: Ctx): string {
  ctx.parsed.titled ??= `${ctx.note.title}\n${ctx.text.full}`;
  return ctx.parsed.titled;
}

function source(src: Stretch['src'], ctx: Ctx): string {
  return src === 'full' ? ctx.text.full : titledText(ctx);
}

function slice(s: Stretch, ctx: Ctx): string {
  return source(s.src, ctx).slice(s.start, s.end);
}

const patterns = new Map<string, RegExp>();
/** Most literal patterns kept between queries (they are cheap to rebuild). */
const MAX_PATTERNS = 256;

/** The literal pattern of `text` (see text-match.ts), cached. */
function pattern(text: string, kind: 'phrase' | 'phrase-case' | 'word-case'): RegExp {
  const key = `${kind}\u0000${text}`;
  let p = patterns.get(key);
  if (p === undefined) {
    p = kind === 'word-case' ? caseSensitiveWordPattern(text) : literalPattern(text, kind === 'phrase-case');
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, p);
  }
  return p;
}

/** Sum of the index scores of the words and phrases under an even number of negations that the note matched. */
function positiveScore(node: QueryNode, note: NoteRecord, lookup: TermLookup, negated = false): number {
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
