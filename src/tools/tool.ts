import type { z } from 'zod';
import type { KeyRecord } from '../settings/key-record';
import type { NoteStore } from '../vault/note-store';
import type { AccessScope } from '../vault/access/access';
import type { SearchIndex } from '../search/search-index';
import type { SemanticIndex } from '../search/semantic/semantic-index';
import type { ProposalStore } from '../proposals/store/proposal-store';
import type { ProposalReview } from '../proposals/review/proposal-review';
import type { VaultMcpSettings } from '../settings/settings';
import type { VaultsView } from './read/vaults-view';
import type { ActivityLog } from '../activity/activity-log';
import type { JsonSchema } from './output-schema';

/**
 * What a tool handler may use. Handlers never call the Obsidian API directly: they ask
 * `notes` (vault/) and `search` (search/).
 */
export interface ToolContext {
  notes: NoteStore;
  search: SearchIndex;
  /** The embedding index behind semantic and hybrid search; absent or null when the plugin has none. */
  semantic?: SemanticIndex | null;
  /** Staged changes of propose mode: write tools stage here for a `propose` key. */
  proposals: ProposalStore;
  /** The review side of proposals (where a pending proposal stands against the vault now). */
  review: ProposalReview;
  /** The agent activity log (proposal_status's `activity`); absent or null when the plugin keeps none. */
  activity?: ActivityLog | null;
  /** The authenticated key making this call. */
  caller: KeyRecord;
  /** The caller's access scope (label + roots), to pass to every NoteStore call. */
  scope: AccessScope;
  /** Current settings (read-only snapshot). */
  settings: VaultMcpSettings;
  /** The open vaults and this session's effective roots (the `vaults` tool); set by the server. */
  vaults?: VaultsView;
  /**
   * Reports how far a call that makes the client wait has come (MCP spec "Progress"); set by the
   * server only when the client asked for progress (a `progressToken`). `progress` must grow from
   * call to call (a value not above the last is dropped); `total` when known.
   */
  progress?: (progress: number, total?: number, message?: string) => void;
}

/** MCP tool annotations (MCP spec 2025-06-18, "Tools" → ToolAnnotations). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * One tool: its contract (name, description for a model, zod input shape, annotations)
 * and its handler. `kind: 'write'` tools are hidden unless "Allow writes" and their own
 * toggle are on. The handler returns a JSON-serializable object (sent as the result's
 * text content and as `structuredContent`), or throws a `ToolError` the agent can act on.
 */
export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  kind: 'read' | 'write';
  inputSchema: Shape;
  /**
   * JSON Schema (2020-12) of the handler's result as `structuredContent`, for the tools whose
   * results client programs consume (see output-schema.ts); every success path must match it.
   */
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  handler(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Identity helper that keeps the handler's argument type tied to the schema. */
export function defineTool<Shape extends z.ZodRawShape>(def: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return def;
}
