import { ToolError, type VaultSight } from '../../errors';
import type { AccessScope } from '../../vault/access/access';
import { hashText } from '../../vault/hash';
import type { NoteStore } from '../../vault/note-store';
import { BaseChangedError } from '../../vault/writes/write-errors';
import type { TextChange } from '../../vault/writes/open-note-editors';
import type { WriteRequest } from '../../vault/writes/write-types';
import { WIDGET_WRITE_TOOL } from '../../vault/widgets/widget-store';
import { applyHunks } from '../../diff/hunks';
import type { Hunk, PlacedHunk } from '../../diff/types';
import type { ProposalStore } from '../store/proposal-store';
import { goneReason } from '../proposal-state';
import { undecidedHunks } from '../proposal-hunks';
import { VaultSide } from './vault-side';
import type { Proposal } from '../types';

/** What an accept did: the proposal after it, and how many hunks went in / stayed stale. */
export interface AcceptOutcome {
  proposal: Proposal;
  applied: number;
  stale: number;
}

/** How often an accept recomputes when the note changed between reading and writing it. */
const ACCEPT_ATTEMPTS = 4;

/**
 * The acceptance layer of ProposalReview (docs/architecture.md#proposals): a proposal that
 * ProposalReview.accept found pending and applicable now applied to the vault, re-checked for the
 * proposing key as it is now ({@link scopeOf}): the decision is saved before the note changes and
 * taken back when the change fails (ProposalStore.settle and decideHunks' `apply`); a refusal of
 * the vault (VaultSide) answers stale with the reason, nothing saved.
 */
export abstract class ProposalAcceptance {
  /**
   * @param store the proposals. @param notes the vault side (checks and writes).
   * @param keyRoots the current roots of a key by id, or null when the key no longer exists
   *   (revoked): acceptance uses the key's roots as they are then, not as they were.
   * @param keySight what a key by id may be shown of the vault in messages (its tool set's
   *   AccessScope.sight; undefined: all), so a reason a proposal cannot be applied, which the
   *   proposing key reads in proposal_status, names no note and quotes no text its tools do not show.
   */
  constructor(
    protected readonly store: ProposalStore,
    protected readonly notes: NoteStore,
    private readonly keyRoots: (keyId: string) => string[] | null,
    protected readonly keySight: (keyId: string) => VaultSight | undefined = () => undefined,
  ) {}

  /**
   * The proposing key's access scope now: its label (agent_overrides) and current roots, with
   * the proposal (and the hunks going in) and the session it was proposed in as the actor the
   * activity log records.
   */
  protected scopeOf(p: Proposal, hunks?: number[]): AccessScope {
    const via = hunks ? { proposal: p.id, hunks } : { proposal: p.id };
    const sight = this.keySight(p.key_id);
    return {
      label: p.key_label,
      roots: this.keyRoots(p.key_id) ?? p.key_roots,
      actor: { keyId: p.key_id, session: p.session, via },
      ...(sight === undefined ? {} : { sight }),
    };
  }

  /** Why a proposal of a revoked key cannot be applied, or null while the key exists. */
  protected revokedReason(p: Proposal): string | null {
    return this.keyRoots(p.key_id) === null
      ? `The key '${p.key_label}' that proposed this change was revoked, so it cannot be applied.`
      : null;
  }

