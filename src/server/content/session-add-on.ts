import type {
  CallToolResult,
  GetPromptResult,
  InputRequiredResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerContext,
  Tool,
} from '@modelcontextprotocol/server';

/** What an add-on handler gets from the SDK for the request it serves (notifications, requests to the client, progress token). */
export type AddOnExtra = ServerContext;

/** What an add-on may ask of the server it is served by: to tell every client that its lists changed. */
export interface AddOnHost {
  notifyToolListChanged(): Promise<void>;
  notifyPromptListChanged(): Promise<void>;
}

/**
 * Tools, prompts and resources served next to the vault's own in every session opened after
 * it is registered (`McpHttpServer.addOns`). The plugin registers none; a host that embeds it
 * may, e.g. the conformance run's test host registers the MCP conformance suite's fixtures
 * (test/conformance-fixtures.ts). Names and URIs must not collide with the vault's; the
 * vault's own win.
 */
export interface SessionAddOn {
  /** Tools listed after the vault's; `call` returns the whole tools/call result (or, in the 2026-07-28 era, an input-required one). */
  tools?: ReadonlyArray<{
    definition: Tool;
    call(args: Record<string, unknown>, extra: AddOnExtra): Promise<CallToolResult | InputRequiredResult>;
  }>;
  /** Prompts listed after the skills; `complete` answers completion/complete for one argument. */
  prompts?: ReadonlyArray<{
    definition: Prompt;
    get(args: Record<string, string>, extra: AddOnExtra): GetPromptResult | InputRequiredResult;
    complete?(argument: string, value: string): string[];
  }>;
  /** Fixed resources, listed on the first resources/list page. */
  resources?: ReadonlyArray<{ definition: Resource; read(): ReadResourceResult }>;
  /** Resource templates; `read` returns null for a URI the template does not match. */
  templates?: ReadonlyArray<{ definition: ResourceTemplate; read(uri: string): ReadResourceResult | null }>;
  /** Called with the serving server before each session or 2026-07-28 request is served (several times: keep the last). */
  attach?(host: AddOnHost): void;
  /** URIs (beyond its fixed resources) a client may subscribe to. */
  subscribable?(uri: string): boolean;
}
