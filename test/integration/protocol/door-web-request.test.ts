import VaultMcpPlugin from '../../../src/main';
import * as webExchange from '../../../src/server/http/web-exchange';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { messagesOf, openRawSession, raw } from '../../harness/server/raw-http';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

/**
 * Each HTTP request is turned into one web-standard Request: routing (which era) reads its
 * headers and the SDK entry serving it takes the same one. Building it twice cost a Headers
 * copy, an AbortController and a close listener per call.
 */
describe('the door builds one web Request per HTTP request', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin>;

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, token: 'web-request-token-0123456789abcdef' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await booted.stop();
    await copy.cleanup();
  });

  const call = (id: number, tool: string, meta?: Record<string, unknown>): string =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: tool, arguments: { query: 'canvas' }, ...(meta ? { _meta: meta } : {}) },
    });

  it('in a session and on the stateless 2026-07-28 endpoint, and the answers still come', async () => {
    const session = await openRawSession(booted.port, booted.token);
    const built = jest.spyOn(webExchange, 'webRequestOf');
    const inSession = await raw(booted.port, {
      headers: session,
      body: call(41, 'search'),
    });
    expect(inSession.status).toBe(200);
    expect(JSON.stringify(messagesOf(inSession))).toMatch(/"structuredContent"/);
    expect(built).toHaveBeenCalledTimes(1);
    built.mockClear();
    const modern = await raw(booted.port, {
      headers: {
        Authorization: `Bearer ${booted.token}`,
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'search',
      },
      body: call(42, 'search', {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      }),
    });
    expect(modern.status).toBe(200);
    expect(JSON.stringify(messagesOf(modern))).toMatch(/"structuredContent"/);
    expect(built).toHaveBeenCalledTimes(1);
  });
});
