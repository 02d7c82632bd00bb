import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import * as nodePath from 'node:path';
import type { TFile } from 'obsidian';
import type { AccessScope } from '../../../../src/vault/access/access';
import { NoteStore } from '../../../../src/vault/note-store';
import { openDemoVault, type DemoVault } from '../../../harness/vault-fixture';

/**
 * NoteStore.read's disk checks (DiskReads.judgedSeen) on a real folder: what a served read asks
 * of the disk, and what it refuses to read at all. The host's disk watcher is off
 * (openDemoVault), so no vault event follows a change made here: the disk alone tells of it.
 */

const ANYONE: AccessScope = { label: 'Test agent', roots: [] };
const NOTE = 'Projects/Alpha/Budget.md';

let vault: DemoVault;
let store: NoteStore;

beforeEach(async () => {
  vault = await openDemoVault();
  store = new NoteStore(vault.app, { quarantine: () => [] });
});

afterEach(async () => {
  jest.restoreAllMocks();
  await vault?.close();
});

function fileAt(path: string): TFile {
  const file = store.fileByPath(path);
  if (file === null) throw new Error(`${path} is not listed`);
  return file;
}

/** How many times each disk look runs while `run` runs. */
async function countLooks(run: () => Promise<unknown>): Promise<{ lstat: number; stat: number; asyncStat: number }> {
  const lstat = jest.spyOn(fs, 'lstatSync');
  const stat = jest.spyOn(fs, 'statSync');
  const asyncStat = jest.spyOn(fs.promises, 'stat');
  await run();
  const counts = { lstat: lstat.mock.calls.length, stat: stat.mock.calls.length, asyncStat: asyncStat.mock.calls.length };
  jest.restoreAllMocks();
  return counts;
}

test('a served read looks at the disk once before it (an lstat of the note) and once after (an lstat per path segment and one stat), nothing more', async () => {
  const file = fileAt(NOTE);
  await store.read(file, ANYONE); // the cached place of each folder is judged on first use; counted below is a read as a search page's hits make it
  const looks = await countLooks(() => store.read(file, ANYONE));
  // Session 30's checks took a look before and after (an lstat per segment and two stats each), a stat for the judged
  // file and an async stat for the access rules' stamp: 14k search p50 6 → 13 ms. The stamp is now the look's own stat.
  expect(looks).toEqual({ lstat: 1 + NOTE.split('/').length, stat: 1, asyncStat: 0 });
  await expect(store.read(file, ANYONE)).resolves.toContain('# Alpha budget');
});

test('a text already read is shown after one look (an lstat per segment and one stat)', async () => {
  const file = fileAt(NOTE);
  const text = await store.read(file, ANYONE);
  const looks = await countLooks(async () => expect(store.mayServe(file, text!, ANYONE)).toBe(true));
  expect(looks).toEqual({ lstat: NOTE.split('/').length, stat: 1, asyncStat: 0 });
});

test('the stamp a look takes is the very one a plain fs.stat gives, so the note does not count as changed behind the vault', async () => {
  const file = fileAt(NOTE);
  const seen = store.policy.ownFileOf(NOTE);
  const plain = await fs.promises.stat(nodePath.join(vault.dir, NOTE));
  expect(seen).toEqual({ id: `${plain.dev}:${plain.ino}`, links: 1, mtime: plain.mtimeMs, size: plain.size });
  expect(store.policy.fileOf(NOTE)).toEqual(seen);
  // A link at the path itself is no plain file; fileOf follows it.
  fs.symlinkSync(nodePath.join(vault.dir, NOTE), nodePath.join(vault.dir, 'Link.md'));
  expect(store.policy.ownFileOf('Link.md')).toBeNull();
  expect(store.policy.fileOf('Link.md')).toEqual(seen);
  await expect(store.read(file, ANYONE)).resolves.toContain('# Alpha budget');
});

test('a note swapped for a FIFO (or a link to one) before the vault tells of it is never read: the read is refused at once, not left waiting', async () => {
  if (process.platform === 'win32') return;
  // Beside the vault copy, not in it (a link out of the vault); removed after, or each run left a pipe in the temp folder.
  const outside = nodePath.join(vault.dir, '..', `${nodePath.basename(vault.dir)}-fifo`);
  for (const [name, swap] of [
    ['FIFO', (full: string) => execFileSync('mkfifo', [full])],
    [
      'link to a FIFO',
      (full: string) => {
        execFileSync('mkfifo', [outside]);
        fs.symlinkSync(outside, full);
      },
    ],
  ] as const) {
    const file = fileAt(NOTE);
    const full = nodePath.join(vault.dir, NOTE);
    const text = fs.readFileSync(full, 'utf8');
    fs.rmSync(full);
    swap(full);
    // Obsidian reads a note it has not read yet from disk: the host's cache is dropped so the read goes there too.
    (vault.app.vault as unknown as { contents: Map<string, unknown> }).contents.clear();
    try {
      await expect([name, await store.read(file, ANYONE)]).toEqual([name, null]);
    } finally {
      fs.rmSync(full);
      fs.rmSync(outside, { force: true });
      fs.writeFileSync(full, text);
    }
  }
  expect(fs.existsSync(outside)).toBe(false);
});
