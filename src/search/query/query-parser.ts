import { ToolError } from '../../errors';
import type { CompareOp, PropertyTest, QueryNode, TextMatch } from './query-ast';

/**
 * Parses a search query into a {@link QueryNode} tree, following Obsidian's search syntax
 * (Obsidian Help, "Search"): space-separated terms must all match; `OR` between terms binds
 * tighter than the implicit AND (`a b OR c` = a AND (b OR c)); parentheses group; `-` before
 * a term, phrase, operator or group excludes it. Operators: `path:`, `file:`, `tag:`,
 * `has:`, `[prop]`, `[prop:value]`, `[prop:op value]` (op one of > < >= <= =), `/regex/flags`
 * (flags from i, s, u; `m` is always on so `^`/`$` match at line ends), `"exact phrase"`.
 * A word with an unknown `name:` prefix stays a plain word (e.g. `10:30`).
 *
 * The query is normalized to Unicode NFC first (vault paths and the index use composed
 * characters), so `Cafe\u0301` and `Café` are the same query. Limits keep one query from
 * blocking the event loop or the stack: {@link MAX_QUERY_CHARS} characters,
 * {@link MAX_QUERY_TERMS} terms and {@link MAX_QUERY_DEPTH} nested groups or negations.
 *
 * @param input the query as typed by the agent
 * @returns the root node
 * @throws ToolError('invalid_argument') naming the problem and its character position
 *   (1-based) for an empty or too long query, unbalanced parentheses or quotes, a dangling
 *   OR or `-`, an operator without a value, an unsupported Obsidian operator, an invalid
 *   regex, too many terms or too deep nesting.
 */
export function parseQuery(input: string): QueryNode {
  if (input.trim() === '') {
    throw new ToolError('invalid_argument', 'The search query is empty; pass words, a "phrase" or an operator such as tag:project.');
  }
  checkLength(input);
  const parser = new QueryParser(input.normalize('NFC'));
  return parser.parseAll();
}

/** Longest query accepted, in UTF-16 code units. */
export const MAX_QUERY_CHARS = 1000;
/** Most terms (words, phrases, regexes, operators, property filters) in one query. */
export const MAX_QUERY_TERMS = 64;
/** Most groups and negations nested inside each other. */
export const MAX_QUERY_DEPTH = 32;

function checkLength(input: string): void {
  if (input.length > MAX_QUERY_CHARS) {
    throw new ToolError(
      'invalid_argument',
      `The search query is ${input.length} characters long; the limit is ${MAX_QUERY_CHARS}. Search for fewer, shorter words or a shorter phrase.`,
    );
  }
}

/**
 * The node for a whole query used as one regular expression (the search tool's `regex: true`).
 * @param pattern JavaScript regex source, without slashes; normalized to NFC like
 *   {@link parseQuery} queries, compiled with flag `m`
 * @throws ToolError('invalid_argument') when the pattern is empty, longer than
 *   {@link MAX_QUERY_CHARS} or does not compile.
 */
export function regexQuery(pattern: string): QueryNode {
  if (pattern === '') {
    throw new ToolError('invalid_argument', 'The regular expression is empty; pass a pattern in query.');
  }
  checkLength(pattern);
  return { kind: 'regex', regex: compileRegex(pattern.normalize('NFC'), '') };
}

const OPERATORS = new Set(['path', 'file', 'tag', 'has']);
const UNSUPPORTED = new Set(['content', 'line', 'block', 'section', 'task', 'task-todo', 'task-done', 'match-case', 'ignore-case']);
const REGEX_FLAGS = new Set(['i', 's', 'u']);
const TERM_END = /[\s()]/;

/** Recursive-descent parser over the raw string; `pos` is the next UTF-16 index to read. */
class QueryParser {
  private pos = 0;
  /** Groups and negations open around the current position. */
  private depth = 0;
  /** Terms read so far. */
  private terms = 0;

  constructor(private readonly src: string) {}

  parseAll(): QueryNode {
    const node = this.parseAnd();
    this.skipSpace();
    if (this.pos < this.src.length) {
      // parseAnd only stops early at ')'.
      this.fail(`has a ')' at character ${this.pos + 1} without a matching '('; remove it or add the '('`);
    }
    return node;
  }

