/**
 * The process of a scaling row's timed searches (bundled by `npm run bench` as
 * build/search-client.cjs, forked by the row's process through RemoteSearchClient): the official
 * MCP SDK client, as a user's client runs it in a process of its own. Once loaded it says
 * `started`; on `connect` it connects over
 * HTTP and calls `tools/list`, as a client does before its first `tools/call`; on `passes` it times
 * `search` at the client exactly as the row did in its own process (timeRuns, each query's runs one
 * after another) and sends the samples back; on `close` (or when the row's channel closes) it exits.
 * A failure is sent as an `error` reply, then the process exits with code 1.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../../../test/harness/server/connect-client';
import { timeRuns } from '../measure';
import { checkRequest, type ClientReply } from './remote-client';

let client: Client | null = null;

/** Sends `reply` to the row's process and resolves once it is handed to the channel. */
function reply(message: ClientReply): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

async function handle(message: unknown): Promise<void> {
  const request = checkRequest(message);
  if (request.type === 'connect') {
    client = await connectClient(request.url, request.token);
    const { tools } = await client.listTools();
    await reply({ type: 'ready', tools: tools.length });
  } else if (request.type === 'passes') {
    const connected = client;
    if (connected === null) throw new Error('search client: "passes" before "connect"');
    const samples: number[][] = [];
    for (const list of request.lists) {
      const timed: number[] = [];
      for (const query of list)
        timed.push(...(await timeRuns(() => connected.callTool({ name: 'search', arguments: { query } }), request.runs)));
      samples.push(timed);
    }
    await reply({ type: 'samples', samples });
  } else {
    await client?.close();
    process.exit(0);
  }
}

if (process.send === undefined) {
  console.error('search-client: run by a scaling row (fork with an IPC channel)');
  process.exit(1);
}
// Requests come one at a time (the row waits for each reply); a failed one ends the process after saying why.
process.on('message', (message: unknown) => {
  handle(message).catch(async (error: unknown) => {
    await reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
void reply({ type: 'started' });
