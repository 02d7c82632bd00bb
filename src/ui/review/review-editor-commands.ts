import { Notice, type Editor, type Plugin } from 'obsidian';
import type { EditorView } from '@codemirror/view';
import { acceptAll, acceptHunk, hunkAtCursor, moveByHunk, rejectAll, rejectHunk } from '../../editor/review-actions';
import { reviewHunksOf } from '../../editor/review-state';

/** One review command: its id and name, and what it does in an editor with hunks under review. */
interface ReviewCommand {
  id: string;
  name: string;
  /** Whether the command applies to this editor now (it has the hunk or hunks it needs). */
  available(cm: EditorView): boolean;
  /** Runs the command; may return a promise (awaited by the caller). */
  run(cm: EditorView): unknown;
}

const hunksIn = (cm: EditorView) => reviewHunksOf(cm.state);

/** The editor commands of the inline review (docs/architecture.md#proposals); no default hotkeys. */
const REVIEW_COMMANDS: readonly ReviewCommand[] = [
  {
    id: 'accept-change-at-cursor',
    name: 'Accept proposed change at cursor',
    available: (cm) => hunkAtCursor(cm.state) !== null,
    run: async (cm) => {
      const hunk = hunkAtCursor(cm.state)!;
      if (!(await acceptHunk(cm, hunk)))
        new Notice('Vault MCP: this change is stale (the text changed under it); it can only be rejected.');
    },
  },
  {
    id: 'reject-change-at-cursor',
    name: 'Reject proposed change at cursor',
    available: (cm) => hunkAtCursor(cm.state) !== null,
    run: (cm) => rejectHunk(cm, hunkAtCursor(cm.state)!),
  },
  { id: 'next-change', name: 'Go to next proposed change', available: (cm) => hunksIn(cm).length > 0, run: (cm) => moveByHunk(cm, 1) },
  {
    id: 'previous-change',
    name: 'Go to previous proposed change',
    available: (cm) => hunksIn(cm).length > 0,
    run: (cm) => moveByHunk(cm, -1),
  },
  {
    id: 'accept-all-changes-in-note',
    name: 'Accept all proposed changes in this note',
    available: (cm) => hunksIn(cm).length > 0,
    run: async (cm) => {
      const { skipped } = await acceptAll(cm);
      if (skipped) new Notice(`Vault MCP: ${skipped} stale or overlapping change${skipped === 1 ? ' was' : 's were'} left for review.`);
    },
  },
  {
    id: 'reject-all-changes-in-note',
    name: 'Reject all proposed changes in this note',
    available: (cm) => hunksIn(cm).length > 0,
    run: (cm) => rejectAll(cm),
  },
];

/**
 * Adds the review commands as editor commands (`editorCheckCallback`: listed only in an
 * editor that has what they need). They act on the editor's CodeMirror view (`editor.cm`);
 * errors were already shown by the review controller and are only logged here.
 */
export function addReviewEditorCommands(plugin: Plugin): void {
  for (const command of REVIEW_COMMANDS) {
    plugin.addCommand({
      id: command.id,
      name: command.name,
      editorCheckCallback: (checking: boolean, editor: Editor) => {
        const cm = (editor as unknown as { cm?: EditorView }).cm;
        if (!cm || !command.available(cm)) return false;
        if (!checking) void Promise.resolve(command.run(cm)).catch((err) => console.error('Vault MCP:', err));
        return true;
      },
    });
  }
}
