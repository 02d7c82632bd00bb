import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { messagesOf, openRawSession, raw } from '../../harness/server/raw-http';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

interface RpcMessage {
  id: string | number | null;
  result?: { content: { text: string }[] };
  error?: { code: number; message: string };
}

const searchFor = (id: number | string, query: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { query } } });

// JSON-RPC 2.0 §4–§6 framing, checked in our door before the SDK transport sees a message.
describe('JSON-RPC framing at the door', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let cleanup: () => Promise<void>;
  let session: Record<string, string>;

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanup = copy.cleanup;
    await fsp.writeFile(nodePath.join(copy.dir, 'Apple only.md'), 'applewordonly\n');
    await fsp.writeFile(nodePath.join(copy.dir, 'Banana only.md'), 'bananawordonly\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    session = await openRawSession(booted.port, booted.token);
  });
  afterAll(async () => {
    await booted?.stop();
    await cleanup?.();
  });

  it('an empty batch is -32600 Invalid Request, not 202', async () => {
    const reply = await raw(booted.port, { headers: session, body: '[]' });
    expect(reply.status).toBe(400);
    const [message] = messagesOf(reply) as RpcMessage[];
    expect(message).toMatchObject({ id: null, error: { code: -32600 } });
    expect(message.error!.message).toMatch(/^Invalid Request/);
  });

  it.each([
    ['a number', '5'],
    ['a string', '"ping"'],
    ['null', 'null'],
    ['a batch holding a number', '[1]'],
    [
      'a batch holding a valid and an invalid message',
      '[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"1.0","id":8,"method":"ping"}]',
    ],
    ['a message without jsonrpc', '{"id":7,"method":"ping"}'],
    ['a request whose params are not structured', '{"jsonrpc":"2.0","id":7,"method":"ping","params":5}'],
    ['a request whose id is an object', '{"jsonrpc":"2.0","id":{},"method":"ping"}'],
    ['a batch repeating a request id', '[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]'],
  ])('%s is -32600 Invalid Request with one sentence', async (_name, body) => {
    const reply = await raw(booted.port, { headers: session, body });
    expect(reply.status).toBe(400);
    const [message] = messagesOf(reply) as RpcMessage[];
    expect(message.error!.code).toBe(-32600);
    expect(message.error!.message).toMatch(/^Invalid Request: [^\n]{10,200}$/);
  });

  it('the same framing rule holds before a session exists', async () => {
    const reply = await raw(booted.port, { headers: { Authorization: `Bearer ${booted.token}` }, body: '[]' });
    expect(reply.status).toBe(400);
    expect((messagesOf(reply) as RpcMessage[])[0].error!.code).toBe(-32600);
  });

  /** A raw session that negotiated `version`. */
  async function sessionAt(version: string): Promise<Record<string, string>> {
    const auth = { Authorization: `Bearer ${booted.token}` };
    const init = await raw(booted.port, {
      headers: auth,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect((messagesOf(init)[0] as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
    const headers = { ...auth, 'Mcp-Session-Id': init.headers['mcp-session-id'] as string, 'Mcp-Protocol-Version': version };
    await raw(booted.port, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    return headers;
  }

  const PINGS = '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"}]';

  it('a valid batch is still served in a session that negotiated 2025-03-26, which allows batches', async () => {
    const reply = await raw(booted.port, { headers: await sessionAt('2025-03-26'), body: PINGS });
    expect(reply.status).toBe(200);
    const ids = (messagesOf(reply) as RpcMessage[]).map((m) => m.id).sort();
    expect(ids).toEqual(['a', 'b']);
  });

  it.each(['2025-06-18', '2025-11-25'])('a batch in a %s session is refused: MCP 2025-06-18 removed batching', async (version) => {
    const reply = await raw(booted.port, { headers: await sessionAt(version), body: PINGS });
    expect(reply.status).toBe(400);
    const [message] = messagesOf(reply) as RpcMessage[];
    expect(message).toMatchObject({ id: null, error: { code: -32600 } });
    expect(message.error!.message).toMatch(/^Invalid Request: .*batch.*2025-06-18.*one JSON-RPC message per request/);
  });

  it('an initialize in a batch is refused when it would open a session at 2025-06-18 or later', async () => {
    const initialize = (version: string) =>
      `[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"${version}","capabilities":{},"clientInfo":{"name":"r","version":"1"}}}]`;
    const reply = await raw(booted.port, { headers: { Authorization: `Bearer ${booted.token}` }, body: initialize('2025-06-18') });
    expect(reply.status).toBe(400);
    const [message] = messagesOf(reply) as RpcMessage[];
    expect(message).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/MCP 2025-06-18.*batches were removed/) },
    });
    const older = await raw(booted.port, { headers: { Authorization: `Bearer ${booted.token}` }, body: initialize('2024-11-05') });
    expect(older.status).toBe(200);
  });

  it('a batch in the stateless 2026-07-28 era is refused the same way', async () => {
    const meta =
      '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}';
    const reply = await raw(booted.port, {
      headers: { Authorization: `Bearer ${booted.token}`, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'ping' },
      body: `[{"jsonrpc":"2.0","id":"a","method":"ping","params":{"_meta":${meta}}},{"jsonrpc":"2.0","id":"b","method":"ping","params":{"_meta":${meta}}}]`,
    });
    expect(reply.status).toBe(400);
    const [message] = messagesOf(reply) as RpcMessage[];
    expect(message.error).toMatchObject({ code: -32600, message: expect.stringMatching(/batch/) });
    // Without the envelope or Mcp-Method (a hand-made batch): told of the batch, not that a session is missing (2026-07-28 needs none).
    for (const version of ['2026-07-28', '2025-11-25']) {
      const bare = await raw(booted.port, {
        headers: { Authorization: `Bearer ${booted.token}`, 'MCP-Protocol-Version': version },
        body: PINGS,
      });
      expect(bare.status).toBe(400);
      expect((messagesOf(bare) as RpcMessage[])[0]).toMatchObject({
        id: null,
        error: {
          code: -32600,
          message: `Invalid Request: MCP-Protocol-Version names MCP ${version}, and JSON-RPC batches were removed in 2025-06-18; send one JSON-RPC message per request (POST each message on its own).`,
        },
      });
    }
    // A revision with batches still needs its session first.
    const older = await raw(booted.port, {
      headers: { Authorization: `Bearer ${booted.token}`, 'MCP-Protocol-Version': '2025-03-26' },
      body: PINGS,
    });
    expect(older.status).toBe(400);
    expect(JSON.stringify(messagesOf(older))).toMatch('send initialize first');
  });

  it('refuses a request reusing the id of one still in flight; the first still answers', async () => {
    const index = booted.plugin.search;
    const search = index.search.bind(index);
    let entered!: () => void;
    const firstEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    index.search = async (...args: Parameters<typeof search>) => {
      if (!held) {
        held = true;
        entered();
        await released;
      }
      return search(...args);
    };
    try {
      const first = raw(booted.port, { headers: session, body: searchFor(1, 'applewordonly') });
      await firstEntered;
      const second = await raw(booted.port, { headers: session, body: searchFor(1, 'bananawordonly') });
      const [refusal] = messagesOf(second) as RpcMessage[];
      expect(refusal).toMatchObject({ id: 1, error: { code: -32600 } });
      expect(refusal.error!.message).toMatch(/in flight/);
      // The same id as a number and as a string are different ids (JSON-RPC 2.0 §4).
      const other = messagesOf(await raw(booted.port, { headers: session, body: searchFor('1', 'bananawordonly') })) as RpcMessage[];
      expect(other[0].result!.content[0].text).toMatch(/Banana only/);
      release();
      const [answer] = messagesOf(await first) as RpcMessage[];
      expect(answer.id).toBe(1);
      expect(answer.result!.content[0].text).toMatch(/Apple only/);
      expect(answer.result!.content[0].text).not.toMatch(/Banana/);
      // Once answered, the id may be used again.
      const again = messagesOf(await raw(booted.port, { headers: session, body: searchFor(1, 'bananawordonly') })) as RpcMessage[];
      expect(again[0].result!.content[0].text).toMatch(/Banana only/);
    } finally {
      release();
      index.search = search;
    }
  });
});
