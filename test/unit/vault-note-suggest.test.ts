import type { TFile } from 'obsidian';
import { similarNotePaths, MAX_SUGGESTIONS } from '../../src/vault/content/note-suggest';
import { NoteStore } from '../../src/vault/note-store';
import type { AccessScope } from '../../src/vault/access/access';
import { errorOf } from '../harness/tool-errors';
import { openDemoVault, type DemoVault } from '../harness/vault-fixture';

/** A stand-in TFile with just what the matcher reads. */
function file(path: string): TFile {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { path, name, basename: name.replace(/\.md$/, ''), extension: 'md' } as TFile;
}

describe('similarNotePaths (fuzzy "did you mean" with fuse.js)', () => {
  const notes = ['Projects/Alpha/Alpha overview.md', 'Projects/Beta/Beta overview.md', 'Reference/Sourdough handbook.md', 'Inbox.md'].map(
    file,
  );
  const none = (): string[] => [];

  it('finds names with typos, with or without folders, .md or [[ ]], closest first', () => {
    expect(similarNotePaths('Alfa overview', notes, none)[0]).toBe('Projects/Alpha/Alpha overview.md');
    expect(similarNotePaths('[[Sourdough handbok]]', notes, none)).toEqual(['Reference/Sourdough handbook.md']);
    expect(similarNotePaths('Projects/Beta/Beta overveiw.md', notes, none)[0]).toBe('Projects/Beta/Beta overview.md');
  });

  it('matches aliases, returns nothing for unrelated names or empty input, and at most 5', () => {
    expect(similarNotePaths('Northwind dashbord', notes, (f) => (f.path.includes('Alpha') ? ['Northwind dashboard'] : []))).toEqual([
      'Projects/Alpha/Alpha overview.md',
    ]);
    expect(similarNotePaths('quantum chromodynamics', notes, none)).toEqual([]);
    expect(similarNotePaths('  ', notes, none)).toEqual([]);
    const many = Array.from({ length: 12 }, (_, k) => file(`Daily/Meeting ${k}.md`));
    expect(similarNotePaths('Meeting', many, none)).toHaveLength(MAX_SUGGESTIONS);
  });
});

describe('read_note not_found says "did you mean", never naming notes the key may not see', () => {
  let vault: DemoVault;
  let notes: NoteStore;
  const everyone: AccessScope = { label: 'Test agent', roots: [] };
  beforeAll(async () => {
    vault = await openDemoVault();
    notes = new NoteStore(vault.app, { quarantine: () => ['Archive'] });
  });
  afterAll(async () => vault?.close());

  const messageFor = (path: string, scope: AccessScope = everyone): string => {
    const err = errorOf(() => notes.policy.resolveNote({ path }, scope));
    expect(err.code).toBe('not_found');
    return err.message;
  };

  it('a misspelled name gets the close readable notes', () => {
    expect(messageFor('Alpha overveiw')).toMatch(
      /^Note 'Alpha overveiw' not found\. Did you mean 'Projects\/Alpha\/Alpha overview\.md'.*\? Otherwise call search or list_notes/,
    );
    expect(messageFor('Sourdough handbok')).toContain("'Reference/Sourdough handbook.md'");
  });

  it('nothing close: the plain message', () => {
    expect(messageFor('zzzz qqqq xxxx')).toBe("Note 'zzzz qqqq xxxx' not found; call search or list_notes to find its path.");
  });

  it('private, quarantined, no-access and out-of-roots notes are never candidates', () => {
    expect(messageFor('Therapy note')).not.toMatch(/Therapy notes\.md/);
    expect(messageFor('Therapy notes')).not.toMatch(/Therapy notes\.md/);
    expect(messageFor('Passwords hin')).not.toMatch(/_private/);
    const archived = vault.app.vault.getMarkdownFiles().find((f) => f.path.startsWith('Archive/'));
    expect(archived).toBeDefined();
    expect(messageFor(`${archived!.basename}x`)).not.toContain('Archive/');
    expect(messageFor('Retrospectiv', { label: 'Claude Code', roots: [] })).not.toContain('Retrospective');
    expect(messageFor('Retrospectiv')).toContain("'Projects/Beta/Retrospective.md'");
    expect(messageFor('Alpha overveiw', { label: 'Test agent', roots: ['Projects/Beta'] })).not.toContain('Alpha overview');
  });
});
