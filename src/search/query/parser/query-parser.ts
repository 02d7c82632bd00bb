import { inputExcerpt, quoteInput, ToolError } from '../../../errors';
import type { CompareOp, QueryNode } from './query-ast';
import { compileRegex, readQuotedAt, readRegexAt, type QueryFail } from './query-literals';
import { isOperator, isScopeOperator, operatorExample } from './query-operators';
import { dateValueFault, relativeDayDate } from '../../../vault/content/frontmatter/calendar-date';
import { ordersByValue } from '../note-filters';

/** The refusal of a query with nothing in it (empty, spaces, or only invisible characters), from the parser and the search tool's argument check. */
export const EMPTY_QUERY = 'The search query is empty; pass words, a "phrase" or an operator such as tag:project.';

/**
 * Parses a search query into a {@link QueryNode} tree, following Obsidian's search syntax
 * (Obsidian Help, "Search"): space-separated terms must all match; `OR` joins such runs of
 * terms, so it binds looser than the implicit AND (`meeting work OR meetup personal` =
 * (meeting AND work) OR (meetup AND personal), the Help's own example); parentheses group;
 * `-` before a term, phrase, operator or group excludes it. A phrase in double quotes may
 * hold `\"` (a quote) and `\\` (a backslash).
 *
 * Operators: `file:`, `path:` (a term or a `( … )` sub-query tested on the file name or path),
 * `content:`, `line:`, `block:`, `section:`, `task:`, `task-todo:`, `task-done:` (a term or a
 * `( … )` sub-query that must hold within one stretch of that kind, e.g. `line:(mix flour)`),
 * `match-case:`, `ignore-case:` (the words, phrases and regexes of the term compare
 * case-sensitively / -insensitively), `tag:`, `has:`, `[prop]`, `[prop:value]` (the value
 * may be a sub-query: `[status:Draft OR Published]`, `[status:"in progress"]`,
 * `[status:/^dr/]`, `[prop:null]`), `[prop:op value]` (op one of > < >= <= =),
 * `/regex/flags` (flags from i, s, u; `m` is always on so `^`/`$` match at line ends).
 * A word with an unknown `name:` prefix stays a plain word (e.g. `10:30`).
 *
 * The query is normalized to Unicode NFC first (vault paths and the index use composed
 * characters), so `Cafe\u0301` and `Café` are the same query. Limits keep one query from
 * blocking the event loop or the stack: {@link MAX_QUERY_CHARS} characters,
 * {@link MAX_QUERY_TERMS} terms and {@link MAX_QUERY_DEPTH} nested groups, negations or
 * operators.
 *
 * @param input the query as typed by the agent
 * @returns the root node
 * @throws ToolError('invalid_argument') naming the problem and its character position
 *   (1-based) for an empty or too long query, unbalanced parentheses, brackets or quotes, a
 *   dangling OR or `-`, an operator without a value, an invalid regex, too many terms or too
 *   deep nesting.
 */
export function parseQuery(input: string): QueryNode {
  checkLength(input);
  const visible = visibleQuery(input);
  if (visible.trim() === '') {
    throw new ToolError('invalid_argument', EMPTY_QUERY);
  }
  const parser = new QueryParser(visible.normalize('NFC'));
  return parser.parseAll();
}

/**
 * Control characters other than whitespace (NUL, BEL, DEL, C1), format characters (zero-width
 * space U+200B, word joiner, BOM, soft hyphen, bidi marks) and lone surrogates. The tokenizer
 * never makes them part of a term (a word is letters, digits and marks), so an unquoted
 * `weekly\u200breview` is two words; the zero-width (non-)joiners are kept here and read by {@link LOOSE_JOINER}.
 * One character (query_notes' tokenizer reads it as a space too, outside quotes).
 */
export const INVISIBLE_CHARACTER = /(?![\t\n\v\f\r\u200c\u200d])[\p{Cc}\p{Cf}\p{Cs}]/u;
const INVISIBLE = new RegExp(INVISIBLE_CHARACTER.source, 'gu');
/** A zero-width joiner or non-joiner not between two visible characters: it joins nothing (inside `👩‍💻` or a Persian word it spells the text). */
const LOOSE_JOINER = /(?<!\S)[\u200c\u200d]|[\u200c\u200d](?!\S)/gu;

