/** @jest-environment jsdom */
// No Obsidian host here: editor/ draws its widgets with plain DOM calls (src/editor/dom.ts).
import { history, redo as redoCommand, undo as undoCommand } from '@codemirror/commands';
import { EditorSelection, EditorState, StateEffect, Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { ReviewHunk } from '../../../src/proposals/types';
import { reviewExtension } from '../../../src/editor/review-extension';
import { FakeReviewController as FakeController, type FakeHunk } from '../../fakes/fake-review-controller';
import { reviewHunksField, setReviewHunks } from '../../../src/editor/review-state';
import { reviewDecorationsField } from '../../../src/editor/review-decorations';
import * as wordDiffModule from '../../../src/diff/word-diff';
import {
  acceptAll,
  acceptHunk,
  hunkAtCursor,
  moveByHunk,
  rejectAll,
  rejectHunk,
  ACCEPT_USER_EVENT,
} from '../../../src/editor/review-actions';

const NOTE = 'Projects/Plan.md';
const DOC = ['# Plan', 'alpha line one', 'beta line two', 'gamma line three', 'delta line four', 'epsilon line five', ''].join('\n');

function sampleHunks(): FakeHunk[] {
  return [
    { proposalId: 'p1', index: 0, keyLabel: 'Claude Code', removed: 'beta line two\n', inserted: 'beta line 2, revised\n' },
    { proposalId: 'p2', index: 0, keyLabel: 'Cursor', removed: '', inserted: 'a new line from Cursor\n', before: 'gamma line three\n' },
    { proposalId: 'p1', index: 1, keyLabel: 'Claude Code', removed: 'delta line four\n', inserted: '' },
  ];
}

let controller: FakeController;
let path: string | null;
const views: EditorView[] = [];

function mount(doc = DOC): EditorView {
  const view = new EditorView({
    state: EditorState.create({ doc, extensions: [history(), reviewExtension(controller, () => path)] }),
    parent: document.body.appendChild(document.createElement('div')),
  });
  views.push(view);
  return view;
}

/** Ctrl+Z's command (typed against the copy of @codemirror/state that @codemirror/commands brings, the one used here). */
function undo(view: EditorView): boolean {
  return undoCommand(view as unknown as Parameters<typeof undoCommand>[0]);
}

/** Lets the sync plugin's microtask refreshes run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await Promise.resolve();
}

function hunks(view: EditorView): readonly ReviewHunk[] {
  return view.state.field(reviewHunksField);
}

function hunk(view: EditorView, proposalId: string, index: number): ReviewHunk {
  const found = hunks(view).find((h) => h.proposalId === proposalId && h.index === index);
  if (!found) throw new Error(`No hunk ${proposalId}#${index} on display`);
  return found;
}

function widget(view: EditorView, proposalId: string, index: number): HTMLElement {
  const el = view.dom.querySelector<HTMLElement>(`.vault-mcp-hunk[data-proposal-id="${proposalId}"][data-hunk-index="${index}"]`);
  if (!el) throw new Error(`No widget for ${proposalId}#${index}`);
  return el;
}

function typeAt(view: EditorView, pos: number, text: string): void {
  view.dispatch({ changes: { from: pos, insert: text }, userEvent: 'input.type' });
}

beforeEach(() => {
  controller = new FakeController();
  controller.pending.set(NOTE, sampleHunks());
  path = NOTE;
});

afterEach(() => {
  while (views.length) views.pop()!.destroy();
  document.body.innerHTML = '';
});

describe('the DOM it runs in', () => {
  test("draws widgets and the review bar without Obsidian's DOM globals (plain document calls, so jsdom is enough)", async () => {
    expect((globalThis as { createDiv?: unknown }).createDiv).toBeUndefined();
    const view = mount();
    await settle();
    expect(view.dom.querySelectorAll('.vault-mcp-hunk')).toHaveLength(3);
    expect(view.dom.querySelector('.vault-mcp-review-summary')?.textContent).toBe('3 pending changes from Claude Code, Cursor');
  });
});

describe('final line breaks in the inline review', () => {
  it('an insertion after a last line without a line break shows only the new lines; a final-break change says so in words', async () => {
    controller.pending.set(NOTE, [{ proposalId: 'p9', index: 0, keyLabel: 'Claude Code', removed: '', inserted: '\nworld', at: 5 }]);
    const view = mount('hello');
    await settle();
    expect(view.dom.querySelectorAll('.vault-mcp-removed-line')).toHaveLength(0);
    expect([...widget(view, 'p9', 0).querySelectorAll('.vault-mcp-inserted-line')].map((l) => l.textContent)).toEqual(['world']);
    controller.pending.set(NOTE, [{ proposalId: 'p8', index: 0, keyLabel: 'Claude Code', removed: '', inserted: '\n', at: 5 }]);
    const other = mount('hello');
    await settle();
    expect(widget(other, 'p8', 0).querySelector('.vault-mcp-final-newline')?.textContent).toBe(
      '↵ Adds a line break at the end of the note',
    );
  });
});

describe('agent text the widget draws', () => {
  it('writes out bidi overrides and control characters instead of letting them reorder or hide the proposed text', async () => {
    controller.pending.set(NOTE, [
      { proposalId: 'p7', index: 0, keyLabel: 'Claude Code', removed: '', inserted: 'pay \u202e0001\u202c to \u001b[8mx\n', at: 0 },
    ]);
    const view = mount('hello\n');
    await settle();
    expect([...widget(view, 'p7', 0).querySelectorAll('.vault-mcp-inserted-line')].map((l) => l.textContent)).toEqual([
      'pay <U+202E>0001<U+202C> to \\x1b[8mx',
    ]);
  });
});

describe('inline review decorations', () => {
  it('shows removed text struck through, proposed text with changed words, provenance and buttons', async () => {
    const view = mount();
    await settle();
    expect(hunks(view).map((h) => `${h.proposalId}#${h.index}@${h.from}-${h.to}`)).toEqual(['p1#0@22-36', 'p2#0@36-36', 'p1#1@53-69']);

    const removed = Array.from(view.dom.querySelectorAll('.vault-mcp-removed'))
      .map((e) => e.textContent)
      .join('|');
    expect(removed).toContain('beta line two');
    expect(removed).toContain('delta line four');
    expect(Array.from(view.dom.querySelectorAll('.vault-mcp-removed-word')).map((e) => e.textContent)).toEqual(['two']);
    expect(view.dom.querySelectorAll('.cm-line.vault-mcp-removed-line')).toHaveLength(2);

    const first = widget(view, 'p1', 0);
    expect(first.querySelector('.vault-mcp-inserted')!.textContent).toBe('beta line 2, revised');
    expect(Array.from(first.querySelectorAll('.vault-mcp-inserted-word')).map((e) => e.textContent)).toEqual(['2, revised']);
    expect(first.querySelector('.vault-mcp-hunk-label')!.textContent).toBe('Claude Code');
    const accept = first.querySelector('button.mod-accept')!;
    expect(accept.getAttribute('aria-label')).toBe('Accept change from Claude Code');
    expect(accept.getAttribute('title')).toBe('Accept change from Claude Code');
    expect(first.querySelector('button.mod-reject')!.getAttribute('aria-label')).toBe('Reject change from Claude Code');

    expect(widget(view, 'p2', 0).querySelector('.vault-mcp-inserted')!.textContent).toBe('a new line from Cursor');
    expect(widget(view, 'p1', 1).classList.contains('is-deletion')).toBe(true);
    expect(widget(view, 'p1', 1).querySelector('.vault-mcp-inserted')).toBeNull();

    expect(view.dom.querySelector('.vault-mcp-review-summary')!.textContent).toBe('3 pending changes from Claude Code, Cursor');
  });

  it('shows nothing, and no bar, for a note without proposals or an editor without a note', async () => {
    path = 'Other.md';
    const view = mount();
    await settle();
    expect(hunks(view)).toEqual([]);
    expect(view.dom.querySelector('.vault-mcp-hunk, .vault-mcp-review-bar')).toBeNull();
    path = null;
    const none = mount();
    await settle();
    expect(hunks(none)).toEqual([]);
  });
});

describe('accept and reject', () => {
  it('✓ applies the proposed text by a transaction, tells the controller the text after, and Ctrl+Z restores', async () => {
    const view = mount();
    await settle();
    (widget(view, 'p1', 0).querySelector('button.mod-accept') as HTMLButtonElement).click();
    await settle();
    const after = DOC.replace('beta line two\n', 'beta line 2, revised\n');
    expect(view.state.doc.toString()).toBe(after);
    expect(controller.accepts).toHaveLength(1);
    expect(controller.accepts[0]!.hunk).toMatchObject({ proposalId: 'p1', index: 0, from: 22, to: 36 });
    expect(controller.accepts[0]!.textAfter).toBe(after);
    // The other hunks stay and moved with the text (the insertion right after it is not stale).
    expect(hunks(view).map((h) => `${h.proposalId}#${h.index}:${h.stale}`)).toEqual(['p2#0:false', 'p1#1:false']);
    expect(view.state.doc.sliceString(hunk(view, 'p1', 1).from, hunk(view, 'p1', 1).to)).toBe('delta line four\n');
    expect(view.dom.querySelector('.vault-mcp-review-summary')!.textContent).toBe('2 pending changes from Cursor, Claude Code');

    expect(undo(view)).toBe(true);
    expect(view.state.doc.toString()).toBe(DOC);
  });

  it('Ctrl+Z of an accept tells the controller the hunk is reopened (placed as before); redo accepts it again', async () => {
    const view = mount();
    await settle();
    await acceptHunk(view, hunk(view, 'p1', 0));
    expect(undo(view)).toBe(true);
    expect(view.state.doc.toString()).toBe(DOC);
    expect(controller.reopens).toEqual([{ hunk: expect.objectContaining({ proposalId: 'p1', index: 0, from: 22, to: 36 }), text: DOC }]);
    expect(redoCommand(view as unknown as Parameters<typeof redoCommand>[0])).toBe(true);
    expect(controller.accepts.map((a) => a.hunk.index)).toEqual([0, 0]);
    expect(controller.accepts[1]!.textAfter).toBe(DOC.replace('beta line two\n', 'beta line 2, revised\n'));
    // Typing is not an undo: nothing is reopened by it.
    typeAt(view, 0, 'x');
    expect(controller.reopens).toHaveLength(1);
  });

  it('is its own undo step, apart from the typing before it', async () => {
    const view = mount();
    await settle();
    const events: string[] = [];
    typeAt(view, view.state.doc.length, 'zeta');
    const userEvents = EditorView.updateListener.of((u) =>
      u.transactions.forEach((tr) => events.push(String(tr.annotation(Transaction.userEvent)))),
    );
    view.dispatch({ effects: StateEffect.appendConfig.of(userEvents) });
    expect(await acceptHunk(view, hunk(view, 'p1', 0))).toBe(true);
    expect(events).toContain(ACCEPT_USER_EVENT);
    expect(undo(view)).toBe(true);
    expect(view.state.doc.toString()).toBe(`${DOC}zeta`);
    expect(undo(view)).toBe(true);
    expect(view.state.doc.toString()).toBe(DOC);
  });

  it('✗ leaves the document as it is and tells the controller', async () => {
    const view = mount();
    await settle();
    (widget(view, 'p2', 0).querySelector('button.mod-reject') as HTMLButtonElement).click();
    await settle();
    expect(view.state.doc.toString()).toBe(DOC);
    expect(controller.rejects.map((r) => [r.hunk.proposalId, r.text === DOC])).toEqual([['p2', true]]);
    expect(hunks(view).map((h) => h.proposalId)).toEqual(['p1', 'p1']);
    expect(view.dom.querySelector('[data-proposal-id="p2"]')).toBeNull();
  });

  it('typing inside a hunk makes it stale: a badge, only ✗, and accept refuses', async () => {
    const view = mount();
    await settle();
    typeAt(view, hunk(view, 'p1', 0).from + 5, 'my ');
    expect(hunk(view, 'p1', 0).stale).toBe(true);
    expect(hunk(view, 'p2', 0).stale).toBe(false);
    const el = widget(view, 'p1', 0);
    expect(el.classList.contains('is-stale')).toBe(true);
    expect(el.querySelector('.vault-mcp-hunk-stale')!.textContent).toBe('Stale');
    expect(el.querySelector('button.mod-accept')).toBeNull();
    expect(el.querySelector('button.mod-reject')).not.toBeNull();
    const typed = view.state.doc.toString();
    expect(await acceptHunk(view, hunk(view, 'p1', 0))).toBe(false);
    expect(view.state.doc.toString()).toBe(typed);
    expect(controller.accepts).toEqual([]);
    expect(view.dom.querySelector('.vault-mcp-review-summary')!.textContent).toBe('3 pending changes from Claude Code, Cursor (1 stale)');
    // A stale hunk can still be rejected.
    expect(await rejectHunk(view, hunk(view, 'p1', 0))).toBe(true);
    expect(controller.rejects[0]!.hunk).toMatchObject({ proposalId: 'p1', index: 0, stale: true });
  });

  it("typing right at a hunk's edge makes it stale; a pure insertion goes stale when typed at", async () => {
    const view = mount();
    await settle();
    typeAt(view, hunk(view, 'p2', 0).from, 'x');
    expect(hunks(view).map((h) => `${h.proposalId}#${h.index}:${h.stale}`)).toEqual(['p1#0:true', 'p2#0:true', 'p1#1:false']);
  });

  it('typing elsewhere shifts the hunks and accept still applies exactly', async () => {
    const view = mount();
    await settle();
    typeAt(view, 0, 'Intro\n');
    typeAt(view, view.state.doc.length, 'tail\n');
    expect(hunk(view, 'p1', 0)).toMatchObject({ from: 28, to: 42, stale: false });
    expect(await acceptHunk(view, hunk(view, 'p1', 1))).toBe(true);
    expect(await acceptHunk(view, hunk(view, 'p1', 0))).toBe(true);
    expect(view.state.doc.toString()).toBe(
      `Intro\n${DOC.replace('beta line two\n', 'beta line 2, revised\n').replace('delta line four\n', '')}tail\n`,
    );
    expect(controller.accepts.map((a) => a.textAfter === view.state.doc.toString())).toEqual([false, true]);
  });

  it('a controller that refuses an accept gets the document back and the hunk re-shown', async () => {
    const view = mount();
    await settle();
    controller.failNext = new Error('The note became read-only.');
    await expect(acceptHunk(view, hunk(view, 'p1', 0))).rejects.toThrow('read-only');
    expect(view.state.doc.toString()).toBe(DOC);
    expect(hunk(view, 'p1', 0).stale).toBe(false);
    controller.failNext = new Error('Store unavailable.');
    await expect(rejectHunk(view, hunk(view, 'p2', 0))).rejects.toThrow('unavailable');
    expect(hunks(view)).toHaveLength(3);
  });

  it('refuses hunks it does not show, and says what is missing without the extension', async () => {
    const view = mount();
    await settle();
    const ghost: ReviewHunk = { ...hunk(view, 'p1', 0), proposalId: 'gone' };
    expect(await acceptHunk(view, ghost)).toBe(false);
    expect(await rejectHunk(view, ghost)).toBe(false);
    const bare = new EditorView({ state: EditorState.create({ doc: DOC }) });
    views.push(bare);
    await expect(acceptHunk(bare, ghost)).rejects.toThrow(/reviewExtension/);
    expect(hunkAtCursor(bare.state)).toBeNull();
    expect(moveByHunk(bare, 1)).toBe(false);
  });
});

describe('accept all, reject all, navigation', () => {
  it('accept all applies every hunk in one undo step and reports each with its text after', async () => {
    const view = mount();
    await settle();
    expect(await acceptAll(view)).toEqual({ accepted: 3, skipped: 0 });
    const final = DOC.replace('beta line two\n', 'beta line 2, revised\na new line from Cursor\n').replace('delta line four\n', '');
    expect(view.state.doc.toString()).toBe(final);
    expect(controller.accepts.map((a) => `${a.hunk.proposalId}#${a.hunk.index}`)).toEqual(['p1#1', 'p2#0', 'p1#0']);
    expect(controller.accepts[0]!.textAfter).toBe(DOC.replace('delta line four\n', ''));
    expect(controller.accepts[2]!.textAfter).toBe(final);
    await settle();
    expect(hunks(view)).toEqual([]);
    expect(view.dom.querySelector('.vault-mcp-review-bar')).toBeNull();
    expect(undo(view)).toBe(true);
    expect(view.state.doc.toString()).toBe(DOC);
  });

  it('accept all skips stale hunks and the bar says so', async () => {
    const view = mount();
    await settle();
    typeAt(view, hunk(view, 'p1', 1).from + 1, 'E');
    (view.dom.querySelector('.vault-mcp-review-accept-all') as HTMLButtonElement).click();
    await settle();
    expect(controller.accepts.map((a) => a.hunk.proposalId)).toEqual(['p2', 'p1']);
    expect(view.state.doc.toString()).toContain('dEelta line four');
    expect(view.dom.querySelector('.vault-mcp-review-message')!.textContent).toBe(
      'Accepted 2; skipped 1 stale: reject it or ask the agent again.',
    );
    expect((view.dom.querySelector('.vault-mcp-review-accept-all') as HTMLButtonElement).disabled).toBe(true);
  });

  it('reject all leaves the document and tells the controller of every hunk at once, in document order', async () => {
    const view = mount();
    await settle();
    (view.dom.querySelector('.vault-mcp-review-reject-all') as HTMLButtonElement).click();
    await settle();
    expect(view.state.doc.toString()).toBe(DOC);
    expect(controller.rejects.map((r) => `${r.hunk.proposalId}#${r.hunk.index}`)).toEqual(['p1#0', 'p2#0', 'p1#1']);
    expect(hunks(view)).toEqual([]);
    expect(await rejectAll(view)).toBe(0);
  });

  it('next and previous move the cursor from hunk to hunk, wrapping around; the hunk at the cursor is found', async () => {
    const view = mount();
    await settle();
    const starts = hunks(view).map((h) => h.from);
    const visited: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(moveByHunk(view, 1)).toBe(true);
      visited.push(view.state.selection.main.head);
    }
    expect(visited).toEqual([...starts, starts[0]]);
    view.dispatch({ selection: EditorSelection.cursor(0) });
    expect(moveByHunk(view, -1)).toBe(true);
    expect(view.state.selection.main.head).toBe(starts[2]);
    expect(moveByHunk(view, -1)).toBe(true);
    expect(view.state.selection.main.head).toBe(starts[1]);

    view.dispatch({ selection: EditorSelection.cursor(hunk(view, 'p1', 0).from + 3) });
    expect(hunkAtCursor(view.state)).toMatchObject({ proposalId: 'p1', index: 0 });
    view.dispatch({ selection: EditorSelection.cursor(view.state.doc.line(4).from + 2) });
    expect(hunkAtCursor(view.state)).toMatchObject({ proposalId: 'p2', index: 0 });
    view.dispatch({ selection: EditorSelection.cursor(0) });
    expect(hunkAtCursor(view.state)).toBeNull();
  });
});

describe('several editors and long notes', () => {
  it('two views on one note both follow the controller, and an accept mirrored into the other view drops its hunk there', async () => {
    const left = mount();
    // The right pane receives the left pane's changes, as Obsidian keeps two panes of one note in step.
    let right: EditorView | null = null;
    const mirror = EditorView.updateListener.of((u) => {
      if (u.docChanged && right) right.dispatch({ changes: u.changes });
    });
    left.dispatch({ effects: StateEffect.appendConfig.of(mirror) });
    right = mount();
    await settle();
    expect(hunks(right)).toHaveLength(3);

    controller.propose(NOTE, {
      proposalId: 'p3',
      index: 0,
      keyLabel: 'Codex',
      removed: 'epsilon line five\n',
      inserted: 'epsilon line 5\n',
    });
    await settle();
    for (const view of [left, right]) {
      expect(hunks(view).map((h) => h.proposalId)).toEqual(['p1', 'p2', 'p1', 'p3']);
      expect(view.dom.querySelector('.vault-mcp-review-summary')!.textContent).toBe('4 pending changes from Claude Code, Cursor, Codex');
    }

    // Before the store's refresh arrives, the mirrored accept already drops the hunk on the right (not "stale").
    expect(await acceptHunk(left, hunk(left, 'p3', 0))).toBe(true);
    expect(right.state.doc.toString()).toBe(left.state.doc.toString());
    await settle();
    for (const view of [left, right])
      expect(hunks(view).map((h) => `${h.proposalId}:${h.stale}`)).toEqual(['p1:false', 'p2:false', 'p1:false']);
  });

  it('unsubscribes when an editor is destroyed and refreshes when it switches to another note', async () => {
    const view = mount();
    await settle();
    expect(controller.listenerCount()).toBe(1);
    path = 'Other.md';
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: 'other note\n' } });
    await settle();
    expect(hunks(view)).toEqual([]);
    views.pop()!.destroy();
    expect(controller.listenerCount()).toBe(0);
  });

  it('builds a 10,000-line note with 50 hunks and maps them through typing', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i} of a long note with a few words`);
    const doc = `${lines.join('\n')}\n`;
    const fake: FakeHunk[] = Array.from({ length: 50 }, (_, k) => ({
      proposalId: `big${k % 5}`,
      index: Math.floor(k / 5),
      keyLabel: `Agent ${k % 5}`,
      removed: `line ${k * 200 + 7} of a long note with a few words\n`,
      inserted: `line ${k * 200 + 7} of a long note with some new words\n`,
    }));
    controller.pending.set(NOTE, fake);
    const view = mount(doc);
    await settle();
    expect(hunks(view)).toHaveLength(50);
    let widgets = 0;
    view.state.field(reviewDecorationsField).between(0, view.state.doc.length, (_f, _t, deco) => {
      if (deco.spec.widget) widgets++;
    });
    expect(widgets).toBe(50);
    // Typing outside the hunks maps the decorations; nothing is diffed again.
    const diffs = jest.spyOn(wordDiffModule, 'wordDiff');
    typeAt(view, 0, 'typed ');
    typeAt(view, view.state.doc.line(5000).from, 'more ');
    expect(diffs).not.toHaveBeenCalled();
    view.dispatch({ effects: setReviewHunks.of(hunks(view)) });
    expect(diffs).toHaveBeenCalledTimes(50);
    diffs.mockRestore();
    expect(hunks(view).every((h) => !h.stale && view.state.doc.sliceString(h.from, h.to) === h.removed)).toBe(true);
    const last = hunks(view)[49]!;
    expect(await acceptHunk(view, last)).toBe(true);
    expect(view.state.doc.line(9808).text).toBe('line 9807 of a long note with some new words');
  });

  it('a set effect in a transaction with changes is read in the new positions', () => {
    const view = mount();
    const placed = controller.hunksFor(NOTE, `X${DOC}`);
    view.dispatch({ changes: { from: 0, insert: 'X' }, effects: setReviewHunks.of(placed) });
    expect(hunk(view, 'p1', 0)).toMatchObject({ from: 23, to: 37, stale: false });
  });
});
