import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { FileSystemAdapter } from '../../../host/index';
import { ProposalStore, type ProposalCaller } from '../../../../src/proposals/store/proposal-store';
import { ProposalReview } from '../../../../src/proposals/review/proposal-review';
import { runReviewCommand } from '../../../../src/ui/review/review-commands';
import { NoteStore } from '../../../../src/vault/note-store';
import { PluginFile } from '../../../../src/vault/plugin-files/plugin-file';
import { PartedFile } from '../../../../src/vault/plugin-files/parted-file';
import { WriterLock } from '../../../../src/vault/plugin-files/writer-lock';
import { openDemoVault, type DemoVault } from '../../../harness/vault-fixture';
import { inboxTaskEdit } from '../../../harness/edits/demo-edits';

/**
 * proposals.json shared by two plugin instances on one vault (F7, verifier s30): the writer lock's
 * holder writes it (temp copy, then swap), the other reads it (ProposalStore.refresh every 2 s).
 * Each instance has its own adapter here, as two processes do.
 */

const PLUGIN_DIR = '.obsidian/plugins/vault-mcp';
const AGENT: ProposalCaller = { id: 'k1', label: 'Claude Code', roots: [] };
type Op = 'write' | 'rename' | 'remove';

/** A real adapter whose writes, renames and removes under the plugin folder can be hooked: `before` may throw (a failing disk), `after` runs something in between (the other instance). */
class HookedAdapter extends FileSystemAdapter {
  before: (op: Op, path: string, to?: string) => Promise<void> = async () => undefined;
  after: (op: Op, path: string, to?: string) => Promise<void> = async () => undefined;
  /** Writes of a proposals.json temp copy made (one per write of the file). */
  proposalWrites = 0;

  override async write(path: string, data: string, options?: Parameters<FileSystemAdapter['write']>[2]): Promise<void> {
    await this.before('write', path);
    await super.write(path, data, options);
    if (path.includes('proposals.json.partial')) this.proposalWrites++;
    await this.after('write', path);
  }
  override async rename(path: string, to: string): Promise<void> {
    await this.before('rename', path, to);
    await super.rename(path, to);
    await this.after('rename', path, to);
  }
  override async remove(path: string): Promise<void> {
    await this.before('remove', path);
    await super.remove(path);
    await this.after('remove', path);
  }
}

/** An fs-style error with `code`, as Node's fs throws. */
function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

let vault: DemoVault;
let notes: NoteStore;
const locks: WriterLock[] = [];
const stores: ProposalStore[] = [];

const proposalsPath = (): string => nodePath.join(vault.dir, PLUGIN_DIR, 'proposals.json');
/** The ids of the proposals the file on disk holds (read as the next start reads it: a whole temp copy with no file is swapped in). */
async function idsOnDisk(): Promise<string[]> {
  const file = new PluginFile(new FileSystemAdapter(vault.dir), PLUGIN_DIR, 'proposals.json');
  const text = await file.read();
  return text === null ? [] : (JSON.parse(text) as { proposals: Array<{ id: string }> }).proposals.map((p) => p.id).sort();
}
/** The names in the plugin folder. */
const folderFiles = async (): Promise<string[]> => (await fsp.readdir(nodePath.join(vault.dir, PLUGIN_DIR))).sort();

/** A store over its own adapter, with its own writer lock, loaded. */
async function instance(adapter: FileSystemAdapter): Promise<{ store: ProposalStore; problem?: string }> {
  const lock = new WriterLock(adapter, PLUGIN_DIR);
  locks.push(lock);
  const store = new ProposalStore(notes, new PluginFile(adapter, PLUGIN_DIR, 'proposals.json'), undefined, lock);
  stores.push(store);
  const { problem } = await store.load();
  return { store, problem };
}

/** Stages an edit of Inbox's task line to `content` in `store`. @returns the id, or the refusal's message. */
async function stage(store: ProposalStore, content: string): Promise<{ id?: string; refused?: string }> {
  const prepared = await notes.writes.prepare(inboxTaskEdit(content), { label: AGENT.label, roots: AGENT.roots });
  return store.stage(prepared, AGENT).then(
    (p) => ({ id: p.id }),
    (err: Error) => ({ refused: err.message }),
  );
}

beforeEach(async () => {
  vault = await openDemoVault();
  notes = new NoteStore(vault.app, { quarantine: () => [] });
});

afterEach(async () => {
  for (const store of stores.splice(0)) await store.flush();
  for (const lock of locks.splice(0)) await lock.release();
  await vault.close();
});

