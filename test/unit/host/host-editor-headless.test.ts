import { createTempVault, HostEditor, MarkdownView, TempVault, TFile } from '../../host/index';

let tv: TempVault;
let note: TFile;

beforeEach(async () => {
  tv = await createTempVault({ 'Note.md': 'one two three' }, { watchIntervalMs: false, saveDelayMs: 10 });
  note = tv.app.vault.getFileByPath('Note.md') as TFile;
});

afterEach(async () => {
  await tv.cleanup();
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('Markdown views without a DOM (plain Node, npm start)', () => {
  it('use the text-only editor, autosave its edits and mirror them into a second pane', async () => {
    const view = (await tv.app.workspace.setActiveNote(note, { anchor: 4, head: 7 })) as MarkdownView;
    expect(view.editor).toBeInstanceOf(HostEditor);
    expect(view.editor.cm).toBeNull();
    const second = await tv.app.workspace.openNote(note, { newLeaf: true });
    view.editor.replaceSelection('TWO');
    expect(second.data).toBe('one TWO three');
    await until(async () => (await tv.app.vault.read(note)) === 'one TWO three', 'the autosave');
    view.editor.transaction({
      changes: [
        { from: { line: 0, ch: 0 }, to: { line: 0, ch: 3 }, text: 'ONE' },
        { from: { line: 0, ch: 13 }, text: '!' },
      ],
    });
    expect(view.data).toBe('ONE TWO three!');
    await view.save();
    expect(await tv.app.vault.read(note)).toBe('ONE TWO three!');
  });

  it('reload a clean editor when the file changes elsewhere, clamping the selection', async () => {
    const view = (await tv.app.workspace.setActiveNote(note, { anchor: 13 })) as MarkdownView;
    await tv.app.vault.modify(note, 'short');
    await until(() => view.data === 'short', 'the reload');
    expect(view.editor.getCursor()).toEqual({ line: 0, ch: 5 });
    expect(view.hasUnsavedChanges).toBe(false);
    expect(await tv.app.workspace.setActiveNote(null)).toBeNull();
    expect(tv.app.workspace.getLeavesOfType('markdown')).toEqual([]);
  });
});
