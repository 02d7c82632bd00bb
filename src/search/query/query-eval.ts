import type { QueryNode } from './parser/query-ast';
import type { NoteText, ScopedRegexRuns, TermLookup, Verdict } from './eval-types';
import { fileName, propertyStrings, type NoteRecord } from './note-filters';
import type { RegexGuard } from './regex-guard';
import { noteFilter, positiveScore, scopeWithoutText, scopeWithText } from './stretches/scope-eval';
import { decidedByIndex, literalParts, literalTest, matchesTitleAndText } from './text-match';
import { queryTerms } from '../engine/text/tokenizer';

export type { NoteText, TermLookup, Truth, Verdict } from './eval-types';
export { decidedByIndex, literalPattern } from './text-match';

/**
 * Evaluates a parsed query against one note, in two passes so that only plausible notes
 * are read from disk: without the note text, phrases, regexes, token-less words and the text
 * operators (`line:`, `content:`, `match-case:`...) answer `maybe` unless the index rules
 * them out; with the text, every node answers yes or no (see {@link evaluateBatch} for
 * regexes inside text operators).
 */

const NO: Verdict = { truth: 'no', score: 0 };
const MAYBE: Verdict = { truth: 'maybe', score: 0 };

/**
 * Evaluates `node` for `note`.
 * @param text the note text, or undefined for the cheap first pass
 * @returns yes (with score) / no / maybe (only when `text` is undefined)
 */
export function evaluate(node: QueryNode, note: NoteRecord, lookup: TermLookup, text?: NoteText): Verdict {
  switch (node.kind) {
    case 'and': {
      let score = 0;
      let maybe = false;
      for (const child of node.children) {
        const v = evaluate(child, note, lookup, text);
        if (v.truth === 'no') return NO;
        if (v.truth === 'maybe') maybe = true;
        score += v.score;
      }
      return maybe ? MAYBE : { truth: 'yes', score };
    }
    case 'or': {
      let score = 0;
      let yes = false;
      let maybe = false;
      for (const child of node.children) {
        const v = evaluate(child, note, lookup, text);
        if (v.truth === 'yes') {
          yes = true;
          score += v.score;
        } else if (v.truth === 'maybe') maybe = true;
      }
      return yes ? { truth: 'yes', score } : maybe ? MAYBE : NO;
    }
    case 'not': {
      const v = evaluate(node.child, note, lookup, text);
      return v.truth === 'yes' ? NO : v.truth === 'no' ? { truth: 'yes', score: 0 } : MAYBE;
    }
    case 'word':
    case 'phrase':
      return evaluateText(node, note, lookup, text);
    case 'regex':
      return text === undefined ? MAYBE : answer(lookup.regex(node, note.path));
    case 'case':
      if (transparent(node)) return evaluate(node.child, note, lookup, text);
      return text === undefined ? (scopeWithoutText(node, note, lookup) === 'no' ? NO : MAYBE) : scopeWithText(node, note, lookup, text);
    case 'scope':
      return text === undefined ? (scopeWithoutText(node, note, lookup) === 'no' ? NO : MAYBE) : scopeWithText(node, note, lookup, text);
    default:
      return answer(noteFilter(node, note, lookup));
  }
}

/**
 * The highest score {@link evaluate} can give `node` for `note` once the text is read, from
 * the index alone: what a `yes` of every text-dependent part would score (a word or phrase its
 * index score, a text operator the scores of its positive terms, a negation or regex 0), summed
 * in evaluate's order. Every score is ≥ 0 and floating-point addition is monotone, so the real
 * score with the text is never above it; the engine reads notes in this order and stops once a
 * page is settled (engine/text-pass.ts).
 */
export function scoreBound(node: QueryNode, note: NoteRecord, lookup: TermLookup): number {
  switch (node.kind) {
    case 'and':
    case 'or': {
      let score = 0;
      for (const child of node.children) score += scoreBound(child, note, lookup);
      return score;
    }
    case 'word':
    case 'phrase': {
      const facts = factsOf(node);
      return facts.indexed ? (lookup.score(node, note.path) ?? 0) : 1;
    }
    case 'case':
      return transparent(node) ? scoreBound(node.child, note, lookup) : positiveScore(node.child, note, lookup);
    case 'scope':
      return positiveScore(node.child, note, lookup);
    default:
      return 0;
  }
}

/**
 * True for an `ignore-case:` with no `match-case:` inside: matching is case-insensitive
 * anyway, so outside a stretch operator it means exactly its child (and is evaluated as such).
 */
