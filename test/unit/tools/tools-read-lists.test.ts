import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ToolError } from '../../../src/errors';
import { activeNoteTool, NO_NOTE_OPEN } from '../../../src/tools/read/active-note';
import { getLinksTool } from '../../../src/tools/read/get-links';
import { listFoldersTool } from '../../../src/tools/read/lists/list-folders';
import { listNotesTool, parseSince } from '../../../src/tools/read/lists/list-notes';
import { listTagsTool } from '../../../src/tools/read/lists/list-tags';
import type { ToolContext } from '../../../src/tools/tool';
import { NoteStore } from '../../../src/vault/note-store';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { rejection } from '../../harness/server/tool-errors';
import { toolContext } from '../../harness/tool-context';

let vault: DemoVault;
let notes: NoteStore;

/** mtimes given to some notes in the copy (the rest get 2025-06-01). */
const MTIMES: Record<string, string> = {
  'Journal/2026/2026-02-02.md': '2026-02-02T20:00:00Z',
  'Projects/Alpha/Meeting notes.md': '2026-01-29T18:00:00Z',
  'Journal/2026/2026-01-12.md': '2026-01-12T21:00:00Z',
  'Projects/Alpha/Design decisions.md': '2026-01-12T09:00:00Z',
  'Personal/Therapy notes.md': '2026-02-10T08:00:00Z',
};
const DEFAULT_MTIME = new Date('2025-06-01T12:00:00Z');

/** Gives every Markdown file in `dir` its mtime from MTIMES (default DEFAULT_MTIME). */
async function setMtimes(dir: string, rel = ''): Promise<void> {
  for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await setMtimes(dir, child);
    else if (child.endsWith('.md')) {
      const when = MTIMES[child] ? new Date(MTIMES[child]) : DEFAULT_MTIME;
      await fs.utimes(path.join(dir, child), when, when);
    }
  }
}

/** A ToolContext for a propose key with this label and roots (search is not used by these tools). */
const contextFor = (label = 'Test agent', roots: string[] = []): ToolContext => toolContext(notes, { label, roots });

type Row = Record<string, unknown>;

beforeAll(async () => {
  vault = await openDemoVault(setMtimes);
  notes = new NoteStore(vault.app, { quarantine: () => ['Templates'] });
});

afterAll(async () => {
  await vault?.close();
});

