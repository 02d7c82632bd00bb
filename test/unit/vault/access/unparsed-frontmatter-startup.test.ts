import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { CachedMetadata } from 'obsidian';
import { hasUnparsedFrontmatter, UnparsedFrontmatter } from '../../../../src/vault/access/unparsed-frontmatter';
import { openDemoVault, type DemoVault } from '../../../harness/vault-fixture';

/**
 * A started app's metadata cache is loaded from its own store, so no 'changed' event brings
 * the raw block of a note whose frontmatter does not parse. The access rule in such a block
 * must hold at the first check all the same (issue 12, weak spot b), not only after the note
 * was read: UnparsedFrontmatter is created here after the host indexed the vault, as it is
 * after startup.
 */
describe('unparseable frontmatter from startup', () => {
  let vault: DemoVault;
  let unparsed: UnparsedFrontmatter;
  afterEach(async () => {
    unparsed?.close();
    await vault?.close();
  });

  test('the first check already knows the rule: private and read-only hold, a block without a rule is read-write', async () => {
    vault = await openDemoVault(async (dir) => {
      await fsp.writeFile(nodePath.join(dir, 'Broken private.md'), '---\naccess: private\ntitle: "unclosed\n---\nbody\n');
      await fsp.writeFile(nodePath.join(dir, 'Broken ro.md'), '---\nAccess: Read-Only\ntags: a\ntags: a\n---\nbody\n');
      await fsp.writeFile(nodePath.join(dir, 'Broken plain.md'), '---\ntitle: "unclosed\n---\nbody\n');
      await fsp.writeFile(nodePath.join(dir, 'Broken override.md'), '---\nagent_overrides: {Test client: no-access\n---\nbody\n');
    });
    unparsed = new UnparsedFrontmatter(vault.app);
    const learned: string[] = [];
    unparsed.onLearned((path) => learned.push(path));
    const access = (path: string): string => {
      const file = vault.app.vault.getFileByPath(path);
      if (!file) throw new Error(`${path} missing`);
      expect(vault.app.metadataCache.getFileCache(file)?.frontmatter).toBeUndefined();
      return unparsed.accessOf(file, 'Test client');
    };
    expect(access('Broken private.md')).toBe('private');
    expect(access('Broken ro.md')).toBe('read-only');
    expect(access('Broken plain.md')).toBe('read-write');
    expect(access('Broken override.md')).toBe('private');
    // Known at once: nothing had to be learned later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(learned).toEqual([]);
  });

  test('every block the metadata cache holds no mapping for is read from its raw text: indented, flow, explicit, a list, a text', async () => {
    const blocks: Record<string, string> = {
      'Indented.md': '  access: private\n  tags: [a, b',
      'Flow.md': '{access: private, x: [',
      'Under broken.md': 'title: [unclosed\n  access: private',
      'Explicit.md': '? access\n: private\nbad: [',
      'List.md': '- access: private',
      'Text.md': 'access:private',
    };
    vault = await openDemoVault(async (dir) => {
      for (const [path, block] of Object.entries(blocks)) await fsp.writeFile(nodePath.join(dir, path), `---\n${block}\n---\nbody\n`);
      await fsp.writeFile(nodePath.join(dir, 'Parsed.md'), '---\naccess: read-only\n---\nbody\n');
    });
    unparsed = new UnparsedFrontmatter(vault.app);
    for (const path of Object.keys(blocks)) {
      const file = vault.app.vault.getFileByPath(path);
      if (!file) throw new Error(`${path} missing`);
      const cache = vault.app.metadataCache.getFileCache(file);
      expect(cache?.frontmatterPosition).toBeDefined();
      expect(cache?.frontmatter).toBeUndefined();
      expect(hasUnparsedFrontmatter(cache)).toBe(true);
      expect(unparsed.accessOf(file, 'Test client')).toBe('private');
    }
    const parsed = vault.app.vault.getFileByPath('Parsed.md');
    expect(hasUnparsedFrontmatter(parsed && vault.app.metadataCache.getFileCache(parsed))).toBe(false);
  });

  test('hasUnparsedFrontmatter: a block with a list or a text for frontmatter, or only a yaml section, counts; a mapping or no block does not', () => {
    const at = { start: { line: 0, col: 0, offset: 0 }, end: { line: 2, col: 3, offset: 24 } };
    const cases: Array<[CachedMetadata | null, boolean]> = [
      [{ frontmatterPosition: at }, true],
      [{ frontmatterPosition: at, frontmatter: [{ access: 'private' }] } as unknown as CachedMetadata, true],
      [{ frontmatterPosition: at, frontmatter: 'access private' } as unknown as CachedMetadata, true],
      [{ sections: [{ type: 'yaml', position: at }] }, true],
      [{ frontmatterPosition: at, frontmatter: { access: 'private' } }, false],
      [{ sections: [{ type: 'paragraph', position: at }] }, false],
      [{}, false],
      [null, false],
    ];
    for (const [cache, expected] of cases) expect(hasUnparsedFrontmatter(cache)).toBe(expected);
  });

  test('a block changed on disk behind the cache is read again when the note stat changes', async () => {
    vault = await openDemoVault(async (dir) => {
      await fsp.writeFile(nodePath.join(dir, 'Flip.md'), '---\ntitle: "unclosed\n---\nbody\n');
    });
    unparsed = new UnparsedFrontmatter(vault.app);
    const file = vault.app.vault.getFileByPath('Flip.md');
    if (!file) throw new Error('Flip.md missing');
    expect(unparsed.accessOf(file, 'x')).toBe('read-write');
    await fsp.writeFile(nodePath.join(vault.dir, 'Flip.md'), '---\naccess: private\ntitle: "unclosed\n---\nbody, longer now\n');
    file.stat = { ...file.stat, mtime: file.stat.mtime + 1000, size: file.stat.size + 12 };
    expect(unparsed.accessOf(file, 'x')).toBe('private');
  });

  test('a change to a note whose parsed frontmatter names a rule, in any spelling or through a merge key, tells the listeners before the cache catches up; one naming none tells no one', async () => {
    const notes: Record<string, string> = {
      'Spaced.md': '" Access ": read-only',
      'Cased.md': 'AGENT_OVERRIDES: {Test client: no-access}',
      'Merged.md': '<<: {color: blue}',
      'Plain.md': 'title: t\naccessible: yes',
    };
    vault = await openDemoVault(async (dir) => {
      for (const [path, block] of Object.entries(notes)) await fsp.writeFile(nodePath.join(dir, path), `---\n${block}\n---\nbody\n`);
    });
    unparsed = new UnparsedFrontmatter(vault.app);
    const heard: string[] = [];
    unparsed.onLearned((path) => heard.push(path));
    // The metadata cache keeps the old frontmatter (it parses nothing meanwhile), as Obsidian lags behind a change.
    vault.host.metadataCache.holdIndexing();
    for (const path of Object.keys(notes)) {
      const file = vault.app.vault.getFileByPath(path);
      if (!file) throw new Error(`${path} missing`);
      await vault.app.vault.modify(file, '---\ntitle: now without a rule\n---\nbody\n');
    }
    expect(heard.sort()).toEqual(['Cased.md', 'Merged.md', 'Spaced.md']);
  });
});
