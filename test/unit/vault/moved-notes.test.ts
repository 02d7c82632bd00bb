import type { App } from 'obsidian';
import { MovedNotes } from '../../../src/vault/paths/moved-notes';
import { createTempVault, type TempVault } from '../../host/temp-vault';

/** MovedNotes (src/vault/paths/moved-notes.ts): where a note went, from the vault's own rename events. */
describe('MovedNotes', () => {
  let vault: TempVault;
  let moved: MovedNotes;

  beforeEach(async () => {
    vault = await createTempVault({ 'A.md': '# A\n', 'Work/B.md': '# B\n', 'Work/c.png': 'png' });
    moved = new MovedNotes(vault.app as unknown as App);
  });
  afterEach(async () => {
    moved.close();
    await vault.cleanup();
  });

  const rename = (from: string, to: string) => vault.app.fileManager.renameFile(vault.app.vault.getAbstractFileByPath(from)!, to);

  test('follows a note through later moves, in any case, and forgets a path a note is moved back onto', async () => {
    await rename('A.md', 'Archive/A.md');
    await rename('Archive/A.md', 'Archive/Old A.md');
    expect(moved.noteNowAt('A.md')?.path).toBe('Archive/Old A.md');
    expect(moved.noteNowAt('a.MD')?.path).toBe('Archive/Old A.md');
    expect(moved.noteNowAt('Archive/A.md')?.path).toBe('Archive/Old A.md');
    await rename('Archive/Old A.md', 'A.md');
    expect(moved.noteNowAt('A.md')).toBeNull();
    expect(moved.noteNowAt('Archive/A.md')?.path).toBe('A.md');
  });

  test('a renamed note is found by its old bare name, not by a name another note took since', async () => {
    await rename('Work/B.md', 'Done/Plan B.md');
    expect(moved.noteNowAt('B')?.path).toBe('Done/Plan B.md');
    expect(moved.noteNowAt('b.md')?.path).toBe('Done/Plan B.md');
    await rename('A.md', 'Other/B.md');
    expect(moved.noteNowAt('B')).toBeNull();
  });

  test("a moved folder's notes are followed one by one; a note deleted since, and other files, lead nowhere", async () => {
    await rename('Work', 'Done');
    expect(moved.noteNowAt('Work/B.md')?.path).toBe('Done/B.md');
    expect(moved.noteNowAt('Work/c.png')).toBeNull();
    await vault.app.vault.delete(vault.app.vault.getAbstractFileByPath('Done/B.md')!);
    expect(moved.noteNowAt('Work/B.md')).toBeNull();
  });
});
