import { request } from 'node:http';
import {
  beginForegroundWork,
  eventLoopYield,
  FOREGROUND_LINGER_MS,
  FOREGROUND_SLICE_MS,
  Slicer,
  type YieldEnv,
} from '../../src/search/engine/slicer';
import { LoopbackListener } from '../../src/server/http/listener';

/** A Slicer over a clock the test moves (performance.now mocked), so slices are exact. */
function withClock(): { advance(ms: number): void; restore(): void } {
  let now = 1000;
  const spy = jest.spyOn(performance, 'now').mockImplementation(() => now);
  return {
    advance: (ms) => {
      now += ms;
    },
    restore: () => spy.mockRestore(),
  };
}

describe('Slicer', () => {
  it('counts the work before and after an awaited wait as two slices, not the wait (mark, restart)', () => {
    const clock = withClock();
    try {
      const slicer = new Slicer(12);
      clock.advance(5);
      slicer.mark();
      clock.advance(900); // an awaited disk read
      expect(slicer.longestMs).toBe(5);
      expect(slicer.due()).toBe(false);
      slicer.restart();
      clock.advance(8);
      expect(slicer.longestMs).toBe(8);
      expect(slicer.due()).toBe(false);
      clock.advance(4);
      expect(slicer.due()).toBe(true);
      expect(slicer.longestMs).toBe(12);
    } finally {
      clock.restore();
    }
  });

  it('yields (setImmediate in Node) once the budget is spent, and then starts a new slice', async () => {
    const clock = withClock();
    const timeouts = jest.spyOn(global, 'setImmediate');
    try {
      const slicer = new Slicer(10);
      clock.advance(3);
      await slicer.pause();
      expect(timeouts).not.toHaveBeenCalled();
      clock.advance(20);
      await slicer.pause();
      expect(timeouts).toHaveBeenCalledTimes(1);
      expect(slicer.longestMs).toBe(23);
      expect(slicer.due()).toBe(false);
      clock.advance(2);
      expect(slicer.longestMs).toBe(23);
    } finally {
      timeouts.mockRestore();
      clock.restore();
    }
  });

  it('endSlice() yields at once even inside the budget, records the slice, and the next slice keeps its budget again', async () => {
    const clock = withClock();
    const timeouts = jest.spyOn(global, 'setImmediate');
    try {
      const slicer = new Slicer(10);
      clock.advance(2);
      await slicer.endSlice();
      expect(timeouts).toHaveBeenCalledTimes(1);
      expect(slicer.longestMs).toBe(2);
      clock.advance(2);
      await slicer.pause();
      await slicer.pause();
      expect(timeouts).toHaveBeenCalledTimes(1);
      clock.advance(10);
      await slicer.pause();
      expect(timeouts).toHaveBeenCalledTimes(2);
    } finally {
      timeouts.mockRestore();
      clock.restore();
    }
  });

  it('yields after its most steps even inside the time budget', async () => {
    const clock = withClock();
    const timeouts = jest.spyOn(global, 'setImmediate');
    try {
      const slicer = new Slicer(1000, 2);
      await slicer.pause();
      await slicer.pause();
      expect(timeouts).not.toHaveBeenCalled();
      await slicer.pause();
      expect(timeouts).toHaveBeenCalledTimes(1);
    } finally {
      timeouts.mockRestore();
      clock.restore();
    }
  });
});

describe('foreground work (a client at work) and the slices', () => {
  it('cuts every slice to FOREGROUND_SLICE_MS while a call is in flight and FOREGROUND_LINGER_MS after it, then gives the budget back', async () => {
    const clock = withClock();
    try {
      // Long before the real clock's now, so that the calls ended here leave no linger for the listener's test below.
      clock.advance(-600_000);
      const slicer = new Slicer(12);
      const end = beginForegroundWork();
      clock.advance(FOREGROUND_SLICE_MS - 0.5);
      expect(slicer.due()).toBe(false);
      clock.advance(0.5);
      expect(slicer.due()).toBe(true);
      await slicer.pause();
      expect(slicer.longestMs).toBe(FOREGROUND_SLICE_MS);
      end();
      clock.advance(FOREGROUND_SLICE_MS);
      expect(slicer.due()).toBe(true); // the linger: the client's next call usually follows
      clock.advance(FOREGROUND_LINGER_MS);
      slicer.restart();
      clock.advance(11);
      expect(slicer.due()).toBe(false);
      clock.advance(1);
      expect(slicer.due()).toBe(true);
    } finally {
      clock.restore();
    }
  });

  it('counts each call once: ending one twice does not end another still in flight', () => {
    const clock = withClock();
    try {
      clock.advance(-300_000); // past the first test's linger, long before the real clock's now
      const first = beginForegroundWork();
      const second = beginForegroundWork();
      first();
      first();
      clock.advance(FOREGROUND_LINGER_MS + 1);
      const slicer = new Slicer(12);
      clock.advance(FOREGROUND_SLICE_MS);
      expect(slicer.due()).toBe(true);
      second();
      clock.advance(FOREGROUND_LINGER_MS + 1);
      slicer.restart();
      clock.advance(FOREGROUND_SLICE_MS);
      expect(slicer.due()).toBe(false);
    } finally {
      clock.restore();
    }
  });

  it("the listener marks a client's POST as foreground work until it is answered, and not a GET (a stream left open)", async () => {
    /** Whether a fresh 12 ms slicer is due after 3 ms of real time inside the handler. */
    const dueInside = (): boolean => {
      const slicer = new Slicer(12);
      const until = performance.now() + 3;
      while (performance.now() < until);
      return slicer.due();
    };
    const seen: Array<{ method: string | undefined; due: boolean }> = [];
    const listener = new LoopbackListener(async (req, res) => {
      seen.push({ method: req.method, due: dueInside() });
      res.end('{}');
    });
    const port = await listener.listen(0);
    const send = (method: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path: '/mcp' }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
    try {
      // Past any earlier call's linger, with the real clock.
      await new Promise((resolve) => setTimeout(resolve, FOREGROUND_LINGER_MS + 50));
      await send('GET');
      await send('POST');
    } finally {
      await listener.close(0).closed();
    }
    expect(seen).toEqual([
      { method: 'GET', due: false },
      { method: 'POST', due: true },
    ]);
  });
});

describe('eventLoopYield', () => {
  it('in a page posts a message to itself, resolving each yield in order, and sets no timer', async () => {
    const timers = jest.fn();
    const immediates = jest.fn();
    const env: YieldEnv = { hasDocument: true, MessageChannel, setTimeout: timers, setImmediate: immediates };
    const pause = eventLoopYield(env);
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => pause().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
    expect(timers).not.toHaveBeenCalled();
    expect(immediates).not.toHaveBeenCalled();
  });

  it('in Node uses setImmediate, and without either setTimeout(0)', async () => {
    const immediate = jest.fn((run: () => void) => run());
    await eventLoopYield({ hasDocument: false, setImmediate: immediate, setTimeout })();
    expect(immediate).toHaveBeenCalledTimes(1);
    const timeout = jest.fn((run: () => void, ms: number) => {
      expect(ms).toBe(0);
      run();
    });
    await eventLoopYield({ hasDocument: true, setTimeout: timeout })();
    expect(timeout).toHaveBeenCalledTimes(1);
  });
});