/**
 * `input` with each {@link INVISIBLE} character and {@link LOOSE_JOINER} read as a space, the
 * separator the tokenizer makes of it: a phrase `"weekly\u0000review"` is the phrase
 * `"weekly review"`, as the unquoted words are `weekly review`, and a query of nothing else is empty.
 * @returns the query, the same length (one space per character replaced)
 */
export function visibleQuery(input: string): string {
  return input.replace(INVISIBLE, ' ').replace(LOOSE_JOINER, ' ');
}

/** Longest query accepted, in UTF-16 code units. */
export const MAX_QUERY_CHARS = 1000;
/** Most terms (words, phrases, regexes, tags, property tests, path and file tests) in one query. */
export const MAX_QUERY_TERMS = 64;
/** Most groups, negations and operators nested inside each other. */
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
  return { kind: 'regex', regex: compileRegex(pattern.normalize('NFC'), '', 'whole') };
}

const TERM_END = /[\s()]/;

/** A comparison's sign at the start of a property value or word: `>=`, `<=`, `>`, `<` or `=`. */
const COMPARISON = /^(>=|<=|>|<|=)/;

/**
 * What the terms being read are tested on: the note (`query`), its path or file name
 * (inside `path:( … )` / `file:( … )`), or one property's value (inside `[name: … ]`).
 * Only `query` terms may be operators or property filters.
 */
type Context = { kind: 'query' } | { kind: 'path' | 'file' } | { kind: 'property'; name: string };

/** Recursive-descent parser over the raw string; `pos` is the next UTF-16 index to read, `end` where the current stretch stops. */
class QueryParser {
  private pos = 0;
  private end: number;
  /** Groups, negations and operators open around the current position. */
  private depth = 0;
  /** Terms read so far. */
  private terms = 0;
  private ctx: Context = { kind: 'query' };
  /** Case of the enclosing match-case:/ignore-case: (null outside both): decides the `i` flag of regexes read. */
  private sensitive: boolean | null = null;
  private readonly failer: QueryFail = (what) => this.fail(what);

  constructor(private readonly src: string) {
    this.end = src.length;
  }

  parseAll(): QueryNode {
    const node = this.parseOr();
    this.skipSpace();
    if (this.pos < this.end) {
      // parseOr only stops early at ')'.
      this.fail(`has a ')' at character ${this.pos + 1} without a matching '('; remove it or add the '('`);
    }
    return node;
  }

  /** Runs of terms joined by the keyword OR. */
  private parseOr(): QueryNode {
    const children = [this.parseAnd()];
    for (;;) {
      this.skipSpace();
      if (!this.atKeywordOr()) break;
      const orAt = this.pos;
      this.pos += 2;
      this.skipSpace();
      if (this.pos >= this.end || this.src[this.pos] === ')') {
        this.fail(`has OR at character ${orAt + 1} without a term after it; add the alternative term`);
      }
      children.push(this.parseAnd());
    }
    return children.length === 1 ? children[0] : { kind: 'or', children };
  }