export function transparent(node: QueryNode & { kind: 'case' }): boolean {
  return !node.sensitive && !hasSensitive(node.child);
}

function hasSensitive(node: QueryNode): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.some(hasSensitive);
    case 'not':
    case 'scope':
      return hasSensitive(node.child);
    case 'case':
      return node.sensitive || hasSensitive(node.child);
    default:
      return false;
  }
}

/**
 * The text pass over a batch of loaded notes: like {@link evaluate} with the text for each
 * note, and for regexes inside text operators (`line:(/re/)`, `match-case:/Re/`) a first
 * round that collects every stretch they must be tested on, one guarded run per regex over
 * the whole batch, then the real round.
 * @param guard runs the collected regexes (each regex once per batch)
 * @param focus called with an item's position before each evaluation of it (lets the caller's lookup know which note is asked about)
 * @returns one verdict per item, in order: yes or no
 * @throws ToolError('invalid_argument') from `guard` when a regex exceeds the search's time budget
 */
export function evaluateBatch(
  query: QueryNode,
  items: { note: NoteRecord; text: NoteText }[],
  lookup: TermLookup,
  guard: RegexGuard,
  focus: (item: number) => void = () => undefined,
): Verdict[] {
  const scoped = scopedRegexes(query);
  if (scoped.length > 0) {
    const runs: ScopedRegexRuns = { answers: new Map(), wanted: new Map(), absent: new Map() };
    for (const node of scoped) {
      if (node.kind !== 'regex' || !local(node.regex)) continue;
      // Without assertions a match in a stretch is a match in the whole file text: test that first.
      const ok = guard.testAll(
        node.regex,
        items.map((i) => i.text.full),
        items.map((i) => i.note.path),
      );
      runs.absent.set(node, new Set(items.filter((_, k) => !ok[k]).map((i) => i.text)));
    }
    items.forEach((item, k) => {
      item.text.runs = runs;
      focus(k);
      evaluate(query, item.note, lookup, item.text);
    });
    for (const [node, wanted] of runs.wanted) {
      if (node.kind !== 'regex') continue;
      const inputs = [...wanted];
      const ok = guard.testAll(node.regex, inputs);
      const known = runs.answers.get(node) ?? new Map<string, boolean>();
      inputs.forEach((input, k) => known.set(input, ok[k]));
      runs.answers.set(node, known);
    }
    runs.wanted.clear();
  }
  return items.map((item, k) => {
    focus(k);
    return evaluate(query, item.note, lookup, item.text);
  });
}

/**
 * True when a regex has no assertion (`^`, `$`, `\b`, `\B`, lookaround), so whether it
 * matches a piece of text does not depend on what surrounds the piece. Conservative: a `^`
 * inside `[^…]` also counts as one.
 */
function local(regex: RegExp): boolean {
  return !/[\^$]|\\[bB]|\(\?<?[=!]/.test(regex.source);
}

/** True when `node` or a descendant can only be decided with the note text. */
export function needsText(node: QueryNode): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.some(needsText);
    case 'not':
      return needsText(node.child);
    case 'phrase':
    case 'regex':
    case 'scope':
      return true;
    case 'case':
      return !transparent(node) || needsText(node.child);
    case 'word':
      return !decidedByIndex(node.text);
    default:
      return false;
  }
}

/**
 * Every node whose verdict needs a user regex run outside text operators: `regex` nodes (on
 * the body) and `path:`/`file:`/`[prop:…]` with a regex (see {@link recordRegexInputs}).
 * Regexes inside `line:`, `match-case:`... are run by {@link evaluateBatch}.
 */
export function regexNodes(node: QueryNode): QueryNode[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(regexNodes);
    case 'not':
      return regexNodes(node.child);
    case 'case':
      return transparent(node) ? regexNodes(node.child) : [];
    case 'regex':
      return [node];
    case 'path':
    case 'file':
      return node.match.kind === 'regex' ? [node] : [];
    case 'property':
      return node.test.op === 'regex' ? [node] : [];
    default:
      return [];
  }
}

/**
 * What a note-level regex node is tested on for `note`: its path (`path:/re/`), file name
 * (`file:/re/`) or property value items (`[prop:/re/]`); the note matches when any does.
 * @returns the strings to test (none for other nodes or a missing property)
 */
export function recordRegexInputs(node: QueryNode, note: NoteRecord): string[] {
  if (node.kind === 'path') return [note.path];
  if (node.kind === 'file') return [fileName(note.path)];
  if (node.kind === 'property') return propertyStrings(note, node.name);
  return [];
}

