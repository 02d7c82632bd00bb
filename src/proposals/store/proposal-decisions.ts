import type { HunkDecision, Proposal } from '../types';
import { decisionSnapshot, restoreDecision, type DecisionSnapshot } from './decision-snapshot';
import { ProposalFile, proposalsFileRefusal } from './proposal-file';
import { isOpen, staleRefusal } from '../proposal-state';
import { WriteLock } from '../../vault/writes/write-lock';

/** One decision of {@link ProposalDecisions.decideAll}: the proposal `id`, checked and returned by `pick`, changed by `change` (false: nothing to change). */
interface Decision {
  id: string;
  pick: () => Proposal;
  change: (p: Proposal) => boolean;
}

/** How many resolved text proposals keep their texts in memory for {@link ProposalDecisions.reopenHunk}. */
const KEEP_REOPENABLE = 50;

/**
 * The decision layer of ProposalStore (docs/architecture.md#proposals): the user's decisions on
 * proposals, each all or nothing ({@link decideAll}): checked, made in memory, saved to the file
 * ({@link ProposalFile}) before the change in the vault that goes with an accept, put back when the
 * file cannot hold it and taken back when that change fails; one decision at a time per proposal.
 */
export abstract class ProposalDecisions extends ProposalFile {
  /**
   * The texts of text proposals resolved in this run, newest last (at most KEEP_REOPENABLE),
   * so an accept undone with Ctrl+Z can reopen its hunk ({@link reopenHunk}) after the texts
   * left the persisted record.
   */
  private readonly reopenable = new Map<string, { base_text: string; proposed_text: string }>();
  /** Runs one decision at a time per proposal, from its check to its save (and an accept's change in the vault): see {@link decide}. */
  private readonly deciding = new WriteLock();

  /**
   * Records the user's verdict on hunks of an open text proposal, all or nothing ({@link decide}).
   * When no hunk is left undecided the proposal is resolved: accepted, rejected or partly_accepted.
   * @param apply the change in the vault that goes with an accept (the hunks written into the note),
   *   run once the verdict is saved; when it throws, the verdict is taken back ({@link decide}).
   * @throws Error when the proposal is decided, or is stale and `decision` is `accepted`; as {@link decide}.
   */
  async decideHunks(id: string, indexes: readonly number[], decision: HunkDecision, apply?: () => Promise<void>): Promise<Proposal> {
    return this.decide(
      id,
      () => (decision === 'accepted' ? this.requirePending(id) : this.requireOpen(id)),
      (p) => this.recordVerdicts(p, indexes, decision),
      apply,
    );
  }

  /**
   * Rejects hunks of several open text proposals in one decision (the editor's Reject all): one
   * write of the file, all or nothing ({@link decideAll}); each proposal with no hunk left
   * undecided is resolved as {@link decideHunks} resolves it.
   * @param hunks the hunk indexes to reject, by proposal id.
   * @returns the proposals after it, in the order of `hunks`.
   * @throws Error when one of them does not exist or is decided (nothing is recorded); as {@link decideAll}.
   */
  async rejectHunks(hunks: ReadonlyMap<string, readonly number[]>): Promise<Proposal[]> {
    return this.decideAll(
      [...hunks].map(([id, indexes]) => ({
        id,
        pick: () => this.requireOpen(id),
        change: (p) => this.recordVerdicts(p, indexes, 'rejected'),
      })),
    );
  }

  /** Records `decision` on hunks `indexes` of `p`, resolving it once no hunk is left undecided. @returns true (it changed). */
  private recordVerdicts(p: Proposal, indexes: readonly number[], decision: HunkDecision): boolean {
    for (const index of indexes) p.decisions[index] = decision;
    if (this.hunkCache.of(p).every((h) => p.decisions[h.index] !== undefined)) {
      const verdicts = new Set(Object.values(p.decisions));
      this.resolve(p, verdicts.size > 1 ? 'partly_accepted' : verdicts.has('accepted') ? 'accepted' : 'rejected');
    }
    return true;
  }

