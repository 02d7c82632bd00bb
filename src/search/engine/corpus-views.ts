import type { TermIndex } from './term-index';
import type { CorpusView } from './corpus-view';

/** Callers whose {@link CorpusView} is kept (the most recently used ones). */
const CACHED_VIEWS = 8;
/**
 * Documents added or removed since a kept view was made that it takes as a patch; past this
 * many (a build, a folder moved) the view is made again over every document. A patch judges
 * only these and copies the view's flags (a few µs per thousand documents); a view made again
 * asks the caller's access rule about every document (tens of ms at 100k notes).
 */
const MAX_PATCHED = 4096;
/** Doc ids the base view's steps judge per step ({@link CorpusViews.baseSteps}: at 100k notes, a set lookup each, 2-4 ms a step). */
const BASE_STEP_DOCS = 8192;

/**
 * How a caller's access relates to the base view's ({@link CorpusViews.baseSteps}), by doc id:
 * for every document the index has not changed since the base view was made and that is not
 * among `asked`, the caller's answer is the base's and `keep`'s. Its view is then the base
 * view narrowed by `keep`, with the changed and the asked documents judged by its own access.
 */
export interface BaseNarrowing {
  /** The key the base view was made under (baseSteps). */
  base: string;
  /** False for a document the caller may not see although the base may (outside its roots); null: none such. */
  keep: ((doc: number) => boolean) | null;
  /** The documents the caller's own access must judge (their answer may differ from the base's otherwise), listed when needed. */
  asked: () => readonly number[];
}

/** A kept view: the index version it is valid at, and the documents changed since (null: too many to patch). */
interface KeptView {
  version: number;
  view: CorpusView;
  changed: number[] | null;
}

/**
 * The {@link CorpusView} of each recent caller, kept across index changes: a note edit adds
 * one document and removes another, and the caller's view is then patched
 * (TermIndex.patched: those documents judged again) rather than made again over every
 * document. A caller is known by its key: the same key must mean the same access rule, with
 * the same answer for every document the index did not change since (a rule whose answers may
 * change otherwise must come under a new key). The owner reports every document it adds or
 * removes ({@link changed}) and drops every view when it replaces or clears the index.
 */
export class CorpusViews {
  private readonly views = new Map<string, KeptView>();
  /** The base view (see {@link baseSteps}) and its key, tracked as a kept view is; null before its steps end. */
  private base: (KeptView & { key: string }) | null = null;

  /** @param index the index the views are of (the owner's current one: it may replace it, then calls {@link clear}). */
  constructor(private readonly index: () => TermIndex) {}

  /** Notes that document `doc` was just added to the index or removed from it (the index's version moved by one). */
  changed(doc: number): void {
    for (const kept of this.views.values()) noteChange(kept, doc);
    if (this.base !== null && !noteChange(this.base, doc)) this.base = null;
  }

  /** Drops every view, the base view too (the index was cleared or replaced). */
  clear(): void {
    this.views.clear();
    this.base = null;
  }

  /**
   * Makes the base view in steps the caller may yield between: the view of the access `allow`
   * (by doc id; e.g. the unrestricted scope's read decisions from the build's scan), kept under
   * `key` and patched as the documents change, for callers that derive theirs from it
   * ({@link of} with a {@link BaseNarrowing}) instead of judging every document. Replaces the
   * base view when its last step ends; gives up (keeping none) when the index changes or is
   * replaced meanwhile. The index's version is taken now, not at the first step: `allow` must
   * answer for the index as it is at this call.
   * @returns the steps: BASE_STEP_DOCS doc ids each
   */
  baseSteps(key: string, allow: (doc: number) => boolean): Iterable<void> {
    const index = this.index();
    const version = index.version;
    this.base = null;
    const steps = index.viewSteps(allow, BASE_STEP_DOCS);
    const current = (): boolean => this.index() === index && index.version === version;
    const keep = (view: CorpusView): void => void (this.base = { key, version, view, changed: [] });
    return (function* () {
      for (let step = steps.next(); current(); step = steps.next()) {
        if (step.done === true) return keep(step.value);
        yield;
      }
    })();
  }

  /**
   * The view of the caller known by `key` at the index's current version: the kept one, patched
   * with the documents changed since when there are few; else, when `narrowing` names the base
   * view and it is current, the base view narrowed by `narrowing.keep` and patched with the
   * documents changed since it and `narrowing.asked` (no `allow` call for any other document);
   * else made by TermIndex.view.
   * @param allow by doc id; for a patch it is asked only about the changed (and asked) documents
   * @param narrowing how `allow` relates to the base view's access (see {@link BaseNarrowing})
   */
  of(key: string, allow: (doc: number) => boolean, narrowing: BaseNarrowing | null = null): CorpusView {
    const index = this.index();
    const version = index.version;
    const kept = this.views.get(key);
    this.views.delete(key);
    const base = this.base;
    let view: CorpusView;
    if (kept !== undefined && kept.version === version) view = kept.view;
    // Every version step is one document added or removed: a count that disagrees means a change not reported, and the view is made again.
    else if (kept !== undefined && patchable(kept, version)) view = index.patched(kept.view, kept.changed as number[], allow);
    else if (narrowing !== null && base !== null && base.key === narrowing.base && patchable(base, version)) {
      const narrowed = narrowing.keep === null ? base.view : index.narrowed(base.view, narrowing.keep);
      view = index.patched(narrowed, [...(base.changed as number[]), ...narrowing.asked()], allow);
    } else view = index.view(allow);
    this.views.set(key, { version, view, changed: [] });
    if (this.views.size > CACHED_VIEWS) this.views.delete(this.views.keys().next().value as string);
    return view;
  }
}

/** Records a change of document `doc` in a kept view's list; false once there were too many to patch (the list is then null). */
function noteChange(kept: KeptView, doc: number): boolean {
  if (kept.changed === null) return false;
  if (kept.changed.length >= MAX_PATCHED) kept.changed = null;
  else kept.changed.push(doc);
  return kept.changed !== null;
}

/** True when every document changed since the kept view was made was reported (the version moved by that many steps) and they are few enough to patch. */
function patchable(kept: KeptView, version: number): boolean {
  return kept.changed !== null && version - kept.version === kept.changed.length;
}
