import type { App, EventRef } from 'obsidian';

/**
 * Remembers answers computed by scanning every note (readable notes, tag counts, notes by
 * mtime, backlinks) until the vault or the metadata cache changes, so repeated list calls on
 * a large vault cost a lookup instead of a scan. Any vault `create`/`modify`/`delete`/`rename`
 * and any metadata cache `changed`/`deleted`/`resolved` forgets every answer; keys carry
 * whatever else an answer depends on (the caller's scope, the quarantine list).
 */
export class ScanCache {
  private readonly answers = new Map<string, unknown>();
  private readonly refs: Array<{ source: { offref(ref: EventRef): void }; ref: EventRef }> = [];
  /** Bumped each time every answer is forgotten: an answer computed across awaits is kept only when this did not move meanwhile. */
  private forgotten = 0;

  /** Starts following the vault's and metadata cache's events. Call {@link close} to stop. */
  constructor(app: App) {
    const forget = (): void => this.forget();
    for (const name of ['create', 'modify', 'delete', 'rename'] as const) {
      this.refs.push({ source: app.vault, ref: app.vault.on(name as 'create', forget) });
    }
    for (const name of ['changed', 'deleted', 'resolved'] as const) {
      this.refs.push({ source: app.metadataCache, ref: app.metadataCache.on(name as 'resolved', forget) });
    }
  }

  /**
   * The answer remembered under `key`, computing and remembering it when there is none.
   * Callers must not mutate what they get: it is shared by later calls.
   */
  get<T>(key: string, compute: () => T): T {
    if (this.answers.has(key)) return this.answers.get(key) as T;
    const value = compute();
    this.answers.set(key, value);
    return value;
  }

  /**
   * The answer remembered under `key`, or `compute`'s, awaited; for answers computed in steps
   * across awaits (NoteStore.readableNotesInSteps). The answer is remembered only when no
   * change made the cache forget while it was computed (it might describe the vault before
   * that change); it is returned either way. Callers must not mutate what they get.
   */
  async getStepped<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.answers.has(key)) return this.answers.get(key) as T;
    const since = this.forgotten;
    const value = await compute();
    if (this.forgotten === since) this.answers.set(key, value);
    return value;
  }

  /** The answer remembered under `key`, or undefined when there is none (nothing is computed). Callers must not mutate it. */
  peek<T>(key: string): T | undefined {
    return this.answers.get(key) as T | undefined;
  }

  /** Forgets every answer now (for a change the vault's events do not report). */
  forget(): void {
    this.forgotten++;
    this.answers.clear();
  }

  /** Stops following events and forgets every answer. */
  close(): void {
    for (const { source, ref } of this.refs.splice(0)) source.offref(ref);
    this.forget();
  }
}
