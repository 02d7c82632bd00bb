import type { DataAdapter } from 'obsidian';
import { MemoryActivityFile } from '../../fakes/memory-activity-file';
import { ActivityLog } from '../../../src/activity/activity-log';
import { keepAsideInTrash, type KeepAsidePlaces, type KeptAside } from '../../../src/activity/kept-aside';
import type { AccessScope } from '../../../src/vault/access/access';
import { waitUntil } from '../../harness/wait-until';

/**
 * Where the activity log's dropped text is written (activity/kept-aside.ts keepAsideInTrash):
 * never over a file already there, never where the disk says a link lies, and out of `.trash`
 * while that is a link the user does not trust. The adapter is a map of files, as a vault's
 * DataAdapter answers `exists`, `mkdir` and `write`.
 */
class MapAdapter {
  readonly files = new Map<string, string>();
  readonly folders = new Set<string>();
  async exists(path: string): Promise<boolean> {
    return this.files.has(path) || this.folders.has(path);
  }
  async stat(path: string): Promise<{ type: 'file' | 'folder' } | null> {
    if (this.folders.has(path)) return { type: 'folder' };
    return this.files.has(path) ? { type: 'file' } : null;
  }
  async mkdir(path: string): Promise<void> {
    this.folders.add(path);
  }
  async write(path: string, text: string): Promise<void> {
    this.files.set(path, text);
  }
}

const AGENT: AccessScope = { label: 'Claude Code', roots: [], actor: { keyId: 'k1', session: 's1' } };
const FALLBACK = '.obsidian/plugins/vault-mcp/kept-aside';

/** Floods a 1 MB log with `Home.md`'s edit first, so its replaced text is kept aside through `places`; resolves the reported items. */
async function dropHome(adapter: MapAdapter, places: KeepAsidePlaces): Promise<KeptAside[]> {
  const reported: KeptAside[] = [];
  const keepAside = keepAsideInTrash(adapter as unknown as DataAdapter, places, (items) => reported.push(...items));
  const log = new ActivityLog(
    new MemoryActivityFile(),
    () => ({ maxMegabytes: 1, maxDays: 30 }),
    () => new Date(),
    keepAside,
  );
  await log.load();
  log.record({ kind: 'edit', tool: 'edit_note', path: 'Home.md', before: 'the only copy of the user text\n', after: 'gone\n' }, AGENT);
  log.record({ kind: 'edit', tool: 'edit_note', path: 'Big.md', before: '0'.repeat(1_100_000), after: 'small' }, AGENT);
  await waitUntil(() => reported.length > 0, 'the kept-aside report');
  return reported;
}

const open: KeepAsidePlaces = { trashUsable: () => true, isFreeNow: () => true, fallbackFolder: FALLBACK };

describe('keepAsideInTrash', () => {
  it('writes the text to .trash under its entry id and note name', async () => {
    const adapter = new MapAdapter();
    const [item] = await dropHome(adapter, open);
    expect(item.error).toBeUndefined();
    expect(item.file).toMatch(/^\.trash\/Vault MCP a_[0-9a-f]{12} Home\.md$/);
    expect(adapter.files.get(item.file)).toContain('the only copy of the user text');
  });

  it('never writes over a file the vault already has there: the next numbered name', async () => {
    const adapter = new MapAdapter();
    const taken = new Set<string>();
    const places: KeepAsidePlaces = {
      ...open,
      // The first name is taken on disk by something the adapter does not list (a link); the second by a file it does.
      isFreeNow: (path) => {
        if (/Home\.md$/.test(path) && !/ \d\.md$/.test(path)) {
          taken.add(path);
          return false;
        }
        return true;
      },
    };
    const original = adapter.exists.bind(adapter);
    adapter.exists = async (path) => / 2\.md$/.test(path) || original(path);
    const [item] = await dropHome(adapter, places);
    expect(taken.size).toBe(1);
    expect(item.file).toMatch(/^\.trash\/Vault MCP a_[0-9a-f]{12} Home 3\.md$/);
    expect([...adapter.files.keys()]).toEqual([item.file]);
  });

  it('keeps the text in the plugin folder while .trash is a link the user does not trust', async () => {
    const adapter = new MapAdapter();
    const [item] = await dropHome(adapter, { ...open, trashUsable: () => false });
    expect(item.error).toBeUndefined();
    expect(item.file).toMatch(/^\.obsidian\/plugins\/vault-mcp\/kept-aside\/Vault MCP a_[0-9a-f]{12} Home\.md$/);
    expect(adapter.folders.has(FALLBACK)).toBe(true);
    expect([...adapter.files.keys()].some((p) => p.startsWith('.trash'))).toBe(false);
  });

  it('goes to the plugin folder when .trash is a file, or every name in it is taken or a link', async () => {
    const asFile = new MapAdapter();
    asFile.files.set('.trash', 'a file named .trash');
    const [beside] = await dropHome(asFile, open);
    expect(beside.error).toBeUndefined();
    expect(beside.file).toMatch(/^\.obsidian\/plugins\/vault-mcp\/kept-aside\/Vault MCP a_[0-9a-f]{12} Home\.md$/);
    expect(asFile.files.get('.trash')).toBe('a file named .trash');

    const linked = new MapAdapter();
    const [around] = await dropHome(linked, { ...open, isFreeNow: (path) => !path.startsWith('.trash/') });
    expect(around.file.startsWith(`${FALLBACK}/`)).toBe(true);
    expect([...linked.files.keys()]).toEqual([around.file]);
  });

  it("reports each folder's reason, and writes nothing, when no folder takes the text", async () => {
    const adapter = new MapAdapter();
    const [item] = await dropHome(adapter, { ...open, isFreeNow: () => false });
    expect(item.error).toBe(`.trash: a symbolic link lies on its way; ${FALLBACK}: a symbolic link lies on its way`);
    expect(item.file.startsWith(`${FALLBACK}/`)).toBe(true);
    expect(adapter.files.size).toBe(0);
    const full = new MapAdapter();
    const original = full.exists.bind(full);
    full.exists = async (path) => /Home( \d+)?\.md$/.test(path) || original(path);
    const [taken] = await dropHome(full, open);
    expect(taken.error).toMatch(/^\.trash: 'Vault MCP a_[0-9a-f]{12} Home\.md' and 99 numbered names beside it are taken; /);
  });
});
