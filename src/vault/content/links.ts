/**
 * Link graph views over `MetadataCache.resolvedLinks` / `unresolvedLinks` (Obsidian API:
 * `Record<sourcePath, Record<targetPathOrLinktext, count>>`), filtered so notes the caller
 * may not read never appear, neither as target nor as source.
 */

/** Resolved links of one note, each with how many times it is linked. */
export interface LinkCount {
  path: string;
  count: number;
}

/** Unresolved link text of one note (no file matches it), with its count. */
export interface UnresolvedLinkCount {
  link: string;
  count: number;
}

/** What {@link linkGraphOf} returns: sorted by count, then path/link. */
export interface NoteLinks {
  outgoing: LinkCount[];
  backlinks: LinkCount[];
  unresolved: UnresolvedLinkCount[];
}

/**
 * Outgoing links, backlinks and unresolved links of the note at `path`.
 * @param resolved `metadataCache.resolvedLinks`.
 * @param unresolved `metadataCache.unresolvedLinks`.
 * @param canReadPath true when the caller may see the file at a vault path.
 * @param hiddenTargetLinks the note's links (linkpath → count) whose target the caller may
 *   not see; they are listed as unresolved, as links to missing notes are, so a hidden note
 *   looks exactly like a missing one (docs/architecture.md#trust-model: `access: private` behaves as missing).
 * @param linkingSources the notes linking to `path` with their counts, from {@link backlinkIndex}
 *   built once for many calls; when absent, `resolved` is scanned.
 */
export function linkGraphOf(
  path: string,
  resolved: Record<string, Record<string, number>>,
  unresolved: Record<string, Record<string, number>>,
  canReadPath: (path: string) => boolean,
  hiddenTargetLinks: Record<string, number> = {},
  linkingSources: readonly LinkCount[] = backlinkIndex(resolved, path).get(path) ?? [],
): NoteLinks {
  const backlinks = linkingSources.filter((l) => canReadPath(l.path)).map((l) => ({ ...l }));
  const unresolvedCounts: Record<string, number> = { ...(unresolved[path] ?? {}) };
  for (const [link, count] of Object.entries(hiddenTargetLinks)) unresolvedCounts[link] = (unresolvedCounts[link] ?? 0) + count;
  const unresolvedOut = Object.entries(unresolvedCounts).map(([link, count]) => ({ link, count }));
  return {
    outgoing: outgoingLinksOf(path, resolved, canReadPath),
    backlinks: backlinks.sort(byCountThen((l) => l.path)),
    unresolved: unresolvedOut.sort(byCountThen((l) => l.link)),
  };
}

/**
 * Backlinks of every note at once: target path → the notes linking to it with their counts
 * (unsorted), from `metadataCache.resolvedLinks`. One pass over the vault's links.
 * @param only when given, only this target is collected (a single lookup).
 */
export function backlinkIndex(resolved: Record<string, Record<string, number>>, only?: string): Map<string, LinkCount[]> {
  const index = new Map<string, LinkCount[]>();
  for (const [source, targets] of Object.entries(resolved)) {
    for (const [target, count] of Object.entries(only === undefined ? targets : { [only]: targets[only] })) {
      if (!count) continue;
      const list = index.get(target);
      if (list) list.push({ path: source, count });
      else index.set(target, [{ path: source, count }]);
    }
  }
  return index;
}

/**
 * The resolved outgoing links of the note at `path` whose target the caller may see, count
 * descending then path; reads only `resolved[path]`, never the rest of the vault.
 * @param resolved `metadataCache.resolvedLinks`. @param canReadPath as in {@link linkGraphOf}.
 */
export function outgoingLinksOf(
  path: string,
  resolved: Record<string, Record<string, number>>,
  canReadPath: (path: string) => boolean,
): LinkCount[] {
  return Object.entries(resolved[path] ?? {})
    .filter(([target]) => canReadPath(target))
    .map(([target, count]) => ({ path: target, count }))
    .sort(byCountThen((l) => l.path));
}

/** Comparator: count descending, then the given key ascending. */
function byCountThen<T extends { count: number }>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => b.count - a.count || key(a).localeCompare(key(b));
}
