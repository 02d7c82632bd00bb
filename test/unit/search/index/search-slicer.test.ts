import { eventLoopYield, Slicer, type YieldEnv } from '../../../../src/search/engine/slicer';

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