describe("the other instance's refresh never touches the holder's temp copies", () => {
  test('a refresh at every step of every write of the holder: each stage is staged, the file holds it, the other lists it', async () => {
    const holderAdapter = new HookedAdapter(vault.dir);
    const holder = (await instance(holderAdapter)).store;
    const other = await instance(new FileSystemAdapter(vault.dir));
    expect(other.problem).toMatch(/Another Vault MCP instance is writing/);
    let refreshes = 0;
    holderAdapter.after = async (_op, path) => {
      if (!path.includes('proposals.json')) return;
      await other.store.refresh();
      refreshes++;
    };
    const told: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await stage(holder, `Renew ${i}`);
      expect(r.refused).toBeUndefined();
      told.push(r.id!);
      // The file is there after every answer, holding what the agent was told.
      expect(JSON.parse(await fsp.readFile(proposalsPath(), 'utf8')).proposals.map((p: { id: string }) => p.id)).toEqual(told);
    }
    holderAdapter.after = async () => undefined;
    expect(refreshes).toBe(15);
    await other.store.refresh();
    expect(other.store.pending().map((p) => p.id)).toEqual(told);
    expect((await folderFiles()).filter((n) => n.startsWith('proposals.json'))).toEqual(['proposals.json']);
  });

  test("PluginFile.readAsIs at each step of a write sees the old or the new whole text and leaves the writer's copies alone", async () => {
    const writerAdapter = new HookedAdapter(vault.dir);
    const writer = new PluginFile(writerAdapter, PLUGIN_DIR, 'proposals.json');
    await writer.write('{"v":1}');
    const reader = new PluginFile(new FileSystemAdapter(vault.dir), PLUGIN_DIR, 'proposals.json');
    const seen: Array<string | null> = [];
    writerAdapter.after = async () => {
      seen.push(await reader.readAsIs());
    };
    await writer.write('{"v":2}');
    // After the .partial write, its rename to .tmp, the old file's removal (the .tmp is read then) and the swap.
    expect(seen).toEqual(['{"v":1}', '{"v":1}', '{"v":2}', '{"v":2}']);
    expect(await fsp.readFile(proposalsPath(), 'utf8')).toBe('{"v":2}');
    expect((await folderFiles()).filter((n) => n.startsWith('proposals.json'))).toEqual(['proposals.json']);
    // A leftover .partial is the writer's business: readAsIs neither reads nor removes it.
    await fsp.writeFile(`${proposalsPath()}.partial`, '{"hal');
    expect(await reader.readAsIs()).toBe('{"v":2}');
    expect(await folderFiles()).toContain('proposals.json.partial');
    await fsp.rm(proposalsPath());
    expect(await reader.readAsIs()).toBeNull();
    expect(await folderFiles()).toContain('proposals.json.partial');
  });
});

describe('a stage whose write failed is never pending on disk; the answer matches the file', () => {
  test('the first write fails while later stages wait for the next: the refused one is in no later write', async () => {
    const adapter = new HookedAdapter(vault.dir);
    const { store } = await instance(adapter);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let failed = false;
    adapter.before = async (op, path) => {
      if (failed || op !== 'write' || !path.includes('proposals.json.partial')) return;
      failed = true;
      entered();
      await gate;
      throw fsError('ENOSPC', 'no space left on device, write');
    };
    const first = stage(store, 'Renew first');
    await inside;
    const later = [stage(store, 'Renew second'), stage(store, 'Renew third')];
    // Both are in memory, waiting for a write, while the first one's write is under way.
    while (store.all().length < 3) await new Promise((resolve) => setTimeout(resolve, 1));
    release();
    const answers = await Promise.all([first, ...later]);
    expect(answers[0].refused).toMatch(/Cannot write the proposals file: the disk is full .*nothing was staged/);
    const staged = answers.filter((a) => a.id !== undefined).map((a) => a.id!);
    expect(staged).toHaveLength(2);
    expect(await idsOnDisk()).toEqual([...staged].sort());
    expect(
      store
        .pending()
        .map((p) => p.id)
        .sort(),
    ).toEqual([...staged].sort());
    // What a restart loads is what the agent was told.
    await store.flush();
    const next = new ProposalStore(notes, new PluginFile(new FileSystemAdapter(vault.dir), PLUGIN_DIR, 'proposals.json'));
    await next.load();
    expect(
      next
        .pending()
        .map((p) => p.id)
        .sort(),
    ).toEqual([...staged].sort());
  });

  test('a write that fails after the old file was removed, its whole copy left: the stage answers staged, as the file then holds it', async () => {
    const adapter = new HookedAdapter(vault.dir);
    const { store } = await instance(adapter);
    const before = await stage(store, 'Renew before');
    let failed = false;
    adapter.before = async (op, path, to) => {
      if (failed || op !== 'rename' || !path.endsWith('proposals.json.tmp') || !to?.endsWith('proposals.json')) return;
      failed = true;
      throw fsError('EPERM', 'operation not permitted, rename');
    };
    const r = await stage(store, 'Renew after');
    expect(failed).toBe(true);
    expect(r.refused).toBeUndefined();
    expect(await idsOnDisk()).toEqual([before.id!, r.id!].sort());
    expect(store.pending().map((p) => p.id)).toEqual([before.id, r.id]);
  });

  test('the proposals file gone mid-write (ENOENT): the refusal names the proposals file, not a note to find again', async () => {
    const adapter = new HookedAdapter(vault.dir);
    const { store } = await instance(adapter);
    let failed = false;
    adapter.before = async (op, path) => {
      if (failed || op !== 'rename' || !path.endsWith('proposals.json.partial')) return;
      failed = true;
      throw fsError('ENOENT', "no such file or directory, rename 'proposals.json.partial' -> 'proposals.json.tmp'");
    };
    const r = await stage(store, 'Renew gone');
    expect(r.refused).toMatch(/proposals file was moved or removed by another program .*nothing was staged\. Retry/);
    expect(r.refused).not.toMatch(/search or list_notes/);
    expect(store.pending()).toEqual([]);
    expect(await idsOnDisk()).toEqual([]);
  });
});