/**
 * The user regex of a node {@link regexNodes} returned.
 * @throws Error for a node without one (a bug in the caller)
 */
export function userRegex(node: QueryNode): RegExp {
  if (node.kind === 'regex') return node.regex;
  if ((node.kind === 'path' || node.kind === 'file') && node.match.kind === 'regex') return node.match.regex;
  if (node.kind === 'property' && node.test.op === 'regex') return node.test.regex;
  throw new Error(`userRegex called on a ${node.kind} node without a regex`);
}

/** The `regex` nodes inside text operators (scope and case nodes), run per stretch by {@link evaluateBatch}. */
export function scopedRegexes(node: QueryNode, inside = false): QueryNode[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap((c) => scopedRegexes(c, inside));
    case 'not':
      return scopedRegexes(node.child, inside);
    case 'scope':
      return scopedRegexes(node.child, true);
    case 'case':
      return scopedRegexes(node.child, inside || !transparent(node));
    case 'regex':
      return inside ? [node] : [];
    default:
      return [];
  }
}

/**
 * The word, phrase and regex nodes that count for the note when they match: those under an
 * even number of negations. Used to place the snippet.
 */
export function positiveLeaves(node: QueryNode, negated = false): QueryNode[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap((c) => positiveLeaves(c, negated));
    case 'not':
      return positiveLeaves(node.child, !negated);
    case 'scope':
    case 'case':
      return positiveLeaves(node.child, negated);
    case 'word':
    case 'phrase':
    case 'regex':
      return negated ? [] : [node];
    default:
      return [];
  }
}

/** Every `word` and `phrase` node with the parity of negations above it (true = excluded). */
export function termNodes(node: QueryNode, negated = false): { node: QueryNode; negated: boolean }[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap((c) => termNodes(c, negated));
    case 'not':
      return termNodes(node.child, !negated);
    case 'scope':
    case 'case':
      return termNodes(node.child, negated);
    case 'word':
    case 'phrase':
      return [{ node, negated }];
    default:
      return [];
  }
}

/** Per-node facts computed once per query, not once per note. */
interface TextFacts {
  indexed: boolean;
  decided: boolean;
  literal: RegExp;
  /** The number of whitespace-separated parts of `literal`. */
  parts: number;
}
const textFacts = new WeakMap<QueryNode, TextFacts>();
/**
 * The nodes whose facts were asked for last, and their facts, {@link RECENT_FACTS} of them
 * (replaced in turn): a query asks for the same few nodes once per note, and a WeakMap lookup
 * per note cost as much as the test itself; one slot thrashed as soon as a query had two words
 * (`tokatra -tokape` asks for both for every candidate).
 */
const RECENT_FACTS = 4;
const recentNodes: (QueryNode | null)[] = new Array<QueryNode | null>(RECENT_FACTS).fill(null);
const recentFacts: (TextFacts | null)[] = new Array<TextFacts | null>(RECENT_FACTS).fill(null);
let nextRecent = 0;

function factsOf(node: QueryNode & { kind: 'word' | 'phrase' }): TextFacts {
  for (let i = 0; i < RECENT_FACTS; i++) if (recentNodes[i] === node) return recentFacts[i] as TextFacts;
  let facts = textFacts.get(node);
  if (!facts) {
    facts = {
      indexed: queryTerms(node.text).length > 0,
      decided: node.kind === 'word' && decidedByIndex(node.text),
      literal: literalTest(node.text),
      parts: literalParts(node.text),
    };
    textFacts.set(node, facts);
  }
  recentNodes[nextRecent] = node;
  recentFacts[nextRecent] = facts;
  nextRecent = (nextRecent + 1) % RECENT_FACTS;
  return facts;
}

function evaluateText(node: QueryNode & { kind: 'word' | 'phrase' }, note: NoteRecord, lookup: TermLookup, text?: NoteText): Verdict {
  const facts = factsOf(node);
  const score = facts.indexed ? lookup.score(node, note.path) : 0;
  if (score === null) return NO;
  if (facts.decided) return { truth: 'yes', score };
  if (node.kind === 'phrase' && lookup.mayHold?.(node, note.path) === false) return NO;
  if (text === undefined) return MAYBE;
  const found = matchesTitleAndText(facts.literal, facts.parts, note.title, text.full);
  return found ? { truth: 'yes', score: facts.indexed ? score : 1 } : NO;
}

function answer(ok: boolean): Verdict {
  return ok ? { truth: 'yes', score: 0 } : NO;
}
