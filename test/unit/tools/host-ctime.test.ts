import type { App, TFile } from 'obsidian';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { readNoteTool } from '../../../src/tools/read/read-note';
import { queryNotesTool } from '../../../src/tools/read/lists/query-notes';
import { editNoteTool } from '../../../src/tools/write/edit-note';
import { NoteStore } from '../../../src/vault/note-store';
import { createTempVault, FileSystemAdapter, type TempVault } from '../../host/index';
import { toolContext } from '../../harness/tool-context';

/**
 * `stat.ctime` is a file's creation time (obsidian.d.ts `FileStats.ctime`: "Time of creation"):
 * Obsidian keeps it across `vault.modify`, `vault.process`, `vault.append` and renames. The
 * host writes in place, as Obsidian's desktop adapter does, and must keep it too, so the
 * created dates our tools report (read_note `ctime`, query_notes `file.ctime`) do not jump to
 * the time of the last write.
 */

let tv: TempVault;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fileAt = (p: string) => tv.app.vault.getFileByPath(p) as TFile;

beforeEach(async () => {
  tv = await createTempVault({});
});

afterEach(async () => {
  await tv?.cleanup();
});

test('modify, process, append and rename keep ctime; mtime moves; DataWriteOptions.ctime still sets it', async () => {
  const file = await tv.app.vault.create('Note.md', 'one\n');
  const created = file.stat.ctime;
  expect(created).toBeGreaterThan(0);
  await pause(30);
  await tv.app.vault.modify(file, 'two\n');
  await pause(30);
  await tv.app.vault.process(file, (text) => text + 'three\n');
  await pause(30);
  await tv.app.vault.append(file, 'four\n');
  await tv.app.vault.rename(file, 'Moved.md');
  expect(file.stat.ctime).toBe(created);
  expect(file.stat.mtime).toBeGreaterThan(created);
  await tv.app.vault.modify(file, 'five\n', { ctime: 1000 });
  expect(file.stat.ctime).toBe(1000);
});

test('writes are made in place, as by Obsidian desktop: the note keeps its inode and birth time, so a new adapter (a restart) reports the same ctime', async () => {
  const file = await tv.app.vault.create('Kept.md', 'one\n');
  const full = nodePath.join(tv.dir, 'Kept.md');
  const before = await fsp.stat(full, { bigint: true });
  await pause(30);
  await tv.app.vault.modify(file, 'two\n');
  await tv.app.vault.process(file, (text) => text + 'three\n');
  await tv.app.vault.adapter.write('Kept.md', 'four\n');
  await tv.app.vault.adapter.writeBinary('Kept.md', new TextEncoder().encode('five\n').buffer as ArrayBuffer);
  await tv.app.vault.adapter.appendBinary('Kept.md', new TextEncoder().encode('six\n').buffer as ArrayBuffer);
  const after = await fsp.stat(full, { bigint: true });
  expect([after.dev, after.ino, after.birthtimeNs]).toEqual([before.dev, before.ino, before.birthtimeNs]);
  expect(await fsp.readFile(full, 'utf8')).toBe('five\nsix\n');
  // No temp file is left beside it.
  expect((await fsp.readdir(tv.dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  const created = file.stat.ctime;
  expect((await new FileSystemAdapter(tv.dir).stat('Kept.md'))?.ctime).toBe(created);
});

test('created dates in results: read_note ctime and query_notes SORT file.ctime stay the creation order after writes', async () => {
  await tv.app.vault.create('Older.md', '# Older\n\ntext\n');
  await pause(30);
  await tv.app.vault.create('Newer.md', '# Newer\n\ntext\n');
  await tv.app.metadataCache.whenResolved();
  const notes = new NoteStore(tv.app as unknown as App, { quarantine: () => [] });
  const ctx = toolContext(notes, { mode: 'force' });
  const before = (await readNoteTool.handler({ path: 'Older' }, ctx)).ctime;
  await pause(30);
  await editNoteTool.handler({ path: 'Older', heading: 'Older', op: 'append_within', content: 'more' } as never, ctx);
  await tv.app.metadataCache.whenResolved();
  expect((await readNoteTool.handler({ path: 'Older' }, ctx)).ctime).toBe(before);
  expect(new Date(before as string).getTime()).toBe(fileAt('Older.md').stat.ctime);
  const out = (await queryNotesTool.handler({ query: 'SORT file.ctime COLUMNS file.ctime' }, ctx)) as { rows: unknown[][] };
  expect(out.rows.map((r) => r[0])).toEqual(['Older.md', 'Newer.md']);
  expect(out.rows[0][1]).toBe(before);
});
