/**
 * Tag counting for `list_tags`. Tags are compared case-insensitively, as Obsidian's tag pane
 * does (`#Project` and `#project` are one tag); the spelling shown is the one most notes use
 * (ties: the alphabetically first).
 */

/** One tag with the number of notes carrying it. Tags keep their leading `#`, as `getAllTags` returns them. */
export interface TagCount {
  tag: string;
  count: number;
}

/**
 * Counts notes per tag.
 * @param tagsPerNote for each readable note, its tags (`getAllTags` output, with `#`);
 *   a tag repeated inside one note counts once.
 * @returns tags sorted by count descending, then by name.
 */
export function countTags(tagsPerNote: Iterable<readonly string[]>): TagCount[] {
  const groups = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const tags of tagsPerNote) {
    const seen = new Set<string>();
    for (const tag of tags) {
      const key = tag.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const group = groups.get(key) ?? { count: 0, spellings: new Map<string, number>() };
      group.count++;
      group.spellings.set(tag, (group.spellings.get(tag) ?? 0) + 1);
      groups.set(key, group);
    }
  }
  const out: TagCount[] = [];
  for (const group of groups.values()) {
    const [tag] = [...group.spellings.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    out.push({ tag, count: group.count });
  }
  return out.sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}
