import { randomBytes } from 'node:crypto';
import type { NoteChange, NoteStore } from '../vault/note-store';
import type { PluginFile } from '../vault/plugin-files/plugin-file';
import type { WriterLock } from '../vault/plugin-files/writer-lock';
import type { PreparedWrite } from '../vault/writes/write-types';
import { parseProposals, serializeProposals } from './proposal-codec';
import { HunkCache, undecidedHunks } from './proposal-hunks';
import { fileSystemRefusal } from '../vault/writes/write-errors';
import { ToolError } from '../errors';
import type { Hunk, PlacedHunk } from '../diff/types';
import type { HunkDecision, Proposal, ReviewHunk } from './types';
import { assertRoomForProposal } from './pending-limits';
import { decisionSnapshot, restoreDecision, type DecisionSnapshot } from './decision-snapshot';
import { WriteLock } from '../vault/writes/write-lock';
import { goneReason, isOpen, staleRefusal } from './proposal-state';

/** Who staged a proposal: the key's id, label (shown as provenance) and roots. */
export interface ProposalCaller {
  id: string;
  label: string;
  roots: string[];
  /** The MCP session the write came in (WriteActor.session), when the client has one. */
  session?: string;
}

/** What changed in the store, for the view, the status bar, the editor and notices. */
export type ProposalEvent = { type: 'staged'; proposal: Proposal } | { type: 'updated'; proposal: Proposal } | { type: 'loaded' };

/** One decision of ProposalStore's decideAll: the proposal `id`, checked and returned by `pick`, changed by `change` (false: nothing to change). */
interface Decision {
  id: string;
  pick: () => Proposal;
  change: (p: Proposal) => boolean;
}

/** How many decided (accepted, partly accepted, rejected) proposals the file keeps for proposal_status. */
const KEEP_RESOLVED = 200;
/** How many resolved text proposals keep their texts in memory for {@link ProposalStore.reopenHunk}. */
const KEEP_REOPENABLE = 50;

/** What one write of the proposals file came to: the write's error (null when it was written) and the proposals staged into it that the file holds. */
interface SaveOutcome {
  error: Error | null;
  /** Ids of the proposals staged into this write that the file holds afterwards (every one when it was written). */
  landed: ReadonlySet<string>;
}

/** One write of the proposals file, shared by every save asked for before it starts (ProposalStore's save). */
interface SaveBatch {
  /** Ids of the proposals staged into this write: taken back out of memory when it fails and the file does not hold them. */
  staged: Set<string>;
  done: Promise<SaveOutcome>;
  finish: (outcome: SaveOutcome) => void;
}

/**
 * The proposals of propose mode (docs/architecture.md#proposals): staged changes that wait for the
 * user, persisted in their own file in the plugin folder (not in data.json), surviving reload
 * and restart. Pending proposals follow renames of their note and go stale when it is
 * deleted. A stale proposal stays open (listed, counted, no `resolved_at`) until the user
 * rejects it, and is never accepted (docs/propose-mode.md). The note itself is untouched until
 * the user accepts (see ProposalReview).
 */
