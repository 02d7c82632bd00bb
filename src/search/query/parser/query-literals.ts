import { inputExcerpt, ToolError } from '../../../errors';
import { checkRegexRepeats } from '../regex-repeats';

/**
 * The literal pieces of a search query that are read character by character: "quoted
 * phrases" (with `\"` and `\\` escapes, as Obsidian Help's "Search terms" documents) and
 * `/regex/flags` literals. Used by `query-parser.ts`; each reader takes the query text, the
 * start and end of the stretch it may read, and reports the position after the literal.
 */

/** Reports a syntax error: `what` completes "The search query …" (see the parser's messages). */
export type QueryFail = (what: string) => never;

/** Regex flags a query may give after the closing `/`; `m` is always added. */
const REGEX_FLAGS = new Set(['i', 's', 'u']);
const TERM_END = /[\s()]/;

/**
 * Reads the quoted phrase whose opening `"` is at `open`: `\"` stands for a quote and `\\`
 * for a backslash; any other backslash is kept as written (so `path:"C:\notes"` stays).
 * @param end the index the phrase must close before
 * @param advance told the index just after the closing quote
 * @returns the phrase text without quotes, escapes resolved
 * @throws through `fail` when the quote is not closed or the phrase is empty
 */
export function readQuotedAt(src: string, open: number, end: number, fail: QueryFail, advance: (to: number) => void): string {
  let text = '';
  let i = open + 1;
  for (; i < end; i++) {
    const c = src[i];
    if (c === '"') break;
    if (c === '\\' && i + 1 < end && (src[i + 1] === '"' || src[i + 1] === '\\')) {
      text += src[++i];
    } else text += c;
  }
  if (i >= end) fail(`has a '"' at character ${open + 1} without a closing quote; close the phrase (write \\" for a quote inside it)`);
  advance(i + 1);
  if (text.trim() === '') fail(`has an empty phrase at character ${open + 1}; put words between the quotes`);
  return text;
}

/**
 * Reads the `/pattern/flags` literal whose opening `/` is at `open`; `/` inside `[...]` or
 * escaped with `\` does not close it.
 * @param end the index the literal must end by
 * @param advance told the index just after the flags
 * @returns the pattern source and flags as written
 * @throws through `fail` when the closing `/` is missing, the pattern is empty or a flag is not i, s or u;
 *   ToolError as {@link compileRegex} when a `[` left open took the closing `/` into its class
 *   (`/[/`: an unterminated character class, named as `regex: true` names it)
 */
export function readRegexAt(
  src: string,
  open: number,
  end: number,
  fail: QueryFail,
  advance: (to: number) => void,
): { source: string; flags: string } {
  let i = open + 1;
  let inClass = false;
  for (; i < end; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
  }
  if (i >= end) {
    // A '[' never closed took the '/' that ends the literal into its class: name that fault, as compiling the pattern does.
    const last = src.lastIndexOf('/', end - 1);
    if (inClass && last > open) compileRegex(src.slice(open + 1, last), '');
    fail(`has a regular expression at character ${open + 1} without a closing '/'; write it as /pattern/ (escape a literal slash as \\/)`);
  }
  const source = src.slice(open + 1, i);
  let stop = i + 1;
  while (stop < end && !TERM_END.test(src[stop])) stop++;
  const flags = src.slice(i + 1, stop);
  advance(stop);
  if (source === '') fail(`has an empty regular expression at character ${open + 1}; put a pattern between the slashes`);
  for (const f of flags) {
    if (!REGEX_FLAGS.has(f)) {
      fail(
        `has the regular expression /${inputExcerpt(source)}/${inputExcerpt(flags)} with unsupported flags; use only i, s or u after the closing '/', or quote the text to search for it literally`,
      );
    }
  }
  return { source, flags };
}

/** What a refusal of an invalid regex tells to do: the fix that fits where the pattern came from. */
const REGEX_FIXES = {
  /** A `/…/` term of a query: the text can be quoted instead. */
  term: 'fix the pattern or quote the text to search for it literally',
  /** The whole query under `regex: true`: quoting cannot help there. */
  whole: 'fix the pattern (escape a character meant literally with \\, as \\( or \\.), or leave out regex: true to search the words',
};

/**
 * Compiles a user regex with `flags` plus `m` (each flag once).
 * @param source the pattern. @param flags the flags given after it.
 * @param from where the pattern came from: a `/…/` `term` of a query (default), or the `whole` query under `regex: true`
 * @throws ToolError('invalid_argument') naming the pattern and the engine's reason when it does not compile (with the
 *   fix that fits `from`), or the count when it repeats a part more than MAX_REGEX_REPEAT times (query/regex-repeats.ts checkRegexRepeats)
 */
export function compileRegex(source: string, flags: string, from: keyof typeof REGEX_FIXES = 'term'): RegExp {
  let regex: RegExp;
  try {
    regex = new RegExp(source, [...new Set(flags + 'm')].join(''));
  } catch (err) {
    throw new ToolError(
      'invalid_argument',
      `The regular expression /${inputExcerpt(source)}/ is invalid (${regexFault(err)}); ${REGEX_FIXES[from]}.`,
    );
  }
  checkRegexRepeats(regex, inputExcerpt(source));
  return regex;
}

/** The engine's reason a pattern does not compile, without the pattern it repeats (V8: `Invalid regular expression: /…/flags: reason`). */
function regexFault(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.startsWith('Invalid regular expression: /') ? message.slice(message.lastIndexOf(': ') + 2) : inputExcerpt(message);
}
