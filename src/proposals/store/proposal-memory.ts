import { HunkCache } from '../proposal-hunks';
import type { Proposal } from '../types';

/** What changed in the store, for the view, the status bar, the editor and notices. */
export type ProposalEvent = { type: 'staged'; proposal: Proposal } | { type: 'updated'; proposal: Proposal } | { type: 'loaded' };

/**
 * The bottom layer of ProposalStore (docs/architecture.md#proposals): the proposals held in
 * memory, their cached hunks and who listens to their changes. No I/O. The layers above it:
 * ProposalFile (their file), ProposalDecisions (the user's decisions), ProposalStore (staging,
 * queries, following notes); each a class of its own, one job each, sharing these fields.
 */
export abstract class ProposalMemory {
  protected readonly byId = new Map<string, Proposal>();
  protected readonly hunkCache = new HunkCache();
  private readonly listeners = new Set<(event: ProposalEvent) => void>();

  /** @returns the proposal with `id`, or undefined. */
  get(id: string): Proposal | undefined {
    return this.byId.get(id);
  }

  /** @returns every proposal, oldest first. */
  all(): Proposal[] {
    return [...this.byId.values()];
  }

  /**
   * Subscribes to staged, updated and loaded events. @returns the unsubscribe function.
   */
  onChange(listener: (event: ProposalEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener of `event`; one that throws is logged and the others still told. */
  protected emit(event: ProposalEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        console.error('Vault MCP: a proposal listener failed', err);
      }
    }
  }
}
