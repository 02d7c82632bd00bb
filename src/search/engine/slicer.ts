/**
 * A function that resolves after yielding to the event loop once, as cheaply as the runtime
 * allows: in a page (Obsidian's renderer: `document` and `MessageChannel`) a message to itself,
 * which runs as a new task after input and rendering that are due, unclamped; in Node
 * `setImmediate` (after pending I/O); else `setTimeout(0)`. A `setTimeout(0)` that a timer's own
 * callback sets waits at least 4 ms in a browser after a few levels of nesting (HTML timers) and
 * 1 ms in Node: 2.8 ms a yield in a 10k-note warm start, 13 % of it.
 * @param env what the runtime has (default: this one's; a parameter so each branch can be tested)
 */
export function eventLoopYield(env: YieldEnv = runtimeEnv()): () => Promise<void> {
  if (env.hasDocument && env.MessageChannel !== undefined) {
    const channel = new env.MessageChannel();
    const waiting: Array<() => void> = [];
    channel.port1.onmessage = () => waiting.shift()?.();
    // Node's ports (a DOM test environment over Node) would keep the process alive; a page's have no unref.
    (channel.port1 as { unref?: () => void }).unref?.();
    return () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        channel.port2.postMessage(null);
      });
  }
  const immediate = env.setImmediate;
  if (immediate !== undefined) return () => new Promise<void>((resolve) => immediate(resolve));
  return () => new Promise<void>((resolve) => env.setTimeout(resolve, 0));
}

/** What {@link eventLoopYield} looks for in the runtime. */
export interface YieldEnv {
  /** True in a page (a DOM `document` exists). */
  hasDocument: boolean;
  MessageChannel?: typeof MessageChannel;
  setImmediate?: (run: () => void) => unknown;
  setTimeout: (run: () => void, ms: number) => unknown;
}

/** This runtime's {@link YieldEnv}. */
function runtimeEnv(): YieldEnv {
  return {
    hasDocument: typeof document !== 'undefined',
    MessageChannel: typeof MessageChannel === 'function' ? MessageChannel : undefined,
    setImmediate: typeof setImmediate === 'function' ? (run) => setImmediate(run) : undefined,
    setTimeout: (run, ms) => setTimeout(run, ms),
  };
}

/** The yield of this runtime, made on first use (a page's channel is made once). */
let yieldOnce: (() => Promise<void>) | null = null;

/**
 * Yields to the event loop once through this runtime's {@link eventLoopYield}, shared by every
 * caller (one page channel for the whole plugin). @returns a promise that resolves after the turn
 */
export function yieldToEventLoop(): Promise<void> {
  yieldOnce ??= eventLoopYield();
  return yieldOnce();
}

/**
 * Cuts long main-thread work into slices: the work calls {@link Slicer.pause} at safe points,
 * which yields to the event loop ({@link eventLoopYield}) once the current slice has run its budget
 * (or taken its most steps), so the UI stays responsive (docs/architecture.md#runtime-facts:
 * heavy work never blocks the UI). Slices are wall time: work that awaits I/O in between
 * brackets the await with {@link mark} and {@link restart}, so the wait is not counted as
 * blocking (a warm start's awaited file read once showed as a slice of a second).
 */
export class Slicer {
  private sliceStart = performance.now();
  private longest = 0;
  private steps = 0;
  /** False between {@link mark} and {@link restart}: the time meanwhile is an awaited wait. */
  private running = true;

  /**
   * @param budgetMs time a slice may run before the next pause yields, ms
   * @param maxSteps most pauses one slice may pass without yielding (default: no limit)
   */
  constructor(
    private readonly budgetMs: number,
    private readonly maxSteps = Infinity,
  ) {}

  /** Longest slice so far, ms, the running one included (none runs between {@link mark} and {@link restart}). */
  get longestMs(): number {
    return this.running ? Math.max(this.longest, performance.now() - this.sliceStart) : this.longest;
  }

  /** True once the current slice has run its time budget: the next {@link pause} yields (work that is cheap per item checks this rather than awaiting each pause). */
  due(): boolean {
    return this.running && performance.now() - this.sliceStart >= this.budgetMs;
  }

  /**
   * Ends the running slice here, recording its length: call just before awaiting something that
   * yields to the event loop (a disk read or write), whose wait is not main-thread work.
   */
  mark(): void {
    if (this.running) this.longest = Math.max(this.longest, performance.now() - this.sliceStart);
    this.running = false;
  }

  /** Starts a fresh slice now, not counting the time since {@link mark} (the awaited wait): call right after the await. */
  restart(): void {
    this.sliceStart = performance.now();
    this.steps = 0;
    this.running = true;
  }

  /**
   * Ends the running slice now whatever its time (the rest of the budget is given up), recording
   * its length, and resolves after yielding to the event loop with a fresh slice started: await it
   * before a step known to be long, so that the step starts a slice of its own instead of ending a
   * full one.
   */
  async endSlice(): Promise<void> {
    this.mark();
    await yieldToEventLoop();
    this.restart();
  }

  /** Resolves at once inside the budget; else after yielding to the event loop, starting a new slice. */
  async pause(): Promise<void> {
    if (!this.running) this.restart();
    const ran = performance.now() - this.sliceStart;
    if (ran < this.budgetMs && this.steps < this.maxSteps) {
      this.steps++;
      return;
    }
    this.longest = Math.max(this.longest, ran);
    await yieldToEventLoop();
    this.sliceStart = performance.now();
    this.steps = 1;
  }
}
