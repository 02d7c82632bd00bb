/**
 * An in-memory stand-in for the proposal store's side of the inline review
 * (src/editor/review-config.ts), shared by the jsdom and the Chromium tests.
 */
import type { ReviewController } from '../../src/editor/review-config';
import type { ReviewHunk } from '../../src/proposals/types';

/** A pending hunk of the fake store: placed on any text by finding `removed` (or, for an insertion, the line it goes before). */
export interface FakeHunk {
  proposalId: string;
  index: number;
  keyLabel: string;
  removed: string;
  inserted: string;
  before?: string;
  /** A fixed offset to place the hunk at (an insertion at the end of a last line without a line break). */
  at?: number;
}

/**
 * An in-memory stand-in for the proposal store: places its hunks by text search (stale when
 * the text is gone), records decisions, and announces every change to its listeners.
 */
export class FakeReviewController implements ReviewController {
  pending = new Map<string, FakeHunk[]>();
  accepts: Array<{ hunk: ReviewHunk; textAfter: string }> = [];
  rejects: Array<{ hunk: ReviewHunk; text: string }> = [];
  reopens: Array<{ hunk: ReviewHunk; text: string }> = [];
  failNext: Error | null = null;
  private listeners = new Set<() => void>();

  hunksFor(path: string, text: string): ReviewHunk[] {
    return (this.pending.get(path) ?? []).map((h) => {
      const at = h.at ?? text.indexOf(h.removed || h.before!);
      const from = Math.max(at, 0);
      return { ...h, from, to: from + (at < 0 ? 0 : h.removed.length), stale: at < 0 };
    });
  }
  accepted(hunk: ReviewHunk, textAfter: string): void {
    this.decide(hunk);
    this.accepts.push({ hunk, textAfter });
  }
  reopened(hunk: ReviewHunk, text: string): void {
    this.reopens.push({ hunk, text });
  }
  rejected(hunks: readonly ReviewHunk[], text: string): void {
    for (const hunk of hunks) this.decide(hunk);
    for (const hunk of hunks) this.rejects.push({ hunk, text });
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  listenerCount(): number {
    return this.listeners.size;
  }
  propose(path: string, hunk: FakeHunk): void {
    this.pending.set(path, [...(this.pending.get(path) ?? []), hunk]);
    this.emit();
  }
  private decide(hunk: ReviewHunk): void {
    if (this.failNext) {
      const err = this.failNext;
      this.failNext = null;
      throw err;
    }
    for (const [path, hunks] of this.pending)
      this.pending.set(
        path,
        hunks.filter((h) => !(h.proposalId === hunk.proposalId && h.index === hunk.index)),
      );
    this.emit();
  }
  private emit(): void {
    for (const l of this.listeners) l();
  }
}