describe('writes of proposals.json are shared (group commit)', () => {
  test('30 stages at once cost at most two writes of the file, and 30 rejections at once as few; the file holds every change', async () => {
    const adapter = new HookedAdapter(vault.dir);
    const { store } = await instance(adapter);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => stage(store, `Renew ${i}`)));
    expect(answers.every((a) => a.id !== undefined)).toBe(true);
    expect(adapter.proposalWrites).toBeLessThanOrEqual(2);
    expect(await idsOnDisk()).toHaveLength(30);
    adapter.proposalWrites = 0;
    await Promise.all(store.pending().map((p) => store.settle(p.id, 'rejected')));
    expect(adapter.proposalWrites).toBeLessThanOrEqual(2);
    const onDisk = JSON.parse(await fsp.readFile(proposalsPath(), 'utf8')) as { proposals: Array<{ status: string }> };
    expect(onDisk.proposals.map((p) => p.status)).toEqual(Array(30).fill('rejected'));
  });

  test('`reject all` of 30 writes the file at most twice (one write per proposal before), and answers one line each in list order', async () => {
    const adapter = new HookedAdapter(vault.dir);
    const { store } = await instance(adapter);
    for (let i = 0; i < 30; i++) expect((await stage(store, `Renew ${i}`)).id).toBeDefined();
    const ids = store.pending().map((p) => p.id);
    adapter.proposalWrites = 0;
    const review = new ProposalReview(store, notes, () => []);
    const answer = await runReviewCommand({ proposals: store, review }, 'reject all');
    expect(adapter.proposalWrites).toBeLessThanOrEqual(2);
    const lines = answer.split('\n');
    expect(lines.slice(0, 30).map((l) => /proposal (p_[0-9a-f]+)/.exec(l)?.[1])).toEqual(ids);
    expect(lines[30]).toMatch(/^Reject all: 30 proposals/);
    expect(store.pending()).toEqual([]);
    const onDisk = JSON.parse(await fsp.readFile(proposalsPath(), 'utf8')) as { proposals: Array<{ status: string }> };
    expect(onDisk.proposals.map((p) => p.status)).toEqual(Array(30).fill('rejected'));
  });
});

describe('files every instance saves (the search index head, the semantic index) use per-instance temp names', () => {
  test("one instance's read at every step of the other's save of search-index.json leaves that save whole", async () => {
    const adapterA = new HookedAdapter(vault.dir);
    const a = new PartedFile(adapterA, PLUGIN_DIR, 'search-index.json', 'aaaa');
    const b = new PartedFile(new FileSystemAdapter(vault.dir), PLUGIN_DIR, 'search-index.json', 'bbbb');
    const parts = async function* () {
      yield { text: 'part', bytes: new Uint8Array(0) };
    };
    await a.write(parts(), (generation) => `{"generation":"${generation}","v":1}`);
    const seen: Array<string | null> = [];
    adapterA.after = async (_op, path) => {
      if (path.includes('search-index.json')) seen.push(await b.readHead());
    };
    await a.write(parts(), (generation) => `{"generation":"${generation}","v":2}`);
    adapterA.after = async () => undefined;
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((text) => text !== null && /"v":[12]/.test(text))).toBe(true);
    expect(await a.readHead()).toMatch(/"v":2/);
    expect((await folderFiles()).filter((n) => n.startsWith('search-index.json'))).toEqual(['search-index.json']);
  });
});
