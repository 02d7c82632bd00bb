import { Slicer } from '../../src/search/engine/slicer';

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

  it('yields with setTimeout once the budget is spent, and then starts a new slice', async () => {
    const clock = withClock();
    const timeouts = jest.spyOn(global, 'setTimeout');
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

  it('yields after its most steps even inside the time budget', async () => {
    const clock = withClock();
    const timeouts = jest.spyOn(global, 'setTimeout');
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
