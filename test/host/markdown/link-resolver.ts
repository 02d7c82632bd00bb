import type { TFile } from '../vault/abstract-file';
import { normalizePath, parentPath } from '../vault/path';

/** Folder segments shared by two folder paths (`/` is the root, sharing nothing). */
function sharedFolderDepth(a: string, b: string): number {
  if (a === '/' || b === '/') return 0;
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/**
 * Resolves linkpaths to files the way Obsidian's `getFirstLinkpathDest` does
 * (https://help.obsidian.md/links): matching is case-insensitive (exact case preferred);
 * `./` and `../` are relative to the linking note's folder; a leading `/` is vault-absolute;
 * otherwise an exact vault path (as written, then with `.md`) wins, else any file whose path
 * ends with the linkpath (`Note`, `Folder/Note`, `Note.md`). Among several such files the host
 * prefers, in order: the linking note's folder, the most folder segments shared with it, the
 * fewest path segments, an exact-case match, then alphabetical order.
 */
export class LinkResolver {
  private byPath = new Map<string, TFile[]>();
  private byName = new Map<string, TFile[]>();
  /** True when the vault's files changed since the tables were made: the next lookup makes them again. */
  private stale = true;

  /** @param files the vault's files now (`vault.getFiles()`), read when the tables are made again. */
  constructor(private readonly files: () => TFile[]) {}

  /**
   * Marks the lookup tables out of date (call after a create, delete or rename): they are made
   * again from the vault's files at the next lookup, once for any number of changes (a folder of
   * 1,000 notes moved reports 1,000 renames; making the tables after each was quadratic).
   */
  invalidate(): void {
    this.stale = true;
  }

  /** Makes the lookup tables again from the vault's files when {@link invalidate} was called since. */
  private fresh(): void {
    if (!this.stale) return;
    this.stale = false;
    this.byPath = new Map();
    this.byName = new Map();
    const push = (m: Map<string, TFile[]>, k: string, f: TFile): void => {
      const list = m.get(k);
      if (list) list.push(f);
      else m.set(k, [f]);
    };
    for (const f of this.files()) {
      push(this.byPath, f.path.toLowerCase(), f);
      push(this.byName, f.name.toLowerCase(), f);
    }
  }

  /**
   * The file `linkpath` (no `#subpath`) points to from the note at `sourcePath`, or null.
   * An empty linkpath (as in `[[#Heading]]`) means the source note itself.
   */
  resolve(linkpath: string, sourcePath: string): TFile | null {
    this.fresh();
    let lp = linkpath.trim();
    if (lp === '') return this.exact(sourcePath);
    const sourceFolder = parentPath(sourcePath);
    if (lp.startsWith('./') || lp.startsWith('../')) {
      const joined = this.joinRelative(sourceFolder, lp);
      return joined === null ? null : (this.exact(joined) ?? this.exact(joined + '.md'));
    }
    if (lp.startsWith('/')) lp = normalizePath(lp);
    const direct = this.exact(lp) ?? this.exact(lp + '.md');
    if (direct) return direct;
    return this.bySuffix(lp, sourceFolder) ?? this.bySuffix(lp + '.md', sourceFolder);
  }

  /** Whether exactly one file has this file name (case-insensitive). */
  isUniqueName(name: string): boolean {
    this.fresh();
    return (this.byName.get(name.toLowerCase())?.length ?? 0) === 1;
  }

  private exact(path: string): TFile | null {
    const list = this.byPath.get(normalizePath(path).toLowerCase());
    if (!list) return null;
    return list.find((f) => f.path === path) ?? list[0];
  }

  private bySuffix(lp: string, sourceFolder: string): TFile | null {
    const wanted = normalizePath(lp).toLowerCase();
    const name = wanted.slice(wanted.lastIndexOf('/') + 1);
    const candidates = (this.byName.get(name) ?? []).filter((f) => {
      const p = f.path.toLowerCase();
      return p === wanted || p.endsWith('/' + wanted);
    });
    if (candidates.length <= 1) return candidates[0] ?? null;
    const rank = (f: TFile): [number, number, number, number] => {
      const folder = parentPath(f.path);
      const exactCase = f.path.endsWith(lp) ? 0 : 1;
      return [folder === sourceFolder ? 0 : 1, -sharedFolderDepth(folder, sourceFolder), f.path.split('/').length, exactCase];
    };
    return candidates.sort((a, b) => {
      const ra = rank(a);
      const rb = rank(b);
      for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
      return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    })[0];
  }

  private joinRelative(folder: string, rel: string): string | null {
    const parts = folder === '/' ? [] : folder.split('/');
    for (const seg of rel.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') {
        if (parts.length === 0) return null;
        parts.pop();
      } else parts.push(seg);
    }
    return parts.length ? parts.join('/') : null;
  }
}
