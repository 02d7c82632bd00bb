/**
 * Browser entry for the inline-review test: two CodeMirror 6 editors side by side on one
 * note (`#left`, `#right`), kept in step as Obsidian keeps two panes of a note (each pane
 * its own undo history), each with the review extension over one fake proposal store.
 * `window.vaultMcpReview` exposes the views and the store so the test can read and steer them.
 */
import { history, historyKeymap, defaultKeymap } from '@codemirror/commands';
import { Annotation, EditorState, Transaction } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { reviewExtension } from '../../../src/editor/review-extension';
import { reviewHunksField } from '../../../src/editor/review-state';
import { FakeReviewController } from '../../fakes/fake-review-controller';
import { LISBON_NOTE } from './lisbon-note';

/** Figures from {@link measureLongNote}, in ms. */
export interface LongNoteFigures {
  mountMs: number;
  keystrokes: number;
  keystrokeMeanMs: number;
  keystrokeMaxMs: number;
  hunksAfter: number;
  staleAfter: number;
}

declare global {
  interface Window {
    vaultMcpReview: {
      left: EditorView;
      right: EditorView;
      controller: FakeReviewController;
      path: string;
      measureLongNote: () => Promise<LongNoteFigures>;
    };
  }
}

const PATH = 'Travel/Lisbon trip.md';
const NOTE = [LISBON_NOTE, '## Notes', 'Ask Ana about the tram 28 timetable.', 'Pack the blue rain jacket.', ''].join('\n');

const controller = new FakeReviewController();
controller.pending.set(PATH, [
  {
    proposalId: 'p1',
    index: 0,
    keyLabel: 'Claude Code',
    removed: '- Stay three nights near Alfama\n',
    inserted: '- Stay four nights near Alfama, checking out on Tuesday\n',
  },
  {
    proposalId: 'p1',
    index: 1,
    keyLabel: 'Claude Code',
    removed: '',
    inserted: '- Book a fado dinner for Saturday\n',
    before: '\n## Budget',
  },
  {
    proposalId: 'p2',
    index: 0,
    keyLabel: 'Cursor',
    removed: 'The hotel is 95 euros per night.\n',
    inserted: 'The hotel is 95 euros per night, 380 euros in all.\n',
  },
  { proposalId: 'p2', index: 1, keyLabel: 'Cursor', removed: 'Ask Ana about the tram 28 timetable.\n', inserted: '' },
]);

/** Marks a change copied from the other pane, so it is not copied back. */
const fromOtherPane = Annotation.define<boolean>();

function pane(parent: HTMLElement, other: () => EditorView): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: NOTE,
      extensions: [
        history(),
        keymap.of([...historyKeymap, ...defaultKeymap]),
        EditorView.lineWrapping,
        reviewExtension(controller, () => PATH),
        EditorView.updateListener.of((update) => {
          for (const tr of update.transactions) {
            if (tr.docChanged && !tr.annotation(fromOtherPane)) {
              other().dispatch({ changes: tr.changes, annotations: [fromOtherPane.of(true), Transaction.addToHistory.of(false)] });
            }
          }
        }),
      ],
    }),
  });
}

const left: EditorView = pane(document.querySelector<HTMLElement>('#left .view-content')!, () => right);
const right: EditorView = pane(document.querySelector<HTMLElement>('#right .view-content')!, () => left);
/**
 * Mounts a 10,000-line note with 50 pending hunks in place of the right pane and types 200
 * characters one transaction at a time between the hunks, timing the mount (with the first
 * refresh) and each keystroke (its transaction and DOM update).
 */
async function measureLongNote(): Promise<LongNoteFigures> {
  const path = 'Long note.md';
  const doc = `${Array.from({ length: 10_000 }, (_, i) => `line ${i} of a long note with a few words`).join('\n')}\n`;
  controller.pending.set(
    path,
    Array.from({ length: 50 }, (_, k) => ({
      proposalId: `long${k % 5}`,
      index: Math.floor(k / 5),
      keyLabel: `Agent ${k % 5}`,
      removed: `line ${k * 200 + 7} of a long note with a few words\n`,
      inserted: `line ${k * 200 + 7} of a long note with some new words\n`,
    })),
  );
  const parent = document.querySelector<HTMLElement>('#right .view-content')!;
  right.dom.remove();
  const started = performance.now();
  const view = new EditorView({
    parent,
    state: EditorState.create({ doc, extensions: [history(), EditorView.lineWrapping, reviewExtension(controller, () => path)] }),
  });
  await Promise.resolve();
  await Promise.resolve();
  const mountMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const line = view.state.doc.line(100 + 200 * ((i * 7) % 50)); // between two hunks
    const t = performance.now();
    view.dispatch({ changes: { from: line.from, insert: 'x' }, userEvent: 'input.type' });
    times.push(performance.now() - t);
  }
  const hunks = view.state.field(reviewHunksField);
  return {
    mountMs,
    keystrokes: times.length,
    keystrokeMeanMs: times.reduce((a, b) => a + b, 0) / times.length,
    keystrokeMaxMs: Math.max(...times),
    hunksAfter: hunks.length,
    staleAfter: hunks.filter((h) => h.stale).length,
  };
}

window.vaultMcpReview = { left, right, controller, path: PATH, measureLongNote };
