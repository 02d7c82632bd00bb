import {
  checkFraming,
  InFlightIds,
  MAX_BATCH_MESSAGES,
  MAX_OBJECT_KEYS,
  requestIdsOf,
} from '../../../src/server/http/door/json-rpc-framing';

describe('checkFraming', () => {
  it('refuses an object of more than MAX_OBJECT_KEYS keys anywhere in the body, naming where, before the SDK parses it (newcomer finding: 3 s stall)', () => {
    const wide = (n: number): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(checkFraming({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: wide(MAX_OBJECT_KEYS) } })).toBeNull();
    expect(checkFraming({ jsonrpc: '2.0', id: 7, method: 'ping', params: { _meta: wide(MAX_OBJECT_KEYS + 1) } })).toEqual({
      id: 7,
      message: `Invalid Request: an object in the body has ${MAX_OBJECT_KEYS + 1} keys (at params._meta); send at most ${MAX_OBJECT_KEYS} keys in any one object.`,
    });
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { list: [{}, { deep: wide(5000) }] } } },
    ];
    expect(checkFraming(batch)).toMatchObject({
      id: null,
      message: expect.stringContaining('5000 keys (at [1].params.arguments.list[1].deep)'),
    });
    expect(checkFraming({ jsonrpc: '2.0', id: 'r', result: wide(2000) })).toMatchObject({
      id: 'r',
      message: expect.stringContaining('(at result)'),
    });
    expect(checkFraming(wide(1001))).toMatchObject({ message: expect.stringContaining('(at the top)') });
    // Arrays are not limited, and a body nested deeper than the stack is walked without recursion.
    expect(
      checkFraming({ jsonrpc: '2.0', id: 1, method: 'ping', params: { list: Array.from({ length: 50_000 }, (_, i) => i) } }),
    ).toBeNull();
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(checkFraming({ jsonrpc: '2.0', id: 1, method: 'ping', params: { deep } })).toBeNull();
  });

  it('accepts one message or a non-empty batch of requests, notifications and responses', () => {
    expect(checkFraming({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeNull();
    expect(checkFraming({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeNull();
    expect(
      checkFraming([
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 1, method: 'ping' },
      ]),
    ).toBeNull();
    expect(
      checkFraming([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: '1', method: 'ping' },
      ]),
    ).toBeNull();
  });

  it('refuses an empty batch, a non-message and a repeated request id, naming where', () => {
    expect(checkFraming([])?.message).toMatch(/batch is empty/);
    expect(checkFraming(42)?.message).toMatch(/the body is not a JSON-RPC 2.0 message/);
    expect(checkFraming([{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'x'])?.message).toMatch(/message 2 of the batch/);
    const repeated = checkFraming([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
    ]);
    expect(repeated).toEqual({ id: null, message: expect.stringMatching(/request id "a" twice/) });
  });

  it("answers a single message's readable id (JSON-RPC 2.0 §5: null only when it cannot be detected)", () => {
    expect(checkFraming({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: null })?.id).toBe(7);
    expect(checkFraming({ jsonrpc: '2.0', id: 'x', method: 7 })?.id).toBe('x');
    expect(checkFraming({ jsonrpc: '2.0', id: 1.5, method: 'ping' })?.id).toBeNull();
    expect(checkFraming([{ jsonrpc: '2.0', id: 7, method: 7 }])?.id).toBeNull();
    expect(checkFraming(42)?.id).toBeNull();
  });

  it.each([
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, /its id 1\.5 is neither a string nor an integer/],
    [
      { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' },
      /its id 1152921504606847000 is neither a string nor an integer \(at most 2\^53 - 1\)/,
    ],
    [{ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, /its id an object is neither/],
    [
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1.5 } } },
      /its params\._meta\.progressToken 1\.5 is neither/,
    ],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: true } } }, /progressToken true is neither/],
    [{ jsonrpc: '2.0', id: 1, method: 7 }, /it needs jsonrpc "2\.0" and either a method \(string\), an optional id \(string or integer\)/],
  ])('names the field that makes %j no JSON-RPC message', (message, why) => {
    expect(checkFraming(message)?.message).toMatch(why);
  });

  it('names an id nested 100k deep by its kind, without serializing it (a stack overflow answered 500)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(checkFraming({ jsonrpc: '2.0', id: deep, method: 'ping' })?.message).toMatch(/its id an array is neither/);
  });

  it('refuses a batch of more than MAX_BATCH_MESSAGES messages before looking at them (a batch bomb)', () => {
    const pings = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    expect(checkFraming(pings(MAX_BATCH_MESSAGES))).toBeNull();
    expect(checkFraming(pings(MAX_BATCH_MESSAGES + 1))).toEqual({
      id: null,
      message: `Invalid Request: the batch has ${MAX_BATCH_MESSAGES + 1} messages; send at most ${MAX_BATCH_MESSAGES} per request.`,
    });
  });
});

describe('InFlightIds', () => {
  it('refuses an id in flight until it is released; 1 and "1" are different ids', () => {
    const inFlight = new InFlightIds();
    expect(inFlight.claim([1, 2])).toBeUndefined();
    expect(inFlight.claim(['1'])).toBeUndefined();
    expect(inFlight.claim([3, 2])).toBe(2);
    expect(inFlight.claim([3])).toBeUndefined();
    inFlight.release([1, 2]);
    expect(inFlight.claim([2])).toBeUndefined();
  });

  it('takes the ids of requests only', () => {
    expect(
      requestIdsOf([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, result: {} },
        { jsonrpc: '2.0', method: 'n' },
      ]),
    ).toEqual([1]);
    expect(requestIdsOf(undefined)).toEqual([]);
  });
});
