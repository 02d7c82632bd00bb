import type * as O from 'obsidian';

/**
 * Obsidian's `debounce` (obsidian.d.ts): calls `cb` with the latest arguments `timeout` ms
 * after the first call of a burst (or after the last call when `resetTimer` is true).
 * The returned function has `cancel()` (drop the pending call) and `run()` (call it now).
 */
export function debounce<T extends unknown[], V>(cb: (...args: [...T]) => V, timeout = 0, resetTimer = false): O.Debouncer<T, V> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastArgs: T | null = null;
  const run = (): V | void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!lastArgs) return;
    const args = lastArgs;
    lastArgs = null;
    return cb(...args);
  };
  const debounced = ((...args: T) => {
    lastArgs = args;
    if (timer && !resetTimer) return debounced;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, timeout);
    return debounced;
  }) as O.Debouncer<T, V>;
  debounced.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastArgs = null;
    return debounced;
  };
  debounced.run = run;
  return debounced;
}
