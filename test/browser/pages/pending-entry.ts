/**
 * Browser entry for the Pending changes test: the real PendingChangesView (an ItemView of the
 * host) in a right-sidebar leaf inside `#sidebar`, over a real ProposalStore whose proposals
 * file lives in memory, with proposals of every kind staged from two keys ("Claude Code",
 * "Cursor"): an edit with two hunks and a property change on one note, a new note, a move
 * and a delete. Reject works as in Obsidian (it needs no vault); the page has no vault, so
 * Accept answers with a Notice saying so. `window.vaultMcpPending` exposes the store, the
 * file's text and the notices so the test can read what clicks did, and `userEdit`, which
 * changes a note's text as the user's typing would and tells the view, as the vault's events do.
 */
import type { App, WorkspaceLeaf as ObsidianLeaf } from 'obsidian';
import { Notice } from '../../host/ui/notice';
import { Workspace } from '../../host/workspace/workspace';
import { WorkspaceLeaf } from '../../host/workspace/workspace-leaf';
import { ProposalReview } from '../../../src/proposals/review/proposal-review';
import { ProposalStore, type ProposalCaller } from '../../../src/proposals/store/proposal-store';
import { PendingChangesView } from '../../../src/ui/review/pending-view';
import type { NoteChange, NoteStore } from '../../../src/vault/note-store';
import type { PluginFile } from '../../../src/vault/plugin-files/plugin-file';
import type { PreparedWrite } from '../../../src/vault/writes/write-types';
import { LISBON_NOTE, lisbonEdited } from './lisbon-note';

declare global {
  interface Window {
    vaultMcpPending: {
      store: ProposalStore;
      view: PendingChangesView;
      fileText: () => string | null;
      notices: () => string[];
      userEdit: (path: string, edit: (text: string) => string) => void;
    };
  }
}

/** The proposals file in memory: the surface of PluginFile that ProposalStore uses. */
class MemoryPluginFile implements Pick<PluginFile, 'name' | 'path' | 'read' | 'write' | 'keepAside'> {
  readonly name = 'proposals.json';
  readonly path = `.obsidian/plugins/vault-mcp/${this.name}`;
  text: string | null = null;

  async read(): Promise<string | null> {
    return this.text;
  }

  async write(text: string): Promise<void> {
    this.text = text;
  }

  async keepAside(tag: string): Promise<string> {
    this.text = null;
    return `${this.path}.${tag}`;
  }
}

/** Why Accept cannot work on this page: the sentence the view shows in a Notice. */
const NO_VAULT = 'This page has no vault, so nothing can be accepted here; Reject works.';

/** Who listens to note changes (ProposalReview.onLiveChange, through the view). */
const noteListeners = new Set<(change: NoteChange) => void>();
/** The Lisbon note's text now: as the proposals were made until the test's `userEdit` changes it. */
const texts = new Map<string, string>();

/**
 * The page has no vault. ProposalStore reads notes only in followNotes (not called here).
 * ProposalReview reads the notes to tell whether each proposal still applies (liveState: the
 * note's text for an edit, a dry `prepare` of a create, move or delete) and which notes link to
 * a moved one (none here); this stand-in answers those as a vault holding the notes as they were
 * when the proposals were made (the Lisbon note as `userEdit` last left it), and refuses to write
 * with {@link NO_VAULT}. Note changes reach the listeners as NoteStore.onNoteChange reports them.
 */
const noVault = {
  onNoteChange: (listener: (change: NoteChange) => void) => {
    noteListeners.add(listener);
    return () => noteListeners.delete(listener);
  },
  onOtherFileChange: () => () => undefined,
  onFolderChange: () => () => undefined,
  policy: { entryAt: () => null },
  notesLinkingInto: () => [],
  writes: {
    currentText: async (path: string) => {
      const text = texts.get(path);
      if (text !== undefined) return text;
      throw new Error(`${NO_VAULT} (no note ${path})`);
    },
    prepare: async (request: { kind: string; path: string }) =>
      request.kind === 'delete' && request.path === SCRATCH
        ? { ...request, baseText: SCRATCH_TEXT, baseHash: await sha256(SCRATCH_TEXT) }
        : request,
    applyPrepared: () => Promise.reject(new Error(NO_VAULT)),
    writeExactText: () => Promise.reject(new Error(NO_VAULT)),
  },
};

