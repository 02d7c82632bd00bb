import { requireApiVersion } from 'obsidian';
import { describeServerStatus } from './sections/server-section';
import type { SettingsTabPlugin } from './tab-context';

/**
 * Registers the Obsidian CLI commands `vault-mcp:status` (one status line) and
 * `vault-mcp:url` (the MCP URL, or why there is none) with `Plugin.registerCliHandler`
 * (obsidian.d.ts, since 1.12.2). Older apps lack the method (feature-checked with
 * `requireApiVersion`, see scripts/api-audit/decisions.json); then nothing is registered.
 * @returns true when the handlers were registered
 */
export function registerCliHandlers(plugin: SettingsTabPlugin): boolean {
  if (requireApiVersion('1.12.2')) {
    plugin.registerCliHandler('vault-mcp:status', 'Show whether the Vault MCP server is listening, and where', null, () => {
      const keys = plugin.keyRing.list().length;
      return `${describeServerStatus({ plugin })} (${keys} key${keys === 1 ? '' : 's'})`;
    });
    plugin.registerCliHandler('vault-mcp:url', 'Print the Vault MCP server URL', null, () => {
      const status = plugin.server.getStatus();
      if (status.state === 'listening') return status.url;
      return status.state === 'error' ? `Not listening: ${status.message}` : 'Not listening: the server is stopped.';
    });
    return true;
  }
  return false;
}
