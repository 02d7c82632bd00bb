/**
 * The plugin as the bench drives it: the built main.js (or, in tests, src/main's class) and
 * the view of its search index the bench reads figures from.
 */
import type * as O from 'obsidian';
import type { BootablePlugin } from '../../test/harness/boot-plugin';

/** A plugin class the host can load (main.js's default export). */
export type PluginClass = new (app: O.App, manifest: O.PluginManifest) => BootablePlugin;

/** The index figures the bench prints (src/search's SearchIndex `stats`; ms). */
export interface IndexView {
  stats: {
    indexed: number;
    total: number;
    buildMs: number | null;
    longestSliceMs: number;
    warm: boolean;
    reindexed: number;
    saveMs: number | null;
  };
  whenBuilt(): Promise<void>;
  /** SearchIndex's own (not public): settles once a warm start's block bounds, then its saved phrase filters, are in after completeness; null when there were no filters to load. */
  phrasesLoaded: Promise<boolean> | null;
}

/** The search index of a booted plugin. */
export function indexOf(plugin: BootablePlugin): IndexView {
  return (plugin as unknown as { search: IndexView }).search;
}

/**
 * The config folder (`vault.configDir`, hidden from the host's file index) of this bench
 * run's plugin boots, where the saved index goes: one per process, so benches running beside
 * each other on the same cached vault never load, overwrite or delete each other's index.
 */
export function benchConfigDir(): string {
  return `.obsidian-bench-${process.pid}`;
}