  /** Terms separated by spaces, up to the end or a closing parenthesis. */
  private parseAnd(): QueryNode {
    const children: QueryNode[] = [];
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.src.length || this.src[this.pos] === ')') break;
      children.push(this.parseOr());
    }
    if (children.length === 0) {
      this.fail(`has an empty group at character ${this.pos + 1}; put terms inside the parentheses`);
    }
    return children.length === 1 ? children[0] : { kind: 'and', children };
  }

  /** Terms joined by the keyword OR. */
  private parseOr(): QueryNode {
    const children = [this.parseUnary()];
    for (;;) {
      const save = this.pos;
      this.skipSpace();
      if (!this.atKeywordOr()) {
        this.pos = save;
        break;
      }
      const orAt = this.pos;
      this.pos += 2;
      this.skipSpace();
      if (this.pos >= this.src.length || this.src[this.pos] === ')') {
        this.fail(`has OR at character ${orAt + 1} without a term after it; add the alternative term`);
      }
      children.push(this.parseUnary());
    }
    return children.length === 1 ? children[0] : { kind: 'or', children };
  }

  private parseUnary(): QueryNode {
    if (this.atKeywordOr()) {
      this.fail(`has OR at character ${this.pos + 1} without a term before it; put a term on both sides of OR`);
    }
    if (this.src[this.pos] === '-') {
      const next = this.src[this.pos + 1];
      if (next === undefined || /\s/.test(next) || next === ')') {
        this.fail(`has '-' at character ${this.pos + 1} with nothing after it; write the excluded term right after '-' (e.g. -draft)`);
      }
      this.enter();
      this.pos++;
      const child = this.parseUnary();
      this.depth--;
      return { kind: 'not', child };
    }
    return this.parsePrimary();
  }

  /** Opens one group or negation level; refuses nesting deeper than MAX_QUERY_DEPTH. */
  private enter(): void {
    if (++this.depth > MAX_QUERY_DEPTH) {
      this.fail(`is nested too deeply at character ${this.pos + 1} (more than ${MAX_QUERY_DEPTH} groups or '-' inside each other); flatten the parentheses and negations`);
    }
  }

  /** Counts one term; refuses more than MAX_QUERY_TERMS. */
  private countTerm(at: number): void {
    if (++this.terms > MAX_QUERY_TERMS) {
      this.fail(`has more than ${MAX_QUERY_TERMS} terms (the ${MAX_QUERY_TERMS + 1}th at character ${at + 1}); search for fewer words, phrases and filters`);
    }
  }

  private parsePrimary(): QueryNode {
    const ch = this.src[this.pos];
    if (ch === '(') {
      this.enter();
      const open = this.pos++;
      this.skipSpace();
      if (this.pos >= this.src.length) {
        this.fail(`has an unclosed '(' at character ${open + 1}; put terms inside and close the group with ')'`);
      }
      const inner = this.parseAnd();
      if (this.src[this.pos] !== ')') {
        this.fail(`has '(' at character ${open + 1} without a matching ')'; close the group`);
      }
      this.pos++;
      this.depth--;
      return inner;
    }
    this.countTerm(this.pos);
    if (ch === '"') return { kind: 'phrase', text: this.readQuoted() };
    if (ch === '/') return { kind: 'regex', regex: this.readRegex() };
    if (ch === '[') return this.readProperty();
    const op = /^([A-Za-z][A-Za-z-]*):/.exec(this.src.slice(this.pos));
    if (op) {
      const name = op[1].toLowerCase();
      if (OPERATORS.has(name)) {
        this.pos += op[0].length;
        return this.readOperator(name);
      }
      if (UNSUPPORTED.has(name)) {
        this.fail(`uses the operator ${name}:, which this search does not support; use words, "phrases", path:, file:, tag:, has:, [property] or /regex/`);
      }
    }
    return { kind: 'word', text: this.readBare() };
  }

  private readOperator(name: string): QueryNode {
    const at = this.pos;
    const ch = this.src[this.pos];
    if (ch === undefined || TERM_END.test(ch)) {
      this.fail(`has ${name}: at character ${at - name.length} without a value; write the value right after the colon (e.g. ${name}:${name === 'tag' ? '#project' : 'notes'})`);
    }
    if (name === 'path' || name === 'file') {
      const match: TextMatch =
        ch === '/' ? { kind: 'regex', regex: this.readRegex() } : { kind: 'text', text: ch === '"' ? this.readQuoted() : this.readBare() };
      return name === 'path' ? { kind: 'path', match } : { kind: 'file', match };
    }
    const value = (ch === '"' ? this.readQuoted() : this.readBare()).trim();
    if (name === 'tag') {
      const tag = value.replace(/^#/, '').toLowerCase();
      if (tag === '') this.fail(`has tag: at character ${at - 3} without a tag name; write it as tag:#name or tag:name`);
      return { kind: 'tag', tag };
    }
    return { kind: 'property', name: value, test: { op: 'exists' } };
  }

  /** `[name]`, `[name:value]`, `[name:"quoted value"]`, `[name:>=value]`. */
  private readProperty(): QueryNode {
    const open = this.pos;
    let i = this.pos + 1;
    let inQuote = false;
    while (i < this.src.length && (inQuote || this.src[i] !== ']')) {
      if (this.src[i] === '"') inQuote = !inQuote;
      i++;
    }
    if (i >= this.src.length) {
      this.fail(`has '[' at character ${open + 1} without a matching ']'; write properties as [name] or [name:value]`);
    }
    const inner = this.src.slice(open + 1, i);
    this.pos = i + 1;
    const colon = inner.indexOf(':');
    const name = (colon < 0 ? inner : inner.slice(0, colon)).trim();
    if (name === '') {
      this.fail(`has a property filter at character ${open + 1} without a property name; write it as [name] or [name:value]`);
    }
    if (colon < 0) return { kind: 'property', name, test: { op: 'exists' } };
    let raw = inner.slice(colon + 1).trim();
    const cmp = /^(>=|<=|>|<|=)/.exec(raw);
    if (cmp) raw = raw.slice(cmp[0].length).trim();
    const value = unquote(raw);
    if (value === '') {
      this.fail(`has the property filter [${inner}] without a value after the colon; write [${name}] to test that it exists`);
    }
    const test: PropertyTest = cmp ? { op: 'compare', cmp: cmp[1] as CompareOp, value } : { op: 'contains', value };
    return { kind: 'property', name, test };
  }

  private readQuoted(): string {
    const open = this.pos;
    const close = this.src.indexOf('"', open + 1);
    if (close < 0) {
      this.fail(`has a '"' at character ${open + 1} without a closing quote; close the phrase`);
    }
    this.pos = close + 1;
    const text = this.src.slice(open + 1, close);
    if (text.trim() === '') this.fail(`has an empty phrase at character ${open + 1}; put words between the quotes`);
    return text;
  }

  /** A `/pattern/flags` literal; `/` inside `[...]` or escaped with `\` does not close it. */
  private readRegex(): RegExp {
    const open = this.pos;
    let i = open + 1;
    let inClass = false;
    for (; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
    }
    if (i >= this.src.length) {
      this.fail(`has a regular expression at character ${open + 1} without a closing '/'; write it as /pattern/ (escape a literal slash as \\/)`);
    }
    const source = this.src.slice(open + 1, i);
    let end = i + 1;
    while (end < this.src.length && !TERM_END.test(this.src[end])) end++;
    const flags = this.src.slice(i + 1, end);
    this.pos = end;
    if (source === '') this.fail(`has an empty regular expression at character ${open + 1}; put a pattern between the slashes`);
    for (const f of flags) {
      if (!REGEX_FLAGS.has(f)) {
        this.fail(`has the regular expression /${source}/${flags} with unsupported flags; use only i, s or u after the closing '/', or quote the text to search for it literally`);
      }
    }
    return compileRegex(source, flags);
  }

  private readBare(): string {
    const start = this.pos;
    while (this.pos < this.src.length && !TERM_END.test(this.src[this.pos])) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private atKeywordOr(): boolean {
    if (!this.src.startsWith('OR', this.pos)) return false;
    const after = this.src[this.pos + 2];
    return after === undefined || /[\s("]/.test(after);
  }

  private skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  private fail(what: string): never {
    throw new ToolError('invalid_argument', `The search query ${what}.`);
  }
}

/** Strips one pair of surrounding double quotes. */
function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** Compiles `source` with `flags` plus `m`; a syntax error becomes invalid_argument. */
function compileRegex(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, [...new Set(flags + 'm')].join(''));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ToolError('invalid_argument', `The regular expression /${source}/ is invalid (${reason}); fix the pattern or quote the text to search for it literally.`);
  }
}
