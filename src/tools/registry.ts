import type { VaultMcpSettings } from '../settings/settings';
import type { ToolDefinition } from './tool';
import { activeNoteTool } from './active-note';
import { proposalStatusTool } from './proposal-status';
import { getLinksTool } from './get-links';
import { listFoldersTool } from './list-folders';
import { listNotesTool } from './list-notes';
import { listTagsTool } from './list-tags';
import { queryNotesTool } from './query-notes';
import { readNoteTool } from './read-note';
import { readNotesTool } from './read-notes';
import { searchTool } from './search';
import { createNoteTool } from './create-note';
import { writeNoteTool } from './write-note';
import { appendNoteTool } from './append-note';
import { editNoteTool } from './edit-note';
import { setPropertiesTool } from './set-properties';
import { moveNoteTool } from './move-note';
import { deleteNoteTool } from './delete-note';
import { createFolderTool } from './create-folder';
import { vaultsTool } from './vaults';
import { skillsListTool } from './skills-list';
import { skillReadTool } from './skill-read';
import { widgetListTool } from './widget-list';
import { widgetWriteTool } from './widget-write';

/** Every tool the plugin offers, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  searchTool,
  listNotesTool,
  queryNotesTool,
  readNoteTool,
  readNotesTool,
  listFoldersTool,
  listTagsTool,
  getLinksTool,
  activeNoteTool,
  proposalStatusTool,
  vaultsTool,
  skillsListTool,
  skillReadTool,
  widgetListTool,
  createNoteTool,
  writeNoteTool,
  appendNoteTool,
  editNoteTool,
  setPropertiesTool,
  moveNoteTool,
  deleteNoteTool,
  createFolderTool,
  widgetWriteTool,
];

/** A tool's own toggle: the saved value, else on for read tools and off for write tools. */
export function ownToggle(tool: ToolDefinition, enabled: Record<string, boolean>): boolean {
  return enabled[tool.name] ?? tool.kind === 'read';
}

/**
 * Whether `tool` is switched on: its own toggle ({@link ownToggle}); write tools also need
 * "Allow writes".
 */
export function isToolEnabled(tool: ToolDefinition, settings: VaultMcpSettings): boolean {
  const own = ownToggle(tool, settings.tools.enabled);
  return tool.kind === 'write' ? own && settings.tools.allowWrites : own;
}

/** The tools a client may list and call under `settings` (DESIGN.md: a disabled tool is absent). */
export function enabledTools(settings: VaultMcpSettings): ToolDefinition[] {
  return ALL_TOOLS.filter((tool) => isToolEnabled(tool, settings));
}
