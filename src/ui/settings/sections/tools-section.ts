import { debounce, normalizePath, Setting } from 'obsidian';
import { stampField, toolToggleField, type FieldOf } from '../../../settings/field-times';
import { DEFAULT_WIDGETS_FOLDER } from '../../../settings/settings';
import { ALL_TOOLS, ownToggle } from '../../../tools/registry';
import type { ToolDefinition } from '../../../tools/tool';
import { DEFAULT_SKILLS_FOLDER } from '../../../vault/skills-folder';
import { listSpelling, quoteRoot } from '../../../settings/key-roots';
import { pickTypedPath } from './access-section';
import { showSettingError } from '../setting-error';
import { attachFolderSuggestions, vaultFolders, type SectionContext } from '../tab-context';

/** How long the "Widgets folder" field must rest before the search index is rebuilt for it, ms. */
const WIDGETS_FOLDER_SETTLE_MS = 1000;

/** The first sentence of a tool description (up to the first `. `), for a one-line summary. */
export function oneLine(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end === -1 ? flat : flat.slice(0, end + 1);
}

/**
 * The "Tools" section: "Allow writes" and one toggle per tool (read tools on, write tools
 * off by default). Every change stamps the field it changes (`tools.fieldTimes`: `allowWrites`, `enabled.<tool>`;
 * settings/field-times.ts), is saved and announced to connected clients with
 * `notifications/tools/list_changed` (MCP spec, "Tools › List Changed Notification"), so
 * tools/list reflects it without reconnecting. Last, the "Skills folder" (a change sends, to the
 * keys then seeing other prompts, `notifications/prompts/list_changed`) and the "Widgets folder"
 * (settings `widgets.folder`; the search index is rebuilt once it rests); each stamps its block's
 * `folder` as the tools do.
 */
export function renderToolsSection(containerEl: HTMLElement, ctx: SectionContext, tools: readonly ToolDefinition[] = ALL_TOOLS): void {
  const { plugin } = ctx;
  const settings = plugin.settings.tools;
  const applied = async (field: FieldOf<'tools'>): Promise<void> => {
    // Stamped, so an older data.json synced in later does not turn writes or a tool back on (ui/settings/external-change.ts).
    stampField('tools', settings, field);
    await plugin.saveSettings();
    await plugin.server.notifyToolListChanged();
  };
  new Setting(containerEl)
    .setName('Tools')
    .setHeading()
    .setDesc('A tool that is off is not listed to agents. Changes reach connected clients at once.');

  new Setting(containerEl)
    .setName('Allow writes')
    .setDesc('Without it no write tool is listed or callable, whatever its own toggle says. Propose keys still only stage proposals.')
    .addToggle((toggle) =>
      toggle.setValue(settings.allowWrites).onChange(async (value) => {
        settings.allowWrites = value;
        await applied('allowWrites');
        ctx.redisplay();
      }),
    );

  for (const kind of ['read', 'write'] as const) {
    const group = tools.filter((t) => t.kind === kind);
    if (group.length === 0) continue;
    const groupEl = containerEl.createDiv({ cls: ['vault-mcp-tool-group', `mod-${kind}`] });
    groupEl.createDiv({ cls: 'vault-mcp-subheading', text: kind === 'read' ? 'Read tools' : 'Write tools' });
    for (const tool of group) {
      const setting = new Setting(groupEl).setDesc(oneLine(tool.description)).setClass('vault-mcp-tool');
      setting.nameEl.createEl('code', { text: tool.name });
      if (kind === 'write' && !settings.allowWrites) {
        setting.setClass('is-inactive');
        setting.descEl.createDiv({ cls: 'vault-mcp-hint', text: 'Inactive until "Allow writes" is on.' });
      }
      setting.addToggle((toggle) =>
        toggle.setValue(ownToggle(tool, settings.enabled)).onChange(async (value) => {
          settings.enabled[tool.name] = value;
          await applied(toolToggleField(tool.name));
        }),
      );
    }
  }

  // The folder a typed name means, by the roots list's rule: ` Skills` is the folder ` Skills` when no `Skills` is there, refused when both are.
  const folderAt = (path: string): string | null => plugin.notes.folderAt(path)?.path ?? null;
  /** The folder `value` names for the `what` folder field of `setting`, or null with the refusal shown under it. */
  const typedFolder = (setting: Setting, what: string, value: string): string | null => {
    const picked = pickTypedPath(value, folderAt, 'folders');
    showSettingError(setting, picked.ok ? null : `The ${what} folder ${quoteRoot(value)} ${picked.reason}.`);
    return picked.ok ? picked.root : null;
  };
  const skills = new Setting(containerEl)
    .setName('Skills folder')
    .setDesc('Each <folder>/<name>/SKILL.md is a skill: listed by skills_list, read by skill_read and offered to clients as a prompt.')
    .addText((text) => {
      text
        .setPlaceholder(DEFAULT_SKILLS_FOLDER)
        // A folder with outer spaces shows as `./ Skills/`, which the field reads back as that folder.
        .setValue(listSpelling(plugin.settings.skills.folder))
        .onChange(async (value) => {
          const folder = typedFolder(skills, 'skills', value);
          if (folder === null) return;
          plugin.settings.skills.folder = folder;
          // Stamped, so an older data.json synced in later does not move the folder back (ui/settings/external-change.ts).
          stampField('skills', plugin.settings.skills, 'folder');
          await plugin.saveSettings();
          await plugin.server.notifyPromptListChanged();
        });
      attachFolderSuggestions(text.inputEl, vaultFolders(ctx.app));
    });

  // Search leaves the widgets folder out: once typing pauses, the index follows the new folder.
  const reindexLater = debounce(() => void plugin.search.reindex(), WIDGETS_FOLDER_SETTLE_MS, true);
  const widgets = new Setting(containerEl)
    .setName('Widgets folder')
    .setDesc(
      'Where widget_write keeps widgets (<id>.html); note tools do not read or write in it. A note shows one with a vault-mcp-widget code block.',
    )
    .addText((text) =>
      text
        .setPlaceholder(DEFAULT_WIDGETS_FOLDER)
        .setValue(listSpelling(plugin.settings.widgets.folder))
        .onChange(async (value) => {
          const folder = typedFolder(widgets, 'widgets', value);
          if (folder === null) return;
          plugin.settings.widgets.folder = folder === '' ? DEFAULT_WIDGETS_FOLDER : normalizePath(folder);
          stampField('widgets', plugin.settings.widgets, 'folder');
          await plugin.saveSettings();
          reindexLater();
        }),
    );
}
