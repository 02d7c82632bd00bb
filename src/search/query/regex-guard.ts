import * as vm from 'node:vm';
import { ToolError } from '../../errors';

/**
 * Runs user-supplied regular expressions with a time limit. A JavaScript regex cannot be
 * interrupted from JavaScript, so one with catastrophic backtracking (e.g. `^(a+)+$` on
 * `aaaa…!`) would freeze Obsidian. Node's `vm` module can stop a running script through
 * V8's execution termination (Node docs, "vm" → `script.runInContext(context, { timeout })`),
 * which also interrupts a regex match in progress. Each run tests a whole batch of inputs,
 * because every timed run starts a watchdog (about 0.1 ms).
 */

/** Default time all regex runs of one search may take together, in ms. */
export const REGEX_BUDGET_MS = 1000;

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

  /** @param budgetMs total time in ms all runs through this guard may take (default {@link REGEX_BUDGET_MS}). */
  constructor(private readonly budgetMs: number = REGEX_BUDGET_MS) {}

  /**
   * Tests `regex` on every input in one timed run.
   * @param regex a regex without the `g` or `y` flag (so `test` does not use `lastIndex`)
   * @param inputs strings to test
   * @returns one boolean per input, in order
   * @throws ToolError('invalid_argument') when the run exceeds what is left of the budget.
   */
  testAll(regex: RegExp, inputs: string[]): boolean[] {
    if (inputs.length === 0) return [];
    const out: boolean[] = [];
    this.run(TEST_ALL, regex, inputs, out, 0);
    return out;
  }

  /**
   * Every match of a global regex in `text`, up to `limit` matches, as [start, end) UTF-16 offsets.
   * @param regex a regex with the `g` flag
   * @throws ToolError('invalid_argument') when the run exceeds what is left of the budget.
   */
  matchAll(regex: RegExp, text: string, limit: number): { start: number; end: number }[] {
    const out: number[] = [];
    this.run(MATCH_ALL, regex, [text], out, limit);
    const spans: { start: number; end: number }[] = [];
    for (let i = 0; i < out.length; i += 2) spans.push({ start: out[i], end: out[i] + out[i + 1] });
    return spans;
  }

  private run(script: vm.Script, regex: RegExp, inputs: string[], out: unknown[], limit: number): void {
    const left = this.budgetMs - this.spentMs;
    if (left <= 0) throw tooSlow(regex);
    const { globals, context } = getSandbox();
    Object.assign(globals, { re: regex, inputs, out, limit });
    const started = performance.now();
    try {
      script.runInContext(context, { timeout: Math.max(1, Math.ceil(left)) });
    } catch (err) {
      // The timeout error comes from Node's realm with code ERR_SCRIPT_EXECUTION_TIMEOUT.
      if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        // The watchdog's clock and performance.now() differ slightly: a timeout spends the
        // whole budget by definition, so later runs of this search are refused.
        this.spentMs = this.budgetMs;
        throw tooSlow(regex);
      }
      throw err;
    } finally {
      this.spentMs += performance.now() - started;
      Object.assign(globals, { re: null, inputs: [], out: [], limit: 0 });
    }
  }
}

function tooSlow(regex: RegExp): ToolError {
  return new ToolError(
    'invalid_argument',
    `The regular expression /${regex.source}/ is too slow on these notes (catastrophic backtracking, e.g. nested quantifiers like (a+)+); simplify it, for example remove nested repetition or anchor it, or search for a "phrase" instead.`,
  );
}
