import { randomBytes } from 'node:crypto';
import type { NoteChange, NoteStore } from '../../vault/note-store';
import { foldPath } from '../../vault/paths/paths';
import type { PluginFile } from '../../vault/plugin-files/plugin-file';
import type { WriterLock } from '../../vault/plugin-files/writer-lock';
import type { PreparedWrite } from '../../vault/writes/write-types';
import { undecidedHunks } from '../proposal-hunks';
import type { Hunk, PlacedHunk } from '../../diff/types';
import type { Proposal, ReviewHunk } from '../types';
import { assertRoomForProposal } from './pending-limits';
import { goneReason, isOpen } from '../proposal-state';
import { proposalsFileRefusal } from './proposal-file';
import { ProposalDecisions } from './proposal-decisions';

/** Who staged a proposal: the key's id, label (shown as provenance) and roots. */
export interface ProposalCaller {
  id: string;
  label: string;
  roots: string[];
  /** The MCP session the write came in (WriteActor.session), when the client has one. */
  session?: string;
}

/**
 * The proposals of propose mode (docs/architecture.md#proposals): staged changes that wait for the
 * user, persisted in their own file in the plugin folder (not in data.json), surviving reload
 * and restart. Pending proposals follow renames of their note and go stale when it is
 * deleted. A stale proposal stays open (listed, counted, no `resolved_at`) until the user
 * rejects it, and is never accepted (docs/propose-mode.md). The note itself is untouched until
 * the user accepts (see ProposalReview). The top layer: staging, the queries and following notes;
 * below it the decisions (ProposalDecisions: settle, decideHunks, rejectHunks, reopenHunk), the
 * file (ProposalFile: load, ensureWriter, refresh, flush) and the proposals in memory
 * (ProposalMemory: get, all, onChange).
 */
export class ProposalStore extends ProposalDecisions {
  /** Proposals being accepted right now (see {@link whileAccepting}). */
  private readonly accepting = new Set<string>();

  /**
   * @param notes the note store (reads of current note text, note change events).
   * @param file where proposals persist (`proposals.json` in the plugin folder).
   * @param now the clock, for `created_at` / `resolved_at`.
   * @param lock the plugin folder's writer lock (writer-lock.ts): the file is written only
   *   while this instance holds it, so a second instance never drops this one's proposals.
   *   Without one (unit tests of a single store) the file is written freely.
   */
  constructor(
    private readonly notes: NoteStore,
    protected readonly file: PluginFile,
    protected readonly now: () => Date = () => new Date(),
    protected readonly lock: WriterLock | null = null,
  ) {
    super();
  }

  /**
   * Keeps pending proposals attached to their note: a rename moves them along, a delete
   * makes them stale. @returns the unsubscribe function (register it for onunload).
   */
  followNotes(): () => void {
    return this.notes.onNoteChange((change) => void this.onNoteChange(change));
  }

  /**
   * Stages a validated write as a pending proposal and persists it. Nothing in the vault changes.
   * @param prepared what NoteWriter.prepare returned for the agent's request.
   * @param caller the proposing key.
   * @param reason why the write was staged rather than applied (a force key's held write), kept
   *   for the review views; left out for a propose key's writes.
   * @returns the stored proposal.
   * @throws ToolError('unavailable') when the key already has MAX_PENDING_PER_KEY pending
   *   proposals or the pending texts would pass MAX_PENDING_CHARS, or another instance holds
   *   the writer lock (WriterLockedError; nothing staged); the file
   *   system's refusal as a tool error (full disk, permissions, the file moved away; see
   *   {@link proposalsFileRefusal}) when the proposals file cannot be written and does not hold
   *   the proposal (nothing staged, in memory or on disk); other errors of that write as is.
   *   A write that failed although the file holds the proposal (its whole copy was swapped in
   *   when the file was read back) answers staged: the answer always matches the file.
   */
  async stage(prepared: PreparedWrite, caller: ProposalCaller, reason?: string): Promise<Proposal> {
    await this.ensureWriter();
    assertRoomForProposal(this.pending(), prepared, caller.id);
    const textKind = prepared.kind === 'edit' || prepared.kind === 'properties';
    const proposal: Proposal = {
      id: `p_${randomBytes(6).toString('hex')}`,
      key_id: caller.id,
      key_label: caller.label,
      key_roots: [...caller.roots],
      tool: prepared.tool,
      kind: prepared.kind,
      path: prepared.path,
      staged_path: prepared.path,
      ...(prepared.kind === 'move' ? { to: prepared.to } : {}),
      ...('expectedHash' in prepared && prepared.expectedHash !== undefined ? { expected_hash: prepared.expectedHash } : {}),
      base_hash: textKind || prepared.kind === 'delete' ? prepared.baseHash : null,
      base_text: textKind || prepared.kind === 'delete' ? prepared.baseText : null,
      proposed_text: textKind || prepared.kind === 'create' ? prepared.proposedText : null,
      created_at: this.now().toISOString(),
      status: 'pending',
      decisions: {},
      ...(reason !== undefined ? { reason } : {}),
      ...(caller.session !== undefined ? { session: caller.session } : {}),
    };
    this.byId.set(proposal.id, proposal);
    const { error, landed } = await this.save(proposal.id);
    if (error !== null && !landed.has(proposal.id)) throw proposalsFileRefusal(error, 'nothing was staged');
    this.emit({ type: 'staged', proposal });
    return proposal;
  }

