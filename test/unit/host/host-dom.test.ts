/** @jest-environment jsdom */
import { createTempVault, Plugin, PluginSettingTab, loadPluginInHost, TFile } from '../../host/index';
import type * as O from 'obsidian';

const manifest: O.PluginManifest = {
  id: 'dom-plugin',
  name: 'DOM Plugin',
  author: 'me',
  version: '1.0.0',
  minAppVersion: '1.11.4',
  description: 'test',
};

class Tab extends PluginSettingTab {
  override display(): void {
    this.containerEl.empty();
    this.containerEl.createEl('h2', { text: 'Settings', cls: 'title' });
    this.containerEl.createDiv({ cls: ['row', 'first'] }, (row) => row.setText('row'));
  }
}

class DomPlugin extends Plugin {
  override settings: { port: number } = { port: 1 };
  tab!: Tab;
  override onload(): void {
    this.tab = new Tab(this.app, this);
    this.addSettingTab(this.tab);
    this.addStatusBarItem().setText('3 pending');
  }
}

describe('host under jsdom', () => {
  it('builds real elements with Obsidian DOM helpers and runs the vault and metadata cache', async () => {
    const tv = await createTempVault({ 'A.md': '# A' }, { watchIntervalMs: false });
    try {
      const plugin = await loadPluginInHost(tv.app, DomPlugin, manifest);
      expect(plugin.statusBarItems[0]).toBeInstanceOf(HTMLElement);
      expect(plugin.statusBarItems[0].textContent).toBe('3 pending');
      plugin.tab.display();
      expect(plugin.tab.containerEl.innerHTML).toBe('<h2 class="title">Settings</h2><div class="row first">row</div>');
      plugin.tab.hide();
      expect(plugin.tab.containerEl.childNodes.length).toBe(0);
      expect(plugin.tab.getControlValue('port')).toBe(1);
      await plugin.tab.setControlValue('port', 2);
      expect(await plugin.loadData()).toEqual({ port: 2 });

      const file = tv.app.vault.getFileByPath('A.md') as TFile;
      await tv.app.vault.modify(file, '# B');
      await tv.app.metadataCache.whenResolved();
      expect(tv.app.metadataCache.getFileCache(file)?.headings?.[0].heading).toBe('B');
    } finally {
      await tv.cleanup();
    }
  });
});
