import { isTagOrNested } from '../../query/note-filters';

/**
 * The doc ids of the notes holding each tag, so a `tag:` filter tests the few thousand notes
 * that can match instead of every note: at 100k notes `tag:#x` alone read every note's record
 * and tag list (a cache miss or two per note). Doc ids only grow and are never reused, so the
 * table is filled in id order, once, as far as a query reaches ({@link cover}), as
 * TitleStemTable is; a removed doc id stays listed (its record is gone: callers skip it).
 */
export class TagDocTable {
  /** Doc ids by tag (lower-case, without `#`), ascending, each once. */
  private readonly docs = new Map<string, number[]>();
  /** Documents below this id are listed. */
  private upTo = 0;

  /** @param tagsOf a document's tags (lower-case, without `#`), undefined for a removed doc id. */
  constructor(private readonly tagsOf: (doc: number) => readonly string[] | undefined) {}

  /** Lists the tags of the documents below `n` not listed yet. */
  cover(n: number): void {
    for (let doc = this.upTo; doc < n; doc++) {
      for (const tag of this.tagsOf(doc) ?? []) {
        const list = this.docs.get(tag);
        if (list === undefined) this.docs.set(tag, [doc]);
        else if (list[list.length - 1] !== doc) list.push(doc);
      }
    }
    this.upTo = Math.max(this.upTo, n);
  }

  /**
   * The doc ids, among those covered, of every note holding `tag` or a tag nested under it
   * (`tag/...`, as `matchTag` reads `tag:`), ascending and each once; removed doc ids included.
   */
  docsOf(tag: string): number[] {
    const lists: number[][] = [];
    for (const [name, list] of this.docs) if (isTagOrNested(name, tag)) lists.push(list);
    if (lists.length <= 1) return lists[0] ?? [];
    return [...new Set(lists.flat())].sort((a, b) => a - b);
  }
}