describe('list_notes', () => {
  test('newest first, with id, title, frontmatter and ISO mtime; unreadable notes absent', async () => {
    const out = await listNotesTool.handler({}, contextFor());
    const rows = out.notes as Row[];
    expect(rows.slice(0, 4).map((r) => r.path)).toEqual([
      'Journal/2026/2026-02-02.md',
      'Projects/Alpha/Meeting notes.md',
      'Journal/2026/2026-01-12.md',
      'Projects/Alpha/Design decisions.md',
    ]);
    expect(rows[0]).toEqual({
      path: 'Journal/2026/2026-02-02.md',
      id: 'path:Journal/2026/2026-02-02.md',
      title: '2026-02-02',
      frontmatter: { tags: ['journal'], mood: 4, weather: 'snow' },
      mtime: '2026-02-02T20:00:00.000Z',
    });
    const paths = rows.map((r) => r.path as string);
    expect(paths).not.toContain('Personal/Therapy notes.md');
    expect(paths.some((p) => p.startsWith('_private/') || p.startsWith('Templates/') || p.startsWith('.'))).toBe(false);
    expect(out.total).toBe(rows.length);
    expect(out.next_cursor).toBeUndefined();
    const sameTime = paths.slice(4);
    expect(sameTime).toEqual([...sameTime].sort((a, b) => a.localeCompare(b)));
  });

  test('folder (with subfolders) and since filters', async () => {
    const projects = await listNotesTool.handler({ folder: 'projects' }, contextFor());
    const paths = (projects.notes as Row[]).map((r) => r.path as string);
    expect(paths.every((p) => p.startsWith('Projects/'))).toBe(true);
    expect(paths).toContain('Projects/Alpha/Budget.md');
    expect(paths).toContain('Projects/AGENTS.md');
    const recent = await listNotesTool.handler({ since: '2026-01-12T09:00:00Z' }, contextFor());
    expect((recent.notes as Row[]).map((r) => r.path)).toEqual([
      'Journal/2026/2026-02-02.md',
      'Projects/Alpha/Meeting notes.md',
      'Journal/2026/2026-01-12.md',
      'Projects/Alpha/Design decisions.md',
    ]);
    const byDate = await listNotesTool.handler({ since: '2026-01-13', folder: 'Journal' }, contextFor());
    expect((byDate.notes as Row[]).map((r) => r.path)).toEqual(['Journal/2026/2026-02-02.md']);
  });

  test('pages with limit and an opaque cursor', async () => {
    const all = (await listNotesTool.handler({}, contextFor())).notes as Row[];
    const seen: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listNotesTool.handler({ limit: 7, cursor }, contextFor());
      seen.push(...(page.notes as Row[]).map((r) => r.path));
      cursor = page.next_cursor as string | undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual(all.map((r) => r.path));
    expect(pages).toBe(Math.ceil(all.length / 7));
  });

  test('bad cursor, foreign cursor, bad since and bad folders are refused', async () => {
    expect((await rejection(listNotesTool.handler({ cursor: 'not-a-cursor' }, contextFor()))).code).toBe('invalid_argument');
    const foreign = (await listNotesTool.handler({ folder: 'Journal', limit: 1 }, contextFor())).next_cursor as string;
    expect((await rejection(listNotesTool.handler({ cursor: foreign }, contextFor()))).message).toMatch(/another folder or since/);
    expect(
      (await rejection(listNotesTool.handler({ cursor: foreign, folder: 'Journal', since: '2026-01-01' }, contextFor()))).message,
    ).toMatch(/another folder or since/);
    expect((await rejection(listNotesTool.handler({ since: 'last tuesday' }, contextFor()))).code).toBe('invalid_argument');
    expect((await rejection(listNotesTool.handler({ since: '2026-13-45' }, contextFor()))).code).toBe('invalid_argument');
    // Dates that name no calendar day are refused (Date.parse would read 2026-02-30 as 2 March), as query_notes refuses them.
    for (const since of ['2026-02-30', '2026-02-29', '2026-04-31T10:00:00Z', '2026-02-29 08:00']) {
      const refusal = await rejection(listNotesTool.handler({ since }, contextFor()));
      expect([refusal.code, refusal.message]).toEqual([
        'invalid_argument',
        expect.stringMatching(/is not a calendar date; write dates as YYYY-MM-DD/),
      ]);
    }
    expect((await listNotesTool.handler({ since: '2024-02-29' }, contextFor())).notes).toBeDefined();
    expect((await rejection(listNotesTool.handler({ folder: 'Nowhere' }, contextFor()))).code).toBe('not_found');
    expect((await rejection(listNotesTool.handler({ folder: '_private' }, contextFor()))).code).toBe('forbidden');
    expect((await rejection(listNotesTool.handler({ folder: 'Areas' }, contextFor('Test agent', ['Projects'])))).code).toBe('forbidden');
  });

  test('a cursor continues its own folder and since; a forged negative offset is refused; parseSince reads ISO dates', async () => {
    const first = await listNotesTool.handler({ folder: 'journal', since: '2025-01-01', limit: 2 }, contextFor());
    const next = await listNotesTool.handler(
      { folder: 'Journal', since: '2025-01-01', limit: 2, cursor: first.next_cursor as string },
      contextFor(),
    );
    const all = await listNotesTool.handler({ folder: 'Journal', since: '2025-01-01', limit: 4 }, contextFor());
    expect([...(first.notes as Row[]), ...(next.notes as Row[])].map((r) => r.path)).toEqual((all.notes as Row[]).map((r) => r.path));
    const forged = Buffer.from('{"o":-1,"q":"00000000"}').toString('base64url');
    expect(await rejection(listNotesTool.handler({ cursor: forged }, contextFor()))).toBeInstanceOf(ToolError);
    expect(parseSince('2026-01-15')).toBe(Date.UTC(2026, 0, 15));
    expect(parseSince('2026-01-15T09:30:00+01:00')).toBe(Date.UTC(2026, 0, 15, 8, 30));
  });

  test('a scoped key lists only its roots', async () => {
    const out = await listNotesTool.handler({}, contextFor('Test agent', ['Projects/Alpha']));
    const paths = (out.notes as Row[]).map((r) => r.path as string);
    expect(paths.length).toBe(5);
    expect(paths.every((p) => p.startsWith('Projects/Alpha/'))).toBe(true);
  });
});

