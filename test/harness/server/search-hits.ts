import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * Paths of the `search` hits for `query` (lexical mode), asserting the call succeeded.
 * @param client a connected MCP client. @param query the search text.
 * @returns the hits' paths, best first
 */
export async function hitPaths(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical' } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { results: Array<{ path: string }> }).results.map((r) => r.path);
}

/**
 * Repeats `probe` every 25 ms until it returns true (the host applies disk events after a short delay).
 * @throws Error when 10 s pass without it
 */
export async function eventuallyTrue(probe: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached within 10 s');
}
