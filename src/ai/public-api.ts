import type { App } from 'obsidian';
import type { AiService } from './ai-service';
import type { VaultMcpApi } from './types';

/** Workspace event fired when `plugin.api` becomes available (payload: the api object). */
export const API_READY_EVENT = 'vault-mcp:api-ready';

/**
 * The object other plugins reach as `app.plugins.getPlugin('vault-mcp').api` (documented in
 * types/vault-mcp-api.d.ts). Frozen, and it exposes nothing but the funnel: callers never see
 * settings, keys, usage or the provider.
 * @param service the plugin's AiService
 * @returns `{apiVersion: 1, chat, chatAvailability}`
 */
export function createPublicApi(service: Pick<AiService, 'chat' | 'chatAvailability'>): VaultMcpApi {
  return Object.freeze({
    apiVersion: 1 as const,
    chat: (messages, options) => service.chat(messages, options),
    chatAvailability: () => service.chatAvailability(),
  } satisfies VaultMcpApi);
}

/** The part of the plugin `publishApi` touches. */
export interface ApiHost {
  app: App;
  api?: VaultMcpApi | null;
}

/**
 * Sets `plugin.api` and fires the `vault-mcp:api-ready` workspace event
 * (`app.workspace.trigger`, Obsidian `Events`) so plugins loaded earlier can pick it up.
 * @param plugin the Vault MCP plugin instance
 * @param api the object from {@link createPublicApi}
 */
export function publishApi(plugin: ApiHost, api: VaultMcpApi): void {
  plugin.api = api;
  plugin.app.workspace.trigger(API_READY_EVENT, api);
}
