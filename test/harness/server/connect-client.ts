/**
 * The official MCP SDK client over Streamable HTTP, as the tests and the bench connect it:
 * apart from boot-plugin.ts so that a process holding only a client (the bench's search client,
 * scripts/bench/scaling/search-client.ts) bundles the SDK client alone, without the host and the plugin.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * Connects the official MCP SDK client over Streamable HTTP with a bearer token, as
 * Claude Code or Cursor would (the SDK's `initialize` handshake included).
 * @param url the server's MCP endpoint; token: the key's bearer token; name: the client's name in `initialize`
 * @returns the connected client
 * @throws Error when the server cannot be reached or refuses the handshake.
 */
export async function connectClient(url: string, token: string, name = 'vault-mcp-tests'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}