  /**
   * @returns the proposals that await the user, oldest first: pending ones and stale ones not yet
   *   dismissed ({@link isOpen}), as the listings, the Pending view and the status bar count them.
   */
  pending(): Proposal[] {
    return this.all().filter(isOpen);
  }

  /**
   * The pending proposal of key `keyId` that already stages exactly `prepared`, so a retried
   * write (an agent repeating a held or staged call) is answered with it instead of a copy that
   * would fill the review list and the key's pending quota: same tool, kind and path; for an edit
   * or property change the same base and proposed text, for a create the same text, for a move
   * the same target (and expected_hash), for a delete the same base. Only one not yet partly
   * decided and not stale counts.
   * @returns the proposal, or undefined when there is none.
   */
  pendingSame(prepared: PreparedWrite, keyId: string): Proposal | undefined {
    return this.pendingOn(prepared.path).find((p) => {
      if (
        p.status !== 'pending' ||
        p.key_id !== keyId ||
        p.kind !== prepared.kind ||
        p.tool !== prepared.tool ||
        Object.keys(p.decisions).length
      )
        return false;
      switch (prepared.kind) {
        case 'edit':
        case 'properties':
          return p.base_hash === prepared.baseHash && p.proposed_text === prepared.proposedText;
        case 'create':
          return p.proposed_text === prepared.proposedText;
        case 'move':
          return p.to === prepared.to && p.expected_hash === prepared.expectedHash;
        case 'delete':
          return p.base_hash === prepared.baseHash;
        default:
          return true;
      }
    });
  }

  /** @returns the open (pending or stale, {@link pending}) proposals on the note or folder at `path`, oldest first. */
  pendingOn(path: string): Proposal[] {
    return this.pending().filter((p) => p.path === path);
  }

  /**
   * The other pending proposals that cannot both be accepted with `p`, or that the user would
   * apply one after the other unawares, each with why ({@link ProposalClash}), oldest first: the
   * agent that staged both learns it when it stages the second, not after the user's decision
   * (session 43's newcomers). The rules follow what acceptance does (proposal-acceptance.ts, and
   * a pending proposal follows its note's renames, {@link onNoteChange}):
   * - `lines`: two changes of one note's text whose hunks overlap or touch (the rule that makes a
   *   hunk stale), unless both add lines at the very end (an append lands after what was added
   *   there since); two changes staged on different texts of it; a delete with any other change of
   *   that note (the one accepted first leaves the other's note gone or changed);
   * - `moves`: two moves of one note; both apply, the later from where the first put the note;
   * - `path`: two creates, moves or folders whose new paths are one (case and Unicode form
   *   aside, as the vault compares them): the first accepted takes the path;
   * - `folder`: a folder and a note created or moved into it: accepting the note makes the
   *   folder, and the folder proposal's path is then taken.
   * A move and a text change of one note never clash: the change follows the note.
   */
  clashesWith(p: Proposal): ProposalClash[] {
    const clashes: ProposalClash[] = [];
    for (const q of this.pending()) {
      if (q.id === p.id || q.status !== 'pending') continue;
      const over = this.clashOf(p, q);
      if (over !== null) clashes.push({ proposal: q, over });
    }
    return clashes;
  }

