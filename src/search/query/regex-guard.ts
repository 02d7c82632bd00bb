import * as vm from 'node:vm';
import { inputExcerpt, quoteInput, ToolError } from '../../errors';
import { yieldToEventLoop } from '../engine/slicer';
import { slowRegexCause } from './regex-repeats';

/**
 * Runs user-supplied regular expressions with a time limit. A JavaScript regex cannot be
 * interrupted from JavaScript, so one with catastrophic backtracking (e.g. `^(a+)+$` on
 * `aaaa…!`) would freeze Obsidian. Node's `vm` module can stop a running script through
 * V8's execution termination (Node docs, "vm" → `script.runInContext(context, { timeout })`),
 * which also interrupts a regex match in progress. Each run tests a whole batch of inputs,
 * because every timed run starts a watchdog (about 0.1 ms).
 *
 * A run is synchronous: while it lasts no other call of any session is served. So one run
 * may take at most {@link RUN_LIMIT_MS}; a batch that takes longer is tested again input by
 * input, and a regex that needs longer than that on one input is too slow. Between runs the
 * search awaits {@link RegexGuard.pause}, which yields to the event loop once the guard has run
 * regexes for {@link REGEX_SLICE_MS} since it last yielded, so a plain search of another
 * session waits behind a slow regex search for a slice, not for its whole budget.
 */

/** Default time all regex runs of one search may take together, in ms. */
export const REGEX_BUDGET_MS = 1000;
/** Longest one synchronous run may take, in ms: the most a regex may spend on one input. */
export const RUN_LIMIT_MS = 50;
/** Regex time a search spends, in ms, before {@link RegexGuard.pause} lets other work run. */
export const REGEX_SLICE_MS = 3;
/** Inputs tested in one run by {@link RegexGuard.testAllInSlices}. */
const SLICE_INPUTS = 256;

/** The sandbox shared by every guard: its globals are set before each run and cleared after. */
interface Sandbox {
  re: RegExp | null;
  inputs: string[];
  out: unknown[];
  limit: number;
}

const TEST_ALL = new vm.Script('for (let i = 0; i < inputs.length; i++) out[i] = re.test(inputs[i]);');
const MATCH_ALL = new vm.Script(
  'for (const m of inputs[0].matchAll(re)) { out.push(m.index, m[0].length); if (out.length >= limit * 2) break; }',
);
let sandbox: { globals: Sandbox; context: vm.Context } | null = null;

function getSandbox(): { globals: Sandbox; context: vm.Context } {
  if (sandbox === null) {
    const globals: Sandbox = { re: null, inputs: [], out: [], limit: 0 };
    sandbox = { globals, context: vm.createContext(globals) };
  }
  return sandbox;
}

/**
 * The regex time budget of one search. Create one per search and pass it to every place
 * that runs a user regex (body `/regex/` and `regex: true`, `path:/re/`, `file:/re/`,
 * snippet highlighting).
 */
export class RegexGuard {
  private spentMs = 0;
  /** Regex time in ms since the last yield of {@link pause}. */
  private sincePauseMs = 0;

  /** @param budgetMs total time in ms all runs through this guard may take (default {@link REGEX_BUDGET_MS}). */
  constructor(private readonly budgetMs: number = REGEX_BUDGET_MS) {}

  /**
   * Yields to the event loop (a macrotask turn through the Slicer's `yieldToEventLoop`: other sessions' requests and searches run)
   * when this guard has run regexes for {@link REGEX_SLICE_MS} ms or more since it last
   * yielded; resolves at once otherwise. Await it between runs wherever the search is async.
   */
  async pause(): Promise<void> {
    if (this.sincePauseMs < REGEX_SLICE_MS) return;
    this.sincePauseMs = 0;
    await yieldToEventLoop();
  }

  /**
   * {@link testAll} in runs of a few hundred inputs, awaiting {@link pause} between them: for
   * one regex over every note's path or properties, which one run would test in one go.
   * @returns one boolean per input, in order
   * @throws as {@link testAll}.
   */
  async testAllInSlices(regex: RegExp, inputs: string[]): Promise<boolean[]> {
    const out: boolean[] = [];
    for (let start = 0; start < inputs.length; start += SLICE_INPUTS) {
      await this.pause();
      out.push(...this.testAll(regex, inputs.slice(start, start + SLICE_INPUTS)));
    }
    return out;
  }

  /**
   * Tests `regex` on every input in one timed run.
   * @param regex a regex without the `g` or `y` flag (so `test` does not use `lastIndex`)
   * @param inputs strings to test
   * @param notes the vault path of the note each input comes from, when the caller may be told it
   *   (a note it can read): a refusal for one input's {@link RUN_LIMIT_MS} then names that note
   * @returns one boolean per input, in order
   * @throws ToolError('invalid_argument') when the runs exceed what is left of the budget, or
   *   the regex needs more than {@link RUN_LIMIT_MS} on one input.
   */
  testAll(regex: RegExp, inputs: string[], notes?: readonly string[]): boolean[] {
    if (inputs.length === 0) return [];
    const out: boolean[] = [];
    if (this.run(TEST_ALL, regex, inputs, out, 0)) return out;
    if (inputs.length === 1) throw this.exhausted(regex, notes?.[0]);
    // The batch outran one run's limit: each input alone, so only an input that needs more is too slow.
    return inputs.map((input, k) => {
      const one: boolean[] = [];
      if (!this.run(TEST_ALL, regex, [input], one, 0)) throw this.exhausted(regex, notes?.[k]);
      return one[0];
    });
  }

