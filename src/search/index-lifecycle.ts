import type { TFile } from 'obsidian';
import type { NoteChange, NoteStore } from '../vault/note-store';
import type { NoteStamp } from './engine/index-file';
import { Slicer } from './engine/slicer';

/**
 * What the lexical index (SearchIndex) and the semantic index (SemanticIndex) share of their
 * life: following note changes, a generation counter that lets work of an earlier run stop,
 * the stat check that tells which notes changed since they were indexed, the sliced loop
 * over notes, a restartable timer for work that waits for changes to settle (a save, a
 * sync), and how a damaged saved file is reported.
 */

/** Map sizes below this are not worth a slice of their own for their next insert ({@link mapGrowsAtNextSet}). */
const MAP_GROWTH_SLICE_MIN = 1 << 14;

/**
 * True when a JavaScript `Map` of `size` entries (none deleted since its last growth) rebuilds its
 * table at its next new key, and that map is large enough for the rebuild to matter: V8's Map
 * starts with room for 4 entries and doubles when full, rehashing every entry at once. With
 * 65,536 note paths that insert took 12–13 ms in Node 20 (measured, session 15), and a cold build's
 * manifest and the engine's maps by path (LexicalEngine's records and doc ids) all grow at the
 * same note: one note step of about 40 ms. With deletions the real point comes later; this is a
 * hint for slicing only.
 * @param size the map's entries now
 */
export function mapGrowsAtNextSet(size: number): boolean {
  return size >= MAP_GROWTH_SLICE_MIN && (size & (size - 1)) === 0;
}

/** A note's stat as an index remembers it: `[mtime ms, size bytes]` from `TFile.stat`. */
export function stampOf(file: TFile): NoteStamp {
  return [file.stat.mtime, file.stat.size];
}

/** True when `file`'s stat differs from `stamp` (the one it was indexed with), or there is no stamp: the note must be indexed again. */
export function changedSince(stamp: NoteStamp | undefined, file: TFile): boolean {
  return stamp === undefined || stamp[0] !== file.stat.mtime || stamp[1] !== file.stat.size;
}

/**
 * Logs that a saved index is damaged and hands it to `keepAside` (which keeps the file and
 * tells the user); the caller rebuilds. Never throws: a failing `keepAside` is logged.
 * @param what the index, for the log ("search index")
 * @param reason one short phrase
 */
export async function reportDamaged(what: string, reason: string, keepAside?: (reason: string) => Promise<void>): Promise<void> {
  console.warn(`[vault-mcp] the saved ${what} is damaged (${reason}); rebuilding it`);
  try {
    await keepAside?.(reason);
  } catch (err) {
    console.error(`[vault-mcp] could not keep the damaged ${what} aside`, err);
  }
}

/** A timer that each {@link schedule} restarts: `run` fires once, `ms` after the last call. */
export class Debounce {
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** @param run called when the timer fires (its errors are the caller's to catch) */
  constructor(private readonly run: () => void) {}

  /** (Re)starts the timer: `run` fires `ms` milliseconds from now unless scheduled again or cancelled. */
  schedule(ms: number): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, ms);
  }

  /** True while the timer runs: `run` is due and has not fired. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** Stops the timer without running. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * One index's run: subscribed to `NoteStore.onNoteChange` between {@link follow} and
 * {@link end}, with a generation number that every start, rebuild and stop bumps, so a task
 * holding an older generation knows it must do nothing.
 */
export class IndexLifecycle {
  private current = 0;
  private unsubscribe: (() => void) | null = null;

  /** @param notes the vault access layer. @param sliceMs the budget of one slice of a sliced loop, ms. */
  constructor(
    private readonly notes: NoteStore,
    private readonly sliceMs: number,
  ) {}

  /** The current generation. */
  get generation(): number {
    return this.current;
  }

  /** True while the subscription of {@link follow} is held. */
  get following(): boolean {
    return this.unsubscribe !== null;
  }

  /**
   * Starts a run: bumps the generation and subscribes `onChange` to note changes (called with
   * the generation it was subscribed in); an earlier subscription is dropped first.
   * @returns the new generation
   */
  follow(onChange: (change: NoteChange, generation: number) => void): number {
    this.unsubscribe?.();
    const generation = ++this.current;
    this.unsubscribe = this.notes.onNoteChange((change) => onChange(change, generation));
    return generation;
  }

  /** Bumps the generation, keeping the subscription: the work of the earlier generation stops. @returns the new generation */
  supersede(): number {
    return ++this.current;
  }

  /** True when `generation` is still the current one. */
  isLive(generation: number): boolean {
    return generation === this.current;
  }

  /** Ends the run: bumps the generation and drops the subscription. */
  end(): void {
    this.current++;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** A {@link Slicer} with this index's budget, and at most `maxSteps` steps per slice. */
  slicer(maxSteps = Infinity): Slicer {
    return new Slicer(this.sliceMs, maxSteps);
  }

  /**
   * Yields each of `items` in order, pausing through `slicer` before each one (so the work
   * done per item runs in slices) and ending early once `live()` turns false.
   */
  async *sliced<T>(items: Iterable<T>, slicer: Slicer, live: () => boolean): AsyncGenerator<T> {
    for (const item of items) {
      await slicer.pause();
      if (!live()) return;
      yield item;
    }
  }
}
