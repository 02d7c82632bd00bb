/**
 * Shapes returned by the search index to the `search` tool (docs/architecture.md#tool-contract, search).
 */

/** One ranked note. `section`/`section_heading` name the outline section holding the snippet's match, so `read_note({path, section})` can follow. */
export interface SearchHit {
  /** Vault-relative path with extension. */
  path: string;
  /** Frontmatter `id`, else `path:<path>`. */
  id: string;
  title: string;
  /** Relevance, higher is better; 0 for notes matched by filters only. Rounded to 3 decimals. */
  score: number;
  /** About 160 characters of body as a reader sees it (link syntax, emphasis and HTML left out) around a match, matches in `**`; absent when `fields: 'metadata'`. */
  snippet?: string;
  /** Outline path such as `1.2`; null when the match is before the first heading or not in the body. */
  section: string | null;
  section_heading: string | null;
  /** Which ranking found the note: keywords, meaning (embeddings) or both (hybrid). */
  source: 'lexical' | 'semantic' | 'both';
  /** Ranked (plain-word) queries only: true when the note holds every informative query word (stop words aside). */
  all_terms?: boolean;
  /** Ranked queries only, when `all_terms` is false: the query words the note lacks. */
  missing_terms?: string[];
}

/**
 * One page of results. `total` counts every match the caller may read — for a filter query the
 * notes passing it, for a ranked (plain-word) query the notes holding at least one informative
 * query word — all reachable by paging; `next_cursor` is absent on the last page.
 */
export interface SearchPage {
  results: SearchHit[];
  next_cursor?: string;
  total: number;
  /**
   * Present (true) when `total` is an estimate (two significant digits): a filter query whose
   * phrases, regexes or text operators must be checked on more than 1,000 candidate notes'
   * text checks only those that decide the page, and a sample (`next_cursor` is still exact;
   * engine/text-pass.ts).
   */
  total_estimated?: boolean;
  /** Ranked queries only: how many of the `total` matches hold every informative query word (they come first). */
  all_terms_total?: number;
  /** Ranked queries only, when any: English stop words of the query left out of the ranking ("how", "do", "my"...). */
  ignored_terms?: string[];
  /** A remark for the agent, e.g. that semantic search was unavailable or the index is still being built. */
  note?: string;
  /** Present while the index is being built: how many of the readable notes it holds so far. */
  index?: { complete: boolean; indexed: number; total: number };
}

/** Options of `SearchIndex.search`. */
export interface SearchOptions {
  /** Page size, 1–100; default 20. */
  limit?: number;
  /** `next_cursor` from the previous page of the same query. */
  cursor?: string;
  /** `'metadata'` leaves out the snippet. Default `'full'`. */
  fields?: 'full' | 'metadata';
  /** Treat the whole query as one JavaScript regular expression tested on note bodies. */
  regex?: boolean;
  /**
   * Called after each note text the search reads to check phrases, regexes or `content:`
   * (where a search over a large vault waits), with how many it has read so far; the search
   * tool turns it into MCP progress notifications.
   */
  onTextRead?: (notesRead: number) => void;
}
