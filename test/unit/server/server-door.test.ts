import type { IncomingMessage } from 'node:http';
import { checkDoorHeaders, isAllowedOrigin, isLoopbackHost } from '../../../src/server/http/door/door';

describe('door: Host and Origin', () => {
  it.each([
    ['127.0.0.1:27200', true],
    ['localhost:1', true],
    ['LOCALHOST', true],
    ['[::1]:27200', true],
    ['evil.com', false],
    ['127.0.0.1.evil.com:27200', false],
    ['localhost.evil.com', false],
    ['192.168.1.2:27200', false],
    ['', false],
  ])('Host %p → %p', (host, ok) => {
    expect(isLoopbackHost(host)).toBe(ok);
  });

  it.each([
    [undefined, true],
    ['app://obsidian.md', true],
    ['http://localhost:5173', true],
    ['http://127.0.0.1', true],
    ['https://evil.com', false],
    ['http://localhost.evil.com', false],
    ['null', false],
    ['file://', false],
  ])('Origin %p → %p', (origin, ok) => {
    expect(isAllowedOrigin(origin)).toBe(ok);
  });
});

describe('door: checkDoorHeaders counts repeated headers in one pass', () => {
  /**
   * A request with `pairs` as its raw headers, its `headers` as Node builds them (Host and
   * Authorization keep the first, others join repeats with `, `); `passes()` says how often
   * `rawHeaders` was read.
   */
  function request(pairs: Array<[string, string]>): { req: IncomingMessage; passes: () => number } {
    const headers: Record<string, string> = {};
    for (const [name, value] of pairs) {
      const lower = name.toLowerCase();
      if (!(lower in headers)) headers[lower] = value;
      else if (lower !== 'host' && lower !== 'authorization') headers[lower] += `, ${value}`;
    }
    let reads = 0;
    const raw = pairs.flat();
    const req = {
      headers,
      get rawHeaders() {
        reads++;
        return raw;
      },
    } as unknown as IncomingMessage;
    return { req, passes: () => reads };
  }

  const HOST: [string, string] = ['Host', '127.0.0.1:27200'];
  const AUTH: [string, string] = ['Authorization', 'Bearer abc'];
  const repeated = (name: string): string =>
    `Bad request: send at most one ${name} header, with one value (this request repeats it or lists several, comma-joined); which was meant cannot be told.`;
  const once = /^Bad request: send exactly one Host header, at most one Origin header and at most one Authorization header/;

  test.each<[string, Array<[string, string]>, RegExp | string | null]>([
    ['one of each', [HOST, AUTH, ['Origin', 'app://obsidian.md'], ['Mcp-Session-Id', 'a'], ['MCP-Protocol-Version', '2025-06-18']], null],
    ['no Host', [AUTH], once],
    ['two Hosts', [HOST, ['host', 'localhost']], once],
    ['two Origins', [HOST, ['Origin', 'app://obsidian.md'], ['ORIGIN', 'app://obsidian.md']], once],
    ['two Authorizations', [HOST, AUTH, ['authorization', 'Bearer other']], once],
    ['two Mcp-Session-Ids', [HOST, ['Mcp-Session-Id', 'a'], ['mcp-session-id', 'a']], repeated('Mcp-Session-Id')],
    ['a comma-joined Mcp-Session-Id', [HOST, ['Mcp-Session-Id', 'a, b']], repeated('Mcp-Session-Id')],
    [
      'two MCP-Protocol-Versions',
      [HOST, ['MCP-Protocol-Version', '2025-06-18'], ['MCP-Protocol-Version', '2025-06-18']],
      repeated('MCP-Protocol-Version'),
    ],
    ['two Last-Event-IDs', [HOST, ['Last-Event-ID', '1'], ['last-event-id', '2']], repeated('Last-Event-ID')],
    ['a Last-Event-ID holding a comma', [HOST, ['Last-Event-ID', '1,2']], null],
    ['two Mcp-Methods', [HOST, ['Mcp-Method', 'tools/list'], ['Mcp-Method', 'tools/list']], repeated('Mcp-Method')],
    ['two Mcp-Names', [HOST, ['Mcp-Name', 'search'], ['MCP-NAME', 'search']], repeated('Mcp-Name')],
    ['an Mcp-Name holding a comma', [HOST, ['Mcp-Name', 'note://a,b']], null],
    ['a foreign Host', [['Host', 'evil.com']], /^Forbidden: the Host header must be/],
    ['a web page Origin', [HOST, ['Origin', 'https://evil.com']], /^Forbidden: requests from web pages are refused/],
  ])('%s', (_what, pairs, refusal) => {
    const { req, passes } = request(pairs);
    const answer = checkDoorHeaders(req);
    if (refusal === null) expect(answer).toBeNull();
    else
      expect(answer).toEqual({
        status: typeof refusal === 'string' || refusal === once ? 400 : 403,
        code: -32000,
        message: refusal instanceof RegExp ? expect.stringMatching(refusal) : refusal,
      });
    // One pass over the raw headers serves every check.
    expect(passes()).toBe(1);
  });
});
