import { HunkCache } from './proposal-hunks';
import type { Hunk } from '../diff/types';
import type { Proposal } from './types';

/** What changed in the store, for the view, the status bar, the editor and notices. */
export type ProposalEvent = { type: 'staged'; proposal: Proposal } | { type: 'updated'; proposal: Proposal } | { type: 'loaded' };

/**
 * The proposals held in memory (docs/architecture.md#proposals), their cached hunks and who
 * listens to their changes: what ProposalStore answers from, ProposalFile reads the file into and
 * writes it from, and ProposalDecisions changes. No I/O.
 */
export class ProposalMemory {
  private readonly byId = new Map<string, Proposal>();
  private readonly hunkCache = new HunkCache();
  private readonly listeners = new Set<(event: ProposalEvent) => void>();

  /** @returns the proposal with `id`, or undefined. */
  get(id: string): Proposal | undefined {
    return this.byId.get(id);
  }

  /** @returns every proposal, oldest (first added) first. */
  all(): Proposal[] {
    return [...this.byId.values()];
  }

  /** Adds `p` (last, unless a proposal with its id is held: that one is replaced in place). */
  add(p: Proposal): void {
    this.byId.set(p.id, p);
  }

  /** Takes the proposal `id` out, with its cached hunks. */
  remove(id: string): void {
    this.byId.delete(id);
    this.hunkCache.forget(id);
  }

  /** Takes every proposal out, with their cached hunks (the file is about to be read in). */
  clear(): void {
    for (const id of this.byId.keys()) this.hunkCache.forget(id);
    this.byId.clear();
  }

  /** @returns the hunks of `p`'s staged change (HunkCache.of: cached; [] once its texts are dropped or for other kinds). */
  hunksOf(p: Proposal): Hunk[] {
    return this.hunkCache.of(p);
  }

  /** Drops the cached hunks of proposal `id`, to be computed again from its texts as they are at the next {@link hunksOf}. */
  forgetHunks(id: string): void {
    this.hunkCache.forget(id);
  }

  /** Subscribes to staged, updated and loaded events. @returns the unsubscribe function. */
  onChange(listener: (event: ProposalEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener of `event`; one that throws is logged and the others still told. */
  emit(event: ProposalEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        console.error('Vault MCP: a proposal listener failed', err);
      }
    }
  }
}
