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
