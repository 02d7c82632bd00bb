import type { App } from 'obsidian';

/**
 * Files in the plugin's own folder (`manifest.dir`, i.e. `<configDir>/plugins/<id>/`), read and
 * written through `app.vault.adapter` as Obsidian's `Plugin.loadData`/`saveData` do. The
 * folder is inside the config dir, so these files are never notes and never indexed.
 */
export class PluginFiles {
  /**
   * @param app the Obsidian app
   * @param dir the plugin folder, vault-relative (`plugin.manifest.dir`, e.g. `.obsidian/plugins/vault-mcp`)
   */
  constructor(
    private readonly app: App,
    private readonly dir: string,
  ) {}

  /**
   * The text of `name` in the plugin folder.
   * @returns null when the file is absent or cannot be read (callers then rebuild what it held).
   */
  async read(name: string): Promise<string | null> {
    const { adapter } = this.app.vault;
    const path = `${this.dir}/${name}`;
    try {
      return (await adapter.exists(path)) ? await adapter.read(path) : null;
    } catch {
      return null;
    }
  }

  /**
   * Writes `data` to `name` in the plugin folder, creating the folder when missing.
   * @throws the adapter's error when the disk refuses the write.
   */
  async write(name: string, data: string): Promise<void> {
    const { adapter } = this.app.vault;
    if (!(await adapter.exists(this.dir))) await adapter.mkdir(this.dir);
    await adapter.write(`${this.dir}/${name}`, data);
  }
}
