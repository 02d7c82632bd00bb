/** The shapes SearchIndex takes and reports: build progress and figures, where it is saved, how it is tuned. */
import type { IndexPart, PartLength, ReadPart } from './engine/index-file';

/** How far the build is: `indexed` of `total` readable notes; `complete` once the build has ended. */
export interface IndexProgress {
  complete: boolean;
  indexed: number;
  total: number;
}

/** Figures of the last build, for the bench and the status line. Times in ms. */
export interface IndexStats extends IndexProgress {
  /** Wall time of the last build from start to end; null while it runs or before any. */
  buildMs: number | null;
  /** Longest stretch the build (saved index load included) or a save ran without yielding to the event loop. */
  longestSliceMs: number;
  /** True when the build started from the saved index and only reindexed notes changed since. */
  warm: boolean;
  /** Notes (re)indexed by the last build (all of them when cold, the changed ones when warm). */
  reindexed: number;
  /** Time the last save of the index took (serialize + write); null before any save. */
  saveMs: number | null;
}

/**
 * Where the index is saved between runs (the plugin folder: ui/index-files.ts): a small head
 * (`search-index.json`) naming a generation, and that generation's parts, each a text file and,
 * when it has posting bytes, a binary file of its own (engine/index-file.ts says what they hold). A save writes new parts and only then the head, so
 * the previous save stays loadable at every instant of a save and after a crash at any step.
 */
export interface IndexStorage {
  /** The saved head's text, or null when there is none. */
  loadHead(): Promise<string | null>;
  /**
   * Part `n` (from 0) of `generation`: its text and, when `withBytes`, its binary file's bytes
   * (else none); null when a file is missing or cannot be read.
   */
  loadPart(generation: string, n: number, withBytes: boolean): Promise<ReadPart | null>;
  /**
   * Saves a new generation: each of `parts` as new files, written before the next is taken;
   * then the head `head(generation, lengths)` gives (`lengths`: each part's characters and bytes), swapped
   * in atomically; then the parts of older generations (the head's before, a crashed save's) are
   * removed. Until the head is in, the previous head and its parts stay loadable, also when
   * `parts` throws (the save is given up: IndexChangedError) or a write fails; either rejects.
   */
  save(parts: AsyncIterable<IndexPart>, head: (generation: string, lengths: readonly PartLength[]) => string): Promise<void>;
  /**
   * Called once when the saved index is damaged (not an index of another format version, which
   * is rebuilt silently), before the index is rebuilt from the notes: keep the head and its parts
   * aside and tell the user. `reason` is one short phrase. Its failure is logged, never thrown on.
   */
  damaged?(reason: string): Promise<void>;
}

/** Tuning of the initial build. Defaults keep each slice well under the 50 ms long-task budget. */
export interface SearchIndexOptions {
  /** Time budget of one build slice in ms before yielding to the UI (default 12). */
  sliceMs?: number;
  /** Most notes indexed in one slice before yielding (default 100). */
  sliceNotes?: number;
  /** Saves the index and loads it at start, so a restart reindexes only notes changed meanwhile. */
  storage?: IndexStorage;
  /** Delay after the last note change before the index is saved again, ms (default 60000). */
  saveDelayMs?: number;
  /** Longest a stop waits for the save it flushes (SearchIndex.stop), ms (default 30000). */
  stopSaveMs?: number;
}

/** The figures of a build that has not started. */
export function emptyStats(): IndexStats {
  return { complete: false, indexed: 0, total: 0, buildMs: null, longestSliceMs: 0, warm: false, reindexed: 0, saveMs: null };
}
