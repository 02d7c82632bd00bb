import { Setting } from 'obsidian';
import { attachFolderSuggestions, vaultFolders, type SectionContext } from './tab-context';

/** Normalizes a folder typed by the user: trims, drops leading/trailing slashes. */
export function cleanFolder(raw: string): string {
  return raw.trim().replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
}

/**
 * The "Access" section: the built-in quarantine (config folder, dot-folders, `_private/`),
 * shown and fixed; the user's quarantined folders with add/remove; the symbolic links out of
 * the vault the user trusts (`access.trustedSymlinks`); and what the `access` and
 * `agent_overrides` frontmatter keys do (DESIGN.md, "Notes that agents may not touch").
 */
export function renderAccessSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin, app } = ctx;
  const list = plugin.settings.access.quarantine;
  new Setting(containerEl)
    .setName('Access')
    .setHeading()
    .setDesc('Quarantined folders are invisible to agents: no tool reads, lists, searches or writes there.');

  const builtIn = new Setting(containerEl).setName('Always quarantined').setDesc('Built in; cannot be removed.');
  const chips = builtIn.controlEl.createDiv({ cls: 'vault-mcp-chips' });
  for (const [label, title] of [
    [`${app.vault.configDir}/`, 'The Obsidian config folder'],
    ['.*/', 'Every dot-folder, at any depth'],
    ['_private/', 'Every folder named _private, at any depth'],
  ]) {
    chips.createSpan({ cls: ['vault-mcp-chip', 'mod-fixed'], text: label, attr: { 'aria-label': title, title } });
  }

  for (const folder of list) {
    new Setting(containerEl)
      .setName(`${folder}/`)
      .setClass('vault-mcp-quarantine-row')
      .addExtraButton((button) =>
        button
          .setIcon('x')
          .setTooltip(`Stop quarantining ${folder}/`)
          .onClick(async () => {
            plugin.settings.access.quarantine = list.filter((f) => f !== folder);
            await plugin.saveSettings();
            void plugin.search.reindex();
            ctx.redisplay();
          }),
      );
  }

  let pending = '';
  const add = new Setting(containerEl).setName('Quarantine a folder').setDesc('Includes its subfolders.');
  add.addText((text) => {
    text.setPlaceholder('Folder, e.g. Journal').onChange((value) => {
      pending = value;
      add.setErrorMessage(null);
    });
    attachFolderSuggestions(text.inputEl, vaultFolders(app));
  });
  add.addButton((button) =>
    button.setButtonText('Add').onClick(async () => {
      const folder = cleanFolder(pending);
      if (!folder || folder.split('/').includes('..')) {
        add.setErrorMessage('Type a vault folder path, e.g. "Journal" or "Work/Clients".');
        return;
      }
      if (list.includes(folder)) {
        add.setErrorMessage(`${folder}/ is already quarantined.`);
        return;
      }
      plugin.settings.access.quarantine = [...list, folder];
      await plugin.saveSettings();
      void plugin.search.reindex();
      ctx.redisplay();
    }),
  );

  renderTrustedLinks(containerEl, ctx);

  const rules = new Setting(containerEl).setName('Per-note rules').setClass('vault-mcp-rules');
  const desc = rules.descEl;
  const line = (parts: Array<string | [string]>): void => {
    const el = desc.createDiv();
    for (const part of parts) {
      if (typeof part === 'string') el.appendText(part);
      else el.createEl('code', { text: part[0] });
    }
  };
  line(['Set in a note\'s frontmatter:']);
  line([['access: read-only'], ' refuses every write to the note.']);
  line([['access: private'], ' makes the note behave as missing for every tool.']);
  line([['agent_overrides: {Claude Code: no-access}'], ' tightens a note for one key label (read-only or no-access).']);
  line(['Agents can never create, change or remove these two keys.']);
}

/**
 * The trusted symbolic links: every entry whose real path is outside the vault is quarantined
 * unless it is, or lies below, a link listed here (vault paths, add/remove; issue 12).
 */
function renderTrustedLinks(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin, app } = ctx;
  const list = plugin.settings.access.trustedSymlinks;
  const save = async (next: string[]): Promise<void> => {
    plugin.settings.access.trustedSymlinks = next;
    await plugin.saveSettings();
    void plugin.search.reindex();
    ctx.redisplay();
  };
  for (const link of list) {
    new Setting(containerEl)
      .setName(link)
      .setDesc('Trusted link out of the vault')
      .setClass('vault-mcp-trusted-link-row')
      .addExtraButton((button) => button.setIcon('x').setTooltip(`Stop trusting ${link}`).onClick(() => save(list.filter((l) => l !== link))));
  }
  let pending = '';
  const add = new Setting(containerEl)
    .setName('Trust a symbolic link')
    .setDesc('Files and folders whose real location is outside the vault (symbolic links) are quarantined. List a link here to let agents use what it points to.');
  add.addText((text) => {
    text.setPlaceholder('Link path, e.g. Shared').onChange((value) => {
      pending = value;
      add.setErrorMessage(null);
    });
    attachFolderSuggestions(text.inputEl, vaultFolders(app));
  });
  add.addButton((button) =>
    button.setButtonText('Trust').onClick(async () => {
      const link = cleanFolder(pending);
      if (!link || link.split('/').includes('..')) {
        add.setErrorMessage('Type the vault path of the link, e.g. "Shared" or "Work/Team drive".');
        return;
      }
      if (list.includes(link)) {
        add.setErrorMessage(`${link} is already trusted.`);
        return;
      }
      await save([...list, link]);
    }),
  );
}