  /**
   * Takes back the user's acceptance of one hunk of a text proposal (they undid it in the
   * editor with Ctrl+Z): the hunk is undecided again and the proposal pending, even when that
   * acceptance had resolved it (its texts are kept in memory for this, see `reopenable`); a
   * stale proposal stays stale, the hunk then awaiting only rejection.
   * @returns the proposal after it.
   * @throws Error when there is no such proposal, the hunk was not accepted, or the proposal
   *   was resolved before this run (its texts are gone: it cannot be reopened);
   *   WriterLockedError as ProposalStore.stage.
   */
  async reopenHunk(id: string, index: number): Promise<Proposal> {
    return this.decide(
      id,
      () => {
        const p = this.byId.get(id);
        if (!p || p.decisions[index] !== 'accepted') throw new Error(`Proposal '${id}' has no accepted hunk ${index} to reopen.`);
        if (!isOpen(p) && (!this.reopenable.has(id) || (p.status !== 'accepted' && p.status !== 'partly_accepted')))
          throw new Error(
            `Proposal '${id}' was decided before Obsidian started, so hunk ${index} cannot be reopened; it stays ${p.status.replace('_', ' ')}.`,
          );
        return p;
      },
      (p) => {
        if (!isOpen(p)) {
          Object.assign(p, this.reopenable.get(id), { status: 'pending' as const });
          delete p.resolved_at;
          delete p.hunk_total;
          this.reopenable.delete(id);
        }
        delete p.decisions[index];
        return true;
      },
    );
  }

  /**
   * Decides a whole proposal: `accepted` (a pending one), `rejected` (a pending or stale one: how
   * the user dismisses a stale proposal; undecided hunks of a text proposal count as rejected),
   * or `stale` with the reason (one sentence). Stale is not a decision: the proposal stays open,
   * listed and counted with its texts and no `resolved_at`, until the user rejects it; it is
   * never accepted (ProposalReview.accept refuses it). Marking a stale proposal stale again
   * keeps its first reason. All or nothing ({@link decide}).
   * @param apply the change in the vault that goes with an accept (a create, move, delete or
   *   folder made), run once the decision is saved; when it throws, the decision is taken back.
   * @throws Error when the proposal does not exist, is decided, or is stale and `status` is
   *   `accepted`; as {@link decide}.
   */
  async settle(id: string, status: 'accepted' | 'rejected' | 'stale', reason?: string, apply?: () => Promise<void>): Promise<Proposal> {
    return this.decide(
      id,
      () => (status === 'rejected' || status === 'stale' ? this.requireOpen(id) : this.requirePending(id)),
      (p) => {
        if (status === 'rejected') {
          for (const h of this.hunkCache.of(p)) p.decisions[h.index] ??= 'rejected';
          const accepted = Object.values(p.decisions).includes('accepted');
          this.resolve(p, accepted ? 'partly_accepted' : 'rejected');
        } else if (status === 'stale') {
          if (p.status === 'stale') return false;
          p.status = 'stale';
          if (reason) p.stale_reason = reason;
        } else {
          this.resolve(p, status);
        }
        return true;
      },
      apply,
    );
  }

  /**
   * Makes one decision on the existing proposal `id`, all or nothing ({@link decideAll} of that one).
   * @returns the proposal after the decision. @throws as {@link decideAll}.
   */
  private async decide(id: string, pick: () => Proposal, change: (p: Proposal) => boolean, apply?: () => Promise<void>): Promise<Proposal> {
    const [p] = await this.decideAll([{ id, pick, change }], apply);
    return p;
  }

