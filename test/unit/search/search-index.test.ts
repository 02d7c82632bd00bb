import { isWithinRoots } from '../../../src/vault/access/access-rules';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HeadingCache, TFile } from 'obsidian';
import { parse as parseYaml } from 'yaml';
import { ToolError } from '../../../src/errors';
import { SearchIndex } from '../../../src/search/search-index';
import { Slicer } from '../../../src/search/engine/slicer';
import { LexicalEngine } from '../../../src/search/engine/lexical-engine';
import * as pruning from '../../../src/search/engine/ranked/ranked-pruning';
import { memoryIndexStorage } from '../../harness/memory-index-storage';
import type { SearchPage } from '../../../src/search/types';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../../../src/vault/access/access';
import type { NoteChange, NoteStore } from '../../../src/vault/note-store';
import { buildOutline, sectionAt, type NoteSection } from '../../../src/vault/content/sections';

/**
 * An in-memory stand-in for NoteStore with the methods SearchIndex uses: notes are plain
 * strings keyed by path; frontmatter is parsed with `yaml`, tags from frontmatter and
 * inline `#tags`, the outline from `#` lines outside code fences (numbered by the real
 * `buildOutline`). `hidden` notes are unreadable for every scope (like `access: private`).
 */
class FakeNotes {
  readonly texts = new Map<string, string>();
  readonly hidden = new Set<string>();
  readonly listeners = new Set<(c: NoteChange) => void>();
  reads = 0;

  constructor(docs: Record<string, string> = {}) {
    for (const [p, t] of Object.entries(docs)) this.texts.set(p, t);
  }

  asStore(): NoteStore {
    return this as unknown as NoteStore;
  }