export class ProposalStore {
  private readonly byId = new Map<string, Proposal>();
  private readonly hunkCache = new HunkCache();
  private readonly listeners = new Set<(event: ProposalEvent) => void>();
  /**
   * The texts of text proposals resolved in this run, newest last (at most KEEP_REOPENABLE),
   * so an accept undone with Ctrl+Z can reopen its hunk ({@link reopenHunk}) after the texts
   * left the persisted record.
   */
  private readonly reopenable = new Map<string, { base_text: string; proposed_text: string }>();
  /** Runs one decision at a time per proposal, from its check to its save (and an accept's change in the vault): see {@link decide}. */
  private readonly deciding = new WriteLock();
  /** Proposals being accepted right now (see {@link whileAccepting}). */
  private readonly accepting = new Set<string>();
  /** The last write of the file queued (never rejects: each save's outcome goes to its batch). */
  private writing: Promise<void> = Promise.resolve();
  /** The write the next saves share, not started yet; null when none is queued. */
  private nextBatch: SaveBatch | null = null;
  /** The file's stamp (PluginFile.stamp) when {@link refresh} last read it; undefined before. */
  private stampSeen?: string;

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
    private readonly file: PluginFile,
    private readonly now: () => Date = () => new Date(),
    private readonly lock: WriterLock | null = null,
  ) {}

  /**
   * Reads the proposals file and takes the writer lock. A file that does not parse is moved
   * aside (kept for the user, never silently dropped) and the store starts empty.
   * @returns `{problem}`, one sentence for a Notice, when the file was damaged or another
   *   instance holds the lock (this one then stages and decides nothing until it is free);
   *   `{stopped: true}` when the plugin unloaded meanwhile (start nothing more); else `{}`.
   */
  async load(): Promise<{ problem?: string; stopped?: true }> {
    if (this.lock?.isClosed) return { stopped: true };
    const locked = await this.lock?.acquire().catch((err: unknown) => {
      if (this.lock?.isClosed) return 'stopped' as const;
      throw err;
    });
    if (locked === 'stopped') return { stopped: true };
    const loaded = await this.readFile(!locked);
    if (this.lock?.isClosed) return { stopped: true };
    if (locked) return { problem: `Vault MCP: ${locked.message}` };
    return loaded;
  }

  /**
   * Before any change to the proposals: makes sure this instance is the plugin folder's writer
   * (see writer-lock.ts); when it took the lock over just now, the file is read again first,
   * so what the other instance wrote is kept. Review actions call it before touching the vault.
   * @throws WriterLockedError (ToolError 'unavailable') while another instance writes the file.
   */
  async ensureWriter(): Promise<void> {
    if (this.lock && (await this.lock.ensure()) === 'acquired') await this.readFile();
  }

  /**
   * While another instance holds the writer lock (it alone writes the file), takes in what it
   * wrote since this store last read the file, so this one lists its proposals too (it decides
   * none until it takes over, {@link ensureWriter}). Obsidian fires no event for a file in the
   * config folder, so readers call this first: one `stat`, and a read only when the file's
   * mtime, ctime or size changed (writes are whole copies swapped in: never half a file). The
   * file is read as it is (PluginFile.readAsIs): the holder's temp copies are its write in
   * progress, and this instance never removes or renames them.
   * Never throws: a file that cannot be read now is read at the next call.
   */
  async refresh(): Promise<void> {
    if (!this.lock || this.lock.isHeld || this.lock.isClosed) return;
    try {
      const seen = await this.file.stamp();
      if (seen !== this.stampSeen && !(await this.readFile(false)).problem) this.stampSeen = seen;
    } catch {
      // Read again at the next call.
    }
  }

  /**
   * Reads the proposals file into the store (see {@link load}).
   * @param mayRepair the writer lock's holder reads: a write a crash interrupted is finished or
   *   undone first (PluginFile.read) and a damaged file is moved aside (the file is its). Any
   *   other instance reads the file as it is (PluginFile.readAsIs): the holder's temp copies are live.
   */
  private async readFile(mayRepair = true): Promise<{ problem?: string }> {
    const text = mayRepair ? await this.file.read() : await this.file.readAsIs();
    for (const id of this.byId.keys()) this.hunkCache.forget(id);
    this.byId.clear();
    if (text === null) return {};
    let problem: string | undefined;
    try {
      for (const p of parseProposals(text)) this.byId.set(p.id, p);
    } catch (err) {
      if (!mayRepair) return { problem: `Vault MCP could not read its proposals file (${(err as Error).message}).` };
      const aside = await this.file.keepCorruptAside(this.now());
      problem = `Vault MCP could not read its proposals file (${(err as Error).message}); it was kept as ${aside} and pending changes start empty.`;
    }
    this.emit({ type: 'loaded' });
    return problem ? { problem } : {};
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

  /** @returns the proposal with `id`, or undefined. */
  get(id: string): Proposal | undefined {
    return this.byId.get(id);
  }

  /** @returns every proposal, oldest first. */
  all(): Proposal[] {
    return [...this.byId.values()];
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
   *   WriterLockedError as {@link stage}.
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
   * {@link save}), every `pick` checks and returns its proposal before any changes, each `change`
   * changes its proposal in memory (false: nothing to change; nothing saved when none did), and the
   * file is saved. When that write fails, every proposal is put back as it was ({@link putBack}:
   * memory never runs ahead of the file, so a restart shows what the views showed) and nothing else
   * happens. `apply`, the change in the vault that goes with an accept, runs only once the decision
   * is saved: a decision the file cannot hold changes no note. When `apply` throws, the proposals
   * are put back and saved again; should that second write fail too (the file was written a moment
   * before), they are pending here while the file reads them decided until the next write of the
   * file, which holds them pending (a restart before that shows them decided, the change not made).
   * @returns the proposals after the decisions, in the order given.
   * @throws what a `pick` throws (nothing changed); WriterLockedError as {@link stage}; the file's
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

  /**
   * Subscribes to staged, updated and loaded events. @returns the unsubscribe function.
   */
  onChange(listener: (event: ProposalEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits until every write of the proposals file issued so far has finished (never rejects). */
  flush(): Promise<void> {
    return this.writing;
  }

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
   * Asks for a write of the whole file (a group commit): every save asked for while a write is
   * under way shares the next write, which is serialized from memory when it starts, so a
   * burst of stages or decisions costs two writes, not one each, and each write holds every
   * change made before it started.
   * @param staged the id of a proposal just staged into memory: when this write fails and the
   *   file (read back) does not hold it, it is taken out of memory before the next write starts,
   *   so no later write puts on disk a proposal the agent was told was not staged.
   * @returns the write's outcome; never rejects.
   */
  private save(staged?: string): Promise<SaveOutcome> {
    let batch = this.nextBatch;
    if (batch === null) {
      let finish!: (outcome: SaveOutcome) => void;
      const done = new Promise<SaveOutcome>((resolve) => (finish = resolve));
      const queued: SaveBatch = { staged: new Set(), done, finish };
      this.nextBatch = batch = queued;
      this.writing = this.writing.then(() => this.writeBatch(queued));
    }
    if (staged !== undefined) batch.staged.add(staged);
    return batch.done;
  }

  /** Makes the write `batch` shares (see {@link save}); oldest resolved proposals beyond KEEP_RESOLVED are dropped first. Never throws. */
  private async writeBatch(batch: SaveBatch): Promise<void> {
    if (this.nextBatch === batch) this.nextBatch = null;
    const resolved = this.all().filter((p) => !isOpen(p));
    for (const p of resolved.slice(0, Math.max(0, resolved.length - KEEP_RESOLVED))) {
      this.byId.delete(p.id);
      this.hunkCache.forget(p.id);
    }
    try {
      await this.file.write(serializeProposals(this.all()));
      batch.finish({ error: null, landed: batch.staged });
    } catch (error) {
      const landed = await this.stagedInFile(batch.staged);
      for (const id of batch.staged) {
        if (landed.has(id)) continue;
        this.byId.delete(id);
        this.hunkCache.forget(id);
      }
      batch.finish({ error: error instanceof Error ? error : new Error(String(error)), landed });
    }
  }

  /**
   * After a failed write: which of `ids` the file holds as read now (PluginFile.read: a whole copy
   * the write left is swapped in first, as the next start would). @returns those ids; none when
   * the file cannot be read or parsed.
   */
  private async stagedInFile(ids: ReadonlySet<string>): Promise<Set<string>> {
    const held = new Set<string>();
    if (ids.size === 0) return held;
    try {
      const text = await this.file.read();
      for (const p of text === null ? [] : parseProposals(text)) if (ids.has(p.id)) held.add(p.id);
    } catch {
      // Unreadable now: the next write, made from memory, replaces it.
    }
    return held;
  }

  private emit(event: ProposalEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        console.error('Vault MCP: a proposal listener failed', err);
      }
    }
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

/**
 * The agent's refusal for a write of the proposals file that failed: the file system's refusal
 * (full disk, permissions: fileSystemRefusal) naming the proposals file, or, for a file or
 * folder gone mid-write (ENOENT: another program moved or removed the plugin's files), a
 * sentence about the proposals file, not about a note.
 * @param error what the write threw. @param outcome what became of the change, e.g. "nothing was staged".
 * @returns the ToolError, or `error` itself when it is no file system refusal (a bug).
 */
function proposalsFileRefusal(error: Error, outcome: string): Error {
  if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
    return new ToolError(
      'unavailable',
      `Vault MCP's proposals file was moved or removed by another program while this change was saved; ${outcome}. Retry in a moment; if this repeats, ask the user to check the plugin folder.`,
    );
  return fileSystemRefusal(error, 'the proposals file', outcome) ?? error;
}
