import {
  indexHead,
  indexParts,
  IndexChangedError,
  openIndex,
  partSumSteps,
  type IndexPart,
  type NoteStamp,
  type SavedIndex,
} from './engine/index-file';
import type { LexicalEngine } from './engine/lexical-engine';
import type { Slicer } from './engine/slicer';
import type { IndexStorage } from './search-index-options';

/**
 * Saves the index through `storage` as a head and parts (engine/index-file.ts), serializing in
 * slices of `slicer`: each part's lines are made (pausing after each) when the storage takes the
 * part, after its write of the one before has come back, so only one part's text is held at a
 * time, and the writes' waits are not counted as slices (Slicer.mark).
 * @returns false when the engine changed meanwhile and the save was given up (the change has
 *   scheduled another; the previous save stays the saved one)
 * @throws the storage's error when a write fails
 */
export async function saveIndex(
  engine: LexicalEngine,
  manifest: ReadonlyMap<string, NoteStamp>,
  storage: IndexStorage,
  slicer: Slicer,
): Promise<boolean> {
  try {
    // Each part's checksum, taken as the part is made, for the head written after the last.
    const sums: number[] = [];
    await storage.save(
      timedParts(
        indexParts(engine, manifest, () => slicer.pause()),
        slicer,
        sums,
      ),
      (generation, lengths) => indexHead(generation, lengths, sums),
    );
    return true;
  } catch (err) {
    if (err instanceof IndexChangedError) return false;
    throw err;
  }
}

/**
 * Yields `parts`, timing the making of each (and its checksum, pushed to `sums`, in steps with
 * pauses between) as slices of `slicer` and not the time the taker spends between them (its awaited write).
 */
async function* timedParts(parts: AsyncIterable<IndexPart>, slicer: Slicer, sums: number[]): AsyncGenerator<IndexPart> {
  const it = parts[Symbol.asyncIterator]();
  for (;;) {
    slicer.restart();
    const next = await it.next();
    if (next.done !== true) {
      // The part's checksum in steps, pausing between them as the serialization does.
      const steps = partSumSteps(next.value.text, next.value.bytes);
      let step = steps.next();
      while (step.done !== true) {
        await slicer.pause();
        step = steps.next();
      }
      sums.push(step.value);
    }
    slicer.mark();
    if (next.done === true) return;
    yield next.value;
  }
}

/**
 * Opens the saved index whose head is `head`, its parts read from `storage` one ahead of the
 * one being parsed; each awaited read is a wait of the slicer `waiting()` names then (the
 * build's while the load runs, another's while the phrase filters load later), not a slice.
 * @returns null when `head` is not a head of this format (openIndex)
 */
export function openSaved(head: string, storage: IndexStorage, waiting: () => Slicer | null): SavedIndex | null {
  return openIndex(head, (generation) => ({
    read: (n, withBytes) => storage.loadPart(generation, n, withBytes).catch(() => null),
    wait: async (pending) => {
      const slicer = waiting();
      slicer?.mark();
      try {
        return await pending;
      } finally {
        slicer?.restart();
      }
    },
  }));
}
