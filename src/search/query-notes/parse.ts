import { quoteInput } from '../../errors';
import { INVISIBLE_CHARACTER } from '../query/parser/query-parser';

/**
 * The `query_notes` language (docs/architecture.md#tool-contract, query_notes): a small base-style query over
 * frontmatter properties and file fields, written in one line:
 *
 *   WHERE status is "draft" AND file.folder under "Projects" SORT file.mtime desc LIMIT 20 COLUMNS title, status
 *
 * Every clause is optional and clauses may come in any order; `WHERE` may be left out before
 * a condition. Keywords and operators are case-insensitive. Conditions combine tests with
 * AND, OR, NOT and parentheses; a test is `field operator value` (see {@link OPERATORS}).
 * Values are "double" or 'single' quoted, or bare (numbers, dates such as 2026-01-15,
 * words). A field is a file field (`file.name`...) or a frontmatter property (bare, `note.`
 * prefixed, or quoted when it has spaces).
 */
import { dateValueFault, relativeDayDate } from '../../vault/content/frontmatter/calendar-date';
import { isNumberText, startsWithDate } from '../query/note-filters';

/** Fields every note has, computed from the file (Obsidian Bases' `file.*` names). */
export const FILE_FIELDS = [
  'file.name',
  'file.basename',
  'file.path',
  'file.folder',
  'file.ext',
  'file.mtime',
  'file.ctime',
  'file.size',
  'file.tags',
] as const;
export type FileField = (typeof FILE_FIELDS)[number];

/**
 * Why comparing file field `field` with `value` by `op` can match no note, or null when it can:
 * `file.size` is a number of bytes and `file.mtime` / `file.ctime` are dates, so a comparison
 * (`is`, `gt`, `lt`, `gte`, `lte`) with text that is no number, or no `YYYY-MM-DD` date, would
 * quietly answer nothing. Properties hold any type and compare as text when they are not numbers.
 */
function fileValueFault(field: Field, op: string, value: string): string | null {
  if (field.kind !== 'file' || !['is', 'gt', 'lt', 'gte', 'lte'].includes(op)) return null;
  if (field.name === 'file.size' && !isNumberText(value))
    return `file.size is a size in bytes, and ${quoteInput(value)} is not a number; compare it with one, e.g. file.size gt 10000.`;
  if ((field.name === 'file.mtime' || field.name === 'file.ctime') && !startsWithDate(value))
    return `${field.name} is a date, and ${quoteInput(value)} is not one; compare it with a date written YYYY-MM-DD, e.g. ${field.name} gt 2026-01-15.`;
  return null;
}

/** A field: a file field, or a frontmatter property by name (matched case-insensitively). */
export type Field = { kind: 'file'; name: FileField } | { kind: 'property'; name: string };

/** Test operators: `exists`/`missing` take no value, the others one. */
export type Operator = 'is' | 'contains' | 'exists' | 'gt' | 'lt' | 'gte' | 'lte' | 'under';

/** The operator words and symbols the language accepts, with the operator each means and whether it negates. */
const OPERATORS: Record<string, { op: Operator; negated: boolean }> = {
  is: { op: 'is', negated: false },
  '=': { op: 'is', negated: false },
  '==': { op: 'is', negated: false },
  '!=': { op: 'is', negated: true },
  contains: { op: 'contains', negated: false },
  exists: { op: 'exists', negated: false },
  missing: { op: 'exists', negated: true },
  gt: { op: 'gt', negated: false },
  '>': { op: 'gt', negated: false },
  lt: { op: 'lt', negated: false },
  '<': { op: 'lt', negated: false },
  gte: { op: 'gte', negated: false },
  '>=': { op: 'gte', negated: false },
  lte: { op: 'lte', negated: false },
  '<=': { op: 'lte', negated: false },
  under: { op: 'under', negated: false },
};

/** How the operators are listed in error messages. */
const OPERATOR_LIST = 'is, is not, contains, not contains, exists, missing, gt, lt, gte, lte, under (or = != > < >= <=)';

/** A parsed condition. */
export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; child: Condition }
  | { kind: 'test'; field: Field; op: Operator; value: string | null };

/** One sort key. */
export interface SortKey {
  field: Field;
  descending: boolean;
}

/** A parsed query: every part null/empty when its clause was left out. */
export interface NotesQuery {
  where: Condition | null;
  sort: SortKey[];
  limit: number | null;
  columns: Field[] | null;
}

