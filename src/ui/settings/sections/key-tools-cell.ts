import { DropdownComponent } from 'obsidian';
import type { KeyRecord, KeyToolSet } from '../../../settings/key-record';
import { ALL_TOOLS, enabledTools, isToolEnabled, toolsForKey } from '../../../tools/registry';
import type { SectionContext } from '../tab-context';

/** The tool-set choices as the dropdown shows them. */
const CHOICES = { all: 'All enabled tools', read: 'Read tools only', list: 'Chosen tools' } as const;

/**
 * The "Tools" cell of a key's row: a dropdown for the key's tool set (all enabled tools,
 * read tools only, chosen tools) and, for chosen tools, one checkbox per tool (a tool switched
 * off under "Tools" stays off whatever is chosen here, and says so). A change is saved through
 * KeyRing.setTools and announced to connected clients (`notifications/tools/list_changed`).
 * @param run runs a key-ring action, redraws the tab after it, and shows a refusal.
 */
export function renderKeyToolsCell(
  cell: HTMLElement,
  key: KeyRecord,
  ctx: SectionContext,
  run: (action: () => Promise<void>) => Promise<void>,
): void {
  const { plugin } = ctx;
  const set: KeyToolSet = key.tools ?? 'all';
  const save = (next: KeyToolSet): Promise<void> =>
    run(async () => {
      await plugin.keyRing.setTools(key.id, next);
      await plugin.server.notifyToolListChanged();
    });
  const dropdown = new DropdownComponent(cell);
  for (const [value, label] of Object.entries(CHOICES)) dropdown.addOption(value, label);
  dropdown.selectEl.setAttr('aria-label', `Tools "${key.label}" may use`);
  dropdown.setValue(Array.isArray(set) ? 'list' : set).onChange((value) => {
    // Choosing a list starts from what the key sees now, so nothing changes until a box is unticked.
    const next: KeyToolSet =
      value === 'list' ? toolsForKey(enabledTools(plugin.settings), set).map((t) => t.name) : (value as 'all' | 'read');
    void save(next.length === 0 ? 'read' : next);
  });
  const shown = toolsForKey(enabledTools(plugin.settings), set).length;
  cell.createDiv({ cls: 'vault-mcp-key-tools-count', text: `${shown} tool${shown === 1 ? '' : 's'} in tools/list` });
  if (!Array.isArray(set)) return;
  const list = cell.createDiv({ cls: 'vault-mcp-key-tools-list' });
  for (const tool of ALL_TOOLS) {
    const label = list.createEl('label', { cls: 'vault-mcp-key-tool' });
    const box = label.createEl('input', { type: 'checkbox', attr: { 'data-tool': tool.name } });
    box.checked = set.includes(tool.name);
    label.appendText(` ${tool.name}`);
    if (!isToolEnabled(tool, plugin.settings)) {
      label.addClass('is-disabled');
      label.setAttr('title', 'Switched off for every key under "Tools"');
    }
    box.addEventListener('change', () => void save(box.checked ? [...set, tool.name] : set.filter((name) => name !== tool.name)));
  }
}