  /**
   * Accepts a create / move / delete / folder proposal (see ProposalReview.accept): checked again
   * (NoteWriter.prepare), then decided and saved before the vault is changed, and taken back when
   * the change fails (ProposalStore.settle's `apply`), so the file and the vault agree.
   */
  protected async acceptEntry(p: Proposal): Promise<AcceptOutcome> {
    const id = p.id;
    const vaultSide = new VaultSide();
    try {
      if (p.kind === 'create' && p.tool === WIDGET_WRITE_TOOL) {
        // Read before the decision, which drops the proposal's texts.
        const { path, proposed_text: html } = p;
        const proposal = await this.store.settle(
          id,
          'accepted',
          undefined,
          vaultSide.of(async () => {
            await this.notes.widgets.acceptStaged(path, html ?? '', this.scopeOf(p));
          }),
        );
        return { proposal, applied: 1, stale: 0 };
      }
      const prepared = await vaultSide.of(() => this.notes.writes.prepare(entryRequest(p), this.scopeOf(p)))();
      if (prepared.kind === 'delete' && prepared.baseHash !== p.base_hash) throw vaultSide.refused(new BaseChangedError(p.path));
      const proposal = await this.store.settle(
        id,
        'accepted',
        undefined,
        vaultSide.of(async () => {
          await this.notes.writes.applyPrepared(prepared, this.scopeOf(p));
        }),
      );
      return { proposal, applied: 1, stale: 0 };
    } catch (err) {
      if (!vaultSide.threw(err) || !(err instanceof ToolError)) throw err;
      // A staged widget is checked only when accepted (liveState cannot judge it again): its refusal is kept.
      if (p.tool === WIDGET_WRITE_TOOL)
        return { proposal: await this.store.settle(id, 'stale', staleReason(err, p, this.keySight(p.key_id))), applied: 0, stale: 1 };
      return refusedNow(p, staleReason(err, p, this.keySight(p.key_id)), 1);
    }
  }

  /**
   * Applies the undecided, non-stale hunks (or just `hunkIndex`) of a text proposal on the
   * note's current text (its open editor's, when there is one) through the apply primitive
   * (NoteWriter.writeExactText, which applies them in the editor when the note is open). The
   * verdict is saved first and the note written then ({@link writeHunks}, which places the hunks
   * again on the note as it is by then), the verdict taken back when that fails
   * (ProposalStore.decideHunks' `apply`); when a hunk chosen no longer applies by then, the choice
   * is made again. A proposal without hunks (staged before writes that change nothing stopped being
   * staged, write-gate.ts) has nothing to apply: accepting it closes it as accepted, applied 0.
   */
  protected async acceptText(p: Proposal, hunkIndex: number | undefined): Promise<AcceptOutcome> {
    if (hunkIndex !== undefined) this.assertUndecided(p, hunkIndex);
    const hunks = this.store.hunksOf(p);
    if (hunks.length === 0) return { proposal: await this.store.settle(p.id, 'accepted'), applied: 0, stale: 0 };
    const scope = this.scopeOf(p);
    for (let attempt = 0; attempt < ACCEPT_ATTEMPTS; attempt++) {
      let current: string;
      try {
        current = await this.notes.writes.currentText(p.path, scope);
      } catch (err) {
        if (!(err instanceof ToolError)) throw err;
        return refusedNow(p, staleReason(err, p, this.keySight(p.key_id)), 1);
      }
      const placed = this.store.placedHunks(p, current).filter((h) => hunkIndex === undefined || h.index === hunkIndex);
      const indexes = placed.filter((h) => !h.stale).map((h) => h.index);
      if (indexes.length === 0) return { proposal: p, applied: 0, stale: placed.length };
      // The proposal as placed, for placing again once the verdict (which drops its texts when it resolves it) is saved.
      const staged: Proposal = { ...p, decisions: { ...p.decisions } };
      const vaultSide = new VaultSide();
      try {
        const proposal = await this.store.decideHunks(
          p.id,
          indexes,
          'accepted',
          vaultSide.of(() => this.writeHunks(staged, hunks, indexes, this.scopeOf(p, indexes))),
        );
        return { proposal, applied: indexes.length, stale: placed.length - indexes.length };
      } catch (err) {
        if (!vaultSide.threw(err)) throw err;
        if (err instanceof BaseChangedError) continue;
        if (!(err instanceof ToolError)) throw err;
        return refusedNow(p, staleReason(err, p, this.keySight(p.key_id)), placed.length);
      }
    }
    throw new Error(`The note '${p.path}' kept changing while proposal '${p.id}' was accepted; nothing was applied, try again.`);
  }