  /**
   * Every match of a global regex in `text`, up to `limit` matches, as [start, end) UTF-16 offsets.
   * @param regex a regex with the `g` flag
   * @param note the vault path of the note `text` comes from, when the caller may be told it: named by a refusal
   * @throws ToolError('invalid_argument') when the run exceeds what is left of the budget or {@link RUN_LIMIT_MS}.
   */
  matchAll(regex: RegExp, text: string, limit: number, note?: string): { start: number; end: number }[] {
    const out: number[] = [];
    if (!this.run(MATCH_ALL, regex, [text], out, limit)) throw this.exhausted(regex, note);
    const spans: { start: number; end: number }[] = [];
    for (let i = 0; i < out.length; i += 2) spans.push({ start: out[i], end: out[i] + out[i + 1] });
    return spans;
  }

  /**
   * One timed run of `script`, for at most {@link RUN_LIMIT_MS} or what is left of the budget.
   * The watchdog counts wall time: a run stopped while it got less than half of that time as
   * CPU (other programs had the cores) says nothing of the regex and runs again, the budget bounding the retries.
   * @returns true when it finished; false when it outran {@link RUN_LIMIT_MS} with budget left
   *   (`out` is then emptied: the caller tests again or refuses)
   * @throws ToolError('invalid_argument') when the budget is spent or the run outran what was left of it.
   */
  private run(script: vm.Script, regex: RegExp, inputs: string[], out: unknown[], limit: number): boolean {
    for (;;) {
      const left = this.budgetMs - this.spentMs;
      if (left <= 0) throw new RegexTooSlow(regex);
      const timeout = Math.max(1, Math.ceil(Math.min(left, RUN_LIMIT_MS)));
      const cpu = process.cpuUsage();
      if (this.timedRun(script, { re: regex, inputs, out, limit }, timeout)) return true;
      // The watchdog's clock and performance.now() differ slightly: a run stopped at what was
      // left spends the whole budget by definition, so later runs of this search are refused.
      if (timeout >= left) throw this.exhausted(regex);
      out.length = 0;
      const used = process.cpuUsage(cpu);
      if ((used.user + used.system) / 1000 >= timeout / 2) return false;
    }
  }

  /** Runs `script` over `globals` with a watchdog of `timeout` ms, counting its time. @returns false when the watchdog stopped it. */
  private timedRun(script: vm.Script, globals: Sandbox, timeout: number): boolean {
    const sandbox = getSandbox();
    Object.assign(sandbox.globals, globals);
    const started = performance.now();
    try {
      script.runInContext(sandbox.context, { timeout });
      return true;
    } catch (err) {
      // The timeout error comes from Node's realm with code ERR_SCRIPT_EXECUTION_TIMEOUT.
      if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return false;
      throw err;
    } finally {
      const spent = performance.now() - started;
      this.spentMs += spent;
      this.sincePauseMs += spent;
      Object.assign(sandbox.globals, { re: null, inputs: [], out: [], limit: 0 });
    }
  }

  /**
   * Spends what is left of the budget (later runs of this search are refused) and returns the refusal.
   * @param note the note whose one input outran {@link RUN_LIMIT_MS}, when known and readable by the caller
   */
  private exhausted(regex: RegExp, note?: string): RegexTooSlow {
    this.spentMs = this.budgetMs;
    return new RegexTooSlow(regex, note);
  }
}

/**
 * A regular expression refused as too slow for a search: on one note, which the message names
 * ({@link note}), or on the notes as a whole.
 */
export class RegexTooSlow extends ToolError {
  /**
   * @param regex the refused expression.
   * @param note the vault path of the note whose one input outran {@link RUN_LIMIT_MS}, named in the message; undefined: none named.
   */
  constructor(
    private readonly regex: RegExp,
    readonly note?: string,
  ) {
    super('invalid_argument', tooSlowMessage(regex, note));
  }

  /** The same refusal naming no note, for a caller that may not learn that the note is there (SearchIndex judges it on the disk first). */
  unnamed(): RegexTooSlow {
    return new RegexTooSlow(this.regex);
  }
}

/** {@link RegexTooSlow}'s message: what to change, and for one note the `-path:` term that leaves it out. */
function tooSlowMessage(regex: RegExp, note?: string): string {
  const shown = `The regular expression /${regex.source}/`;
  if (note === undefined) return `${shown} is too slow on these notes ${slowRegexCause(regex)}`;
  // A path holding a double quote cannot be written in a quoted path: term, and one cut short would name another.
  const without =
    note.includes('"') || inputExcerpt(note) !== note ? 'leave that note out with -path:' : `-path:"${note}" leaves that note out`;
  return `${shown} is too slow on the note ${quoteInput(note)}, over ${RUN_LIMIT_MS} ms on it alone ${slowRegexCause(regex)} Or search without it: ${without}.`;
}
