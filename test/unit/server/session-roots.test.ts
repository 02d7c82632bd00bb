import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { SessionRoots } from '../../../src/server/roots/session-roots';

const RULES = { platform: 'posix' as const, caseInsensitive: false };

/** A request whose answer the test gives later. */
function deferred(): {
  request: () => Promise<{ roots?: unknown }>;
  answer(roots: unknown): void;
  fail(error: unknown): void;
  calls: number;
} {
  let resolve: (value: { roots?: unknown }) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const handle = {
    calls: 0,
    request: () => {
      handle.calls++;
      return new Promise<{ roots?: unknown }>((res, rej) => {
        resolve = res;
        reject = rej;
      });
    },
    answer: (roots: unknown) => resolve({ roots }),
    fail: (error: unknown) => reject(error),
  };
  return handle;
}

describe('SessionRoots', () => {
  it('without a round, current() answers at once with the initial state', async () => {
    const roots = new SessionRoots(RULES);
    await expect(roots.current(() => Promise.reject(new Error('not asked')))).resolves.toEqual({ status: 'unsupported' });
  });

  it('a call waits for the open round and asks on its own stream once; the first answer wins', async () => {
    const roots = new SessionRoots(RULES);
    const standalone = deferred();
    const fromCall = deferred();
    roots.refresh(standalone.request);
    const first = roots.current(fromCall.request);
    const second = roots.current(fromCall.request);
    await Promise.resolve();
    expect(fromCall.calls).toBe(1);
    fromCall.answer([{ uri: 'file:///v/A' }]);
    expect(await first).toEqual({ status: 'listed', paths: ['/v/A'], ignored: [] });
    expect(await second).toEqual({ status: 'listed', paths: ['/v/A'], ignored: [] });
    standalone.answer([{ uri: 'file:///v/late' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(roots.known).toEqual({ status: 'listed', paths: ['/v/A'], ignored: [] });
  });

  it('a round superseded by list_changed never settles the state; waiting calls follow the new round', async () => {
    const roots = new SessionRoots(RULES);
    const old = deferred();
    roots.refresh(old.request);
    const fromCall = deferred();
    const waiting = roots.current(fromCall.request);
    const fresh = deferred();
    roots.refresh(fresh.request);
    old.answer([{ uri: 'file:///v/old' }]);
    fresh.answer([{ uri: 'file:///v/new' }]);
    expect(await waiting).toEqual({ status: 'listed', paths: ['/v/new'], ignored: [] });
  });

  it('-32601 settles as unanswered; a failed standalone ask leaves the round to the call', async () => {
    const roots = new SessionRoots(RULES);
    const standalone = deferred();
    roots.refresh(standalone.request);
    standalone.fail(new Error('stream closed'));
    const fromCall = deferred();
    const waiting = roots.current(fromCall.request);
    await Promise.resolve();
    fromCall.fail(new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found'));
    expect(await waiting).toMatchObject({ status: 'unanswered', reason: expect.stringMatching(/-32601/) });
  });

  it('a list that comes after the wait ended still narrows later calls; a late error does not widen them', async () => {
    const roots = new SessionRoots(RULES);
    const standalone = deferred();
    roots.refresh(standalone.request);
    const fromCall = deferred();
    const waiting = roots.current(fromCall.request);
    await Promise.resolve();
    fromCall.fail(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'));
    expect(await waiting).toMatchObject({ status: 'unanswered', reason: expect.stringMatching(/no answer within/) });
    standalone.answer([{ uri: 'file:///v/late' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await roots.current(() => Promise.reject(new Error('not asked')))).toEqual({
      status: 'listed',
      paths: ['/v/late'],
      ignored: [],
    });
  });

  it('a call whose wait runs out uses the last listed roots (marked previous), and the late answer applies to the next call', async () => {
    const roots = new SessionRoots(RULES, { status: 'unsupported' }, 5);
    const first = deferred();
    roots.refresh(first.request);
    first.answer([{ uri: 'file:///v/Projects' }]);
    expect(await roots.current(() => Promise.reject(new Error('not asked')))).toEqual({
      status: 'listed',
      paths: ['/v/Projects'],
      ignored: [],
    });
    const changed = deferred();
    roots.refresh(changed.request);
    const fromCall = deferred();
    // Never the key's (wider) access while the narrowing round is out: the previous roots stay.
    expect(await roots.current(fromCall.request)).toEqual({ status: 'listed', paths: ['/v/Projects'], ignored: [], previous: true });
    expect(await roots.current(() => Promise.reject(new Error('not asked again')))).toMatchObject({ previous: true });
    fromCall.answer([{ uri: 'file:///v/Journal' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await roots.current(() => Promise.reject(new Error('not asked')))).toEqual({
      status: 'listed',
      paths: ['/v/Journal'],
      ignored: [],
    });
    changed.fail(new ProtocolError(ProtocolErrorCode.MethodNotFound, 'late'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(roots.known).toEqual({ status: 'listed', paths: ['/v/Journal'], ignored: [] });
  });

  it('before any answer, a wait that runs out is unanswered (key access) until the late list comes', async () => {
    const roots = new SessionRoots(RULES, { status: 'unsupported' }, 5);
    const standalone = deferred();
    roots.refresh(standalone.request);
    expect(await roots.current(deferred().request)).toEqual({
      status: 'unanswered',
      reason: 'the client did not answer roots/list within 5 ms',
    });
    standalone.answer([{ uri: 'file:///v/Projects' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(roots.known).toEqual({ status: 'listed', paths: ['/v/Projects'], ignored: [] });
  });

  it("a definitive error after the wait ran out ends the previous roots: the key's access applies", async () => {
    const roots = new SessionRoots(RULES, { status: 'listed', paths: ['/v/Projects'], ignored: [] }, 5);
    roots.refresh(deferred().request);
    const fromCall = deferred();
    expect(await roots.current(fromCall.request)).toMatchObject({ previous: true });
    fromCall.fail(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(roots.known).toEqual({ status: 'unanswered', reason: 'the client did not answer roots/list (no answer within 60000 ms)' });
  });

  it('an answer without a roots array is one sentence, not a validator dump', async () => {
    const roots = new SessionRoots(RULES);
    const standalone = deferred();
    roots.refresh(standalone.request);
    standalone.answer(undefined);
    expect(await roots.current(() => new Promise(() => undefined))).toEqual({
      status: 'unanswered',
      reason: 'the client answered roots/list without a roots array',
    });
  });
});