/** Largest LIMIT accepted. */
export const MAX_QUERY_LIMIT = 1000;

/**
 * A query that does not parse: what is wrong and where. Returned to the agent as a result
 * (docs/architecture.md#tool-contract: parse errors are results, not failures) so it can fix the query.
 */
export class QuerySyntaxError extends Error {
  /**
   * @param message one sentence naming what was expected
   * @param position 1-based character position in the query where the problem starts
   */
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'QuerySyntaxError';
  }
}

interface Token {
  kind: 'word' | 'string' | 'symbol' | 'open' | 'close' | 'comma';
  text: string;
  /** 0-based offset in the query. */
  at: number;
}

const CLAUSES = new Set(['where', 'sort', 'order', 'limit', 'columns', 'select']);

/**
 * Parses a `query_notes` query.
 * @param source the query text; empty means every note
 * @returns the parsed query
 * @throws QuerySyntaxError with the 1-based position of the first problem
 */
export function parseNotesQuery(source: string): NotesQuery {
  return new Parser(source, tokenize(source)).parse();
}

/** A word: up to whitespace, an invisible character (INVISIBLE_CHARACTER), a quote, an operator symbol, a parenthesis or a comma. */
const WORD = new RegExp(`^(?:(?!${INVISIBLE_CHARACTER.source})[^\\s(),"'<>=!])+`, 'u');

/**
 * Splits the query into words, quoted strings, operator symbols, parentheses and commas. An
 * invisible character outside quotes (a control, a zero-width space, a bidi override: search's
 * INVISIBLE_CHARACTER) separates as a space does, as search reads it; a position still counts it.
 */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    const point = String.fromCodePoint(source.codePointAt(i) as number);
    if (/\s/.test(ch) || INVISIBLE_CHARACTER.test(point)) {
      i += point.length;
    } else if (ch === '"' || ch === "'") {
      let text = '';
      let j = i + 1;
      while (j < source.length && source[j] !== ch) {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        text += source[j++];
      }
      if (j >= source.length) throw new QuerySyntaxError(`The text starting with ${ch} is never closed; end it with ${ch}.`, i + 1);
      tokens.push({ kind: 'string', text, at: i });
      i = j + 1;
    } else if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: ch === '(' ? 'open' : ch === ')' ? 'close' : 'comma', text: ch, at: i });
      i++;
    } else if (/[<>=!]/.test(ch)) {
      const m = /^[<>=!]+/.exec(source.slice(i)) as RegExpExecArray;
      tokens.push({ kind: 'symbol', text: m[0], at: i });
      i += m[0].length;
    } else {
      const m = WORD.exec(source.slice(i)) as RegExpExecArray;
      tokens.push({ kind: 'word', text: m[0], at: i });
      i += m[0].length;
    }
  }
  return tokens;
}

/** Recursive descent over the tokens; `OR` binds looser than `AND`, `NOT` tighter. */
class Parser {
  private k = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  parse(): NotesQuery {
    const query: NotesQuery = { where: null, sort: [], limit: null, columns: null };
    const seen = new Set<string>();
    const first = this.peek();
    if (first && !this.isClause(first)) query.where = this.parseOr();
    while (this.peek()) {
      const token = this.peek() as Token;
      if (!this.isClause(token)) {
        throw this.error(`Unexpected ${quoteInput(token.text)}; expected AND, OR, or a clause: WHERE, SORT, LIMIT, COLUMNS.`, token);
      }
      const clause = this.clauseName(token);
      if (seen.has(clause)) throw this.error(`${clause.toUpperCase()} is given twice; give it once.`, token);
      seen.add(clause);
      this.k++;
      if (clause === 'where') query.where = this.parseOr();
      else if (clause === 'sort') query.sort = this.parseSort(token);
      else if (clause === 'limit') query.limit = this.parseLimit();
      else query.columns = this.parseColumns();
    }
    return query;
  }

