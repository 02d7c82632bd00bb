import { ProtocolErrorCode as ErrorCode, Server, type ProtocolEra } from '@modelcontextprotocol/server';
import type { KeyMode, KeyRecord } from '../../settings/key-record';
import type { ToolContext, ToolDefinition } from '../../tools/tool';
import type { VaultsView } from '../../tools/read/vaults-view';
import { hostPathRules } from '../roots/client-roots';
import { ROOTS_REQUEST_TIMEOUT_MS } from '../roots/session-roots';
import type { SessionAccess } from '../roots/session-access';
import { SessionRoots, type ClientRootsState } from '../roots/session-roots';
import { askingRoots, askSessionRoots, requestRootsSource, sessionRootsSource, type ClientRootsSource } from '../roots/request-roots';
import { callTool, describeTool, outsideToolSetError, withVaultInput } from './tool-dispatch';
import { progressReporter } from './progress';
import { guarded, JsonRpcError, toolErrorResult } from './rpc-errors';
import type { VaultPeers } from '../vaults/vault-peers';
import type { SessionAddOn } from '../content/session-add-on';
import { registerSessionContent, type SessionContextSource } from '../content/session-content';

/** What a session needs from the plugin: the enabled tools and a context per call. */
export interface SessionServices {
  /**
   * Tools enabled right now (settings decide; read on every call), narrowed to `caller`'s tool
   * set when given (registry.ts toolsForKey).
   */
  enabledTools(caller?: KeyRecord): readonly ToolDefinition[];
  /** The folders `caller` may touch given the client's roots (see session-access.ts). */
  accessFor(caller: KeyRecord, client: ClientRootsState): SessionAccess;
  /**
   * Builds the context of one tool call for `caller`, confined to `access.roots`; `vaults` feeds
   * the vaults tool; `session` is the MCP session id, when the client has one (the activity log groups by it).
   */
  contextFor(caller: KeyRecord, access: SessionAccess, vaults: VaultsView, session?: string): ToolContext;
  /** Plugin version reported in `serverInfo`. */
  version: string;
  /** This vault among the other open vaults (registry, handles, forwarding). */
  peers: VaultPeers;
  /** The vault's notes, followed for change events (resource updates, skills changes). */
  notes: ToolContext['notes'];
}

/**
 * The SDK's low-level `Server` one session (or one 2026-07-28 request) is served by: low-level
 * because Vault MCP owns tools/list and tools/call (per-key tool sets, its error model), the
 * "advanced use case" the SDK keeps `Server` for next to `McpServer`.
 */
export type McpSessionServer = ReturnType<typeof createSessionServer>;

/** How a session was opened. */
export interface SessionOrigin {
  /**
   * Set when another vault forwarded the session's calls: the client roots it passed along
   * (null = none). Such a session never asks for roots and never forwards again.
   */
  forwardedRoots?: string[] | null;
  /**
   * Set when another vault forwarded the session's calls: the mode of the caller's key there. A
   * propose key's calls run here as a propose key whatever this vault's key of that label is (the
   * stricter of the two: README, a key in propose mode never writes).
   */
  forwardedMode?: KeyMode;
}

const INSTRUCTIONS =
  'Tools for one Obsidian vault. Find notes with search or list_notes, read them with read_note ' +
  '(use outline/section for long notes), and pass the returned hash as expected_hash when writing. ' +
  'Paths are vault-relative; ".md" is optional. Notes are also resources (vault-mcp://note/<path>) ' +
  "and the vault's skills are prompts. Every tool takes an optional vault (a handle from vaults) to run in another open vault.";

/**
 * Builds the MCP `Server` of one session (SDK low-level server: we own tools/list and
 * tools/call so unknown tools and bad params are JSON-RPC -32602, as the error model
 * requires (docs/architecture.md#error-model); malformed params are answered -32602 before the SDK sees them, see
 * http/request-params.ts). Capabilities (MCP spec 2025-06-18): `tools` with `listChanged`, `resources` with
 * `subscribe`, `prompts` with `listChanged`, `completions`, and `logging` (the SDK answers
 * logging/setLevel). Resources, prompts and completion: see {@link registerSessionContent}.
 * The session follows vault changes from `notifications/initialized` until the server closes.
 * When the client declares `roots` (MCP spec "Roots"), the session asks `roots/list` after
 * `notifications/initialized` and on `notifications/roots/list_changed`; each tool call and
 * each resource, prompt and completion request runs confined to what
 * {@link SessionServices.accessFor} makes of the answer.
 * A `vault` argument naming another open vault forwards the call there (see {@link VaultPeers}).
 * In the 2026-07-28 era (`era: 'modern'`) the server answers one request and is dropped: the
 * client's roots come with the request (asked with an input-required result, request-roots.ts)
 * and vault changes reach listeners through the serving entry (modern-endpoint.ts).
 * @param liveKey the key that initialized the session, as it is now; every call runs as this key (as a propose key
 *   when `origin.forwardedMode` is propose).
 * @param addOns extra tools, prompts and resources (see {@link SessionAddOn}); the vault's own win on a name clash.
 * @param era the protocol era the server serves (the SDK's `ProtocolEra`).
 */
