/**
 * Browser entry for the settings-tab screenshot and click test: draws the real
 * VaultMcpSettingTab with the host's Setting family over a stand-in plugin (settings, an
 * in-memory key ring, a listening server status, an AI service) into `#tab`.
 * `window.vaultMcpTab` exposes the stand-in so the test can read what clicks changed.
 */
import type { App } from 'obsidian';
import { Notice } from '../../host/ui/notice';
import { VaultMcpSettingTab } from '../../../src/ui/settings/settings-tab';
import type { SettingsTabPlugin } from '../../../src/ui/settings/tab-context';
import { createDemoPlugin, type DemoPlugin } from './demo-plugin';

declare global {
  interface Window {
    vaultMcpTab: { plugin: DemoPlugin; tab: VaultMcpSettingTab; notices: () => string[] };
  }
}

const plugin = createDemoPlugin();
const tab = new VaultMcpSettingTab(plugin.app as unknown as App, plugin as unknown as SettingsTabPlugin);
document.getElementById('tab')!.appendChild(tab.containerEl);
tab.display();
window.vaultMcpTab = { plugin, tab, notices: () => Notice.messages() };
