/**
 * Serializes this plugin's multi-step writes per note or path (check the hash, then rename,
 * trash or patch properties), so two tool calls on one note never interleave. Single-step
 * text edits are already atomic through `vault.process`; this lock covers the steps around
 * them. In-process only: other programs are caught by the hash checks inside the writes.
 */
export class WriteLock {
  private readonly tails = new Map<unknown, Promise<void>>();

  /**
   * Runs `fn` after every earlier `run` with the same key (a TAbstractFile or a string such
   * as `create:<path>`) has settled. @returns what `fn` returns; rethrows what it throws.
   */
  async run<T>(key: unknown, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
