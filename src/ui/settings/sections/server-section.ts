import { Notice, Setting } from 'obsidian';
import { MCP_PATH } from '../../../server/http/endpoint';
import { stampField } from '../../../settings/field-times';
import { MAX_PORT, MIN_PORT } from '../../../settings/settings';
import { copyToClipboard, type SectionContext } from '../tab-context';
import { showSettingError } from '../setting-error';

/**
 * Reads a port typed by the user.
 * @param raw the text field's value
 * @returns `{port}` for an integer in 1024–65535, else `{error}` saying what to type
 */
export function parsePort(raw: string): { port: number } | { error: string } {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return { error: `Type a whole number between ${MIN_PORT} and ${MAX_PORT}.` };
  const port = Number(text);
  if (port < MIN_PORT || port > MAX_PORT) return { error: `Port ${port} is out of range: use ${MIN_PORT}–${MAX_PORT}.` };
  return { port };
}

/** The URL clients use: the listening one, else the one the configured port would give. */
export function serverUrl(ctx: SectionContext): string {
  const status = ctx.plugin.server.getStatus();
  return status.state === 'listening' ? status.url : `http://127.0.0.1:${ctx.plugin.settings.server.port}${MCP_PATH}`;
}

/** One line describing the server for the status row and the `vault-mcp:status` CLI command. */
export function describeServerStatus(ctx: Pick<SectionContext, 'plugin'>): string {
  const status = ctx.plugin.server.getStatus();
  const enabled = ctx.plugin.settings.server.enabled;
  if (status.state === 'listening') {
    return enabled ? `Listening on ${status.url}` : `Listening on ${status.url}, but switched off: every request gets 403`;
  }
  if (status.state === 'error') return `Error: ${status.message}`;
  return 'Stopped';
}

/**
 * The "Server" section: master switch, port (validated on every keystroke, applied on
 * Enter or leaving the field: the server moves to it, and a taken port shows here and as a
 * Notice), the status line with the URL and a copy button, and Restart. Switching the server or
 * moving its port stamps that field (`server.fieldTimes`: a synced data.json merges field by field, so an older
 * switch or port never replaces it, settings/field-times.ts).
 */
export function renderServerSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  new Setting(containerEl).setName('Server').setHeading();

  new Setting(containerEl)
    .setName('Enable server')
    .setDesc('Master switch. When off, the server answers every request with 403 and agents cannot reach the vault.')
    .addToggle((toggle) =>
      toggle.setValue(plugin.settings.server.enabled).onChange(async (value) => {
        plugin.settings.server.enabled = value;
        // Stamped, so an older data.json synced in later does not switch the server back on (ui/settings/external-change.ts).
        stampField('server', plugin.settings.server, 'enabled');
        await plugin.saveSettings();
        ctx.redisplay();
      }),
    );

  const portSetting = new Setting(containerEl)
    .setName('Port')
    .setDesc(`TCP port on 127.0.0.1 (${MIN_PORT}–${MAX_PORT}). Press Enter or leave the field to move the server.`);
  portSetting.addText((text) => {
    text.inputEl.addClass('vault-mcp-port-input');
    text.inputEl.setAttr('inputmode', 'numeric');
    text.setValue(String(plugin.settings.server.port)).onChange((value) => {
      const parsed = parsePort(value);
      showSettingError(portSetting, 'error' in parsed ? parsed.error : null);
    });
    text.inputEl.addEventListener('change', () => void applyPort(text.getValue()));
  });

  const applyPort = async (value: string): Promise<void> => {
    const parsed = parsePort(value);
    if ('error' in parsed) {
      showSettingError(portSetting, parsed.error);
      new Notice(`Vault MCP: ${parsed.error}`);
      return;
    }
    if (parsed.port === plugin.settings.server.port && plugin.server.getStatus().state === 'listening') return;
    if (parsed.port !== plugin.settings.server.port) stampField('server', plugin.settings.server, 'port');
    plugin.settings.server.port = parsed.port;
    await plugin.saveSettings();
    await plugin.restartServer();
    ctx.redisplay();
  };

  const status = plugin.server.getStatus();
  const statusSetting = new Setting(containerEl).setName('Status').setClass('vault-mcp-status');
  statusSetting.descEl.createSpan({ cls: ['vault-mcp-status-dot', `is-${status.state}`] });
  statusSetting.descEl.createSpan({ cls: 'vault-mcp-status-text', text: describeServerStatus(ctx) });
  if (status.state === 'error') showSettingError(statusSetting, status.message);
  statusSetting
    .addExtraButton((button) =>
      button
        .setIcon('copy')
        .setTooltip('Copy server URL')
        .onClick(() => copyToClipboard(serverUrl(ctx), 'the server URL')),
    )
    .addButton((button) =>
      button.setButtonText('Restart').onClick(async () => {
        await plugin.restartServer();
        ctx.redisplay();
      }),
    );
}