  // --- the NoteStore surface ---
  readableNotes(scope: AccessScope): TFile[] {
    return this.markdownFiles().filter((f) => this.canRead(f, scope));
  }
  markdownFiles(): TFile[] {
    return [...this.texts.keys()].map((p) => this.file(p));
  }
  markdownCount(): number {
    return this.texts.size;
  }
  readableFromScan(scope: AccessScope): (path: string) => boolean | undefined {
    const files = new Map(this.markdownFiles().map((f) => [f.path, f]));
    return (path) => {
      const f = files.get(path);
      return f === undefined ? undefined : this.canRead(f, scope);
    };
  }
  // No note here has rules by label: access differs between scopes by roots alone.
  byLabelInScan(): string[] {
    return [];
  }
  async readableNotesInSteps(scope: AccessScope, pacer: { due(): boolean; pause(): Promise<void> }): Promise<TFile[]> {
    const out: TFile[] = [];
    for (const file of this.readableNotes(scope)) {
      if (pacer.due()) await pacer.pause();
      out.push(file);
    }
    return out;
  }
  isWithinRoots(path: string, roots: readonly string[]): boolean {
    return isWithinRoots(path, roots);
  }
  canRead(file: TFile, scope: AccessScope): boolean {
    if (!this.texts.has(file.path) || this.hidden.has(file.path)) return false;
    return scope.roots.length === 0 || scope.roots.some((r) => file.path.startsWith(r + '/'));
  }
  // The read primitives (NoteStore.read, readToMatch, mayServe): a text here never names rules of its own.
  async read(file: TFile): Promise<string | null> {
    return this.readToMatch(file);
  }
  async readToMatch(file: TFile): Promise<string | null> {
    this.reads++;
    const text = this.texts.get(file.path);
    if (text === undefined) throw new Error(`ENOENT ${file.path}`);
    return text;
  }
  // No disk here: nothing is read through a link.
  mayServe(): boolean {
    return true;
  }
  noteId(file: TFile): string {
    const id = this.frontmatterOf(file).id;
    return typeof id === 'string' ? id : `path:${file.path}`;
  }
  noteTitle(file: TFile): string {
    const title = this.frontmatterOf(file).title;
    return typeof title === 'string' ? title : file.basename;
  }
  frontmatterOf(file: TFile): Record<string, unknown> {
    const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(this.texts.get(file.path) ?? '');
    if (!m) return {};
    try {
      const fm: unknown = parseYaml(m[1]);
      return fm && typeof fm === 'object' ? { ...(fm as Record<string, unknown>) } : {};
    } catch {
      return {};
    }
  }
  tagsOf(file: TFile): string[] {
    const fmTags = this.frontmatterOf(file).tags;
    const list = Array.isArray(fmTags) ? fmTags.map(String) : typeof fmTags === 'string' ? [fmTags] : [];
    const inline = [...(this.texts.get(file.path) ?? '').matchAll(/(?:^|\s)#([\p{L}\p{N}_/-]+)/gu)].map((m) => m[1]);
    return [...new Set([...list, ...inline].map((t) => '#' + t.replace(/^#/, '')))];
  }
  headingTexts(file: TFile): string[] {
    return this.outline(file, this.texts.get(file.path) ?? '').map((s) => s.heading);
  }
  outline(_file: TFile, text: string): NoteSection[] {
    const headings: HeadingCache[] = [];
    let offset = 0;
    let fenced = false;
    for (const line of text.split('\n')) {
      if (/^(```|~~~)/.test(line)) fenced = !fenced;
      const m = fenced ? null : /^(#{1,6})\s+(.+)$/.exec(line);
      if (m) {
        const pos = { line: 0, col: 0, offset };
        headings.push({ heading: m[2].trim(), level: m[1].length, position: { start: pos, end: pos } } as HeadingCache);
      }
      offset += line.length + 1;
    }
    return buildOutline(headings, text.length);
  }
  sectionAt(sections: NoteSection[], offset: number): NoteSection | null {
    return sectionAt(sections, offset);
  }
  onNoteChange(listener: (c: NoteChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  fileByPath(p: string): TFile | null {
    return this.texts.has(p) ? this.file(p) : null;
  }

  // --- test controls: change the "vault" and emit what NoteStore would ---
  write(p: string, text: string): void {
    const type = this.texts.has(p) ? 'modify' : 'create';
    this.texts.set(p, text);
    this.emit({ type, path: p });
  }
  delete(p: string): void {
    this.texts.delete(p);
    this.emit({ type: 'delete', path: p });
  }
  rename(from: string, to: string): void {
    this.texts.set(to, this.texts.get(from) ?? '');
    this.texts.delete(from);
    this.emit({ type: 'rename', path: to, oldPath: from });
  }
  private emit(change: NoteChange): void {
    for (const l of this.listeners) l(change);
  }
  private file(p: string): TFile {
    const name = p.slice(p.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    const stat = { ctime: 0, mtime: 0, size: this.texts.get(p)?.length ?? 0 };
    return { path: p, name, basename: dot > 0 ? name.slice(0, dot) : name, extension: dot > 0 ? name.slice(dot + 1) : '', stat } as TFile;
  }
}

const ALL = UNRESTRICTED_SCOPE;

async function started(docs: Record<string, string>): Promise<{ notes: FakeNotes; index: SearchIndex }> {
  const notes = new FakeNotes(docs);
  const index = new SearchIndex(notes.asStore());
  await index.start();
  return { notes, index };
}

function paths(page: SearchPage): string[] {
  return page.results.map((r) => r.path);
}

async function expectInvalid(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe('invalid_argument');
  expect((err as ToolError).message).toMatch(message);
}

const VAULT: Record<string, string> = {
  'Plugins/Canvas.md':
    '---\ntags: [plugin]\n---\nCanvas is a core plugin for visual note-taking.\n\n## Create a canvas\n\nOpen the Command\npalette and pick Canvas.\n',
  'Notes/Meeting.md': '# Meeting\n\nWe talked about the canvas briefly, then the budget.\nPhone 555-1234.\n',
  'Notes/Palette.md': 'A palette of colours. The command to open it is hidden.\n',
  'Notes/Draft.md': '---\nstatus: draft\npriority: 3\ndue: 2024-05-01\n---\nA canvas draft about plugins.\n',
  'Projects/Alpha.md':
    '---\nstatus: in progress\npriority: 8\ndue: 2024-07-15\ntags:\n  - project/alpha\n---\n# Alpha\n\n## Plan\n\nShip the beta.\n',
  'Projects/Beta.md': '---\nstatus: done\npriority: 5\nreviewed:\n---\nThe #project note about beta testing.\n',
  'Projects/Gamma.md': '---\nchecked: 2024-06-01T09:00\n---\nUnrelated #projects note.\n',
  'Journal/2024-06-01.md': '# Day\n\n今日は日本語の検索をテストしました。\n',
  'Journal/Scattered.md': '日本の人。本語り。\n',
};

describe('SearchIndex: ranking and query operators', () => {
  let index: SearchIndex;
  let notes: FakeNotes;
  beforeAll(async () => {
    ({ notes, index } = await started(VAULT));
  });

  it('ranks the note titled with the term first; plain words rank notes with every word above those with some', async () => {
    const page = await index.search('canvas', ALL);
    expect(paths(page)[0]).toBe('Plugins/Canvas.md');
    expect(new Set(paths(page))).toEqual(new Set(['Plugins/Canvas.md', 'Notes/Meeting.md', 'Notes/Draft.md']));
    expect(page.results[0]).toMatchObject({ id: 'path:Plugins/Canvas.md', title: 'Canvas', source: 'lexical', all_terms: true });
    expect(page.results[0].score).toBeGreaterThan(page.results[1].score);
    const both = await index.search('canvas budget', ALL);
    expect(paths(both)[0]).toBe('Notes/Meeting.md');
    expect(both.results[0]).toMatchObject({ all_terms: true });
    expect(both.results[0].missing_terms).toBeUndefined();
    expect(new Set(paths(both).slice(1))).toEqual(new Set(['Plugins/Canvas.md', 'Notes/Draft.md']));
    for (const hit of both.results.slice(1)) expect(hit).toMatchObject({ all_terms: false, missing_terms: ['budget'] });
    expect(both).toMatchObject({ total: 3, all_terms_total: 1 });
    // With an operator the words are a filter again, as in Obsidian: every word must match.
    const filtered = await index.search('"canvas" budget', ALL);
    expect(paths(filtered)).toEqual(['Notes/Meeting.md']);
    expect(filtered.results[0].all_terms).toBeUndefined();
    expect(filtered.all_terms_total).toBeUndefined();
  });

  it('matches prefixes and small typos of longer words', async () => {
    expect(paths(await index.search('canv', ALL))).toContain('Plugins/Canvas.md');
    expect(paths(await index.search('canvaz', ALL))).toContain('Plugins/Canvas.md');
  });

  it('matches an exact phrase in order across line breaks only', async () => {
    const page = await index.search('"command palette"', ALL);
    expect(paths(page)).toEqual(['Plugins/Canvas.md']);
    expect(page.results[0].snippet).toContain('**Command palette**');
  });

  it('excludes negated words and phrases', async () => {
    expect(paths(await index.search('canvas -draft', ALL)).sort()).toEqual(['Notes/Meeting.md', 'Plugins/Canvas.md']);
    expect(paths(await index.search('canvas -"core plugin"', ALL)).sort()).toEqual(['Notes/Draft.md', 'Notes/Meeting.md']);
  });

  it('combines OR and groups with Obsidian precedence', async () => {
    expect(paths(await index.search('canvas budget OR visual', ALL)).sort()).toEqual(['Notes/Meeting.md', 'Plugins/Canvas.md']);
    expect(paths(await index.search('(beta -testing) OR budget', ALL)).sort()).toEqual(['Notes/Meeting.md', 'Projects/Alpha.md']);
  });

  it('filters by tag, including nested tags but not longer names', async () => {
    expect(paths(await index.search('tag:#project', ALL))).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    expect(paths(await index.search('tag:project/alpha', ALL))).toEqual(['Projects/Alpha.md']);
    expect(paths(await index.search('tag:PLUGIN', ALL))).toEqual(['Plugins/Canvas.md']);
    expect(paths(await index.search('beta -tag:project/alpha', ALL))).toEqual(['Projects/Beta.md']);
  });

  it('filters by path and file name', async () => {
    expect(paths(await index.search('path:projects', ALL))).toEqual(['Projects/Alpha.md', 'Projects/Beta.md', 'Projects/Gamma.md']);
    expect(paths(await index.search('canvas path:Notes', ALL)).sort()).toEqual(['Notes/Draft.md', 'Notes/Meeting.md']);
    expect(paths(await index.search('file:meet', ALL))).toEqual(['Notes/Meeting.md']);
    expect(paths(await index.search('path:/^Journal\\/2024/', ALL))).toEqual(['Journal/2024-06-01.md']);
  });

  it('filters by properties: existence, value, comparisons and has:', async () => {
    expect(paths(await index.search('[status]', ALL))).toEqual(['Notes/Draft.md', 'Projects/Alpha.md', 'Projects/Beta.md']);
    expect(paths(await index.search('[status:"in progress"]', ALL))).toEqual(['Projects/Alpha.md']);
    expect(paths(await index.search('[STATUS:Done]', ALL))).toEqual(['Projects/Beta.md']);
    expect(paths(await index.search('[priority:>4]', ALL))).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    expect(paths(await index.search('[priority:<=5]', ALL))).toEqual(['Notes/Draft.md', 'Projects/Beta.md']);
    expect(paths(await index.search('[priority:=8]', ALL))).toEqual(['Projects/Alpha.md']);
    expect(paths(await index.search('[due:<2024-06-01]', ALL))).toEqual(['Notes/Draft.md']);
    expect(paths(await index.search('[due:>=2024-06-01]', ALL))).toEqual(['Projects/Alpha.md']);
    expect(paths(await index.search('[reviewed:null]', ALL))).toEqual(['Projects/Beta.md']);
    expect(paths(await index.search('has:due -has:tags', ALL))).toEqual(['Notes/Draft.md']);
  });

  it("compares dates at the precision of the less precise side, as query_notes does: a time on a date's day is that date", async () => {
    expect(paths(await index.search('[checked:>2024-06-01]', ALL))).toEqual([]);
    expect(paths(await index.search('[checked:>=2024-06-01]', ALL))).toEqual(['Projects/Gamma.md']);
    expect(paths(await index.search('[checked:=2024-06-01]', ALL))).toEqual(['Projects/Gamma.md']);
    expect(paths(await index.search('[checked:<2024-06-01T10:00]', ALL))).toEqual(['Projects/Gamma.md']);
    expect(paths(await index.search('[checked:<2024-06-01T09:00]', ALL))).toEqual([]);
    expect(paths(await index.search('[checked:>2024-06-01T08:59:30]', ALL))).toEqual(['Projects/Gamma.md']);
    // A year or a month compares at its own precision; comparisons combine in a property's sub-query.
    expect(paths(await index.search('[checked:>2024]', ALL))).toEqual([]);
    expect(paths(await index.search('[checked:<2025]', ALL))).toEqual(['Projects/Gamma.md']);
    expect(paths(await index.search('[checked:=2024-06]', ALL))).toEqual(['Projects/Gamma.md']);
    expect(paths(await index.search('[due:<2024-06]', ALL))).toEqual(['Notes/Draft.md']);
    expect(paths(await index.search('[due:>2024-06 OR <2024-05]', ALL))).toEqual(['Projects/Alpha.md']);
    expect(paths(await index.search('[due:-(>2024-06)]', ALL))).toEqual(['Notes/Draft.md']);
    expect(paths(await index.search('[priority:3 OR >7]', ALL))).toEqual(['Notes/Draft.md', 'Projects/Alpha.md']);
  });

  it('lists notes for a filter-only query with score 0, by path', async () => {
    const page = await index.search('path:Projects -tag:project', ALL);
    expect(page.results).toEqual([expect.objectContaining({ path: 'Projects/Gamma.md', score: 0, section: null, section_heading: null })]);
  });

  it('tests /regex/ on the body only, and the whole query as a regex with regex:true', async () => {
    const page = await index.search('/\\d{3}-\\d{4}/', ALL);
    expect(paths(page)).toEqual(['Notes/Meeting.md']);
    expect(page.results[0].snippet).toContain('**555-1234**');
    // "draft" is in Draft.md's frontmatter and body; "in progress" only in Alpha's frontmatter.
    expect(paths(await index.search('/in progress/', ALL))).toEqual([]);
    expect(paths(await index.search('^Ship the', ALL, { regex: true }))).toEqual(['Projects/Alpha.md']);
    await expectInvalid(index.search('/(/', ALL), /invalid/);
    await expectInvalid(index.search('a(', ALL, { regex: true }), /invalid/);
  });

  it('anchors the snippet on the first body match and names its section', async () => {
    const page = await index.search('beta', ALL);
    const alpha = page.results.find((r) => r.path === 'Projects/Alpha.md');
    expect(alpha).toMatchObject({ snippet: 'Alpha Plan Ship the **beta**.', section: '1.1', section_heading: 'Plan' });
    const beta = page.results.find((r) => r.path === 'Projects/Beta.md');
    expect(beta).toMatchObject({ snippet: 'The #project note about **beta** testing.', section: '0', section_heading: '(preamble)' });
    const canvas = (await index.search('"pick canvas"', ALL)).results[0];
    expect(canvas).toMatchObject({ section: '1', section_heading: 'Create a canvas' });
  });

  it('finds Japanese text by a Japanese query, and not by a partial mismatch', async () => {
    const page = await index.search('日本語', ALL);
    expect(paths(page)).toEqual(['Journal/2024-06-01.md']);
    expect(page.results[0]).toMatchObject({
      snippet: 'Day 今日は**日本語**の検索をテストしました。',
      section: '1',
      section_heading: 'Day',
    });
    expect(paths(await index.search('検索', ALL))).toEqual(['Journal/2024-06-01.md']);
    expect(paths(await index.search('検', ALL))).toEqual(['Journal/2024-06-01.md']);
    expect(paths(await index.search('語', ALL)).sort()).toEqual(['Journal/2024-06-01.md', 'Journal/Scattered.md']);
    // Both bigrams of 日本語 are in Scattered.md, but never side by side.
    expect(paths(await index.search('"日本" 人', ALL))).toEqual(['Journal/Scattered.md']);
    expect(paths(await index.search('"の人"', ALL))).toEqual(['Journal/Scattered.md']);
    expect(paths(await index.search('"検"', ALL))).toEqual(['Journal/2024-06-01.md']);
    expect(paths(await index.search('日本人', ALL))).toEqual([]);
  });

  it('omits the snippet with fields:"metadata"', async () => {
    const page = await index.search('canvas', ALL, { fields: 'metadata' });
    expect(page.results.length).toBeGreaterThan(0);
    for (const r of page.results) expect(r).not.toHaveProperty('snippet');
  });

  it('shows only notes the scope may read', async () => {
    const scoped = { label: 'Bot', roots: ['Projects'] };
    expect(paths(await index.search('beta', scoped)).sort()).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    expect((await index.search('canvas', scoped)).total).toBe(0);
    // A note turns unreadable through its own frontmatter (`access: private`), so with a change of it.
    const beta = notes.texts.get('Projects/Beta.md') as string;
    notes.hidden.add('Projects/Beta.md');
    notes.write('Projects/Beta.md', beta);
    expect(paths(await index.search('beta', ALL))).toEqual(['Projects/Alpha.md']);
    expect(paths(await index.search('tag:project', ALL))).toEqual(['Projects/Alpha.md']);
    notes.hidden.delete('Projects/Beta.md');
    notes.write('Projects/Beta.md', beta);
    expect(paths(await index.search('beta', ALL)).sort()).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
  });
});

describe('SearchIndex: paging and arguments', () => {
  const docs: Record<string, string> = {};
  for (let i = 0; i < 25; i++) docs[`Many/Note ${String(i).padStart(2, '0')}.md`] = `shared word number ${i}\n`;

  it('pages with an opaque cursor until the last page', async () => {
    const { index } = await started(docs);
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await index.search('shared', ALL, { limit: 10, cursor });
      expect(page.total).toBe(25);
      sizes.push(page.results.length);
      seen.push(...paths(page));
      cursor = page.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([10, 10, 5]);
    expect(new Set(seen).size).toBe(25);
    expect((await index.search('shared', ALL)).results).toHaveLength(20);
  });

  it('rejects a bad cursor, a cursor of another query and an out-of-range limit', async () => {
    const { index } = await started(docs);
    const first = await index.search('shared', ALL, { limit: 5 });
    await expectInvalid(index.search('shared', ALL, { cursor: 'not-a-cursor' }), /cursor is not valid/);
    await expectInvalid(index.search('word', ALL, { cursor: first.next_cursor }), /different query/);
    await expectInvalid(index.search('shared', ALL, { limit: 0 }), /limit/);
    await expectInvalid(index.search('shared', ALL, { limit: 101 }), /limit/);
    await expectInvalid(index.search('  ', ALL), /empty/);
  });

  it('a cursor pages the same query typed with outer spaces; a regex keeps its spaces', async () => {
    const { index } = await started(docs);
    const first = await index.search('shared', ALL, { limit: 10 });
    const second = await index.search(' shared \n', ALL, { limit: 10, cursor: first.next_cursor });
    expect(second.results.map((hit) => hit.path)).toEqual(
      (await index.search('shared', ALL, { limit: 20 })).results.slice(10).map((hit) => hit.path),
    );
    const byRegex = await index.search('word ', ALL, { limit: 10, regex: true });
    await expectInvalid(index.search('word', ALL, { limit: 10, regex: true, cursor: byRegex.next_cursor }), /different query/);
    expect((await index.search('word ', ALL, { limit: 10, regex: true, cursor: byRegex.next_cursor })).results).toHaveLength(10);
  });

  it('pages a phrase over thousands of notes reading a page and a sample, its total flagged as an estimate', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      many[`P/${String(i).padStart(4, '0')}.md`] =
        i % 2 === 0 ? `the end of the road ${i}\n` : `the of road ${i} and a few more words here\n`;
    const { notes, index } = await started(many);
    notes.reads = 0;
    const first = await index.search('"of the"', ALL, { limit: 10 });
    // The page's notes, then the sample the total is estimated from: far from all 1500.
    expect(notes.reads).toBeLessThan(300);
    expect(first.total_estimated).toBe(true);
    expect(first.total).toBeGreaterThanOrEqual(650);
    expect(first.total).toBeLessThanOrEqual(850);
    expect(first.results).toHaveLength(10);
    const second = await index.search('"of the"', ALL, { limit: 10, cursor: first.next_cursor });
    const shown = [...paths(first), ...paths(second)];
    // Ties at one score go by path: the first twenty even notes, as a full read lists them.
    expect(shown).toEqual(Array.from({ length: 20 }, (_, i) => `P/${String(2 * i).padStart(4, '0')}.md`));
    // A small phrase query still counts exactly, without the flag.
    const exact = await index.search('"end of the road 12"', ALL);
    expect([exact.total, exact.total_estimated]).toEqual([1, undefined]);
  });
});

describe('SearchIndex: a build past a large map size', () => {
  it("ends the slice before the note whose key grows the engine's maps by path, and again before it grows the manifest", async () => {
    // 16,384 notes fill each Map's table (mapGrowsAtNextSet): the 16,385th note's new key rebuilds them.
    const many: Record<string, string> = {};
    for (let i = 0; i <= 16384; i++) many[`N/${String(i).padStart(5, '0')}.md`] = `note ${i} about maps\n`;
    const notes = new FakeNotes(many);
    const index = new SearchIndex(notes.asStore());
    const internals = index as unknown as { engine: { size: number }; manifest: Map<string, unknown> };
    const ends: [number, number][] = [];
    const original = Slicer.prototype.endSlice;
    const endSlice = jest.spyOn(Slicer.prototype, 'endSlice').mockImplementation(function (this: Slicer) {
      ends.push([internals.engine.size, internals.manifest.size]);
      return original.call(this);
    });
    try {
      await index.start();
      await index.whenBuilt();
    } finally {
      endSlice.mockRestore();
    }
    // [engine, manifest] sizes at each slice end: before the engine's growth, then before the manifest's.
    expect(ends).toEqual([
      [16384, 16384],
      [16385, 16384],
    ]);
    expect(internals.manifest.size).toBe(16385);
    const page = await index.search('16384', ALL);
    expect(paths(page)).toEqual(['N/16384.md']);
  });
});

describe('SearchIndex: hostile queries', () => {
  const SLOW = /too slow.*it nests repeats.*repeat the part once/;

  it('refuses a catastrophically backtracking regex instead of hanging', async () => {
    const { index } = await started({ 'Notes/A.md': 'a'.repeat(30000) + '!\n', 'Notes/B.md': 'plain words here\n' });
    await expectInvalid(index.search('/^(a+)+$/', ALL), SLOW);
    // The note it is slow on is named, so the caller can leave it out.
    await expectInvalid(index.search('/^(a+)+$/', ALL), /too slow on the note 'Notes\/A\.md'/);
    await expectInvalid(index.search('^(\\w+\\s?)*$', ALL, { regex: true }), SLOW);
    // The same search still works with a harmless regex afterwards.
    expect(paths(await index.search('/^a+!$/', ALL))).toEqual(['Notes/A.md']);
  });

  it('refuses a backtracking path:/re/ and file:/re/ on a long name', async () => {
    const name = 'a'.repeat(40) + '!';
    const { index } = await started({ [`${name}/${name}.md`]: 'text\n', 'Notes/B.md': 'text\n' });
    await expectInvalid(index.search('path:/^(a+)+$/', ALL), SLOW);
    await expectInvalid(index.search('file:/^(a|a)*$/', ALL), /too slow.*it backtracks: .*\); narrow a repeated part/);
    expect(paths(await index.search('file:/^a+!\\.md$/', ALL))).toEqual([`${name}/${name}.md`]);
  });

  it('refuses a regex that is fast to test but backtracks while highlighting the snippet', async () => {
    // test() succeeds at offset 0; matchAll for the snippet then backtracks on the long run of a's.
    const { index } = await started({ 'Notes/A.md': 'b\n' + 'a'.repeat(30000) + '!\n' });
    await expectInvalid(index.search('/^b$|^(a+)+$/', ALL), /too slow on the note 'Notes\/A\.md'.*it nests repeats/);
  });
});

describe('SearchIndex: composed and decomposed Unicode', () => {
  const nfd = (s: string): string => s.normalize('NFD');

  it('finds NFC paths and NFD note text from NFD or NFC queries', async () => {
    const { index } = await started({
      'Reference/Café.md': `# Café\n\nWe ate ${nfd('pastéis')} de nata here.\n`,
      'Übersicht.md': `${nfd('Die Übersicht')} aller Notizen.\n`,
      'Notes/Cafe.md': 'No accent here.\n',
    });
    for (const q of [nfd('file:Café'), 'file:Café']) expect(paths(await index.search(q, ALL))).toEqual(['Reference/Café.md']);
    expect(paths(await index.search(nfd('path:Reference/Café'), ALL))).toEqual(['Reference/Café.md']);
    expect(paths(await index.search(nfd('file:Übersicht'), ALL))).toEqual(['Übersicht.md']);
    for (const q of [nfd('"pastéis de nata"'), '"pastéis de nata"']) {
      const page = await index.search(q, ALL);
      expect(paths(page)).toEqual(['Reference/Café.md']);
      expect(page.results[0].snippet).toContain(`**${nfd('pastéis')} de nata**`);
    }
    expect(paths(await index.search(nfd('"die übersicht"'), ALL))).toEqual(['Übersicht.md']);
    expect(paths(await index.search(nfd('file:/^Über/'), ALL))).toEqual(['Übersicht.md']);
  });
});

describe('SearchIndex: diacritics', () => {
  it('folds Latin diacritics both ways: "cafe" finds "Café" and "crème" finds "creme"', async () => {
    const { index } = await started({
      'Reference/Café.md': '# Café\n\nThe crème brûlée was good.\n',
      'Notes/Plain.md': 'A creme without accents.\n',
    });
    expect(paths(await index.search('cafe', ALL))).toEqual(['Reference/Café.md']);
    expect(paths(await index.search('crème', ALL)).sort()).toEqual(['Notes/Plain.md', 'Reference/Café.md']);
    expect(paths(await index.search('brulee', ALL))).toEqual(['Reference/Café.md']);
    expect((await index.search('brulee', ALL)).results[0].snippet).toContain('**brûlée**');
  });
});

describe('SearchIndex: lifecycle and incremental updates', () => {
  it('follows creates, modifies, deletes and renames', async () => {
    const { notes, index } = await started({ 'A.md': 'apple banana\n', 'B.md': 'cherry\n' });
    notes.write('A.md', 'apple durian\n');
    expect(paths(await index.search('durian', ALL))).toEqual(['A.md']);
    expect(paths(await index.search('banana', ALL))).toEqual([]);
    notes.write('C.md', 'durian again\n');
    expect(paths(await index.search('durian', ALL))).toEqual(['A.md', 'C.md']);
    notes.delete('A.md');
    expect(paths(await index.search('durian', ALL))).toEqual(['C.md']);
    notes.rename('B.md', 'Fruit/Cherry tree.md');
    const page = await index.search('cherry', ALL);
    expect(paths(page)).toEqual(['Fruit/Cherry tree.md']);
    expect(page.results[0].title).toBe('Cherry tree');
    expect(paths(await index.search('path:Fruit', ALL))).toEqual(['Fruit/Cherry tree.md']);
  });

  it('drops a note that becomes unreadable (e.g. access: private) when it changes', async () => {
    const { notes, index } = await started({ 'A.md': 'secret plans\n' });
    notes.hidden.add('A.md');
    notes.write('A.md', 'secret plans\n');
    expect((await index.search('secret', ALL)).total).toBe(0);
  });

  it('builds in slices, yielding to the event loop (setImmediate in Node) between them; a search during the build answers at once, flagged incomplete', async () => {
    const docs: Record<string, string> = {};
    for (let i = 0; i < 500; i++) docs[`Bulk/${i}.md`] = `bulk note ${i} ${i % 7 === 0 ? 'seventh' : ''}\n`;
    const notes = new FakeNotes(docs);
    const index = new SearchIndex(notes.asStore(), { sliceNotes: 25 });
    const realSetImmediate = global.setImmediate;
    const readsAtYield: number[] = [];
    const spy = jest.spyOn(global, 'setImmediate').mockImplementation(((fn: () => void) => {
      readsAtYield.push(notes.reads);
      return realSetImmediate(fn);
    }) as unknown as typeof setImmediate);
    let searchReads = 0;
    let buildYields: number[] = [];
    try {
      expect(index.state).toBe('idle');
      const building = index.start();
      expect(index.state).toBe('building');
      const readsBefore = notes.reads;
      const partial = await index.search('seventh', ALL, { limit: 100 });
      searchReads = notes.reads - readsBefore;
      expect(partial.total).toBeLessThan(72);
      expect(partial.index).toEqual({ complete: false, indexed: expect.any(Number), total: 500 });
      expect(partial.index?.indexed).toBeLessThan(500);
      expect(partial.note).toMatch(/still being built \(\d+ of 500 notes/);
      await building;
      // The yields of the build alone: the ranking steps that follow it yield too, and under load one of theirs can land after the search below reads its 72 hits.
      buildYields = [...readsAtYield];
      expect(index.state).toBe('ready');
      const page = await index.search('seventh', ALL, { limit: 100 });
      expect(page.total).toBe(72);
      expect(page.index).toBeUndefined();
      expect(page.note).toBeUndefined();
      expect(index.stats).toMatchObject({ complete: true, indexed: 500, total: 500, buildMs: expect.any(Number) });
      expect(index.stats.longestSliceMs).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
    expect(buildYields.length).toBeGreaterThanOrEqual(19);
    const slices = buildYields.map((r, i) => r - (i === 0 ? 0 : buildYields[i - 1]));
    // The partial search read its hits' texts for snippets inside one slice.
    expect(Math.max(...slices)).toBeLessThanOrEqual(25 + searchReads);
  });

  it('keeps the changes made while the saved index loads: modified, deleted, created and renamed notes', async () => {
    const notes = new FakeNotes({ 'A.md': 'apple pie\n', 'B.md': 'banana bread\n', 'D.md': 'damson jam\n' });
    const storage = memoryIndexStorage();
    const first = new SearchIndex(notes.asStore(), { storage });
    await first.start();
    await first.whenBuilt();
    first.stop();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const second = new SearchIndex(notes.asStore(), { storage: { ...storage, loadHead: () => gate.then(() => storage.head) } });
    const building = second.start();
    // Same length, same (fake) mtime: only the change event says the note changed.
    notes.write('A.md', 'plums pie\n');
    notes.delete('B.md');
    notes.write('C.md', 'cherry tart\n');
    notes.rename('D.md', 'E.md');
    release();
    await building;
    expect(second.stats.warm).toBe(true);
    expect(paths(await second.search('plums', ALL))).toEqual(['A.md']);
    expect(paths(await second.search('apple', ALL))).toEqual([]);
    expect(paths(await second.search('banana', ALL))).toEqual([]);
    expect(paths(await second.search('cherry', ALL))).toEqual(['C.md']);
    expect(paths(await second.search('damson', ALL))).toEqual(['E.md']);
    second.stop();
  });

  it("makes a warm start's block bounds after the index is complete: the same pages before them, pruned after", async () => {
    // 600 notes: "alpha" and "beta" are in every note, in lists long enough for block bounds.
    const texts: Record<string, string> = {};
    for (let i = 0; i < 600; i++) texts[`N/${String(i).padStart(3, '0')}.md`] = `alpha ${'beta '.repeat(1 + (i % 7))}gamma${i % 13}\n`;
    const notes = new FakeNotes(texts);
    const storage = memoryIndexStorage();
    const first = new SearchIndex(notes.asStore(), { storage });
    await first.start();
    await first.whenBuilt();
    const queries = ['alpha', 'beta', 'alpha beta', 'beta gamma3'];
    const pages = async (index: SearchIndex): Promise<unknown[]> => {
      const all: unknown[] = [];
      for (const q of queries)
        for (const limit of [1, 5, 20]) {
          const page = await index.search(q, ALL, { limit });
          all.push([q, limit, page.total, page.total_estimated, page.results.map((r) => [r.path, r.score])]);
        }
      return all;
    };
    const cold = await pages(first);
    first.stop();
    // The warm start's bound steps, held back until the test runs them.
    const boundCalls: boolean[] = [];
    const boundSteps = jest.spyOn(LexicalEngine.prototype, 'boundSteps').mockImplementation(function* () {
      boundCalls.push(second.stats.complete);
      yield* [];
    });
    const pruned = jest.spyOn(pruning, 'prunedScores');
    const second = new SearchIndex(notes.asStore(), { storage });
    try {
      await second.start();
      await second.whenBuilt();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(second.stats).toMatchObject({ warm: true, reindexed: 0, complete: true });
      // Asked for once, after completeness.
      expect(boundCalls).toEqual([true]);
      expect(await pages(second)).toEqual(cold);
      expect(pruned.mock.results.filter((r) => r.value !== null).length).toBe(0);
      boundSteps.mockRestore();
      for (const step of (second as unknown as { engine: LexicalEngine }).engine.boundSteps()) void step;
      pruned.mockClear();
      expect(await pages(second)).toEqual(cold);
      expect(pruned.mock.results.filter((r) => r.value !== null).length).toBeGreaterThan(0);
    } finally {
      boundSteps.mockRestore();
      pruned.mockRestore();
      second.stop();
    }
  });

  it('refuses searches before start and after stop, and stops listening', async () => {
    const notes = new FakeNotes({ 'A.md': 'apple\n' });
    const index = new SearchIndex(notes.asStore());
    await expect(index.search('apple', ALL)).rejects.toMatchObject({ code: 'unavailable' });
    await index.start();
    expect(notes.listeners.size).toBe(1);
    expect((await index.search('apple', ALL)).total).toBe(1);
    index.stop();
    expect(index.state).toBe('idle');
    expect(notes.listeners.size).toBe(0);
    await expect(index.search('apple', ALL)).rejects.toMatchObject({ code: 'unavailable' });
    await index.start();
    expect((await index.search('apple', ALL)).total).toBe(1);
    index.stop();
  });
});

/** Every `.md` file under `root` (dot-folders skipped), keyed by its `/`-separated path relative to `root`. */
function readVault(root: string): Record<string, string> {
  const docs: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) docs[path.relative(root, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return docs;
}

const helpVault = path.resolve(process.cwd(), '../shared/vaults/obsidian-help-en');
const withHelpVault = fs.existsSync(helpVault) ? describe : describe.skip;
if (!fs.existsSync(helpVault)) console.log(`Skipping the help-vault search test: ${helpVault} is absent.`);

withHelpVault('SearchIndex on the Obsidian help vault', () => {
  let index: SearchIndex;
  beforeAll(async () => {
    index = new SearchIndex(new FakeNotes(readVault(helpVault)).asStore());
    await index.start();
  });

  it('ranks Plugins/Canvas.md in the top 3 for "canvas"', async () => {
    const page = await index.search('canvas', ALL);
    expect(paths(page).slice(0, 3)).toContain('Plugins/Canvas.md');
    expect(page.total).toBeGreaterThan(3);
  });

  it('places snippets and sections for a phrase', async () => {
    const page = await index.search('"command palette"', ALL, { limit: 5 });
    expect(page.results.length).toBeGreaterThan(0);
    for (const r of page.results) expect(r.snippet).toMatch(/\*\*command palette\*\*/i);
  });
});

const intlVault = path.resolve(process.cwd(), '../shared/vaults/obsidian-help-intl');
const withIntlVault = fs.existsSync(intlVault) ? describe : describe.skip;
if (!fs.existsSync(intlVault)) console.log(`Skipping the intl help-vault search test: ${intlVault} is absent.`);

withIntlVault('SearchIndex on the translated help vaults', () => {
  let index: SearchIndex;
  beforeAll(async () => {
    index = new SearchIndex(new FakeNotes(readVault(intlVault)).asStore());
    await index.start();
  });

  it.each([
    ['キャンバス', 'ja/プラグイン/Canvas.md'],
    ['デイリーノート', 'ja/プラグイン/デイリーノート.md'],
    ['自定义域名', 'zh/Obsidian Publish/自定义域名.md'],
    ['白板', 'zh/插件/白板.md'],
    ['سياسة الاسترداد', 'ar/التراخيص والدفع/سياسة الاسترداد.md'],
    ['ضريبة المبيعات', 'ar/التراخيص والدفع/ضريبة المبيعات.md'],
  ])('finds %s with %s in the top 3', async (query, expected) => {
    const page = await index.search(query, ALL);
    expect(paths(page).slice(0, 3)).toContain(expected);
  });
});
