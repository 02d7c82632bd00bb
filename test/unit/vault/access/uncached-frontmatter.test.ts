import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { TFile } from 'obsidian';
import { createTempVault, type TempVault } from '../../../host/index';
import { NoteStore } from '../../../../src/vault/note-store';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../../../../src/vault/access/access';
import { writableNote } from '../../../../src/vault/writes/write-checks';

/**
 * Obsidian parses notes asynchronously: a note created or synced in by another program, and the
 * notes of a vault opened for the first time, have no metadata cache entry for a while
 * (`getFileCache` null) while the server answers. NotePolicy read their access rules from that
 * missing entry, so each such note was read-write for every key: its rules must come from its
 * file's frontmatter meanwhile, failing closed. The host's indexer is held to keep the window open.
 */
describe('NotePolicy: a note the metadata cache has not parsed yet', () => {
  let vault: TempVault;
  let notes: NoteStore;
  const key: AccessScope = { label: 'Test client', roots: [] };
  const other: AccessScope = { label: 'Someone else', roots: [] };
  afterEach(async () => {
    notes?.close();
    await vault?.cleanup();
  });

  /** Writes `files` into the vault behind Obsidian's back and lets the vault load them, unparsed (indexing held). */
  async function syncIn(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) await fsp.writeFile(nodePath.join(vault.dir, path), text);
    await vault.app.vault.syncFromDisk();
  }

  /** The note at `path`, checked to have no metadata cache entry. */
  function uncached(path: string): TFile {
    const file = vault.app.vault.getFileByPath(path);
    if (!file) throw new Error(`${path} missing`);
    expect(vault.app.metadataCache.getFileCache(file)).toBeNull();
    return file as unknown as TFile;
  }

  const files: Record<string, string> = {
    'Private.md': '---\naccess: private\n---\nbody\n',
    'Read only.md': '---\nAccess: Read-Only\n---\nbody\n',
    'Barred.md': '---\nagent_overrides:\n  Test client: no-access\n---\nbody\n',
    'Broken.md': '---\naccess: private\ntitle: "unclosed\n---\nbody\n',
    'Quoted rule.md': '---\nsummary: |\n  access: private\n---\nbody\n',
    'Plain.md': 'no frontmatter\n',
    'Tagged.md': '---\ntags: [a]\n---\nbody\n',
  };

  test('access, canRead and openness come from the file: parsed exactly when the block parses, at its strictest when not', async () => {
    vault = await createTempVault({}, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    vault.app.metadataCache.holdIndexing();
    await syncIn(files);
    const { policy } = notes;
    const expected: Record<string, [access: string, others: string, openness: string]> = {
      'Private.md': ['private', 'private', 'closed'],
      'Read only.md': ['read-only', 'read-only', 'open'],
      'Barred.md': ['private', 'read-write', 'by-label'],
      'Broken.md': ['private', 'private', 'closed'],
      'Quoted rule.md': ['read-write', 'read-write', 'open'],
      'Plain.md': ['read-write', 'read-write', 'open'],
      'Tagged.md': ['read-write', 'read-write', 'open'],
    };
    for (const [path, [access, others, openness]] of Object.entries(expected)) {
      const file = uncached(path);
      expect([path, policy.accessOf(file, key), policy.accessOf(file, other), policy.openness(file)]).toEqual([
        path,
        access,
        others,
        openness,
      ]);
      expect([path, policy.canRead(file, key)]).toEqual([path, access !== 'private']);
    }
    expect(
      notes
        .readableNotes(key)
        .map((f) => f.path)
        .sort(),
    ).toEqual(['Plain.md', 'Quoted rule.md', 'Read only.md', 'Tagged.md']);
    expect(
      notes
        .readableNotes(UNRESTRICTED_SCOPE)
        .map((f) => f.path)
        .sort(),
    ).toEqual(['Barred.md', 'Plain.md', 'Quoted rule.md', 'Read only.md', 'Tagged.md']);
    // Once the metadata cache has parsed them, the answers are the same.
    await vault.app.metadataCache.releaseIndexing();
    for (const [path, [access, others, openness]] of Object.entries(expected)) {
      const file = vault.app.vault.getFileByPath(path) as unknown as TFile;
      expect(vault.app.metadataCache.getFileCache(file)).not.toBeNull();
      expect([path, policy.accessOf(file, key), policy.accessOf(file, other), policy.openness(file)]).toEqual([
        path,
        access,
        others,
        openness,
      ]);
    }
  });

  test('a write to a read-only note not parsed yet is refused naming its rule, not a block that does not parse', async () => {
    vault = await createTempVault({}, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    vault.app.metadataCache.holdIndexing();
    await syncIn(files);
    uncached('Read only.md');
    expect(() => writableNote(notes, 'Read only.md', key)).toThrow(/read-only for agents \(frontmatter 'access: read-only'\)/);
    expect(() => writableNote(notes, 'Broken.md', key)).toThrow(/not found/);
    await syncIn({ 'Broken ro.md': '---\naccess: read-only\ntitle: "unclosed\n---\nbody\n' });
    expect(() => writableNote(notes, 'Broken ro.md', key)).toThrow(/which does not parse, names an 'access' rule/);
  });

  test('a file that cannot be read counts as private until the metadata cache parses it', async () => {
    vault = await createTempVault({}, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    vault.app.metadataCache.holdIndexing();
    await syncIn({ 'Plain.md': 'no frontmatter\n' });
    const file = uncached('Plain.md');
    // Gone from disk behind the vault's back (no watcher): the read fails, so no rule can be known.
    await fsp.rm(nodePath.join(vault.dir, 'Plain.md'));
    expect(notes.policy.accessOf(file, key)).toBe('private');
    expect(notes.policy.openness(file)).toBe('closed');
    expect(notes.policy.canRead(file, key)).toBe(false);
  });

  test('a rule written while the note waits is read again (mtime/size), and the block follows renames, deletes and the parse', async () => {
    vault = await createTempVault({}, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    const blocks = (notes.policy as unknown as { unparsed: { blocks: Map<string, unknown> } }).unparsed.blocks;
    vault.app.metadataCache.holdIndexing();
    await syncIn({ 'A.md': '---\ntags: [a]\n---\nbody\n', 'B.md': 'plain\n' });
    expect(notes.policy.accessOf(uncached('A.md'), key)).toBe('read-write');
    expect(notes.policy.accessOf(uncached('B.md'), key)).toBe('read-write');
    expect([...blocks.keys()].sort()).toEqual(['A.md', 'B.md']);
    await syncIn({ 'A.md': '---\naccess: private\n---\nbody, longer\n' });
    expect(notes.policy.accessOf(uncached('A.md'), key)).toBe('private');
    await vault.app.vault.rename(vault.app.vault.getFileByPath('A.md')!, 'Moved.md');
    expect([...blocks.keys()].sort()).toEqual(['B.md', 'Moved.md']);
    expect(notes.policy.accessOf(uncached('Moved.md'), key)).toBe('private');
    await vault.app.vault.delete(vault.app.vault.getFileByPath('B.md')!);
    expect([...blocks.keys()]).toEqual(['Moved.md']);
    await vault.app.metadataCache.releaseIndexing();
    expect(blocks.size).toBe(0);
    const moved = vault.app.vault.getFileByPath('Moved.md') as unknown as TFile;
    expect(notes.policy.accessOf(moved, key)).toBe('private');
    expect(blocks.size).toBe(0);
  });
  test('a note changed on disk since the metadata cache parsed it is judged from the file until the cache catches up', async () => {
    vault = await createTempVault({ 'Turned.md': '---\ntags: [a]\n---\nbody\n', 'Plain.md': 'plain\n' }, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    const file = vault.app.vault.getFileByPath('Turned.md') as unknown as TFile;
    expect(notes.policy.openness(file)).toBe('open');
    vault.app.metadataCache.holdIndexing();
    await syncIn({ 'Turned.md': '---\nagent_overrides: {Test client: no-access}\n---\nbody\n' });
    expect(vault.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ tags: ['a'] });
    expect(notes.policy.accessOf(file, key)).toBe('private');
    expect(notes.policy.accessOf(file, other)).toBe('read-write');
    expect(notes.policy.openness(file)).toBe('by-label');
    expect(notes.readableNotes(key).map((f) => f.path)).toEqual(['Plain.md']);
    // Answers kept elsewhere (the search index's) are told to be redone when a change may have changed a rule, not for other changes.
    const told: string[] = [];
    notes.policy.onAccessLearned((path) => told.push(path));
    await syncIn({ 'Plain.md': 'plain, longer\n' });
    expect(told).toEqual([]);
    await syncIn({ 'Plain.md': '---\naccess: private\n---\n' });
    expect(told).toEqual(['Plain.md']);
    await syncIn({ 'Turned.md': '---\nagent_overrides: {Test client: no-access}\n---\nbody, longer\n' });
    expect(told).toEqual(['Plain.md', 'Turned.md']);
    await vault.app.metadataCache.releaseIndexing();
    expect(vault.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ agent_overrides: { 'Test client': 'no-access' } });
    expect(notes.policy.accessOf(file, key)).toBe('private');
    expect(notes.policy.openness(file)).toBe('by-label');
  });
  test("the metadata cache's late 'changed' for a version older than the file does not end the wait for the newer one", async () => {
    vault = await createTempVault({ 'Late.md': 'v0\n' }, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    const file = vault.app.vault.getFileByPath('Late.md') as unknown as TFile;
    vault.app.metadataCache.holdIndexing();
    // Obsidian read v1 to parse it; meanwhile another program writes v2, which makes the note private.
    await syncIn({ 'Late.md': 'v1, still open\n' });
    await syncIn({ 'Late.md': '---\naccess: private\n---\nv2\n' });
    expect(notes.policy.accessOf(file, key)).toBe('private');
    // The parse of v1 ends now: its 'changed' event carries v1's text and metadata (nothing private in them).
    vault.app.metadataCache.trigger('changed', file, 'v1, still open\n', { sections: [] });
    expect(notes.policy.accessOf(file, key)).toBe('private');
    expect(notes.policy.openness(file)).toBe('closed');
    // Once the parse of v2 lands, the cache answers.
    await vault.app.metadataCache.releaseIndexing();
    expect(vault.app.metadataCache.getFileCache(file)?.frontmatter).toEqual({ access: 'private' });
    expect(notes.policy.accessOf(file, key)).toBe('private');
  });

  test('a long note: the block is read whole when it runs past the first 64 KiB, and a long body does not hide it', async () => {
    vault = await createTempVault({}, { watchIntervalMs: false });
    notes = new NoteStore(vault.app as never, { quarantine: () => [] });
    vault.app.metadataCache.holdIndexing();
    const filler = `notes: |\n${'  a line of a long text value\n'.repeat(3000)}`;
    await syncIn({
      'Long block.md': `---\n${filler}access: private\n---\nbody\n`,
      'Long body.md': `---\naccess: read-only\n---\n${'body text\n'.repeat(20000)}`,
      'Long plain.md': `---\n${filler}---\nbody\n`,
    });
    expect(notes.policy.accessOf(uncached('Long block.md'), key)).toBe('private');
    expect(notes.policy.accessOf(uncached('Long body.md'), key)).toBe('read-only');
    expect(notes.policy.accessOf(uncached('Long plain.md'), key)).toBe('read-write');
  });
});
