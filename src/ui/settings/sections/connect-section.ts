import { Setting } from 'obsidian';
import { isLocallyUsable } from '../../../settings/key-record';
import { clientSnippets, keyToolsSummary } from '../client-snippets';
import { enabledTools, toolsForKey } from '../../../tools/registry';
import { serverUrl } from './server-section';
import { copyToClipboard, type SectionContext } from '../tab-context';

/** `token` shortened for display (`vmcp_AbCd…`); the copy buttons copy the full token. */
export function maskToken(token: string): string {
  return token.length <= 12 ? '…' : `${token.slice(0, 9)}…`;
}

/**
 * The "Connect a client" section: pick a key, then copy ready-made setup for Claude Code,
 * Claude Desktop, Cursor, VS Code and Codex (client-snippets.ts), under a line saying which
 * tools a client with that key sees (its tool set). The text on screen shows the token
 * shortened; the copy button copies the real one.
 */
export function renderConnectSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  new Setting(containerEl)
    .setName('Connect a client')
    .setHeading()
    .setDesc("Copy the setup for your client; it carries the chosen key's token, so keep it private.");

  const keys = plugin.keyRing.list().filter(isLocallyUsable);
  if (keys.length === 0) {
    containerEl.createDiv({ cls: 'vault-mcp-empty', text: 'Mint a key under "Keys" first; cloud-only keys cannot connect here.' });
    return;
  }
  const selected = keys.find((k) => k.id === ctx.selectedKeyId) ?? keys[0];
  new Setting(containerEl).setName('Key').addDropdown((d) => {
    for (const key of keys) d.addOption(key.id, `${key.label} (${key.mode})`);
    d.setValue(selected.id).onChange((id) => {
      ctx.selectedKeyId = id;
      ctx.redisplay();
    });
  });

  const token = plugin.keyRing.tokenOf(selected.id);
  if (!token) {
    containerEl.createDiv({
      cls: ['vault-mcp-empty', 'mod-error'],
      text: `"${selected.label}" has no token on this device (secret storage is per device); mint a new key here.`,
    });
    return;
  }
  const visible = toolsForKey(enabledTools(plugin.settings), selected.tools).map((t) => t.name);
  containerEl.createDiv({ cls: 'vault-mcp-connect-tools', text: keyToolsSummary(selected, visible) });
  const url = serverUrl(ctx);
  const shown = maskToken(token);
  for (const snippet of clientSnippets(url, token)) {
    const block = containerEl.createDiv({ cls: 'vault-mcp-snippet', attr: { 'data-client': snippet.client } });
    new Setting(block)
      .setName(snippet.title)
      .setDesc(snippet.where)
      .addExtraButton((b) =>
        b
          .setIcon('copy')
          .setTooltip(`Copy ${snippet.title} setup`)
          .onClick(() => copyToClipboard(snippet.text, `the ${snippet.title} setup`)),
      );
    block
      .createEl('pre', { cls: ['vault-mcp-code', `language-${snippet.language}`] })
      .createEl('code', { text: snippet.text.split(token).join(shown) });
  }
}
