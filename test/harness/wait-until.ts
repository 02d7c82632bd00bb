/**
 * Polls `done` every `everyMs` until it is true.
 * @param what what is awaited, for the error (e.g. "the damage warning")
 * @param timeoutMs how long to poll before giving up, ms (default 10 s)
 * @param everyMs the poll interval, ms (default 5)
 * @throws Error naming `what` when `done` is still false after `timeoutMs`: an unbounded poll loop
 *   outlives its test's timeout and keeps the jest worker from ever exiting.
 */
export async function waitUntil(done: () => boolean, what: string, timeoutMs = 10_000, everyMs = 5): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * `promise`'s value if it settles within `timeoutMs` ms, else `false`. The timer is cleared once
 * either comes, so no waiting timer outlives the call (a Promise.race with a bare setTimeout left
 * one running for the rest of its time, keeping the jest worker alive that long).
 * @throws what `promise` rejects with, within the time.
 */
export async function withinMs<T>(promise: Promise<T>, timeoutMs: number): Promise<T | false> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}