  /**
   * Makes decisions on existing proposals, all or nothing, in one write of the file: one decision
   * at a time on each ({@link deciding}; decisions on other proposals share the file's writes,
   * ProposalFile.save), every `pick` checks and returns its proposal before any changes, each `change`
   * changes its proposal in memory (false: nothing to change; nothing saved when none did), and the
   * file is saved. When that write fails, every proposal is put back as it was ({@link putBack}:
   * memory never runs ahead of the file, so a restart shows what the views showed) and nothing else
   * happens. `apply`, the change in the vault that goes with an accept, runs only once the decision
   * is saved: a decision the file cannot hold changes no note. When `apply` throws, the proposals
   * are put back and saved again; should that second write fail too (the file was written a moment
   * before), they are pending here while the file reads them decided until the next write of the
   * file, which holds them pending (a restart before that shows them decided, the change not made).
   * @returns the proposals after the decisions, in the order given.
   * @throws what a `pick` throws (nothing changed); WriterLockedError as ProposalStore.stage; the file's
   *   refusal as a ToolError saying nothing was decided ({@link proposalsFileRefusal}); what `apply`
   *   throws, once the decisions are taken back.
   */
  private async decideAll(decisions: readonly Decision[], apply?: () => Promise<void>): Promise<Proposal[]> {
    await this.ensureWriter();
    return this.whileDeciding(
      decisions.map((d) => d.id),
      async () => {
        const picked = decisions.map((d) => ({ p: d.pick(), change: d.change }));
        const undo = picked.map(({ p }) => ({ p, before: decisionSnapshot(p), reopen: this.reopenable.get(p.id) }));
        const putBack = (): void => undo.forEach((u) => this.putBack(u.p, u.before, u.reopen));
        const changed = picked.filter(({ p, change }) => change(p)).map(({ p }) => p);
        if (changed.length === 0) return picked.map(({ p }) => p);
        const { error } = await this.save();
        if (error !== null) {
          putBack();
          throw proposalsFileRefusal(error, 'nothing was decided');
        }
        try {
          await apply?.();
        } catch (err) {
          putBack();
          const { error: again } = await this.save();
          if (again !== null) console.error('Vault MCP: a decision was taken back, but the proposals file could not be saved', again);
          throw err;
        } finally {
          for (const p of changed) this.emit({ type: 'updated', proposal: p });
        }
        return picked.map(({ p }) => p);
      },
    );
  }

  /** Runs `fn` holding the decision lock ({@link deciding}) of every proposal in `ids`, taken in sorted order so two runs never wait on each other. */
  private whileDeciding<T>(ids: readonly string[], fn: () => Promise<T>): Promise<T> {
    const [first, ...rest] = [...new Set(ids)].sort();
    return first === undefined ? fn() : this.deciding.run(first, () => this.whileDeciding(rest, fn));
  }

  /**
   * Puts a decision back: `p`'s decision fields as in `before` (decision-snapshot.ts), its
   * texts kept for reopening as in `reopen`, its cached hunks recomputed, and `p` itself back in the
   * store if the failed write's pruning of old resolved proposals took it out.
   */
  private putBack(p: Proposal, before: DecisionSnapshot, reopen: { base_text: string; proposed_text: string } | undefined): void {
    restoreDecision(p, before);
    if (reopen) this.reopenable.set(p.id, reopen);
    else this.reopenable.delete(p.id);
    this.hunkCache.forget(p.id);
    if (!this.byId.has(p.id)) this.byId.set(p.id, p);
  }

  /** The pending proposal `id`. @throws Error as {@link requireOpen}, or when it is stale (staleRefusal). */
  private requirePending(id: string): Proposal {
    const p = this.requireOpen(id);
    if (p.status === 'stale') throw new Error(staleRefusal(p));
    return p;
  }

  /** The open (pending or stale) proposal `id`. @throws Error when there is none or it is decided. */
  private requireOpen(id: string): Proposal {
    const p = this.byId.get(id);
    if (!p) throw new Error(`No proposal '${id}'.`);
    if (!isOpen(p)) throw new Error(`Proposal '${id}' is already ${p.status.replace('_', ' ')}.`);
    return p;
  }

  /** Marks `p` decided; its texts are dropped (the note has what was accepted), the hunk count kept. */
  private resolve(p: Proposal, status: Proposal['status']): void {
    p.status = status;
    p.resolved_at = this.now().toISOString();
    if (p.base_text !== null && p.proposed_text !== null && (p.kind === 'edit' || p.kind === 'properties')) {
      p.hunk_total = this.hunkCache.of(p).length;
      this.reopenable.set(p.id, { base_text: p.base_text, proposed_text: p.proposed_text });
      for (const id of [...this.reopenable.keys()].slice(0, Math.max(0, this.reopenable.size - KEEP_REOPENABLE)))
        this.reopenable.delete(id);
      p.base_text = null;
      p.proposed_text = null;
    } else {
      p.base_text = null;
      p.proposed_text = null;
    }
    this.hunkCache.forget(p.id);
  }
}
