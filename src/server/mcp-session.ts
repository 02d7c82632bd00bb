import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { KeyRecord } from '../settings/key-record';
import type { ToolContext, ToolDefinition } from '../tools/tool';
import { CheckedServer } from './checked-server';
import type { SessionAddOn } from './session-add-on';
import { registerSessionContent } from './session-content';
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
  'Paths are vault-relative; ".md" is optional. Notes are also resources (vault-mcp://note/<path>) ' +
  'and the vault\'s skills are prompts.';

/**
 * Builds the MCP `Server` of one session (SDK low-level server: we own tools/list and
 * tools/call so unknown tools and bad params are JSON-RPC -32602, as DESIGN.md's error
 * model requires; {@link CheckedServer} answers malformed params -32602 before any handler
 * runs). Capabilities (MCP spec 2025-06-18): `tools` with `listChanged`, `resources` with
 * `subscribe`, `prompts` with `listChanged`, `completions`, and `logging` (the SDK answers
 * logging/setLevel). Resources, prompts and completion: see {@link registerSessionContent}.
 * The session follows vault changes from `notifications/initialized` until the server closes.
 * @param caller the key that initialized the session; every call runs as this key.
 * @param addOns extra tools, prompts and resources (see {@link SessionAddOn}); the vault's own win on a name clash.
 */
export function createSessionServer(services: SessionServices, caller: () => KeyRecord, addOns: readonly SessionAddOn[] = []): Server {
  const server = new CheckedServer(
    { name: 'vault-mcp', title: 'Vault MCP', version: services.version },
    {
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: { listChanged: true }, completions: {}, logging: {} },
      instructions: INSTRUCTIONS,
    },
  );
  const addOnTools = addOns.flatMap((a) => a.tools ?? []);
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = services.enabledTools();
    const names = new Set(tools.map((t) => t.name));
    return { tools: [...tools.map(describeTool), ...addOnTools.filter((t) => !names.has(t.definition.name)).map((t) => t.definition)] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tools = services.enabledTools();
    const { name } = request.params;
    const addOn = addOnTools.find((t) => t.definition.name === name);
    if (addOn && !tools.some((t) => t.name === name)) return addOn.call(request.params.arguments ?? {}, extra);
    return callTool(tools, name, request.params.arguments, services.contextFor(caller()));
  });
  const content = registerSessionContent(server, services, caller, addOns);
  server.oninitialized = content.follow;
  server.onclose = content.stop;
  return server;
}
