import type { AdmittedRows, VectorStore } from './vector-store';

/** Access scopes whose admitted rows are kept (the most recently used ones), as ReadableCache keeps read decisions. */
const CACHED_SCOPES = 8;

interface Entry {
  store: VectorStore;
  rows: AdmittedRows;
  /** {@link AdmittedRowsCache.accessChanges} when the rows were built. */
  accessChanges: number;
}

/**
 * Per access scope, the vector store's rows that scope may see ({@link VectorStore.admittedRows}),
 * kept while the store has the same revision and nothing a read decision depends on changed
 * ({@link accessChanged}: a note changed, or the access settings did). Asking `canRead` for
 * each of 100k notes took 0.4–0.8 s of CPU per query on the generated 100k vault
 * (docs/performance.md#vector-search); with the rows kept, a query pays that once per change.
 */
export class AdmittedRowsCache {
  private readonly byScope = new Map<string, Entry>();
  private changes = 0;

  /** Something a read decision may depend on changed: every scope's rows are built again on their next use. */
  accessChanged(): void {
    this.changes++;
    this.byScope.clear();
  }

  /**
   * The rows of `store` that the scope keyed `key` may see, built with `allowed` unless kept
   * from an earlier call at the same store revision and access state.
   * @param key the scope's key (readable-cache's scopeKey)
   * @param allowed the scope's read decision by note path, asked once per note when the rows are built
   */
  rowsFor(store: VectorStore, key: string, allowed: (path: string) => boolean): AdmittedRows {
    const kept = this.byScope.get(key);
    this.byScope.delete(key);
    const fresh =
      kept !== undefined && kept.store === store && kept.rows.revision === store.revision && kept.accessChanges === this.changes;
    const entry = fresh ? kept : { store, rows: store.admittedRows(allowed), accessChanges: this.changes };
    if (this.byScope.size >= CACHED_SCOPES) this.byScope.delete(this.byScope.keys().next().value as string);
    this.byScope.set(key, entry);
    return entry.rows;
  }
}