  /** Terms separated by spaces, up to the end, a closing parenthesis or the keyword OR. */
  private parseAnd(): QueryNode {
    const children: QueryNode[] = [];
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.end || this.src[this.pos] === ')') break;
      if (this.atKeywordOr()) {
        if (children.length === 0) {
          this.fail(`has OR at character ${this.pos + 1} without a term before it; put a term on both sides of OR`);
        }
        break;
      }
      children.push(this.parseUnary());
    }
    if (children.length === 0) {
      if (this.depth === 0 && this.pos < this.end) {
        this.fail(`has a ')' at character ${this.pos + 1} without a matching '('; remove it or add the '('`);
      }
      this.fail(`has an empty group at character ${this.pos + 1}; put terms inside the parentheses`);
    }
    return children.length === 1 ? children[0] : { kind: 'and', children };
  }

  private parseUnary(): QueryNode {
    if (this.src[this.pos] === '-') {
      const next = this.src[this.pos + 1];
      if (this.pos + 1 >= this.end || /\s/.test(next) || next === ')') {
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

  /** Opens one group, negation or operator level; refuses nesting deeper than MAX_QUERY_DEPTH. */
  private enter(): void {
    if (++this.depth > MAX_QUERY_DEPTH) {
      this.fail(
        `is nested too deeply at character ${this.pos + 1} (more than ${MAX_QUERY_DEPTH} groups, '-' or operators inside each other); flatten the parentheses and negations`,
      );
    }
  }

  /** Counts one term starting at `at`; refuses more than MAX_QUERY_TERMS. */
  private countTerm(at: number): void {
    if (++this.terms > MAX_QUERY_TERMS) {
      this.fail(
        `has more than ${MAX_QUERY_TERMS} terms (the ${MAX_QUERY_TERMS + 1}th at character ${at + 1}); search for fewer words, phrases and filters`,
      );
    }
  }

  private parsePrimary(): QueryNode {
    const ch = this.src[this.pos];
    if (ch === '(') return this.parseGroup(null);
    if (ch === '"') {
      const at = this.pos;
      return this.leaf('phrase', readQuotedAt(this.src, this.pos, this.end, this.failer, this.advance), at);
    }
    if (ch === '/') {
      const at = this.pos;
      const { source, flags } = readRegexAt(this.src, this.pos, this.end, this.failer, this.advance);
      return this.regexLeaf(source, flags, at);
    }
    if (this.ctx.kind === 'query') {
      if (ch === '[') return this.readProperty();
      const op = /^([A-Za-z][A-Za-z-]*):/.exec(this.src.slice(this.pos, this.end));
      if (op && isOperator(op[1].toLowerCase())) {
        const at = this.pos;
        this.pos += op[0].length;
        return this.readOperator(op[1].toLowerCase(), at);
      }
    }
    const at = this.pos;
    // A ']' that closes nothing (`[status:draft]]`) read as a word would be a term every match must hold; ')' is refused alike.
    if (ch === ']' && this.ctx.kind === 'query') {
      this.fail(`has a ']' at character ${at + 1} without a matching '['; remove it or add the '['`);
    }
    const word = this.readBare();
    // `NOT x` read as two words finds the notes with x, the opposite of what it asks (query_notes has NOT; search has -).
    if (word === 'NOT' && this.termFollows()) {
      this.fail(
        `has NOT at character ${at + 1}, which search reads as a word, so the notes with what follows would be found; ` +
          'write -word or -(group) to leave notes out, or "NOT" in quotes to search the word',
      );
    }
    return this.leaf('word', word, at);
  }

  /** True when a term follows the current position (after spaces), not the end of the query or group. */
  private termFollows(): boolean {
    let i = this.pos;
    while (i < this.end && /\s/.test(this.src[i])) i++;
    return i < this.end && this.src[i] !== ')';
  }

  /**
   * A parenthesized group at `pos`, in the current context.
   * @param opener the operator that opened it (`line`) and where its name starts, named in the error when it is not closed
   */
  private parseGroup(opener: { name: string; at: number } | null): QueryNode {
    this.enter();
    const open = opener === null ? this.pos : opener.at;
    this.pos++;
    const what = opener === null ? "'('" : `'${opener.name}:('`;
    this.skipSpace();
    if (this.pos >= this.end) {
      this.fail(`has an unclosed ${what} at character ${open + 1}; put terms inside and close the group with ')'`);
    }
    const inner = this.parseOr();
    if (this.src[this.pos] !== ')' || this.pos >= this.end) {
      const example = opener === null ? '' : ` (e.g. ${operatorExample(opener.name)})`;
      this.fail(`has ${what} at character ${open + 1} without a matching ')'; close the group${example}`);
    }
    this.pos++;
    this.depth--;
    // Parentheses make a filter even around plain words (docs/search-syntax.md), so the plan must still see them.
    return opener === null && (inner.kind === 'word' || inner.kind === 'and') ? { ...inner, grouped: true } : inner;
  }

  /** The operand of an operator: a `( … )` group, or one term (a negated one allowed). */
  private operand(name: string, at: number): QueryNode {
    if (this.src[this.pos] === '(') return this.parseGroup({ name, at });
    this.enter();
    const node = this.parseUnary();
    this.depth--;
    return node;
  }

  /** Reads the value of operator `name`, whose `name:` started at `at` (already consumed). */
  private readOperator(name: string, at: number): QueryNode {
    const ch = this.src[this.pos];
    if (this.pos >= this.end || (TERM_END.test(ch) && ch !== '(')) {
      this.fail(
        `has ${name}: at character ${at + 1} without a value; write the value right after the colon (e.g. ${operatorExample(name)})`,
      );
    }
    if (name === 'path' || name === 'file') {
      const outer = this.ctx;
      this.ctx = { kind: name };
      const node = this.operand(name, at);
      this.ctx = outer;
      return node;
    }
    if (isScopeOperator(name)) return { kind: 'scope', scope: name, child: this.operand(name, at) };
    if (name === 'match-case' || name === 'ignore-case') {
      const outer = this.sensitive;
      this.sensitive = name === 'match-case';
      const child = this.operand(name, at);
      this.sensitive = outer;
      return { kind: 'case', sensitive: name === 'match-case', child };
    }
    this.countTerm(at);
    if (ch === '(') {
      this.fail(`has ${name}:( at character ${at + 1}, but ${name}: takes one name; write ${name}:a OR ${name}:b for several`);
    }
    const value = (ch === '"' ? readQuotedAt(this.src, this.pos, this.end, this.failer, this.advance) : this.readBare()).trim();
    if (name === 'tag') {
      const tag = value.replace(/^#/, '').toLowerCase();
      if (tag === '') this.fail(`has tag: at character ${at + 1} without a tag name; write it as tag:#name or tag:name`);
      // Bare forms that find nothing in a vault of ordinary tags, and read as something else: a quoted name is taken as it is.
      if (ch !== '"' && tag.startsWith('-')) {
        this.fail(
          `has ${quoteInput(`tag:${value}`)} at character ${at + 1}, a tag name starting with '-'; to leave out the notes with a tag, write ${quoteInput(`-tag:${tag.slice(1)}`)}; for a tag that starts with '-', quote it: tag:"${inputExcerpt(value)}"`,
        );
      }
      if (ch !== '"' && tag.endsWith('/') && tag.replace(/\/+$/, '') !== '') {
        this.fail(
          `has ${quoteInput(`tag:${value}`)} at character ${at + 1}, ending in '/'; ${quoteInput(`tag:${tag.replace(/\/+$/, '')}`)} finds that tag and every tag nested under it`,
        );
      }
      return { kind: 'tag', tag };
    }
    return { kind: 'property', name: value, test: { op: 'exists' } };
  }

  /** A word or phrase read at `at`, as the current context tests it. */
  private leaf(kind: 'word' | 'phrase', text: string, at: number): QueryNode {
    this.countTerm(at);
    const ctx = this.ctx;
    if (ctx.kind === 'query') return { kind, text };
    if (ctx.kind === 'property') {
      if (kind === 'word' && text.toLowerCase() === 'null') return { kind: 'property', name: ctx.name, test: { op: 'null' } };
      const cmp = kind === 'word' ? COMPARISON.exec(text) : null;
      if (cmp) return this.comparison(ctx.name, quoteInput(text), cmp[1] as CompareOp, text.slice(cmp[0].length));
      return { kind: 'property', name: ctx.name, test: { op: 'contains', value: text } };
    }
    return { kind: ctx.kind, match: { kind: 'text', text } };
  }

  /** A `/regex/` read at `at`; inside match-case: its `i` flag is dropped, inside ignore-case: added. */
  private regexLeaf(source: string, flags: string, at: number): QueryNode {
    this.countTerm(at);
    const caseFlags = this.sensitive === null ? flags : this.sensitive ? flags.replace('i', '') : flags + 'i';
    const regex = compileRegex(source, caseFlags);
    const ctx = this.ctx;
    if (ctx.kind === 'query') return { kind: 'regex', regex };
    if (ctx.kind === 'property') return { kind: 'property', name: ctx.name, test: { op: 'regex', regex } };
    return { kind: ctx.kind, match: { kind: 'regex', regex } };
  }

  /** `[name]`, `[name:value]` with a sub-query as value, `[name:>=value]`. */
  private readProperty(): QueryNode {
    const open = this.pos;
    // `[[Note]]` is a wikilink, not a property filter named `[Note`: there is no link operator to read it as.
    if (this.src[open + 1] === '[') {
      this.fail(
        `has a wikilink [[…]] at character ${open + 1}, which search does not take (brackets are property filters); ` +
          'to find the notes linking to a note call get_links on it (its backlinks), or search its name as a "phrase"',
      );
    }
    let i = this.pos + 1;
    let inQuote = false;
    while (i < this.end && (inQuote || this.src[i] !== ']')) {
      if (this.src[i] === '\\') i++;
      else if (this.src[i] === '"') inQuote = !inQuote;
      i++;
    }
    if (i >= this.end) {
      this.fail(`has '[' at character ${open + 1} without a matching ']'; write properties as [name] or [name:value]`);
    }
    const close = i;
    const inner = this.src.slice(open + 1, close);
    const { name, colon } = this.propertyName(inner, open);
    if (name === '') {
      this.fail(`has a property filter at character ${open + 1} without a property name; write it as [name] or [name:value]`);
    }
    this.pos = close + 1;
    if (colon < 0) {
      this.countTerm(open);
      return { kind: 'property', name, test: { op: 'exists' } };
    }
    const raw = inner.slice(colon + 1).trim();
    if (raw === '') {
      this.fail(`has the property filter [${inner}] without a value after the colon; write [${name}] to test that it exists`);
    }
    const cmp = COMPARISON.exec(raw);
    const given = cmp ? raw.slice(cmp[0].length).trim() : '';
    // One comparison (`[due:>2026-03-01]`, `[rank:<= "high"]`) is read whole, its value quoted or not; a comparison with
    // more after it (`[due:>2026-03-01 OR <2020-01-01]`, `[mood:>3 OR 2]`) is a sub-query whose words may compare too.
    if (cmp && /^("(?:[^"\\]|\\.)*"|\S*)$/.test(given)) {
      this.countTerm(open);
      return this.comparison(name, `[${inner}]`, cmp[1] as CompareOp, given);
    }
    // A date and a time apart (`[due:<2026-03-01 10:00]`) would be two words of the sub-query, the time a text test.
    if (cmp && /^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}/.test(given)) {
      this.fail(
        `has the property filter [${inner}], a date and a time apart; write a date-time with a T, as properties store it: ` +
          `[${name}:${cmp[0]}${given.replace(' ', 'T')}]`,
      );
    }
    return this.valueQuery(name, open + 2 + colon, close);
  }

  /**
   * A comparison of property `name` with `given` by `op` (`[due:>2026-03-01]`, or a word `>3` of a property's sub-query),
   * refused when it could only answer no notes: no value, two comparisons run together (`<>5`), a date that names no
   * calendar day or a time of no time of day, text after a date, or an order test (`<`, `>`, `<=`, `>=`) of a value that
   * is neither a number nor a date (a year, `YYYY-MM`, `YYYY-MM-DD`, a date-time). A quoted value is text.
   * @param shown the filter or word as the refusal names it
   */
  private comparison(name: string, shown: string, op: CompareOp, given: string): QueryNode {
    const value = unquote(given);
    if (value === '') this.fail(`has the property filter ${shown} without a value after ${op}; write it as [${name}:${op}5]`);
    // `<>5`, `>>5`, `=<5`: two comparisons run together; the value's own sign is the slip, not a value to contain.
    const doubled = COMPARISON.exec(given);
    if (given === value && doubled && op !== '=')
      this.fail(
        `has the property filter ${shown} with two comparisons run together (${op}${doubled[0]}); write one: ` +
          ['>', '<', '>=', '<=', '='].map((one) => `[${name}:${one}${given.slice(doubled[0].length).trim()}]`).join(', '),
      );
    // A bare date must name a calendar day, and a time after it a time of day, as in query_notes; a quoted value is text.
    const fault = given === value ? dateValueFault(value) : null;
    if (fault === 'day')
      this.fail(
        `has the property filter ${shown} whose date ${quoteInput(value)} is not a calendar day; write a real day as YYYY-MM-DD, e.g. 2026-01-15, ` +
          `or quote the value ([${name}:${op === '=' ? '=' : ''}"${value}"]) to match it as text, as a note may hold it`,
      );
    if (fault === 'time' || (fault === 'text' && /^\d{4}-\d{2}-\d{2}T\d/.test(value)))
      this.fail(
        `has the property filter ${shown} whose time in ${quoteInput(value)} is not a time of day written HH:MM[:SS[.fff]][Z]; ` +
          'write date-times as YYYY-MM-DDTHH:MM (two digits each, hours 00–23; seconds and a final Z may follow), e.g. 2026-01-15T09:30',
      );
    if (fault === 'text')
      this.fail(
        `has the property filter ${shown}, which compares with ${quoteInput(value)}, a date followed by other text; ` +
          'compare with a date (YYYY-MM-DD) or a date-time (YYYY-MM-DDTHH:MM), one value to a comparison',
      );
    // `=` may look for the word itself (a status `today`); an order test by it could only compare text.
    const day = op === '=' ? null : relativeDayDate(value);
    if (day !== null)
      this.fail(
        `has the property filter ${shown}, which compares with the word ${quoteInput(value)}; comparisons take dates, not words ` +
          `whose date changes: write [${name}:${op}${day}] (${value.toLowerCase() === 'now' ? 'today' : value.toLowerCase()} on this computer)`,
      );
    if (op !== '=' && !ordersByValue(value))
      this.fail(
        `has the property filter ${shown}, which orders by ${quoteInput(value)}, neither a number nor a date; ` +
          `${op} compares numbers and dates (a year, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM) only: write [${name}:${given}] for notes whose ${name} contains it, ` +
          `or [${name}:=${given}] for that exact value`,
      );
    return { kind: 'property', name, test: { op: 'compare', cmp: op, value } };
  }

  /**
   * The property name of a filter's inside `inner` (between `[` at `open` and `]`) and where its value's colon is (-1: none).
   * A name in double quotes is taken whole, colons and all (`["due: soft"]`, `["due: soft":2026-01-01]`; `\"` for a quote inside it),
   * since a property's name may hold a colon that the first colon would otherwise cut; else the name is the text before the
   * first colon.
   */
  private propertyName(inner: string, open: number): { name: string; colon: number } {
    const quoted = /^\s*"((?:[^"\\]|\\.)*)"\s*/.exec(inner);
    if (quoted === null) {
      const colon = inner.indexOf(':');
      return { name: (colon < 0 ? inner : inner.slice(0, colon)).trim(), colon };
    }
    const rest = inner.slice(quoted[0].length);
    if (rest !== '' && !rest.startsWith(':')) {
      this.fail(`has the property filter at character ${open + 1} with text after its quoted name; write it as ["name"] or ["name":value]`);
    }
    return { name: quoted[1].replace(/\\(.)/g, '$1'), colon: rest === '' ? -1 : quoted[0].length };
  }

  /** The sub-query of a property value between `from` and `to` (exclusive), each of its terms tested on property `name`. */
  private valueQuery(name: string, from: number, to: number): QueryNode {
    const outer = { ctx: this.ctx, end: this.end };
    this.ctx = { kind: 'property', name };
    this.pos = from;
    this.end = to;
    this.enter();
    const node = this.parseOr();
    this.skipSpace();
    if (this.pos < this.end) {
      this.fail(`has a ')' at character ${this.pos + 1} without a matching '(' in a property value; remove it or add the '('`);
    }
    this.depth--;
    this.ctx = outer.ctx;
    this.end = outer.end;
    this.pos = to + 1;
    // `[status:-draft]` is about notes that have the property: an excluded value does not let notes without it in.
    return hasNot(node) ? { kind: 'and', children: [{ kind: 'property', name, test: { op: 'exists' } }, node] } : node;
  }

  private readonly advance = (to: number): void => {
    this.pos = to;
  };

  private readBare(): string {
    const start = this.pos;
    while (this.pos < this.end && !TERM_END.test(this.src[this.pos])) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private atKeywordOr(): boolean {
    if (this.pos + 2 > this.end || !this.src.startsWith('OR', this.pos)) return false;
    const after = this.pos + 2 < this.end ? this.src[this.pos + 2] : undefined;
    // Before ')' too: `(a OR)` has a dangling OR, not the word "or".
    return after === undefined || /[\s()"]/.test(after);
  }

  private skipSpace(): void {
    while (this.pos < this.end && /\s/.test(this.src[this.pos])) this.pos++;
  }

  private fail(what: string): never {
    throw new ToolError('invalid_argument', `The search query ${what}.`);
  }
}

/** True when a `not` node is in the tree. */
function hasNot(node: QueryNode): boolean {
  return node.kind === 'not' || ((node.kind === 'and' || node.kind === 'or') && node.children.some(hasNot));
}

/** Strips one pair of surrounding double quotes. */
function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