  /**
   * Writes the hunks `indexes` of `staged` (a text proposal as it was before their verdict; `hunks`
   * its hunks) into the note as it is now, placed again on it (the note may have changed while
   * the verdict was saved: the user typing), through the apply primitive with the hash of the text
   * they were placed on; again when the note changed between reading and writing.
   * @throws BaseChangedError when one of them no longer applies, or the note kept changing; what
   *   NoteWriter.currentText and writeExactText throw (refusals as ToolErrors).
   */
  private async writeHunks(staged: Proposal, hunks: readonly Hunk[], indexes: readonly number[], scope: AccessScope): Promise<void> {
    const kind = staged.kind === 'properties' ? 'properties' : 'edit';
    for (let attempt = 0; attempt < ACCEPT_ATTEMPTS; attempt++) {
      const current = await this.notes.writes.currentText(staged.path, scope);
      const ready = undecidedHunks(staged, hunks, current).filter((h) => indexes.includes(h.index) && !h.stale);
      if (ready.length !== indexes.length) throw new BaseChangedError(staged.path);
      try {
        await this.notes.writes.writeExactText(
          {
            tool: staged.tool,
            kind,
            path: staged.path,
            baseHash: hashText(current),
            text: applyHunks(current, ready),
            acceptedHunks: ready.map(toChange),
          },
          scope,
        );
        return;
      } catch (err) {
        if (!(err instanceof BaseChangedError)) throw err;
      }
    }
    throw new BaseChangedError(staged.path);
  }

  /** @throws Error when hunk `index` is no undecided hunk of `p`, naming how hunks are numbered. */
  protected assertUndecided(p: Proposal, index: number): void {
    const hunk = this.store.hunksOf(p).find((h) => h.index === index);
    const decided = p.decisions[index];
    if (hunk && decided !== undefined)
      throw new Error(`Hunk ${index} of proposal '${p.id}' is already ${decided}; "show ${p.id}" lists the ones still open.`);
    if (!hunk) {
      throw new Error(
        `Proposal '${p.id}' has no undecided hunk ${index}; its hunks are numbered from 0 in the order they appear in the note.`,
      );
    }
  }
}

/** The write request that redoes a create / move / delete / folder proposal at acceptance. */
export function entryRequest(p: Proposal): WriteRequest {
  switch (p.kind) {
    case 'create':
      return { tool: p.tool, kind: 'create', path: p.path, content: p.proposed_text ?? '' };
    case 'move':
      return { tool: p.tool, kind: 'move', path: p.path, to: p.to ?? '', expectedHash: p.expected_hash };
    case 'delete':
      return { tool: p.tool, kind: 'delete', path: p.path };
    default:
      return { tool: p.tool, kind: 'folder', path: p.path };
  }
}

/**
 * The outcome of an accept the vault refuses now (access rules, roots, quarantine, the note gone
 * from the key's reach, a target taken, a delete's note changed): `p` as a copy reading stale
 * with the reason as it is now, nothing saved. The stored proposal stays pending, so it is judged
 * again at every listing and accept (ProposalReview.liveState) and reads pending once the cause
 * is gone, as it would had no accept been tried (docs/propose-mode.md). Only a revoked key and a
 * note deleted (ProposalStore) make a proposal stale for good.
 * @param stale how many changes the answer counts as not applied.
 */
export function refusedNow(p: Proposal, reason: string, stale: number): AcceptOutcome {
  return { proposal: { ...p, status: 'stale', stale_reason: reason }, applied: 0, stale };
}

/**
 * One sentence on why a proposal can no longer be applied, from the refusal of the write, worded
 * for `sight`, the proposing key's (ToolError.messageFor): the key reads it in proposal_status.
 */
export function staleReason(err: ToolError, p: Proposal, sight: VaultSight | undefined): string {
  if (err instanceof BaseChangedError) return 'The note changed after this change was proposed, so it was not applied.';
  if (err.code === 'not_found') return goneReason(p.path);
  if (err.why === 'replaced')
    return `'${p.path}' was replaced on disk by another program (a symbolic link or another entry stands at its path now), and nothing is written through it, so it was not applied.`;
  if (err.code === 'exists')
    return `Its path '${p.kind === 'move' ? p.to : p.path}' is now taken or not available to the key, so it can no longer be applied.`;
  return `It can no longer be applied. ${err.messageFor(sight)}`;
}

function toChange(h: PlacedHunk): TextChange {
  return { from: h.from, to: h.to, insert: h.inserted };
}
