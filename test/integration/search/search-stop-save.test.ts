import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { INDEX_FILE } from '../../../src/search/engine/index-file';
import { UNRESTRICTED_SCOPE } from '../../../src/vault/access/access';
import { bootPlugin } from '../../harness/boot-plugin';

/**
 * The plugin's unload (onunload) makes the search index's save that a change made due: the
 * save waits a minute after the last change, and a plugin disabled or Obsidian closed within
 * that minute used to lose it (the next start reindexed the changed notes, or everything when
 * no file was saved yet).
 */

const SAVED = nodePath.join('.obsidian', 'plugins', 'vault-mcp', INDEX_FILE);

/** The note paths in the saved index's manifest (`"M"` lines of the head's parts; index-file.ts). */
async function savedPaths(vault: string): Promise<string[]> {
  const head = JSON.parse(await fsp.readFile(nodePath.join(vault, SAVED), 'utf8')) as { generation: string; parts: number[] };
  const paths: string[] = [];
  for (let n = 0; n < head.parts.length; n++) {
    const part = await fsp.readFile(
      nodePath.join(vault, nodePath.dirname(SAVED), 'search-index.parts', `${head.generation}.${n}.part`),
      'utf8',
    );
    // Manifest lines only (a term line is not JSON as a whole).
    for (const line of part.split('\n').filter((l) => l.startsWith('["M",'))) {
      const [, rows] = JSON.parse(line) as [string, [string, number, number][]];
      paths.push(...rows.map((row) => row[0]));
    }
  }
  return paths.sort();
}

describe('plugin unload and the saved search index', () => {
  let vault: string;
  beforeEach(async () => {
    vault = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-stop-save-'));
    await fsp.writeFile(nodePath.join(vault, 'Alpha.md'), '# Alpha\n\nApricot orchard.\n');
  });
  afterEach(() => fsp.rm(vault, { recursive: true, force: true }));

  it('saves at unload a change the debounced save had not written yet, and the next start loads it', async () => {
    const first = await bootPlugin(VaultMcpPlugin, { vaultPath: vault, persistIndex: true });
    const index = first.plugin.search;
    await index.whenSaved();
    expect(await savedPaths(vault)).toEqual(['Alpha.md']);
    await first.app.vault.create('Fig.md', 'Fig jam.\n');
    await first.app.metadataCache.whenResolved();
    expect((await index.search('fig', UNRESTRICTED_SCOPE)).results.map((r) => r.path)).toEqual(['Fig.md']);
    expect(await savedPaths(vault)).toEqual(['Alpha.md']);
    await first.stop();
    await index.whenSaved();
    expect(await savedPaths(vault)).toEqual(['Alpha.md', 'Fig.md']);

    const second = await bootPlugin(VaultMcpPlugin, { vaultPath: vault, persistIndex: true });
    try {
      expect(second.plugin.search.stats).toMatchObject({ warm: true, reindexed: 0, total: 2 });
    } finally {
      await second.stop();
    }
  });
});
