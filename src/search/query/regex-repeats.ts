import { ToolError } from '../../errors';

/**
 * The largest number of times a search regex may repeat one part, counting nested counts
 * together (`(a{100}){100}` repeats `a` 10,000 times). A counted repeat is read as far ahead as
 * its count wherever the part could start: `/a{99999999}/` over a run of 20,000 `a` reads the rest
 * of the run from each of its places, about 2×10⁸ steps (0.9 s in V8 on one core), so a huge count
 * makes a regex too slow on ordinary notes with no nested repetition at all. Ten thousand keeps every
 * count a note search has a use for (`^.{2000,}` for long lines, `\d{4}` for years) and refuses the
 * counts that only measure the notes' longest runs.
 */
export const MAX_REGEX_REPEAT = 10_000;

/** Counts from this size up are named as the likely cause when a regex is too slow ({@link largestRepeat}). */
export const NOTABLE_REGEX_REPEAT = 100;

/** What {@link largestRepeat} found: the largest repeat of one part, and the counts that make it, outermost last. */
export interface RegexRepeat {
  /** How many times one part repeats at most (the product of its nested counts; `{n,m}` counts the larger of n and m). */
  times: number;
  /** The counted quantifiers that make it as written, innermost first (`['{1000}', '{1000}']`). */
  counts: string[];
}

interface Frame {
  /** The largest repeat inside this group so far. */
  best: RegexRepeat;
  /** The repeat of the last atom read (a group's own largest, 1 for a character): what a quantifier after it multiplies. */
  last: RegexRepeat;
}

const ONE: RegexRepeat = { times: 1, counts: [] };
/** A counted quantifier where `lastIndex` points (sticky): `{n}`, `{n,}` or `{n,m}`, however many digits. */
const COUNTED_AT = /\{(\d+)(?:(,)(\d*))?\}/y;

/**
 * The largest repeat of one part of a regex: counted quantifiers (`{n}`, `{n,}`, `{n,m}`) outside
 * character classes and escapes, multiplied through the groups they repeat. `*`, `+` and `?` count
 * once (they read ahead only as far as the text matches). Call it on a source that compiles.
 * @param source the regex source, without slashes or flags.
 * @param unicode the `u` flag is set: `\u{…}` and `\p{…}` are escapes with braces of their own (without it,
 *   `\u{61}` is `u` 61 times).
 * @returns `{times: 1, counts: []}` when it has no counted quantifier.
 */
export function largestRepeat(source: string, unicode = false): RegexRepeat {
  const stack: Frame[] = [{ best: ONE, last: ONE }];
  const top = (): Frame => stack[stack.length - 1];
  let m: RegExpExecArray | null;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      // `\u{…}` and `\p{…}` hold braces of their own; any other escape is one character after the backslash.
      const next = source[i + 1];
      i += 1;
      if (unicode && (next === 'u' || next === 'p' || next === 'P') && source[i + 1] === '{') i = Math.max(i, source.indexOf('}', i));
      top().last = ONE;
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      top().last = ONE;
    } else if (c === '(') {
      stack.push({ best: ONE, last: ONE });
      if (source[i + 1] === '?') i = groupBodyStart(source, i) - 1;
    } else if (c === ')' && stack.length > 1) {
      const group = stack.pop()!;
      top().last = group.best;
      top().best = larger(top().best, group.best);
    } else if (c === '{' && (m = countedAt(source, i)) !== null) {
      const count = Math.max(Number(m[1]), m[3] ? Number(m[3]) : 0);
      const frame = top();
      const repeat = { times: frame.last.times * count, counts: [...frame.last.counts, m[0]] };
      frame.best = larger(frame.best, repeat);
      frame.last = repeat;
      i += m[0].length - 1;
    } else if (c !== '*' && c !== '+' && c !== '?') {
      top().last = ONE;
    }
  }
  return stack.reduce((best, frame) => larger(best, frame.best), ONE);
}

/** The counted quantifier (`{n}`, `{n,}`, `{n,m}`, any number of digits) that starts at `at` in `source`, or null. */
function countedAt(source: string, at: number): RegExpExecArray | null {
  COUNTED_AT.lastIndex = at;
  return COUNTED_AT.exec(source);
}

/** Where the body of the group opened at `open` (a `(` followed by `?`) starts: after `?:`, `?=`, `?!`, `?<=`, `?<!` or `?<name>`. */
function groupBodyStart(source: string, open: number): number {
  const kind = source[open + 2];
  if (kind !== '<') return open + 3;
  if (source[open + 3] === '=' || source[open + 3] === '!') return open + 4;
  const close = source.indexOf('>', open);
  return close < 0 ? open + 3 : close + 1;
}

function larger(a: RegexRepeat, b: RegexRepeat): RegexRepeat {
  return b.times > a.times ? b : a;
}

/** How a repeat is written for a message: `{99999999}`, or `{1000} inside {1000}`. */
function spelled(repeat: RegexRepeat): string {
  return repeat.counts.join(' inside ');
}

/**
 * Refuses a regex that repeats one part more than {@link MAX_REGEX_REPEAT} times, before it runs.
 * @param regex the compiled regex (its source and `u` flag are read).
 * @param shown the source as the message shows it (shortened).
 * @throws ToolError('invalid_argument') naming the count, the limit and what to write instead.
 */
export function checkRegexRepeats(regex: RegExp, shown: string): void {
  const repeat = largestRepeat(regex.source, regex.unicode);
  if (repeat.times <= MAX_REGEX_REPEAT) return;
  const inAll = repeat.counts.length > 1 ? ' in all' : '';
  throw new ToolError(
    'invalid_argument',
    `The regular expression /${shown}/ repeats a part ${repeat.times} times${inAll} (${spelled(repeat)}), over the ${MAX_REGEX_REPEAT} a search takes: a counted repeat is read that far ahead from every place the part could start, which is too slow on long notes. Use a count of at most ${MAX_REGEX_REPEAT}; for "n or more" write {n,} or +.`,
  );
}

/** A group holding a repeat, itself repeated: `(a+)+`, `(\\w*x)*`, `(?:a|b+){2,}`. */
const NESTED_REPEAT = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]/;

/**
 * The cause a too-slow regex's refusal names: a large counted repeat when it has one
 * ({@link NOTABLE_REGEX_REPEAT} or more), else backtracking: repeated parts retried from every start (quadratic
 * on a long note, as `/.*needle/`), nested repetition (exponential) worst of all.
 * @returns a clause to follow "is too slow on these notes".
 */
export function slowRegexCause(regex: RegExp): string {
  const repeat = largestRepeat(regex.source, regex.unicode);
  if (repeat.times < NOTABLE_REGEX_REPEAT) {
    // A repeated group whose inside repeats too, `(a+)+`: anchoring does not help it (a newcomer's `^(a+)+$` was told to anchor).
    if (NESTED_REPEAT.test(regex.source)) {
      return '(it nests repeats, as (a+)+ does: a run of text splits among them in exponentially many ways, anchored or not); repeat the part once ((a+)+ is a+), or search for a "phrase" instead.';
    }
    const anchor = regex.source.startsWith('^') ? '' : 'anchor it (^ or a literal word first), ';
    return `(it backtracks: from every place a match could start it retries its repeated parts, such as .* or (a|b)*); ${anchor}narrow a repeated part ([^\\n]* rather than .*), or search for a "phrase" instead.`;
  }
  return `(it repeats a part ${repeat.times} times: ${spelled(repeat)}, read that far ahead from every place the part could start); use a smaller count, {n,} or + for "n or more", or anchor it.`;
}