/** SHA-256 hex of `text`, as hashText computes it (Web Crypto here: the page has no node:crypto). */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

const LISBON = 'Travel/Lisbon trip.md';
const LISBON_TEXT = ['---', 'status: planning', 'tags: [travel]', '---', LISBON_NOTE].join('\n');
texts.set(LISBON, LISBON_TEXT);
/** Claude Code's edit: one line replaced in Plan, one line added to Budget (two hunks). */
const LISBON_EDITED = lisbonEdited(LISBON_TEXT);
/** Cursor's property change: status and tags. */
const LISBON_PROPERTIES = LISBON_TEXT.replace('status: planning\ntags: [travel]\n', 'status: booked\ntags: [travel, portugal]\n');

const DUNE = 'Reading/Dune.md';
const SCRATCH = 'Inbox/Old scratch.md';
const SCRATCH_TEXT = 'call plumber?\nsomething about the tram\n';
const DAILY_TEXT = [
  '# Tuesday, 10 March',
  '',
  '## Tasks',
  '- [ ] Send the Lisbon budget to Ana',
  '- [ ] Return Dune to the library',
  '',
].join('\n');

const claude: ProposalCaller = { id: 'k1', label: 'Claude Code', roots: [] };
const cursor: ProposalCaller = { id: 'k2', label: 'Cursor', roots: [] };

/** Stages the five proposals, one minute apart from 16:40 on 9 March 2026 (UTC). */
async function stageProposals(store: ProposalStore, clock: { minutes: number }): Promise<void> {
  const lisbonHash = await sha256(LISBON_TEXT);
  const writes: Array<[PreparedWrite, ProposalCaller]> = [
    [{ kind: 'edit', tool: 'edit_note', path: LISBON, baseText: LISBON_TEXT, baseHash: lisbonHash, proposedText: LISBON_EDITED }, claude],
    [
      {
        kind: 'properties',
        tool: 'set_properties',
        path: LISBON,
        baseText: LISBON_TEXT,
        baseHash: lisbonHash,
        proposedText: LISBON_PROPERTIES,
      },
      cursor,
    ],
    [{ kind: 'create', tool: 'create_note', path: 'Daily notes/2026-03-10.md', proposedText: DAILY_TEXT }, claude],
    [{ kind: 'move', tool: 'move_note', path: DUNE, to: 'Reading/Finished/Dune.md', folder: false }, cursor],
    [{ kind: 'delete', tool: 'delete_note', path: SCRATCH, baseText: SCRATCH_TEXT, baseHash: await sha256(SCRATCH_TEXT) }, cursor],
  ];
  for (const [prepared, caller] of writes) {
    await store.stage(prepared, caller);
    clock.minutes++;
  }
}

async function main(): Promise<void> {
  const clock = { minutes: 0 };
  const file = new MemoryPluginFile();
  // ProposalStore and ProposalReview are typed against the real NoteStore and PluginFile; the
  // stand-ins above carry the members this page reaches (see their comments).
  const notes = noVault as unknown as NoteStore;
  const store = new ProposalStore(notes, file as unknown as PluginFile, () => new Date(Date.UTC(2026, 2, 9, 16, 40 + clock.minutes)));
  await stageProposals(store, clock);
  const review = new ProposalReview(store, notes, () => []);
  // The host's Workspace only keeps `app` for its views; the view reaches app.vault only when
  // a path is clicked, which the test does not do.
  const workspace = new Workspace({} as App);
  const leaf = new WorkspaceLeaf(workspace, 'right');
  const view = new PendingChangesView(leaf as unknown as ObsidianLeaf, store, review);
  document.getElementById('sidebar')!.appendChild(leaf.containerEl);
  await leaf.open(view);
  const userEdit = (path: string, edit: (text: string) => string): void => {
    texts.set(path, edit(texts.get(path) ?? ''));
    for (const listener of noteListeners) listener({ type: 'modify', path });
  };
  window.vaultMcpPending = { store, view, fileText: () => file.text, notices: () => Notice.messages(), userEdit };
}

void main();
