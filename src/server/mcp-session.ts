import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { KeyRecord } from '../settings/key-record';
import type { ToolContext, ToolDefinition } from '../tools/tool';
import { CheckedServer } from './checked-server';
import { callTool, describeTool } from './tool-dispatch';

/** What a session needs from the plugin: the enabled tools and a context per call. */
export interface SessionServices {
  /** Tools the caller may see right now (settings decide; read on every call). */
  enabledTools(): readonly ToolDefinition[];
  /** Builds the context of one tool call for `caller`. */
  contextFor(caller: KeyRecord): ToolContext;
  /** Plugin version reported in `serverInfo`. */
  version: string;
}

const INSTRUCTIONS =
  'Tools for one Obsidian vault. Find notes with search or list_notes, read them with read_note ' +
  '(use outline/section for long notes), and pass the returned hash as expected_hash when writing. ' +
  'Paths are vault-relative; ".md" is optional.';

/**
 * Builds the MCP `Server` of one session (SDK low-level server: we own tools/list and
 * tools/call so unknown tools and bad params are JSON-RPC -32602, as DESIGN.md's error
 * model requires; {@link CheckedServer} answers malformed params -32602 before any handler
 * runs). Capabilities: `tools` with `listChanged` (MCP spec 2025-06-18,
 * "Tools" → Capabilities) and `logging` (the SDK answers logging/setLevel).
 * @param caller the key that initialized the session; every call runs as this key.
 */
export function createSessionServer(services: SessionServices, caller: () => KeyRecord): Server {
  const server = new CheckedServer(
    { name: 'vault-mcp', title: 'Vault MCP', version: services.version },
    { capabilities: { tools: { listChanged: true }, logging: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: services.enabledTools().map(describeTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const key = caller();
    return callTool(services.enabledTools(), request.params.name, request.params.arguments, services.contextFor(key));
  });
  return server;
}