export function createSessionServer(
  services: SessionServices,
  liveKey: () => KeyRecord,
  origin: SessionOrigin = {},
  addOns: readonly SessionAddOn[] = [],
  era: ProtocolEra = 'legacy',
): Server {
  const caller = origin.forwardedMode === 'propose' ? (): KeyRecord => ({ ...liveKey(), mode: 'propose' }) : liveKey;
  const server = new Server(
    { name: 'vault-mcp', title: 'Vault MCP', version: services.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  const forwarded = origin.forwardedRoots !== undefined;
  const sessionRoots = new SessionRoots(
    hostPathRules(),
    origin.forwardedRoots ? { status: 'listed', paths: origin.forwardedRoots, ignored: [] } : { status: 'unsupported' },
  );
  const roots: ClientRootsSource = era === 'modern' && !forwarded ? requestRootsSource(hostPathRules()) : sessionRootsSource(sessionRoots);
  const askRoots = (): void => {
    if (forwarded || !server.getClientCapabilities()?.roots) return;
    askSessionRoots(sessionRoots, (schema) => server.request({ method: 'roots/list' }, schema, { timeout: ROOTS_REQUEST_TIMEOUT_MS }));
  };
  const peers = services.peers;
  const contextOf = (key: KeyRecord, client: ClientRootsState, session?: string): { context: ToolContext; blocked: string | null } => {
    const access = services.accessFor(key, client);
    const vaults: VaultsView = { list: () => peers.list(), roots: access.report };
    return { context: services.contextFor(key, access, vaults, session), blocked: access.blocked };
  };
  const addOnTools = addOns.flatMap((a) => a.tools ?? []);
  server.setRequestHandler(
    'tools/list',
    guarded('tools/list', async (request) => {
      // MCP pagination: an invalid cursor is -32602 on every list method; tools/list has one page, so any cursor is one.
      if (request.params?.cursor !== undefined) {
        throw new JsonRpcError(ErrorCode.InvalidParams, 'tools/list has a single page and gives no nextCursor; call it without cursor.');
      }
      const withVault = !forwarded && (await peers.list()).length > 1;
      const tools = services.enabledTools(caller()).map(describeTool);
      const names = new Set(tools.map((t) => t.name));
      const own = withVault ? tools.map(withVaultInput) : tools;
      return { tools: [...own, ...addOnTools.filter((t) => !names.has(t.definition.name)).map((t) => t.definition)] };
    }),
  );
  server.setRequestHandler(
    'tools/call',
    guarded(
      'tools/call',
      askingRoots(async (request, extra) => {
        const key = caller();
        const tools = services.enabledTools(key);
        const { name } = request.params;
        if (!tools.some((t) => t.name === name) && services.enabledTools().some((t) => t.name === name))
          throw outsideToolSetError(name, key.label);
        const addOn = addOnTools.find((t) => t.definition.name === name);
        if (addOn && !tools.some((t) => t.name === name)) return addOn.call(request.params.arguments ?? {}, extra);
        const { vault, ...args } = request.params.arguments ?? {};
        // Input validation errors are tool execution errors (SEP-1303, MCP 2025-11-25 "Tools" → Error Handling), as tool-dispatch answers the others.
        if (vault !== undefined && typeof vault !== 'string')
          return toolErrorResult(
            `Invalid arguments for ${name}: vault: expected a string (a handle from vaults), got ${vault === null ? 'null' : typeof vault}.`,
          );
        const client = await roots.forCall(extra, true);
        if (vault !== undefined) {
          const target = await peers.resolve(vault);
          if (target.kind === 'unknown') return toolErrorResult(target.message);
          if (target.kind === 'peer') {
            if (forwarded)
              return toolErrorResult('A call forwarded from another vault cannot be forwarded again; call that vault directly.');
            const clientPaths = client.status === 'listed' ? client.paths : null;
            return peers.forward(target.entry, target.handle, { label: key.label, mode: key.mode }, clientPaths, name, args);
          }
        }
        const { context, blocked } = contextOf(key, client, extra.sessionId);
        if (blocked && name !== 'vaults') return toolErrorResult(blocked);
        return callTool(tools, name, args, { ...context, progress: progressReporter(extra) });
      }),
    ),
  );
  const sessionContext: SessionContextSource = {
    forRequest: async (extra) => {
      const client = await roots.forCall(extra, false);
      const { context, blocked } = contextOf(caller(), client);
      if (blocked) throw new JsonRpcError(ErrorCode.InvalidParams, blocked);
      return context;
    },
    now: () => {
      const { context, blocked } = contextOf(caller(), roots.known);
      return blocked ? null : context;
    },
    notes: contextOf(caller(), { status: 'unsupported' }).context.notes,
    tools: () => caller().tools,
  };
  const content = registerSessionContent(server, sessionContext, addOns);
  // Changed client roots change what the session may see: its subscriptions and prompts are judged again. The
  // first answer is what its requests waited for from the start: the baseline, nothing to tell.
  let rootsKnown = false;
  sessionRoots.onChange = () => {
    void content.recheck(!rootsKnown);
    rootsKnown = true;
  };
  server.oninitialized = () => {
    askRoots();
    content.follow();
  };
  server.setNotificationHandler('notifications/roots/list_changed', askRoots);
  server.onclose = () => content.stop();
  return server;
}
