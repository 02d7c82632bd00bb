import { checkFraming, InFlightIds, MAX_BATCH_MESSAGES, requestIdsOf } from '../../src/server/http/json-rpc-framing';

describe('checkFraming', () => {
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
