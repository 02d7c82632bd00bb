/**
 * Records the slices of every {@link Slicer} of the process (the index's build, its save, its
 * ranking steps, the semantic index's) for the profile scripts, to tell how much of a timed call
 * ran beside background work: the Slicer's methods are wrapped in this process only (the bundle
 * shares the class with src/), src/ is untouched. A slice runs from its start (a yield's return
 * or `restart`) to the `pause` that yields or the `mark` before an awaited write. Each slicer is
 * named by the first known function on the stack of its first slice's end. Prints nothing.
 */
import { Slicer } from '../../src/search/engine/slicer';

/** One background slice: who ran it and when (performance.now() ms). */
export interface Slice {
  who: string;
  start: number;
  end: number;
}

/** The slicer's state the wrappers read (TypeScript-private fields of Slicer). */
interface SlicerState {
  sliceStart: number;
  running: boolean;
  steps: number;
  budgetMs: number;
  maxSteps: number;
  who?: string;
}

/** Stack names that tell a slicer's work, first match wins. */
const WHO: [RegExp, string][] = [
  [/indexParts|saveIndex|timedParts|writeIndex/, 'save'],
  [/rankingSteps|baseViewSteps|rankAhead/, 'rank'],
  [/loadPhrasesAfter|loadPhrases/, 'phrases'],
  [/semantic|Semantic/, 'semantic'],
  [/trimSteps|indexFile|readableNotesInSteps|loadSaved|\bbuild\b/, 'build'],
];

/** Names the slicer from the current stack. */
function whoNow(): string {
  const stack = new Error().stack ?? '';
  for (const [re, name] of WHO) if (re.test(stack)) return name;
  return 'other';
}

/**
 * Starts recording every slice from now on.
 * @returns the growing list of slices (sorted by start when read after {@link stop}) and `stop`, which restores the Slicer
 */
export function watchSlices(): { slices: Slice[]; stop(): void } {
  const slices: Slice[] = [];
  const proto = Slicer.prototype as unknown as { pause(): Promise<void>; mark(): void };
  const { pause, mark } = proto;
  const record = (s: SlicerState): void => {
    s.who ??= whoNow();
    slices.push({ who: s.who, start: s.sliceStart, end: performance.now() });
  };
  proto.pause = function (this: SlicerState): Promise<void> {
    // The slice yields (Slicer.pause) once it has run its budget or its most steps.
    if (this.running && (performance.now() - this.sliceStart >= this.budgetMs || this.steps >= this.maxSteps)) record(this);
    return pause.call(this);
  };
  proto.mark = function (this: SlicerState): void {
    if (this.running) record(this);
    mark.call(this);
  };
  return {
    slices,
    stop: () => {
      proto.pause = pause;
      proto.mark = mark;
    },
  };
}

/** Ms of `[from, to]` covered by `slices` of `who` (any when omitted). */
export function overlapMs(slices: readonly Slice[], from: number, to: number, who?: string): number {
  let sum = 0;
  for (const s of slices) if (who === undefined || s.who === who) sum += Math.max(0, Math.min(to, s.end) - Math.max(from, s.start));
  return sum;
}
