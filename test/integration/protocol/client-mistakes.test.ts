import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { messagesOf, openRawSession, raw } from '../../harness/server/raw-http';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

interface RpcError {
  code: number;
  message: string;
}

/** A value nested `depth` objects deep: {"a":{"a":...{"a":1}}}. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

// docs/architecture.md#error-model: a client mistake is -32600/-32602 or a tool error with one short
// sentence; -32603 is kept for our own bugs (stack in the console, never in the reply).
describe('client mistakes are answered as client mistakes', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let cleanup: () => Promise<void>;
  let session: Record<string, string>;
  let nextId = 100;

  /** Sends one request in the session and returns its JSON-RPC answer. */
  async function call(method: string, params?: unknown): Promise<{ result?: Record<string, unknown>; error?: RpcError }> {
    const body = `{"jsonrpc":"2.0","id":${nextId++},"method":${JSON.stringify(method)}${params === undefined ? '' : `,"params":${typeof params === 'string' ? params : JSON.stringify(params)}`}}`;
    const reply = await raw(booted.port, { headers: session, body });
    const [message] = messagesOf(reply) as { result?: Record<string, unknown>; error?: RpcError }[];
    return message;
  }

  /** Asserts a client-mistake error: -32600/-32602 and one short sentence, no validator dump. */
  function expectShortClientError(error: RpcError | undefined): void {
    expect(error).toBeDefined();
    expect([-32600, -32602]).toContain(error!.code);
    expect(error!.message.length).toBeLessThan(200);
    expect(error!.message).not.toMatch(/[[{]\s*"|\n|expected.*received|invalid_type/i);
  }

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanup = copy.cleanup;
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, allowWrites: true, mode: 'force' });
    session = await openRawSession(booted.port, booted.token);
  });
  afterAll(async () => {
    await booted?.stop();
    await cleanup?.();
  });

  it('a frontmatter_patch nested 1,000 levels deep is a tool error with one sentence', async () => {
    const reply = await call('tools/call', `{"name":"write_note","arguments":{"path":"Ideas","frontmatter_patch":{"x":${nested(1000)}}}}`);
    expect(reply.error).toBeUndefined();
    expect(reply.result?.isError).toBe(true);
    const text = (reply.result?.content as { text: string }[])[0].text;
    expect(text).toMatch(/nested/);
    expect(text.length).toBeLessThan(200);
  });

  it('a deep but reasonable frontmatter_patch still writes', async () => {
    const reply = await call('tools/call', `{"name":"write_note","arguments":{"path":"Ideas","frontmatter_patch":{"x":${nested(5)}}}}`);
    expect(reply.result?.isError).toBeFalsy();
  });

  it('logging/setLevel without or with a bad level is -32602', async () => {
    expectShortClientError((await call('logging/setLevel', {})).error);
    expectShortClientError((await call('logging/setLevel', { level: 'loud' })).error);
    expect((await call('logging/setLevel', { level: 'info' })).result).toEqual({});
  });

  it('tools/list with a cursor that is not a string is -32602', async () => {
    expectShortClientError((await call('tools/list', { cursor: 5 })).error);
    expect((await call('tools/list', {})).result?.tools).toBeDefined();
  });

  it('initialize with bad params inside a session is a client error', async () => {
    expectShortClientError((await call('initialize', { protocolVersion: 5 })).error);
    expectShortClientError((await call('initialize', {})).error);
  });

  it('tools/call without a name or with arguments that are not an object is -32602', async () => {
    expectShortClientError((await call('tools/call', { arguments: {} })).error);
    expectShortClientError((await call('tools/call', { name: 'search', arguments: 'x' })).error);
  });

  it('the session still works after every mistake', async () => {
    expect((await call('ping')).result).toEqual({});
  });
});
