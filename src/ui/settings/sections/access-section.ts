import { Setting } from 'obsidian';
import { attachFolderSuggestions, vaultFolders, type SectionContext } from '../tab-context';
import { showSettingError } from '../setting-error';

/** Normalizes a folder typed by the user: trims, drops leading/trailing slashes. */
export function cleanFolder(raw: string): string {
  return raw
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\/+|\/+$/g, '');
}

/**
 * The "Access" section: the built-in quarantine (config folder, dot-folders, `_private/`),
 * shown and fixed; the user's quarantined folders with add/remove; the symbolic links out of
 * the vault the user trusts (`access.trustedSymlinks`); and what the `access` and
 * `agent_overrides` frontmatter keys do (docs/architecture.md#trust-model).
 */
export function renderAccessSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { app } = ctx;
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

  renderPathList(containerEl, ctx, {
    key: 'quarantine',
    rowName: (folder) => `${folder}/`,
    rowClass: 'vault-mcp-quarantine-row',
    removeTooltip: (folder) => `Stop quarantining ${folder}/`,
    addName: 'Quarantine a folder',
    addDesc: 'Includes its subfolders.',
    placeholder: 'Folder, e.g. Journal',
    button: 'Add',
    invalid: 'Type a vault folder path, e.g. "Journal" or "Work/Clients".',
    duplicate: (folder) => `${folder}/ is already quarantined.`,
  });
  renderPathList(containerEl, ctx, {
    key: 'trustedSymlinks',
    rowName: (link) => link,
    rowDesc: 'Trusted link out of the vault',
    rowClass: 'vault-mcp-trusted-link-row',
    removeTooltip: (link) => `Stop trusting ${link}`,
    addName: 'Trust a symbolic link',
    addDesc:
      'Files and folders whose real location is outside the vault (symbolic links) are quarantined. List a link here to let agents use what it points to.',
    placeholder: 'Link path, e.g. Shared',
    button: 'Trust',
    invalid: 'Type the vault path of the link, e.g. "Shared" or "Work/Team drive".',
    duplicate: (link) => `${link} is already trusted.`,
  });

  const rules = new Setting(containerEl).setName('Per-note rules').setClass('vault-mcp-rules');
  const desc = rules.descEl;
  const line = (parts: Array<string | [string]>): void => {
    const el = desc.createDiv();
    for (const part of parts) {
      if (typeof part === 'string') el.appendText(part);
      else el.createEl('code', { text: part[0] });
    }
  };
  line(["Set in a note's frontmatter:"]);
  line([['access: read-only'], ' refuses every write to the note.']);
  line([['access: private'], ' makes the note behave as missing for every tool.']);
  line([['agent_overrides: {Claude Code: no-access}'], ' tightens a note for one key label (read-only or no-access).']);
  line(['Agents can never create, change or remove these two keys.']);
}

/** The texts and settings key of one editable list of vault paths in the Access section. */
interface PathListSpec {
  key: 'quarantine' | 'trustedSymlinks';
  rowName(path: string): string;
  rowDesc?: string;
  rowClass: string;
  removeTooltip(path: string): string;
  addName: string;
  addDesc: string;
  placeholder: string;
  button: string;
  invalid: string;
  duplicate(path: string): string;
}

/**
 * One editable list of vault paths (`settings.access[spec.key]`): a row per path with a remove
 * button, and a text field with folder suggestions plus an add button that refuses empty,
 * `..` and duplicate paths. Every change is saved and rebuilds the search index, since both
 * lists change what agents may see.
 */
function renderPathList(containerEl: HTMLElement, ctx: SectionContext, spec: PathListSpec): void {
  const { plugin, app } = ctx;
  const list = plugin.settings.access[spec.key];
  const save = async (next: string[]): Promise<void> => {
    plugin.settings.access[spec.key] = next;
    await plugin.saveSettings();
    void plugin.search.reindex();
    void plugin.semantic.refresh();
    ctx.redisplay();
  };
  for (const path of list) {
    const row = new Setting(containerEl).setName(spec.rowName(path)).setClass(spec.rowClass);
    if (spec.rowDesc) row.setDesc(spec.rowDesc);
    row.addExtraButton((button) =>
      button
        .setIcon('x')
        .setTooltip(spec.removeTooltip(path))
        .onClick(() => save(list.filter((p) => p !== path))),
    );
  }
  let pending = '';
  const add = new Setting(containerEl).setName(spec.addName).setDesc(spec.addDesc);
  add.addText((text) => {
    text.setPlaceholder(spec.placeholder).onChange((value) => {
      pending = value;
      showSettingError(add, null);
    });
    attachFolderSuggestions(text.inputEl, vaultFolders(app));
  });
  add.addButton((button) =>
    button.setButtonText(spec.button).onClick(async () => {
      const path = cleanFolder(pending);
      if (!path || path.split('/').includes('..')) {
        showSettingError(add, spec.invalid);
        return;
      }
      if (list.includes(path)) {
        showSettingError(add, spec.duplicate(path));
        return;
      }
      await save([...list, path]);
    }),
  );
}
