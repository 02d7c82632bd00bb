import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ForwardIdentity } from '../../src/server/vaults/forward-assertion';
import { REGISTRY_DIR_ENV, VaultRegistry, vaultIdOf } from '../../src/server/vaults/vault-registry';

/**
 * The other "vaults" of the security suite's registry: a registered peer whose signing key the
 * suite holds (so it can forge, replay and expire forwarded assertions), a stranger that is not
 * registered, and registry entries pointing at ports that are no Vault MCP server: a listener
 * answering 404, an impostor speaking just enough MCP to be sent a tools/call, this vault's own
 * port under another id, and a closed port. Every request the foreign listeners get is recorded.
 */

/** One request a foreign listener received. */
export interface RecordedRequest {
  handle: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Handles of the registry entries (see the module comment). */
export const PEER_HANDLES = {
  peer: 'Peer',
  notFound: 'Foreign404',
  impostor: 'Impostor',
  selfPort: 'EchoSelf',
  closed: 'GonePort',
} as const;

/** The registry side of the security environment. */
export interface PeerEnv {
  registryDir: string;
  /** This vault's registry id (the audience of assertions meant for it). */
  selfId: string;
  /** A registered vault whose private key the suite holds. */
  peer: { id: string; identity: ForwardIdentity };
  /** A vault that is not in the registry. */
  stranger: { id: string; identity: ForwardIdentity };
  /** Every request the foreign listeners received, in order. */
  received: RecordedRequest[];
  /** Registers the peers (call once the plugin has announced itself). */
  register(selfPort: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a listener on 127.0.0.1 that records each request and answers with `answer`. */
async function listener(
  handle: string,
  received: RecordedRequest[],
  answer: (body: string, res: http.ServerResponse) => void,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ handle, method: req.method ?? '', headers: req.headers, body });
      answer(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Answers like an MCP server would (JSON, not SSE): initialize, notifications, then any tool call. */
function impostorAnswer(body: string, res: http.ServerResponse): void {
  let message: { id?: unknown; method?: string } = {};
  try {
    message = JSON.parse(body) as typeof message;
  } catch {
    message = {};
  }
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const result =
    message.method === 'initialize'
      ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'impostor', version: '1' } }
      : { content: [{ type: 'text', text: 'impostor answer' }] };
  res
    .writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'impostor-session' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
}

const portOf = (server: http.Server): number => (server.address() as AddressInfo).port;

/**
 * Points the plugin at a registry folder of its own (set before the plugin boots; the previous
 * value comes back on close) and starts the foreign listeners.
 * @param registryDir a new folder for the registry.
 * @param vaultFolder the vault's folder (its id is the audience).
 */
export async function startPeerEnv(registryDir: string, vaultFolder: string): Promise<PeerEnv> {
  const previous = process.env[REGISTRY_DIR_ENV];
  process.env[REGISTRY_DIR_ENV] = registryDir;
  const received: RecordedRequest[] = [];
  const notFound = await listener(PEER_HANDLES.notFound, received, (_b, res) =>
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such thing'),
  );
  const impostor = await listener(PEER_HANDLES.impostor, received, impostorAnswer);
  const closed = await listener(PEER_HANDLES.closed, received, (_b, res) => res.end());
  const closedPort = portOf(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const peer = { id: 'a1a1a1a1a1a1a1a1', identity: new ForwardIdentity() };
  const stranger = { id: 'b2b2b2b2b2b2b2b2', identity: new ForwardIdentity() };
  const registry = new VaultRegistry(registryDir);
  const entry = (id: string, name: string, port: number, key: string) => ({
    id,
    name,
    path: `/nonexistent/${name}`,
    port,
    pid: process.pid,
    public_key: key,
    started_at: new Date().toISOString(),
  });
  return {
    registryDir,
    selfId: vaultIdOf(vaultFolder),
    peer,
    stranger,
    received,
    register: async (selfPort) => {
      await registry.register(entry(peer.id, PEER_HANDLES.peer, portOf(notFound), peer.identity.publicKey));
      await registry.register(entry('c3c3c3c3c3c3c3c3', PEER_HANDLES.notFound, portOf(notFound), new ForwardIdentity().publicKey));
      await registry.register(entry('d4d4d4d4d4d4d4d4', PEER_HANDLES.impostor, portOf(impostor), new ForwardIdentity().publicKey));
      await registry.register(entry('e5e5e5e5e5e5e5e5', PEER_HANDLES.selfPort, selfPort, new ForwardIdentity().publicKey));
      await registry.register(entry('f6f6f6f6f6f6f6f6', PEER_HANDLES.closed, closedPort, new ForwardIdentity().publicKey));
    },
    close: async () => {
      for (const server of [notFound, impostor]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await fsp.rm(registryDir, { recursive: true, force: true });
      if (previous === undefined) delete process.env[REGISTRY_DIR_ENV];
      else process.env[REGISTRY_DIR_ENV] = previous;
    },
  };
}