  /** Why pending proposals `p` and `q` clash ({@link clashesWith}), or null when both can be accepted in either order. */
  private clashOf(p: Proposal, q: Proposal): ProposalClash['over'] | null {
    const entry = (r: Proposal): boolean => r.kind === 'create' || r.kind === 'folder';
    if (!entry(p) && !entry(q) && samePath(p.path, q.path)) {
      if (p.kind === 'delete' || q.kind === 'delete') return 'lines';
      if (p.kind === 'move' && q.kind === 'move') return 'moves';
      if (p.kind === 'move' || q.kind === 'move') return null;
      const textChange = (r: Proposal): boolean => r.base_text !== null;
      if (!textChange(p) || !textChange(q) || q.base_text !== p.base_text) return 'lines';
      const mine = this.hunksOf(p);
      // Lines added at the very end of the note both land, in the order accepted (propose-mode.md, "stacked proposals").
      const atEnd = (h: Hunk): boolean => h.from === h.to && h.from === (p.base_text ?? '').length;
      return this.hunksOf(q).some((h) => mine.some((m) => m.from <= h.to && h.from <= m.to && !(atEnd(h) && atEnd(m)))) ? 'lines' : null;
    }
    const [mine, theirs] = [newPathOf(p), newPathOf(q)];
    if (mine === null || theirs === null) return null;
    if (samePath(mine, theirs)) return 'path';
    if ((p.kind === 'folder' && isInside(theirs, mine)) || (q.kind === 'folder' && isInside(mine, theirs))) return 'folder';
    return null;
  }

  /**
   * @returns the hunks of a text proposal's staged change (cached; [] for other kinds and for
   *   decided proposals, whose texts are dropped: `hunk_total` keeps their number).
   */
  hunksOf(p: Proposal): Hunk[] {
    return this.hunkCache.of(p);
  }

  /**
   * The undecided hunks of an open text proposal placed on `current` (the note's text
   * now), `stale` set where they no longer apply (every one of a stale proposal, which can only
   * be rejected). [] for other kinds and decided proposals.
   */
  placedHunks(p: Proposal, current: string): PlacedHunk[] {
    if (!isOpen(p) || p.base_text === null || p.proposed_text === null) return [];
    const placed = undecidedHunks(p, this.hunkCache.of(p), current);
    return p.status === 'stale' ? placed.map((h) => ({ ...h, stale: true })) : placed;
  }

  /**
   * The hunks to show inline for the note at `path` whose text is `text`, from every pending
   * text proposal on it, in document order.
   */
  reviewHunks(path: string, text: string): ReviewHunk[] {
    const out: ReviewHunk[] = [];
    for (const p of this.pendingOn(path)) {
      for (const h of this.placedHunks(p, text)) out.push({ ...h, proposalId: p.id, keyLabel: p.key_label });
    }
    return out.sort((a, b) => a.from - b.from || a.to - b.to);
  }

  /**
   * Saves the file with `p`'s path changed (a rename of its note, which happened whatever the file
   * holds), then tells listeners. @throws that write's error (the new path stays in memory and goes
   * into the next write).
   */
  private async commit(p: Proposal): Promise<void> {
    const { error } = await this.save();
    if (error !== null) throw error;
    this.emit({ type: 'updated', proposal: p });
  }

  /**
   * Runs `apply` (the acceptance of proposal `id`) while vault events about its note leave it
   * alone: accepting a delete deletes the note, and that event must not turn the proposal being
   * accepted stale. @returns what `apply` returns.
   */
  async whileAccepting<T>(id: string, apply: () => Promise<T>): Promise<T> {
    this.accepting.add(id);
    try {
      return await apply();
    } finally {
      this.accepting.delete(id);
    }
  }

  private async onNoteChange(change: NoteChange): Promise<void> {
    // The instance holding the writer lock sees the same vault events and updates the file.
    if (this.lock && !this.lock.isHeld) return;
    if (change.type === 'rename' && change.oldPath) {
      const moved = this.pendingOn(change.oldPath);
      for (const p of moved) p.path = change.path;
      for (const p of moved) await this.commit(p);
    } else if (change.type === 'delete') {
      for (const p of this.pendingOn(change.path)) {
        if (p.status !== 'pending' || p.kind === 'create' || p.kind === 'folder' || this.accepting.has(p.id)) continue;
        await this.settle(p.id, 'stale', goneReason(change.path));
      }
    }
  }
}

/** Why two pending proposals clash (ProposalStore.clashesWith): the proposal named, and which rule. */
export interface ProposalClash {
  proposal: Proposal;
  over: 'lines' | 'moves' | 'path' | 'folder';
}

/**
 * The path a proposal gives a note or folder: a create's or folder's path, a move's `to`.
 * @returns that vault path, or null for other kinds (edits, properties, deletes).
 */
export function newPathOf(p: Proposal): string | null {
  if (p.kind === 'create' || p.kind === 'folder') return p.path;
  return p.kind === 'move' && p.to !== undefined ? p.to : null;
}

/** Two vault paths of one entry, as the vault compares them (foldPath: case and Unicode form). */
function samePath(a: string, b: string): boolean {
  return foldPath(a) === foldPath(b);
}

/** True when `path` lies inside the folder `folder` (case and Unicode form aside). */
function isInside(path: string, folder: string): boolean {
  return foldPath(path).startsWith(`${foldPath(folder)}/`);
}
