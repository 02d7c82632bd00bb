import { ToolError } from '../../errors';
import { defineTool } from '../tool';

/** `vaults`: the vaults open in Obsidian (for the `vault` argument) and the folders this session may touch. */
export const vaultsTool = defineTool({
  name: 'vaults',
  title: 'Open vaults',
  description:
    "Vaults open in Obsidian: {handle, name, path, active}; pass a handle as any tool's vault to run it there. " +
    'roots: the folders this session may touch (effective; [] = whole vault when source is key) and why.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'Open vaults', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    if (!ctx.vaults) throw new ToolError('unavailable', 'The vault list is only available through the MCP server.');
    return { vaults: await ctx.vaults.list(), roots: ctx.vaults.roots };
  },
});
