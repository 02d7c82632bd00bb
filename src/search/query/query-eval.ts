import type { QueryNode } from './query-ast';
import { matchFile, matchPath, matchProperty, matchTag, type NoteRecord } from './note-filters';
import { hasUnsegmented, queryTerms } from '../engine/tokenizer';
import { escapeRegExp } from '../../vault/writes/text-edits';

/**
 * Evaluates a parsed query against one note, in two passes so that only plausible notes
 * are read from disk: without the note text, phrases, regexes and token-less words answer
 * `maybe`; with the text, every node answers yes or no.
 */

/** Three-valued truth: `maybe` means "needs the note text to decide". */
export type Truth = 'yes' | 'no' | 'maybe';

/** A node's answer for one note; `score` sums the index scores of the positive terms that matched. */
export interface Verdict {
  truth: Truth;
  score: number;
}

/** The note text once loaded: `full` is the whole file, `body` the part after the frontmatter. */
export interface NoteText {
  full: string;
  body: string;
}

/**
 * Index answers the evaluator needs: for a `word` or `phrase` node with index terms, the
 * note's score when all of its terms are in the note (`null` when not). Words are looked
 * up with prefix/fuzzy expansion, phrases by their exact terms.
 */
export interface TermLookup {
  score(node: QueryNode, path: string): number | null;
  /**
   * Whether a user regex matched the note: for a `regex` node the note body (asked only in
   * the text pass), for `path:/re/` and `file:/re/` the path or file name. Answered from
   * results computed in batches through a `RegexGuard`, so no user regex runs unguarded.
   */
  regex(node: QueryNode, path: string): boolean;
}

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
    case 'path':
      return answer(node.match.kind === 'regex' ? lookup.regex(node, note.path) : matchPath(note, node.match.text));
    case 'file':
      return answer(node.match.kind === 'regex' ? lookup.regex(node, note.path) : matchFile(note, node.match.text));
    case 'tag':
      return answer(matchTag(note, node.tag));
    case 'property':
      return answer(matchProperty(note, node.name, node.test));
  }
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
      return true;
    case 'word':
      return !decidedByIndex(node.text);
    default:
      return false;
  }
}

/** Every node whose verdict needs a user regex run: `regex` nodes (on the body) and `path:`/`file:` with a regex. */
export function regexNodes(node: QueryNode): QueryNode[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(regexNodes);
    case 'not':
      return regexNodes(node.child);
    case 'regex':
      return [node];
    case 'path':
    case 'file':
      return node.match.kind === 'regex' ? [node] : [];
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
    case 'word':
    case 'phrase':
      return [{ node, negated }];
    default:
      return [];
  }
}

/**
 * A case-insensitive regex for a phrase or literal word: its whitespace-separated parts in
 * order, any run of whitespace between them. Each character matches its composed (NFC) and
 * decomposed (NFD) spelling, so `pastéis` finds a note saved as `paste\u0301is` (Unicode
 * canonical equivalence, UAX #15; macOS tools often write NFD).
 */
export function literalPattern(text: string): RegExp {
  const parts = text.normalize('NFC').trim().split(/\s+/).map(canonicalPattern);
  return new RegExp(parts.join('\\s+'), 'iu');
}

/** The pattern of one whitespace-free part: each character as itself, or `(?:nfc|nfd)` where the two differ. */
function canonicalPattern(part: string): string {
  let out = '';
  for (const ch of part) {
    const nfd = ch.normalize('NFD');
    out += nfd === ch ? escapeRegExp(ch) : `(?:${escapeRegExp(ch)}|${escapeRegExp(nfd)})`;
  }
  return out;
}

/** Per-node facts computed once per query, not once per note. */
interface TextFacts {
  indexed: boolean;
  decided: boolean;
  literal: RegExp;
}
const textFacts = new WeakMap<QueryNode, TextFacts>();

function factsOf(node: QueryNode & { kind: 'word' | 'phrase' }): TextFacts {
  let facts = textFacts.get(node);
  if (!facts) {
    facts = {
      indexed: queryTerms(node.text).length > 0,
      decided: node.kind === 'word' && decidedByIndex(node.text),
      literal: literalPattern(node.text),
    };
    textFacts.set(node, facts);
  }
  return facts;
}

function evaluateText(node: QueryNode & { kind: 'word' | 'phrase' }, note: NoteRecord, lookup: TermLookup, text?: NoteText): Verdict {
  const facts = factsOf(node);
  const score = facts.indexed ? lookup.score(node, note.path) : 0;
  if (score === null) return NO;
  if (facts.decided) return { truth: 'yes', score };
  if (text === undefined) return MAYBE;
  const found = facts.literal.test(`${note.title}\n${text.full}`);
  return found ? { truth: 'yes', score: facts.indexed ? score : 1 } : NO;
}

/**
 * Whether the index alone decides a word (prefix and fuzzy matches included). Not for words
 * without index terms (punctuation only), nor for words in unsegmented scripts, whose
 * bigrams must also be adjacent on the text: those are checked like a phrase.
 */
export function decidedByIndex(word: string): boolean {
  return queryTerms(word).length > 0 && !hasUnsegmented(word);
}

function answer(ok: boolean): Verdict {
  return ok ? { truth: 'yes', score: 0 } : NO;
}
