/**
 * Cuts long main-thread work into slices: the work calls {@link Slicer.pause} at safe points,
 * which yields to the event loop (`setTimeout(0)`) once the current slice has run its budget
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

  /** Resolves at once inside the budget; else after yielding to the event loop, starting a new slice. */
  async pause(): Promise<void> {
    if (!this.running) this.restart();
    const ran = performance.now() - this.sliceStart;
    if (ran < this.budgetMs && this.steps < this.maxSteps) {
      this.steps++;
      return;
    }
    this.longest = Math.max(this.longest, ran);
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.sliceStart = performance.now();
    this.steps = 1;
  }
}
