/**
 * Cuts long main-thread work into slices: the work calls {@link Slicer.pause} at safe points,
 * which yields to the event loop (`setTimeout(0)`) once the current slice has run its budget
 * (or taken its most steps), so the UI stays responsive (docs/architecture.md#runtime-facts:
 * heavy work never blocks the UI).
 */
export class Slicer {
  private sliceStart = performance.now();
  private longest = 0;
  private steps = 0;

  /**
   * @param budgetMs time a slice may run before the next pause yields, ms
   * @param maxSteps most pauses one slice may pass without yielding (default: no limit)
   */
  constructor(
    private readonly budgetMs: number,
    private readonly maxSteps = Infinity,
  ) {}

  /** Longest slice so far, ms, the running one included. */
  get longestMs(): number {
    return Math.max(this.longest, performance.now() - this.sliceStart);
  }

  /** Resolves at once inside the budget; else after yielding to the event loop, starting a new slice. */
  async pause(): Promise<void> {
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
