import type { App, TFile as ObsidianFile } from 'obsidian';
import { TFile } from '../../../host/index';
import { FileNames } from '../../../../src/vault/access/file-names';
import type { OutsideLinks } from '../../../../src/vault/access/outside-links';

/**
 * access/file-names FileNames: the other names the vault lists for one file on disk (file links
 * judged by OutsideLinks, hard links by device and inode), the hard links counted once, in slices
 * that yield, and told late to whoever asked while the count ran.
 */

/** A stand-in vault of Markdown files at `paths`, with the vault events FileNames follows. */
function vaultOf(paths: string[]): { app: App; emit(name: 'create' | 'rename', file: TFile): void; files: Map<string, TFile> } {
  const files = new Map(paths.map((p) => [p, new TFile(null as never, p)]));
  const handlers = new Map<string, Array<(file: TFile) => void>>();
  const vault = {
    getMarkdownFiles: () => [...files.values()],
    getAbstractFileByPath: (p: string) => files.get(p) ?? null,
    on: (name: string, handler: (file: TFile) => void) => {
      handlers.set(name, [...(handlers.get(name) ?? []), handler]);
      return { name, handler };
    },
    offref: () => undefined,
  };
  return {
    app: { vault } as unknown as App,
    emit: (name, file) => {
      for (const handler of handlers.get(name) ?? []) handler(file);
    },
    files,
  };
}

/**
 * OutsideLinks as FileNames reads it: `links` (link path → the vault path it leads to) and
 * `inodes` (path → disk id; several paths sharing one have that many names); each `fileOf` takes
 * `statMs` of busy time, so a count of many files spans several slices.
 */
function placesOf(links: Record<string, string>, inodes: Record<string, string>, statMs = 0): OutsideLinks {
  const names = (id: string): number => Object.values(inodes).filter((other) => other === id).length;
  return {
    placeOf: (path: string) => ({ outside: false, alias: links[path] ?? null }),
    linksInto: (path: string) => Object.keys(links).filter((link) => links[link] === path),
    fileOf: (path: string) => {
      const until = performance.now() + statMs;
      while (performance.now() < until);
      const real = links[path] ?? path;
      const id = inodes[real] ?? `own:${real}`;
      return { id, links: inodes[real] === undefined ? 1 : names(id) };
    },
  } as unknown as OutsideLinks;
}

const paths = (files: ObsidianFile[]): string[] => files.map((f) => f.path).sort();

describe('FileNames.othersOf', () => {
  test('a note with one name has no others; nothing is counted', () => {
    const { app, files } = vaultOf(['A.md', 'B.md']);
    let stats = 0;
    const places = placesOf({}, {});
    const fileOf = places.fileOf.bind(places);
    places.fileOf = (path: string) => (stats++, fileOf(path));
    const names = new FileNames(app, places);
    const late = jest.fn();
    expect(names.othersOf(files.get('A.md')!, late)).toEqual([]);
    expect(stats).toBe(1);
    expect(late).not.toHaveBeenCalled();
    names.close();
  });

  test('file links either way: the target for the link, the links (and their other links) for the target', () => {
    const { app, files } = vaultOf(['Notes/D.md', 'Public/d1.md', 'Public/d2.md', 'Other.md']);
    const names = new FileNames(app, placesOf({ 'Public/d1.md': 'Notes/D.md', 'Public/d2.md': 'Notes/D.md' }, {}));
    expect(paths(names.othersOf(files.get('Notes/D.md')!, () => undefined))).toEqual(['Public/d1.md', 'Public/d2.md']);
    expect(paths(names.othersOf(files.get('Public/d1.md')!, () => undefined))).toEqual(['Notes/D.md', 'Public/d2.md']);
    expect(names.othersOf(files.get('Other.md')!, () => undefined)).toEqual([]);
    names.close();
  });

  test('hard links of a small vault are counted at once; a link to a hard link is a name too', () => {
    const { app, files } = vaultOf(['Notes/D.md', 'Public/h.md', 'Public/l.md', 'Other.md']);
    const names = new FileNames(app, placesOf({ 'Public/l.md': 'Public/h.md' }, { 'Notes/D.md': 'i1', 'Public/h.md': 'i1' }));
    const late: ObsidianFile[][] = [];
    const now = names.othersOf(files.get('Notes/D.md')!, (others) => late.push(others));
    expect(paths([...now, ...late.flat()])).toEqual(['Public/h.md', 'Public/l.md']);
    // Counted: the next change answers at once.
    const again = jest.fn();
    expect(paths(names.othersOf(files.get('Public/h.md')!, again))).toEqual(['Notes/D.md', 'Public/l.md']);
    expect(again).not.toHaveBeenCalled();
    names.close();
  });

  test('a count too long for one slice yields and tells the hard links late, to every caller that waited', async () => {
    const many = Array.from({ length: 60 }, (_, i) => `Bulk/n${i}.md`);
    const { app, files } = vaultOf([...many, 'Notes/D.md', 'Public/h.md']);
    // 60 files at 0.5 ms a stat: several 8 ms slices.
    const places = placesOf({}, { 'Notes/D.md': 'i1', 'Public/h.md': 'i1' }, 0.5);
    let stats = 0;
    const fileOf = places.fileOf.bind(places);
    places.fileOf = (path: string) => (stats++, fileOf(path));
    const names = new FileNames(app, places);
    const first: ObsidianFile[][] = [];
    const second: ObsidianFile[][] = [];
    expect(names.othersOf(files.get('Notes/D.md')!, (o) => first.push(o))).toEqual([]);
    expect(names.othersOf(files.get('Public/h.md')!, (o) => second.push(o))).toEqual([]);
    // The calls returned after about a slice of the count, not the whole of it (62 files).
    expect(stats).toBeGreaterThan(0);
    expect(stats).toBeLessThan(62);
    expect(first).toEqual([]);
    for (let i = 0; i < 200 && (first.length === 0 || second.length === 0); i++) await new Promise((r) => setTimeout(r, 5));
    expect(first.map(paths)).toEqual([['Public/h.md']]);
    expect(second.map(paths)).toEqual([['Notes/D.md']]);
    names.close();
  });

  test('a file with several names created after the count makes it count again (its partner had one name before)', () => {
    const { app, files, emit } = vaultOf(['Notes/D.md', 'Notes/E.md', 'Public/h.md']);
    const inodes: Record<string, string> = { 'Notes/D.md': 'i1', 'Public/h.md': 'i1' };
    const names = new FileNames(app, placesOf({}, inodes));
    names.othersOf(files.get('Notes/D.md')!, () => undefined);
    // Another program hard-links Notes/E.md (one name when counted) as Public/e.md.
    const made = new TFile(null as never, 'Public/e.md');
    files.set(made.path, made);
    inodes['Notes/E.md'] = 'i2';
    inodes['Public/e.md'] = 'i2';
    emit('create', made);
    const late: ObsidianFile[][] = [];
    const now = names.othersOf(files.get('Notes/E.md')!, (o) => late.push(o));
    expect(paths([...now, ...late.flat()])).toEqual(['Public/e.md']);
    names.close();
  });

  test('close ends a count under way: nothing is told after it', async () => {
    const many = Array.from({ length: 60 }, (_, i) => `Bulk/n${i}.md`);
    const { app, files } = vaultOf([...many, 'Notes/D.md', 'Public/h.md']);
    const names = new FileNames(app, placesOf({}, { 'Notes/D.md': 'i1', 'Public/h.md': 'i1' }, 0.5));
    const late = jest.fn();
    names.othersOf(files.get('Notes/D.md')!, late);
    names.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(late).not.toHaveBeenCalled();
  });
});
