import type { ActivityFile } from '../../src/activity/activity-log';

/**
 * The agent activity file in memory, as PluginFile behaves: read, write (counted), keep a corrupt
 * copy aside under a timestamped name. For ActivityLog in unit tests and the browser pages.
 */
export class MemoryActivityFile implements ActivityFile {
  readonly path = '.obsidian/plugins/vault-mcp/activity.json';
  /** The copies keepCorruptAside made, by name. */
  aside: Record<string, string> = {};
  /** How many times write was called. */
  writes = 0;
  /** @param text the file's text at the start; null: no file yet. */
  constructor(public text: string | null = null) {}
  async read(): Promise<string | null> {
    return this.text;
  }
  async write(text: string): Promise<void> {
    this.writes++;
    this.text = text;
  }
  async keepCorruptAside(now: Date = new Date()): Promise<string> {
    const name = `${this.path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
    this.aside[name] = this.text ?? '';
    this.text = null;
    return name;
  }
}
