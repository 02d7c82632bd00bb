import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type BigIntStats, type Stats } from 'node:fs';
import * as nodePath from 'node:path';
import { FileSystemAdapter, TFile, type App, type EventRef, type TAbstractFile } from 'obsidian';
import { isPathInside, lexicalVaultPath } from '../paths/paths';

/**
 * Finds vault entries whose real location is outside the vault: a symbolic link (or a
 * Windows junction) such as `LinkedDir → /elsewhere` or `passwd.md → /etc/passwd`, or
 * anything below one (issue 12, "Symlinks lead out of the vault"). Obsidian's desktop
 * adapter follows links when it loads a vault, so such entries arrive as ordinary TFiles and
 * TFolders; vaults come by git clone and sync, so a link the user never looked at is enough.
 * An entry is outside when the real path of its full path (FileSystemAdapter.getFullPath)
 * is not inside the real path of the vault folder (getBasePath). An existing entry that is not
 * itself a link has its folder's answer, so only folders and links are resolved
 * (`fs.realpathSync.native`, which walks every segment): at 100k notes a realpath per note was
 * most of a warm start. Whether an entry is a link is read from one listing of its folder
 * (`fs.readdirSync` with file types, kept {@link LISTING_MS}) when the listing names it a plain
 * file or folder, else from an `fs.lstatSync` of the entry: an lstat per note was a second of a
 * 100k-note warm start. A path that does not exist
 * yet (a write target) is judged by its nearest existing ancestor, so `LinkedDir/new.md`
 * is outside as well; a dangling link (`fs.lstatSync` says link, realpath finds no target) is
 * outside, since writing to it would create its target wherever that is. A link that stays inside the vault is fine.
 *
 * Trusted links (settings `access.trustedSymlinks`, vault paths of the links the user vouches
 * for, spaces at their ends kept) widen the rule for what lies at or below them: there the real path may also
 * be inside the link's own real target, but a further link out of that target is still outside.
 *
 * Answers are cached by vault path and dropped for a path and everything below it when the
 * vault reports it created, deleted or renamed, so checks cost one Map lookup in the steady
 * state. An adapter that is not a FileSystemAdapter (no disk paths) has no links: nothing is outside.
 */
export class OutsideLinks {
  /** Vault path → where it really lies ({@link EntryPlace}); under `path\u0000real…` when trusted links cover it (their real targets). */
  private readonly cache = new Map<string, EntryPlace>();
  /** Vault path → its keys in {@link cache} that carry trusted links' targets, so a modify drops them without a pass over the cache. */
  private readonly widened = new Map<string, Set<string>>();
  /** Answers the cache may hold before it starts over: {@link MAX_CACHED_PATHS}, or twice the vault's entries when more. */
  private limit = MAX_CACHED_PATHS;
  /** Real path of the vault folder, resolved on first use. */
  private base: string | null = null;
  /** The trusted list last seen and the real targets derived from it. */
  private trusted: { key: string; links: Array<{ path: string; real: string }> } | null = null;
  /** The plain entries of recently listed folders (see {@link isPlain}): folder vault path → when listed (performance.now) and the names. */
  private readonly listings = new Map<string, { at: number; plain: Set<string> }>();
  /**
   * Vault path a link leads to → the paths of the vault's files judged to lie there ({@link placeOf}'s `alias`):
   * the other names {@link linksInto} gives. Kept past the cache's own drops (each name is checked again when asked).
   */
  private readonly linkedFrom = new Map<string, Set<string>>();
  private readonly refs: EventRef[] = [];

  /**
   * @param app the Obsidian app (its vault adapter and vault events).
   * @param trustedLinks returns the vault paths of trusted symbolic links (settings
   *   `access.trustedSymlinks`), read on every check; malformed entries trust nothing.
   */
  constructor(
    private readonly app: App,
    private readonly trustedLinks: () => string[],
  ) {
    const drop = (file: TAbstractFile, oldPath?: string): void => {
      this.forget(file.path);
      if (oldPath !== undefined) this.forget(oldPath);
    };
    this.refs.push(app.vault.on('create', drop), app.vault.on('delete', drop), app.vault.on('rename', drop));
    // A file replaced in place (`ln -s … tmp && mv -f tmp note.md`, a sync tool's rename over it) is reported as a
    // modify: its cached answer ("a plain file") and its folder's listing may be stale, so both go. A file's own
    // keys only, not the whole cache: modifies come with every save.
    this.refs.push(app.vault.on('modify', (file) => this.forgetFile(file.path)));
  }

