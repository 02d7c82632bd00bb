import type { KeyToolSet } from '../settings/key-record';
import type { VaultMcpSettings } from '../settings/settings';
import type { ToolDefinition } from './tool';
import { activeNoteTool } from './read/active-note';
import { proposalStatusTool } from './read/proposal-status';
import { getLinksTool } from './read/get-links';
import { listFoldersTool } from './read/lists/list-folders';
import { listNotesTool } from './read/lists/list-notes';
import { listTagsTool } from './read/lists/list-tags';
import { queryNotesTool } from './read/lists/query-notes';
import { readNoteTool } from './read/read-note';
import { readNotesTool } from './read/read-notes';
import { searchTool } from './read/search';
import { createNoteTool } from './write/create-note';
import { writeNoteTool } from './write/write-note';
import { appendNoteTool } from './write/append-note';
import { editNoteTool } from './write/edit-note';
import { setPropertiesTool } from './write/set-properties';
import { moveNoteTool } from './write/move-note';
import { deleteNoteTool } from './write/delete-note';
import { createFolderTool } from './write/create-folder';
import { vaultsTool } from './read/vaults';
import { skillsListTool } from './read/skills-list';
import { skillReadTool } from './read/skill-read';
import { widgetListTool } from './read/lists/widget-list';
import { widgetWriteTool } from './write/widget-write';

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

/** The tools a client may list and call under `settings` (docs/architecture.md#tool-contract: a disabled tool is absent). */
export function enabledTools(settings: VaultMcpSettings): ToolDefinition[] {
  return ALL_TOOLS.filter((tool) => isToolEnabled(tool, settings));
}

/**
 * The part of `tools` (the enabled tools, {@link enabledTools}) a key's tool set lets it see
 * and call (docs/architecture.md#keys): all of them, the read tools, or those named in its list (names
 * of tools that are not enabled, or do not exist, add nothing). Pure; order kept.
 */
export function toolsForKey(tools: readonly ToolDefinition[], set: KeyToolSet | undefined): ToolDefinition[] {
  if (set === 'read') return tools.filter((tool) => tool.kind === 'read');
  if (Array.isArray(set)) return tools.filter((tool) => set.includes(tool.name));
  return [...tools];
}
