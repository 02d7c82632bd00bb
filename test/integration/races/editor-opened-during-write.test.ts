/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { EditorView } from '@codemirror/view';
import type { MarkdownView } from '../../host/index';
import { bootFilesEnv, call, type WriteEnv } from '../../harness/edits/write-helpers';
import { openInEditor, typeAtEnd } from '../../harness/edits/editor-helpers';

/**
 * A write to a note no editor showed when the write chose its route: the user opens the note
 * while the write is on its way and types. That editor holds the note's older text as its base,
 * and its save (Obsidian's, 2 s after the typing) writes that text plus the typing over whatever
 * went to the file behind it. So the route is decided at the last instant, with no await between
 * that look and the write: right before append_note's append-mode write (append-write.ts), and
 * inside the `vault.process` callback of the apply primitive every other text write uses
 * (NoteWriter.writeExactText); an editor open by then takes the change as an editor transaction.
 */

const NOTE = 'first line\n';
const TYPED = 'USER TYPED\n';

describe('a write while the user opens the note in an editor', () => {
  let env: WriteEnv | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  /**
   * Boots a force key on `A.md`, and opens the note (and types in it when `type`) the first time the
   * append reads the note's bytes (its UTF-8 check), that is after the route was first chosen.
   */
  async function bootOpeningDuringAppend(type: boolean): Promise<{ opened: () => { view: MarkdownView; cm: EditorView } | null }> {
    env = await bootFilesEnv('vault-mcp-append-editor-', { 'A.md': NOTE }, { mode: 'force', allowWrites: true });
    const app = env.booted.app;
    await app.vault.stopWatching();
    const readBinary = app.vault.readBinary.bind(app.vault);
    let shown: { view: MarkdownView; cm: EditorView } | null = null;
    app.vault.readBinary = async (file) => {
      if (shown === null && file.path === 'A.md') {
        shown = await openInEditor(env!, 'A.md');
        if (type) typeAtEnd(shown.cm, TYPED);
      }
      return readBinary(file);
    };
    return { opened: () => shown };
  }

  test('append_note: an editor opened with unsaved typing takes the append: its save keeps the agent text and the typing', async () => {
    const { opened } = await bootOpeningDuringAppend(true);
    const result = await call(env!.client, 'append_note', { path: 'A', content: 'AGENT LINE' });
    expect(result).toMatchObject({ status: 'applied' });
    const shown = opened();
    expect(shown).not.toBeNull();
    // Obsidian's own save of the editor (2 s after the typing; called now instead of waiting).
    await shown!.view.save();
    const disk = await fsp.readFile(nodePath.join(env!.dir, 'A.md'), 'utf8');
    expect(disk).toContain('AGENT LINE');
    expect(disk).toContain(TYPED);
    expect(shown!.cm.state.doc.toString()).toBe(disk);
    expect(result.hash).toBeDefined();
  });

  test('edit_note (the apply primitive): an editor opened with unsaved typing while the vault reads the file takes the write', async () => {
    env = await bootFilesEnv('vault-mcp-append-editor-', { 'W.md': NOTE }, { mode: 'force', allowWrites: true });
    const app = env.booted.app;
    await app.vault.stopWatching();
    // The apply primitive looked for an editor, found none and called vault.process: the user opens the note and types
    // while the vault reads the file, before the callback runs.
    const process = app.vault.process.bind(app.vault);
    let shown: { view: MarkdownView; cm: EditorView } | null = null;
    app.vault.process = async (file, fn, options) => {
      if (shown === null && file.path === 'W.md') {
        shown = await openInEditor(env!, 'W.md');
        typeAtEnd(shown.cm, TYPED);
      }
      return process(file, fn, options);
    };
    const result = await call(env.client, 'edit_note', { path: 'W', anchor: 'first line', op: 'replace', content: 'AGENT LINE' });
    expect(result).toMatchObject({ status: 'applied' });
    expect(shown).not.toBeNull();
    await shown!.view.save();
    const disk = await fsp.readFile(nodePath.join(env.dir, 'W.md'), 'utf8');
    expect(disk).toBe(`AGENT LINE\n${TYPED}`);
    expect(shown!.cm.state.doc.toString()).toBe(disk);
  });
});