describe('list_folders', () => {
  test('flat list with parents and direct note counts; quarantined folders never listed', async () => {
    const out = await listFoldersTool.handler({}, contextFor());
    const rows = out.folders as Row[];
    const byPath = new Map(rows.map((r) => [r.path, r]));
    expect(byPath.get('Projects')).toEqual({ path: 'Projects', parent: '/', note_count: 1 });
    expect(byPath.get('Projects/Alpha')).toEqual({ path: 'Projects/Alpha', parent: 'Projects', note_count: 5 });
    expect(byPath.get('Journal/2026')).toEqual({ path: 'Journal/2026', parent: 'Journal', note_count: 4 });
    expect(byPath.get('Personal')).toEqual({ path: 'Personal', parent: '/', note_count: 0 });
    expect(byPath.has('_private')).toBe(false);
    expect(byPath.has('Templates')).toBe(false);
    expect(rows.some((r) => String(r.path).startsWith('.'))).toBe(false);
    expect(rows.map((r) => r.path)).toEqual([...rows.map((r) => r.path as string)].sort((a, b) => a.localeCompare(b)));
  });

  test('below a folder, and refusals', async () => {
    const out = await listFoldersTool.handler({ folder: 'Projects' }, contextFor());
    expect((out.folders as Row[]).map((r) => r.path)).toEqual(['Projects/Alpha', 'Projects/Beta']);
    expect((await rejection(listFoldersTool.handler({ folder: 'Nope' }, contextFor()))).code).toBe('not_found');
    expect((await rejection(listFoldersTool.handler({ folder: '.obsidian' }, contextFor()))).code).toBe('forbidden');
  });
});

describe('list_tags', () => {
  test('counts readable notes per tag, most used first', async () => {
    const out = await listTagsTool.handler({}, contextFor());
    const tags = out.tags as Array<{ tag: string; count: number }>;
    const counts = new Map(tags.map((t) => [t.tag, t.count]));
    expect(counts.get('#journal')).toBe(5);
    expect(counts.get('#project')).toBe(2);
    expect(counts.has('#secret')).toBe(false);
    expect(counts.has('#personal')).toBe(false);
    for (let i = 1; i < tags.length; i++) {
      const [a, b] = [tags[i - 1], tags[i]];
      expect(a.count > b.count || (a.count === b.count && a.tag.localeCompare(b.tag) <= 0)).toBe(true);
    }
  });
});

describe('get_links', () => {
  test('outgoing, backlinks and unresolved of a note', async () => {
    const out = await getLinksTool.handler({ path: 'Ideas' }, contextFor());
    expect(out.path).toBe('Ideas.md');
    expect(out.unresolved).toEqual([{ link: 'Quarterly review', count: 1 }]);
    expect(out.outgoing).toEqual(
      expect.arrayContaining([
        { path: 'Projects/Alpha/Alpha overview.md', count: 1 },
        { path: 'Areas/Home/Garden plan.md', count: 1 },
        { path: 'Reference/Sourdough handbook.md', count: 1 },
      ]),
    );
    expect((out.backlinks as Row[]).map((b) => b.path)).toEqual(['Archive/Old ideas.md', 'Areas/Home/Garden plan.md']);
  });

  test('private sources are hidden, unreadable targets are not found', async () => {
    const alpha = await getLinksTool.handler({ path: 'PRJ-ALPHA' }, contextFor());
    expect((alpha.backlinks as Row[]).map((b) => b.path)).not.toContain('Personal/Therapy notes.md');
    expect((await rejection(getLinksTool.handler({ path: 'Therapy notes' }, contextFor()))).code).toBe('not_found');
  });
});