  private parseOr(): Condition {
    let left = this.parseAnd();
    while (this.keyword('or') || this.keyword('||')) left = { kind: 'or', left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): Condition {
    let left = this.parseUnary();
    while (this.keyword('and') || this.keyword('&&')) left = { kind: 'and', left, right: this.parseUnary() };
    return left;
  }

  private parseUnary(): Condition {
    if (this.keyword('not')) return { kind: 'not', child: this.parseUnary() };
    const open = this.peek();
    if (open?.kind === 'open') {
      this.k++;
      const inner = this.parseOr();
      const close = this.peek();
      if (close?.kind !== 'close') throw this.error(`Expected ) to close the ( at ${open.at + 1}.`, close ?? null);
      this.k++;
      return inner;
    }
    return this.parseTest();
  }

  private parseTest(): Condition {
    const fieldToken = this.peek();
    const field = this.parseField('a field such as status or file.folder');
    const opToken = this.peek();
    // A value alone after OR or AND (`status is "active" OR paused LIMIT 3`) reads as a field whose operator is what
    // follows: the error names the word and the whole test to write, not the clause after it.
    if (fieldToken && (!opToken || this.isClause(opToken) || /^(and|or)$/i.test(opToken.text) || opToken.text === ')')) {
      throw this.error(
        `${quoteInput(fieldToken.text)} is a field with no test after it; each test is a field, an operator and a value ` +
          `(status is "paused"), also after OR and AND.`,
        fieldToken,
      );
    }
    if (!opToken || (opToken.kind !== 'word' && opToken.kind !== 'symbol')) {
      throw this.error(`Expected an operator after the field: ${OPERATOR_LIST}.`, opToken ?? null);
    }
    this.k++;
    let word = opToken.text.toLowerCase();
    let negated = false;
    if (word === 'not') {
      negated = true;
      const next = this.peek();
      if (!next || next.kind !== 'word') throw this.error(`Expected an operator after 'not': ${OPERATOR_LIST}.`, next ?? null);
      this.k++;
      word = next.text.toLowerCase();
    } else if (word === 'is' && this.keyword('not')) {
      negated = true;
    }
    const meaning = OPERATORS[word];
    if (!meaning) throw this.error(`${quoteInput(opToken.text)} is not an operator; use ${OPERATOR_LIST}.`, opToken);
    if (meaning.op === 'exists') return wrap({ kind: 'test', field, op: 'exists', value: null }, negated !== meaning.negated);
    const valueToken = this.peek();
    if (
      !valueToken ||
      (valueToken.kind !== 'word' && valueToken.kind !== 'string') ||
      (valueToken.kind === 'word' && this.isClause(valueToken))
    ) {
      throw this.error(`Expected a value after ${quoteInput(opToken.text)}, e.g. "draft", 5 or 2026-01-15.`, valueToken ?? null);
    }
    // A date's day is checked for every test; what follows a date only where the value is compared (a file name may hold
    // `2026-01-15_trip`).
    const compared = meaning.op !== 'contains' && meaning.op !== 'under';
    const fault = valueToken.kind === 'word' ? dateValueFault(valueToken.text) : null;
    const dateFault = fault === 'day' || compared ? fault : null;
    if (dateFault === 'day') {
      throw this.error(
        `${quoteInput(valueToken.text)} is not a calendar date; write a real day as YYYY-MM-DD, e.g. 2026-01-15, or quote it ("${valueToken.text}") to match it as text, as a note may hold it.`,
        valueToken,
      );
    }
    if (dateFault === 'time') {
      throw this.error(
        `${quoteInput(valueToken.text)} holds no time of day; write date-times as YYYY-MM-DDTHH:MM (hours 00–23; seconds and a final Z may follow), e.g. 2026-01-15T09:30.`,
        valueToken,
      );
    }
    if (dateFault === 'text') {
      throw this.error(
        `${quoteInput(valueToken.text)} is a date followed by other text; compare with a date (YYYY-MM-DD) or a date-time ` +
          '(YYYY-MM-DDTHH:MM, seconds and a final Z allowed: 2026-01-15T09:30:00.000Z), or quote the value to compare text.',
        valueToken,
      );
    }
    const ordering = meaning.op === 'gt' || meaning.op === 'lt' || meaning.op === 'gte' || meaning.op === 'lte';
    const day = valueToken.kind === 'word' && ordering ? relativeDayDate(valueToken.text) : null;
    if (day !== null) {
      const meant = valueToken.text.toLowerCase() === 'now' ? 'today' : valueToken.text.toLowerCase();
      throw this.error(
        `${quoteInput(valueToken.text)} would be compared as text, not as a date; write the date instead, e.g. ${day} (${meant} on this computer).`,
        valueToken,
      );
    }
    const typeFault = fileValueFault(field, meaning.op, valueToken.text);
    if (typeFault !== null) throw this.error(typeFault, valueToken);
    this.k++;
    return wrap({ kind: 'test', field, op: meaning.op, value: valueToken.text }, negated !== meaning.negated);
  }

  private parseSort(clause: Token): SortKey[] {
    if (clause.text.toLowerCase() === 'order' && !this.keyword('by'))
      throw this.error('Expected BY after ORDER (or write SORT).', this.peek() ?? null);
    if (clause.text.toLowerCase() === 'sort') this.keyword('by');
    const keys: SortKey[] = [];
    do {
      const field = this.parseField('a field to sort by, e.g. file.mtime');
      let descending = false;
      if (this.keyword('desc') || this.keyword('descending')) descending = true;
      else if (this.keyword('asc') || this.keyword('ascending')) descending = false;
      keys.push({ field, descending });
    } while (this.comma());
    return keys;
  }

  private parseLimit(): number {
    const token = this.peek();
    const n = token?.kind === 'word' && /^\d+$/.test(token.text) ? Number(token.text) : NaN;
    if (!token || !Number.isInteger(n) || n < 1 || n > MAX_QUERY_LIMIT) {
      throw this.error(`LIMIT takes a whole number from 1 to ${MAX_QUERY_LIMIT}.`, token ?? null);
    }
    this.k++;
    return n;
  }

  private parseColumns(): Field[] {
    const fields: Field[] = [];
    do fields.push(this.parseField('a field to show, e.g. status or file.mtime'));
    while (this.comma());
    return fields;
  }

  /** A field token: a bare name (`status`, `note.status`, `file.mtime`) or a quoted property name. */
  private parseField(expected: string): Field {
    const token = this.peek();
    if (!token || (token.kind !== 'word' && token.kind !== 'string') || (token.kind === 'word' && this.isClause(token))) {
      throw this.error(`Expected ${expected}.`, token ?? null);
    }
    this.k++;
    if (token.kind === 'string') {
      if (token.text.trim() === '') throw this.error('A property name may not be empty.', token);
      return { kind: 'property', name: token.text };
    }
    if (token.text === '*') {
      // SQL's "every column": no such field here, and a property named `*` is written "*".
      throw this.error(
        '`*` is not a field: name the columns (COLUMNS title, status), or leave COLUMNS out to show the fields WHERE and SORT use.',
        token,
      );
    }
    const lower = token.text.toLowerCase();
    if (lower.startsWith('file.')) {
      const name = FILE_FIELDS.find((f) => f === lower);
      if (!name) throw this.error(`${quoteInput(token.text)} is not a file field; use one of ${FILE_FIELDS.join(', ')}.`, token);
      return { kind: 'file', name };
    }
    const name = lower.startsWith('note.') ? token.text.slice(5) : token.text;
    if (name === '') throw this.error('Expected a property name after note.', token);
    return { kind: 'property', name };
  }

  private peek(): Token | undefined {
    return this.tokens[this.k];
  }

  /** Consumes the word `word` (case-insensitive) when it is next. */
  private keyword(word: string): boolean {
    const token = this.peek();
    if (token?.kind === 'word' && token.text.toLowerCase() === word) {
      this.k++;
      return true;
    }
    return false;
  }

  private comma(): boolean {
    if (this.peek()?.kind !== 'comma') return false;
    this.k++;
    return true;
  }

  private isClause(token: Token): boolean {
    return token.kind === 'word' && CLAUSES.has(token.text.toLowerCase());
  }

  private clauseName(token: Token): 'where' | 'sort' | 'limit' | 'columns' {
    const word = token.text.toLowerCase();
    return word === 'order' ? 'sort' : word === 'select' ? 'columns' : (word as 'where' | 'sort' | 'limit' | 'columns');
  }

  /** An error at `token`, or at the end of the query when there is no token left. */
  private error(message: string, token: Token | null): QuerySyntaxError {
    if (token) return new QuerySyntaxError(message, token.at + 1);
    return new QuerySyntaxError(`${message.replace(/\.$/, '')} (the query ends there).`, this.source.trimEnd().length + 1);
  }
}

/** `condition`, inside a NOT when `negated`. */
function wrap(condition: Condition, negated: boolean): Condition {
  return negated ? { kind: 'not', child: condition } : condition;
}