  /**
   * Drops the cached answers for the file at `path` alone (its keys with and without trusted
   * links, whatever the trusted list is now: one Map lookup each, not a pass over the cache) and its folder's listing.
   */
  private forgetFile(path: string): void {
    this.cache.delete(path);
    for (const key of this.widened.get(path) ?? []) this.cache.delete(key);
    this.widened.delete(path);
    const slash = path.lastIndexOf('/');
    this.listings.delete(slash === -1 ? '' : path.slice(0, slash));
  }

  /** Stops following vault events; call when the plugin unloads. */
  close(): void {
    for (const ref of this.refs) this.app.vault.offref(ref);
    this.refs.length = 0;
    this.linkedFrom.clear();
  }

  /**
   * Where the entry at the vault-relative, normalized `path` (file or folder, existing or not)
   * really lies, from the cache or judged now (one Map lookup in the steady state):
   * - `outside`: it lies outside the vault and no trusted link covers it. The vault root is never outside.
   * - `alias`: the vault path where it really lies when that differs from `path`: it is reached
   *   through a symbolic link that stays inside the vault (`Projects/J → ../Journal` makes
   *   `Projects/J/a.md` lie at `Journal/a.md`). Obsidian ignores a folder link into the vault
   *   (help.obsidian.md/symlinks) but lists a file link (`Projects/i.md → ../Inbox.md`), and a
   *   tool may name a path below an ignored folder link (a create), which the disk resolves, so the
   *   rules of the place it really lies in (quarantine, a key's roots) must hold at the link's
   *   path too (NotePolicy). Null for an entry that lies where its path says (no link on the
   *   way), or outside the vault.
   * One answer carries both, so a caller that needs both asks once (NotePolicy's quarantine test
   * runs for every note of a warm start's scan).
   */
  placeOf(path: string): EntryPlace {
    if (path === '' || !(this.app.vault.adapter instanceof FileSystemAdapter)) return IN_PLACE;
    const targets = this.trustedTargets();
    // No trusted links (the usual case): no list made per path (a scan asks for every note and its folder).
    const trusted = targets.length === 0 ? targets : targets.filter((link) => isPathInside(path, link.path, true));
    const key = trusted.length === 0 ? path : `${path}\u0000${trusted.map((t) => t.real).join('\u0000')}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const place = this.judge(this.app.vault.adapter, path, trusted);
    // A file the vault lists that lies at another vault path (a file link in the vault): one more name of that file.
    if (place.alias !== null && this.app.vault.getAbstractFileByPath(path) instanceof TFile) {
      const names = this.linkedFrom.get(place.alias);
      if (names === undefined) this.linkedFrom.set(place.alias, new Set([path]));
      else names.add(path);
    }
    // Paths come from callers (any string a tool or URI names): keep the cache bounded, with room for every vault entry.
    if (this.cache.size >= this.limit) {
      this.limit = Math.max(MAX_CACHED_PATHS, 2 * this.app.vault.getAllLoadedFiles().length);
      if (this.cache.size >= this.limit) {
        this.cache.clear();
        this.widened.clear();
      }
    }
    this.cache.set(key, place);
    if (key !== path) {
      const keys = this.widened.get(path);
      if (keys === undefined) this.widened.set(path, new Set([key]));
      else keys.add(key);
    }
    return place;
  }

  /**
   * The vault files judged (by {@link placeOf}, as every access check and the index's scan judge
   * each note) to be symbolic links that lead to the vault path `path`, each checked again now
   * (its cached place): the other names under which the vault lists the file at `path`. A link
   * not judged since the vault listed it is not known.
   * @param path vault-relative, normalized. @returns vault paths, in no set order.
   */
  linksInto(path: string): string[] {
    const names = this.linkedFrom.get(path);
    if (names === undefined) return [];
    const out: string[] = [];
    for (const name of [...names]) {
      if (this.app.vault.getAbstractFileByPath(name) instanceof TFile && this.placeOf(name).alias === path) out.push(name);
      else names.delete(name);
    }
    if (names.size === 0) this.linkedFrom.delete(path);
    return out;
  }

  /**
   * The uncached answer of {@link placeOf}. An existing entry that is not itself a link (one
   * `lstat`) lies where its folder's real path puts it, so it shares its folder's answer (cached,
   * so a folder is resolved once, not once per note below it: a `realpath` walks every segment of
   * the path); unless a trusted link is this very entry, which widens its rule alone. A link, a
   * missing entry or one whose kind cannot be told is resolved in full ({@link realPathOf}).
   */
  private judge(adapter: FileSystemAdapter, path: string, trusted: Array<{ path: string; real: string }>): EntryPlace {
    const slash = path.lastIndexOf('/');
    if (!trusted.some((link) => link.path === path) && this.isPlain(adapter, path)) {
      const folder = this.placeOf(slash === -1 ? '' : path.slice(0, slash));
      if (folder.alias === null) return folder;
      const name = path.slice(slash + 1);
      return { outside: folder.outside, alias: folder.alias === '' ? name : `${folder.alias}/${name}` };
    }
    return this.placeOfReal(adapter, path, this.realPathOf(adapter, path), trusted);
  }

  /**
   * Where `path` lies given `real`, the real disk path it resolves to (null: it resolves nowhere):
   * outside unless inside the vault folder or one of `trusted`'s real targets (the trusted links
   * covering `path`); else in place, or at the vault path `real` names when that differs.
   */
  private placeOfReal(
    adapter: FileSystemAdapter,
    path: string,
    real: string | null,
    trusted: Array<{ path: string; real: string }>,
  ): EntryPlace {
    const base = this.vaultBase(adapter);
    if (real === null || ![base, ...trusted.map((t) => t.real)].some((b) => isInsideDisk(real, b))) return OUTSIDE;
    if (!isInsideDisk(real, base)) return IN_PLACE;
    const inVault = nodePath.relative(base, real).split(nodePath.sep).join('/');
    return inVault === path ? IN_PLACE : { outside: false, alias: inVault };
  }

  /**
   * Where the entry at the vault path `path` lies now, judged on the disk with no cached answer:
   * for a write that creates or replaces the file at `path`, asked right before it. The cache of
   * {@link placeOf} is kept true by vault events, and a symbolic link whose target is missing makes
   * none (Obsidian lists no such entry), so a path answered "in place" while nothing was there
   * stayed so after a dangling link was put there, and a write followed the link (verifier,
   * session 28). Each existing segment from the vault root down is `fs.lstatSync`ed (a handful of
   * calls: writes are rare); a dangling link at or above `path` makes it outside (a write would
   * create the link's target wherever it points); when a segment is a link, the real path is
   * resolved as {@link placeOf} resolves it (`fs.realpathSync.native`); with none, the entry lies
   * where its path says. The trusted links on the way (those at or above `path`, the only ones
   * that can widen its rule) are resolved again: one may have been re-pointed since it was cached,
   * and its target now decides. Each is resolved once, shared with the dangling-link test of its
   * segment; trusted links elsewhere are not resolved at all (a write once resolved every one).
   * When one on the way resolved otherwise than cached, the cached targets are dropped for
   * {@link placeOf} too.
   * When the answer is anything but an entry in place that is no link, the cached answers for `path` are dropped, so reads judge it again too.
   * @param path vault-relative, normalized; `''` (the vault root) is never a write target.
   * @returns null when the adapter has no disk paths (no links there) or `path` is `''`; else
   *   `entry`: what the disk holds at `path` itself (`none`: nothing, not even a dangling link;
   *   `file`: a regular file; `link`: a symbolic link the user does not trust; `other`: a folder or
   *   any other kind; a trusted link, settings `access.trustedSymlinks`, counts as what it leads
   *   to), `place` (as {@link placeOf}), `names`: how many hard links the file has (`nlink`,
   *   {@link fileOf}; 0 when it is no regular file), and `file`: that file as the same `stat` saw
   *   it (null when it is no regular file), so a caller needs no `stat` of its own.
   */
  placeNow(path: string): EntryNow | null {
    const adapter = this.app.vault.adapter;
    if (path === '' || !(adapter instanceof FileSystemAdapter)) return null;
    // Real paths resolved during this call: a trusted link on the way is resolved once, for its target and its segment.
    const reals = new Map<string, string | null>();
    const realNow = (full: string): string | null => {
      let real = reals.get(full);
      if (real === undefined && !reals.has(full)) reals.set(full, (real = realOrNull(full)));
      return real ?? null;
    };
    const trusted = this.trustedOnPath(adapter, path, realNow);
    const segments = path.split('/');
    let entry: EntryNow['entry'] = 'none';
    let dangling = false;
    let linked = false;
    let now: EntryNow;
    try {
      for (let n = 1; n <= segments.length; n++) {
        const at = segments.slice(0, n).join('/');
        const full = adapter.getFullPath(at);
        const stat = lstatOrNull(full);
        // Nothing here (or a file above it): nothing exists below either.
        if (stat === null) break;
        const link = stat.isSymbolicLink();
        linked ||= link;
        if (link && realNow(full) === null) {
          dangling = true;
          if (n === segments.length) entry = 'link';
          break;
        }
        if (n < segments.length) continue;
        const trustedLink = link && trusted.some((t) => t.path === at);
        const kind = link && trustedLink ? statSync(full) : stat;
        entry = link && !trustedLink ? 'link' : kind.isFile() ? 'file' : 'other';
      }
      // No link on the way: it lies where its path says (the disk's own spelling of a name, an NFD one, is no other place).
      const place = dangling
        ? OUTSIDE
        : linked
          ? this.placeOfReal(adapter, path, this.realPathOf(adapter, path, realNow), trusted)
          : IN_PLACE;
      const file = entry === 'file' ? this.fileOf(path) : null;
      now = { entry, place, names: file?.links ?? 0, file };
    } catch {
      // A path the adapter cannot map to disk, or an entry that cannot be stat'ed: nothing may be written there.
      now = { entry: 'other', place: OUTSIDE, names: 0, file: null };
    }
    if (now.entry === 'link' || now.place.outside || now.place.alias !== null) this.forgetFile(path);
    return now;
  }

  /**
   * True when the vault entry at `path` exists and is not itself a symbolic link: a plain file or
   * folder in its folder's listing (one `readdir` with file types answers for every entry of a
   * folder), else {@link isPlainEntry} (one `lstat`): an entry the listing does not name a plain
   * file or folder (a link, a kind `readdir` cannot tell, a name created or spelled otherwise
   * since) is asked of the disk itself, so the listing can only spare an lstat, never change an
   * answer. A listing is used for {@link LISTING_MS} at most and dropped with the folder's answers.
   */
  private isPlain(adapter: FileSystemAdapter, path: string): boolean {
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? '' : path.slice(0, slash);
    const now = performance.now();
    let listing = this.listings.get(folder);
    if (listing === undefined || now - listing.at > LISTING_MS) {
      this.listings.delete(folder);
      if (this.listings.size >= MAX_LISTINGS) this.listings.delete(this.listings.keys().next().value as string);
      listing = { at: now, plain: plainEntriesOf(adapter, folder) };
      this.listings.set(folder, listing);
    }
    return listing.plain.has(path.slice(slash + 1)) || isPlainEntry(adapter, path);
  }

  /** Drops cached answers for `path` and everything below it, and the listings of its folder and of the folders at or below it. */
  private forget(path: string): void {
    for (const key of [...this.cache.keys()]) {
      const keyPath = key.split('\u0000', 1)[0] ?? key;
      if (keyPath === path || keyPath.startsWith(`${path}/`)) {
        this.cache.delete(key);
        if (key !== keyPath) this.widened.delete(keyPath);
      }
    }
    const slash = path.lastIndexOf('/');
    this.listings.delete(slash === -1 ? '' : path.slice(0, slash));
    for (const folder of [...this.listings.keys()]) if (folder === path || folder.startsWith(`${path}/`)) this.listings.delete(folder);
    this.trusted = null;
  }

  /** The real path of the vault folder (the base path itself when it cannot be resolved). */
  private vaultBase(adapter: FileSystemAdapter): string {
    if (this.base === null) {
      const basePath = adapter.getBasePath();
      this.base = realOrNull(basePath) ?? nodePath.resolve(basePath);
    }
    return this.base;
  }

  /**
   * The real path of `path`'s entry, or of its nearest existing ancestor joined with the rest;
   * null when not even the vault folder resolves or the path cannot be mapped to disk. The
   * whole path is tried first (an existing entry: one lookup); otherwise the deepest existing
   * ancestor is found by bisection (below a missing entry nothing exists), so a deep path costs
   * a few lookups, not one per segment (a 500-segment URI once blocked the main thread for half
   * a second, a 5,000-segment one for minutes). `resolve` resolves one full path ({@link placeNow}
   * passes one that remembers what it resolved during the call).
   */
  private realPathOf(adapter: FileSystemAdapter, path: string, resolve: (full: string) => string | null = realOrNull): string | null {
    const segments = path.split('/');
    const realOf = (n: number): string | null | undefined => {
      try {
        return resolve(adapter.getFullPath(segments.slice(0, n).join('/')));
      } catch {
        return undefined;
      }
    };
    const whole = realOf(segments.length);
    if (whole === undefined) return null;
    if (whole !== null) return whole;
    // A dangling link resolves nowhere, but writing to it would create its target, wherever it points.
    if (isSymbolicLink(adapter.getFullPath(path))) return null;
    let deepest: { real: string; n: number } | null = null;
    let low = 0;
    let high = segments.length;
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      const real = realOf(mid);
      if (real === undefined) return null;
      if (real === null) high = mid;
      else {
        low = mid;
        deepest = { real, n: mid };
      }
    }
    if (deepest) return nodePath.join(deepest.real, ...segments.slice(deepest.n));
    return nodePath.join(this.vaultBase(adapter), ...segments);
  }

  /**
   * The vault path a symbolic link at the vault path `path` names, read from the link itself
   * (`fs.readlinkSync`, resolved against the real path of the link's folder), whether or not its
   * target exists: where writing through a dangling link would create a file. Null when `path` is
   * not a link, names a place outside the vault (or the vault folder itself), or the adapter has
   * no disk paths. Not cached: for the few entries InstructionPlaces asks about.
   */
  linkTargetOf(path: string): string | null {
    const adapter = this.app.vault.adapter;
    if (path === '' || !(adapter instanceof FileSystemAdapter)) return null;
    try {
      const full = adapter.getFullPath(path);
      const folder = nodePath.dirname(full);
      const target = nodePath.resolve(realOrNull(folder) ?? folder, readlinkSync(full));
      const base = this.vaultBase(adapter);
      if (!isInsideDisk(target, base)) return null;
      const inVault = nodePath.relative(base, target).split(nodePath.sep).join('/');
      return inVault === '' ? null : inVault;
    } catch {
      return null;
    }
  }

  /**
   * The vault path the entry at the vault path `path` really lies at, judged on the disk now with
   * no cached answer: the real path of its full path (every link on the way followed), or of its
   * nearest existing ancestor joined with the rest, when that lies inside the vault (`''` the vault
   * root itself) and differs from `path`. For the few paths Obsidian does not list and so
   * {@link placeOf}'s events do not keep (the `.claude` folder's memory and rules files:
   * InstructionPlaces). Null when it lies where its path says, outside the vault, behind a
   * dangling link ({@link linkTargetOf} names where), when the path cannot be mapped to disk, or
   * the adapter has no disk paths. One `realpath` for an existing entry (a few for a missing one); not cached.
   */
  vaultPathOnDisk(path: string): string | null {
    const adapter = this.app.vault.adapter;
    if (path === '' || !(adapter instanceof FileSystemAdapter)) return null;
    const real = this.realPathOf(adapter, path);
    if (real === null) return null;
    const base = this.vaultBase(adapter);
    if (!isInsideDisk(real, base)) return null;
    const inVault = nodePath.relative(base, real).split(nodePath.sep).join('/');
    return inVault === path ? null : inVault;
  }

  /**
   * The file on disk behind the vault path `path` (links followed, `fs.statSync` with bigint
   * numbers), as {@link FileOnDisk} describes it. Null when it is not a regular file, cannot be
   * stat'ed, or the adapter has no disk paths. One stat, not cached.
   */
  fileOf(path: string): FileOnDisk | null {
    const stat = this.diskStat(path, 'follow');
    return stat === null ? null : fileOnDisk(stat);
  }

  /**
   * {@link fileOf} for the entry at `path` itself: `fs.lstatSync` (bigint numbers), which does not
   * follow a link at `path` (folders above it are followed as the disk resolves them); a link there
   * the user trusts (settings `access.trustedSymlinks`) counts as what it leads to, as
   * {@link placeNow} counts it (`fs.statSync` through it). For a look before a read: any other
   * link there, as anything but a regular file, answers null.
   * @param path vault-relative, normalized.
   * @returns the file; null when no regular file is there or the adapter has no disk paths.
   */
  ownFileOf(path: string): FileOnDisk | null {
    const own = this.diskStat(path, 'own');
    if (own === null) return null;
    if (!own.isSymbolicLink()) return fileOnDisk(own);
    return this.isTrustedLink(path) ? this.fileOf(path) : null;
  }

  /** True when the vault path `path` is itself an entry of the trusted list (settings `access.trustedSymlinks`, read as {@link placeNow} reads it). */
  private isTrustedLink(path: string): boolean {
    return this.trustedLinks().some((entry) => {
      try {
        return typeof entry === 'string' && lexicalVaultPath(entry) === path;
      } catch {
        return false;
      }
    });
  }

  /**
   * The device and inode (`"<dev>:<ino>"`, links followed, `fs.statSync` with bigint numbers) of
   * whatever entry lies at the vault path `path` on disk, a file or a folder: two vault paths with one
   * id are one entry (the two spellings of one name on a case-insensitive disk, or two hard links of
   * one file). Null when nothing can be stat'ed there or the adapter has no disk paths. One stat, not cached.
   */
  entryIdOf(path: string): string | null {
    const stat = this.diskStat(path, 'follow');
    return stat === null ? null : `${stat.dev}:${stat.ino}`;
  }

  /**
   * The bigint stat of the entry at the vault path `path`: `fs.statSync` (`follow`: a link at
   * `path` followed) or `fs.lstatSync` (`own`: the entry itself); null when it cannot be stat'ed,
   * `path` is the vault root or the adapter has no disk paths. One stat, not cached.
   */
  private diskStat(path: string, look: 'follow' | 'own'): BigIntStats | null {
    const adapter = this.app.vault.adapter;
    if (path === '' || !(adapter instanceof FileSystemAdapter)) return null;
    try {
      const full = adapter.getFullPath(path);
      return look === 'follow' ? statSync(full, { bigint: true }) : lstatSync(full, { bigint: true });
    } catch {
      return null;
    }
  }

  /**
   * True when trusted links (settings `access.trustedSymlinks`) lead the vault path `path` (existing
   * or not) out of the vault to where one of `places`, or a trusted link inside one, lies outside it
   * too, at or below it: the same files under two paths (`Skills → ~/agent/skills` and `Shared →
   * ~/agent` make `Shared/skills/x` the file `Skills/x`), so a rule about a place there (agent
   * instructions: InstructionPlaces) holds at both. Compared by real disk path (a realpath of
   * `path` and of each such place, not cached), only when a trusted link covers `path`: else one look
   * at the trusted list.
   */
  sharesOutsidePlace(path: string, places: readonly string[]): boolean {
    const adapter = this.app.vault.adapter;
    const links = this.trustedTargets().map((link) => link.path);
    /** Where `at` really lies when a trusted link leads it out of the vault, else null. */
    const outside = (at: string): string | null => {
      const real =
        adapter instanceof FileSystemAdapter && links.some((link) => isPathInside(at, link, true)) ? this.realPathOf(adapter, at) : null;
      return real === null || isInsideDisk(real, this.vaultBase(adapter as FileSystemAdapter)) ? null : real;
    };
    const disk = outside(path);
    if (disk === null) return false;
    const inner = links.filter((link) => places.some((place) => isPathInside(link, place, true)));
    return [...places, ...inner].some((place) => {
      const real = outside(place);
      return real !== null && isInsideDisk(disk, real);
    });
  }

  /** The trusted links that exist, each with its real target (re-derived when the list changes or the cache was dropped). */
  private trustedTargets(): Array<{ path: string; real: string }> {
    const list = this.trustedLinks();
    const key = list.join('\u0000');
    if (this.trusted?.key === key) return this.trusted.links;
    const adapter = this.app.vault.adapter;
    const links = adapter instanceof FileSystemAdapter ? resolveTrusted(adapter, list, () => true, realOrNull) : [];
    this.trusted = { key, links };
    return links;
  }

  /**
   * The trusted links at or above the vault path `path` that exist, each with its real target
   * resolved now by `real` (for {@link placeNow}: a link may have been re-pointed since it was
   * cached); the others cannot widen `path`'s rule and are not resolved. When the cached targets
   * ({@link trustedTargets}) of the links at or above `path` differ from these, the cache is dropped.
   */
  private trustedOnPath(
    adapter: FileSystemAdapter,
    path: string,
    real: (full: string) => string | null,
  ): Array<{ path: string; real: string }> {
    const list = this.trustedLinks();
    const covers = (link: string): boolean => isPathInside(path, link, true);
    const links = resolveTrusted(adapter, list, covers, real);
    if (this.trusted !== null && this.trusted.key === list.join('\u0000')) {
      const cached = this.trusted.links.filter((link) => covers(link.path));
      if (cached.length !== links.length || cached.some((link, n) => link.path !== links[n]?.path || link.real !== links[n]?.real))
        this.trusted = null;
    }
    return links;
  }
}

/**
 * The entries of the trusted list `list` (settings `access.trustedSymlinks`) whose vault path
 * passes `keep` and that exist, each as its vault path and `real(full path)`, in list order;
 * a malformed entry (not a string, empty, absolute, escaping the vault) or one that does not
 * resolve trusts nothing.
 */
function resolveTrusted(
  adapter: FileSystemAdapter,
  list: readonly unknown[],
  keep: (path: string) => boolean,
  real: (full: string) => string | null,
): Array<{ path: string; real: string }> {
  const links: Array<{ path: string; real: string }> = [];
  for (const entry of list) {
    if (typeof entry !== 'string') continue;
    try {
      // Spaces at the ends are kept, as in every vault path: trimmed, ` Shared` trusted the link `Shared`.
      const path = lexicalVaultPath(entry);
      if (path === '' || !keep(path)) continue;
      const target = real(adapter.getFullPath(path));
      if (target !== null) links.push({ path, real: target });
    } catch {
      // A malformed settings entry (empty, absolute, escaping) trusts nothing.
    }
  }
  return links;
}

/** Where one vault entry really lies: outside what it may reach, or at another vault path (see OutsideLinks.placeOf). */
export interface EntryPlace {
  outside: boolean;
  /** The vault path it really lies at when that differs from its own (`''` the vault root); null when it lies where it says or outside. */
  alias: string | null;
}

/** What {@link OutsideLinks.placeNow} finds at one vault path: the kind of entry on disk, where it lies, how many names the file has, and the file itself. */
export interface EntryNow {
  entry: 'none' | 'file' | 'link' | 'other';
  place: EntryPlace;
  names: number;
  /** The regular file there (`entry` `'file'`) as one `stat` saw it; null for any other entry. */
  file: FileOnDisk | null;
}

/** A regular file on disk as one `stat` (links followed) saw it ({@link OutsideLinks.fileOf}). */
export interface FileOnDisk {
  /** Its device and inode, `"<dev>:<ino>"`: equal for two paths that are hard links of one file. */
  id: string;
  /** How many names it has (`nlink`; above 1 for a hard-linked file). */
  links: number;
  /** Modification time, ms since the epoch, fractional: the very number `fs.Stats.mtimeMs` gives. */
  mtime: number;
  /** Size in bytes. */
  size: number;
}

/** The {@link FileOnDisk} a bigint `stat` or `lstat` describes; null when it is no regular file. */
function fileOnDisk(stat: BigIntStats): FileOnDisk | null {
  return stat.isFile()
    ? { id: `${stat.dev}:${stat.ino}`, links: Number(stat.nlink), mtime: msOf(stat.mtimeNs), size: Number(stat.size) }
    : null;
}

/**
 * A bigint stat's nanosecond time as the ms `fs.Stats` gives without bigints (Node's own
 * `seconds * 1e3 + nanoseconds / 1e6`), so a stamp taken either way compares equal.
 */
function msOf(ns: bigint): number {
  return Number(ns / 1_000_000_000n) * 1e3 + Number(ns % 1_000_000_000n) / 1e6;
}

/** An entry that lies where its path says. */
const IN_PLACE: EntryPlace = { outside: false, alias: null };
/** An entry that lies outside the vault and every trusted link's target. */
const OUTSIDE: EntryPlace = { outside: true, alias: null };

/**
 * Fewest answers {@link OutsideLinks} keeps before its cache may start over; the bound grows to
 * twice the vault's entries, so a vault of more than 10,000 notes keeps every note's answer (a
 * 14k-note vault's first search under a new access scope otherwise resolved every real path again:
 * Get-Process p95 439 → 207 ms in the bench).
 */
const MAX_CACHED_PATHS = 10_000;

/** How long one folder listing answers which entries are plain ({@link OutsideLinks}), ms: a scan of the vault's notes lists each folder once. */
const LISTING_MS = 2000;
/** Folder listings {@link OutsideLinks} keeps at once (the most recently made). */
const MAX_LISTINGS = 64;

/**
 * The names of the entries of the vault folder `folder` (`''` the vault root) that `readdir`
 * reports as plain files or folders, not links (Node reports a Windows junction or other reparse
 * point as a link); empty when the folder cannot be listed.
 */
function plainEntriesOf(adapter: FileSystemAdapter, folder: string): Set<string> {
  const plain = new Set<string>();
  try {
    for (const entry of readdirSync(folder === '' ? adapter.getBasePath() : adapter.getFullPath(folder), { withFileTypes: true }))
      if (entry.isFile() || entry.isDirectory()) plain.add(entry.name);
  } catch {
    // Not a folder, gone, or not readable: every entry is asked of the disk itself.
  }
  return plain;
}

/** `fs.realpathSync.native(full)`, or null when the entry does not exist or cannot be resolved. */
function realOrNull(full: string): string | null {
  try {
    return realpathSync.native(full);
  } catch {
    return null;
  }
}

/**
 * True when the vault entry at `path` exists and is not itself a symbolic link (`fs.lstatSync`
 * of its full path; Node reports a Windows junction as a link too); false when it is a link,
 * does not exist or cannot be mapped to disk or stat'ed.
 */
function isPlainEntry(adapter: FileSystemAdapter, path: string): boolean {
  try {
    return !lstatSync(adapter.getFullPath(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * `fs.lstatSync(full)`, or null when nothing is there (ENOENT) or a segment above it is no folder
 * (ENOTDIR). @throws the fs error for any other failure (the entry cannot be judged).
 */
function lstatOrNull(full: string): Stats | null {
  try {
    return lstatSync(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/** True when `full` is itself a symbolic link (`fs.lstatSync`), whether or not its target exists. */
function isSymbolicLink(full: string): boolean {
  try {
    return lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}

/** True when disk path `path` is `base` or below it (both absolute, already real). */
function isInsideDisk(path: string, base: string): boolean {
  const rel = nodePath.relative(base, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(rel));
}