describe('active_note', () => {
  test('null with a clear note when nothing is open; the note, cursor line and selection when one is', async () => {
    expect(await activeNoteTool.handler({}, contextFor())).toEqual({ active: null, note: NO_NOTE_OPEN });
    expect(NO_NOTE_OPEN).toMatch(/No note is open/);
    const file = vault.app.vault.getFileByPath('Projects/Alpha/Risks.md')!;
    const text = await vault.app.vault.read(file);
    const start = text.indexOf('Replica lag');
    await vault.host.workspace.setActiveNote(file as never, { anchor: start, head: start + 'Replica lag'.length });
    const out = await activeNoteTool.handler({}, contextFor());
    expect(out.active).toMatchObject({
      path: 'Projects/Alpha/Risks.md',
      id: 'path:Projects/Alpha/Risks.md',
      title: 'Risks',
      tags: expect.arrayContaining(['#project/alpha', '#risk']),
      selection: 'Replica lag',
      selection_length: 11,
      cursor_line: text.slice(0, start).split('\n').length,
    });
  });

  test('an unreadable active note is reported as none', async () => {
    const file = vault.app.vault.getFileByPath('Projects/Beta/Retrospective.md')!;
    await vault.host.workspace.setActiveNote(file as never);
    expect((await activeNoteTool.handler({}, contextFor('Cursor'))).active).toMatchObject({
      path: 'Projects/Beta/Retrospective.md',
      selection: '',
    });
    expect(await activeNoteTool.handler({}, contextFor('Claude Code'))).toEqual({ active: null, note: NO_NOTE_OPEN });
    await vault.host.workspace.setActiveNote(null);
  });
});

describe('list_notes paging while the vault changes', () => {
  let own: DemoVault;
  let store: NoteStore;
  beforeAll(async () => {
    own = await openDemoVault(setMtimes);
    store = new NoteStore(own.app, { quarantine: () => ['Templates'] });
  });
  afterAll(async () => {
    await own?.close();
  });

  test('a cursor goes on after the last note shown: a note changed, created or deleted meanwhile shows no other note twice and skips none', async () => {
    const context = toolContext(store, { label: 'Test agent', roots: [] });
    const before = ((await listNotesTool.handler({ limit: 1000 }, context)).notes as Row[]).map((r) => r.path as string);
    const first = await listNotesTool.handler({ limit: 3 }, context);
    const shown = (first.notes as Row[]).map((r) => r.path as string);
    // A later note is edited (it becomes the newest: an offset cursor showed the third note again and never this one),
    // a shown one deleted (an offset cursor then skipped a note), and a new note created.
    const edited = before[5];
    const deleted = shown[1];
    await own.app.vault.append(own.app.vault.getFileByPath(edited)!, '\nedited while paging\n');
    await own.app.vault.delete(own.app.vault.getFileByPath(deleted)!);
    await own.app.vault.create('Made while paging.md', 'new\n');
    let cursor = first.next_cursor as string | undefined;
    while (cursor !== undefined) {
      const page = await listNotesTool.handler({ limit: 3, cursor }, context);
      shown.push(...(page.notes as Row[]).map((r) => r.path as string));
      cursor = page.next_cursor as string | undefined;
    }
    expect(new Set(shown).size).toBe(shown.length);
    // Every note that was neither changed nor made meanwhile is shown once, in the order listed before.
    expect(shown.filter((p) => p !== edited)).toEqual(before.filter((p) => p !== edited));
    // The edited note moved to the top: a fresh first page shows it with the new note.
    const fresh = ((await listNotesTool.handler({ limit: 2 }, context)).notes as Row[]).map((r) => r.path);
    expect(fresh.sort()).toEqual(['Made while paging.md', edited].sort());
  });
});
