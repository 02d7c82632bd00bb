import { parseNotesQuery, QuerySyntaxError } from '../search/query-notes/parse';

/**
 * Why a widget manifest's `query` is not a query_notes query, in one sentence, or null when
 * it parses (search/query-notes/parse.ts decides).
 */
export function widgetQueryError(query: string): string | null {
  try {
    parseNotesQuery(query);
    return null;
  } catch (err) {
    if (!(err instanceof QuerySyntaxError)) throw err;
    return `Invalid widget manifest: "query" is not a query_notes query: ${err.message.replace(/\.$/, '')} (at position ${err.position}).`;
  }
}
