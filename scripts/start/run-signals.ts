/**
 * How `npm start` answers the signals that end it: Ctrl-C (SIGINT), SIGTERM and a closed
 * terminal (SIGHUP) all stop the run in order and remove the temporary demo copy; the first
 * Ctrl-C says at once what is happening, and a second signal during the stop forces the exit,
 * still removing the copy. Under npm the run also stops when the process that started it ends
 * ({@link watchParent}): npm forwards a SIGTERM to the script's shell, which (dash, cmd.exe) dies
 * without passing it on.
 */
import { rmSync } from 'node:fs';
import type { RunVault } from './run-vault';

/** The signals that stop a run. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Printed at once on the first Ctrl-C: the stop waits for running calls, which can take seconds. */
export const STOPPING_LINE = 'Stopping… (Ctrl-C again to force)';

/** The exit code of a forced stop: 128 + SIGINT's number, as shells report an interrupted program. */
export const FORCED_EXIT_CODE = 130;

/** What the handlers need from the process (the real `process` in a run; an EventEmitter in tests). */
export interface SignalTarget {
  on(signal: (typeof STOP_SIGNALS)[number], listener: () => void): unknown;
}

/** What a run does when a signal ends it. */
export interface StopActions {
  /** The orderly stop (scripts/run-vault.ts stopRun); resolves true when every step succeeded. */
  stop(): Promise<boolean>;
  /** Prints a line to the user. */
  print(line: string): void;
  /** Ends the process with `code`. */
  exit(code: number): void;
  /** Makes output to a terminal that went away (SIGHUP) harmless, so the stop still runs. */
  quiet(): void;
}

/** Printed when the run stops because the process that started it (npm, or npm's shell) ended. */
export const PARENT_GONE_LINE = 'Stopping… (npm, which started this run, has ended)';

/**
 * Registers the stop on every signal of {@link STOP_SIGNALS}. The first one starts
 * `actions.stop()` and exits 0 (or 1 when a step failed); on SIGINT it prints
 * {@link STOPPING_LINE} first, on SIGTERM "Stopping…", on SIGHUP nothing (no terminal is left).
 * Any second signal removes the temporary copy at once, synchronously, and exits with
 * {@link FORCED_EXIT_CODE}, cutting off running calls.
 * @param vault the folder served (its copy is removed when `temporary`).
 * @returns `stopOnce(line)`: the same orderly stop for a cause that is not a signal (the parent
 *   ended: {@link watchParent}), printing `line` first; it does nothing once a stop has begun, so
 *   npm's shell dying after a Ctrl-C never turns that orderly stop into a forced one.
 */
export function handleStopSignals(target: SignalTarget, vault: RunVault, actions: StopActions): { stopOnce(line: string): void } {
  let stopping = false;
  const begin = (line: string | null): void => {
    stopping = true;
    if (line !== null) actions.print(line);
    void actions.stop().then((ok) => actions.exit(ok ? 0 : 1));
  };
  for (const signal of STOP_SIGNALS) {
    target.on(signal, () => {
      if (signal === 'SIGHUP') actions.quiet();
      if (stopping) {
        forceStop(vault, actions);
        return;
      }
      begin(signal === 'SIGINT' ? STOPPING_LINE : signal === 'SIGTERM' ? 'Stopping…' : null);
    });
  }
  return {
    stopOnce: (line) => {
      if (!stopping) begin(line);
    },
  };
}

/** How often {@link watchParent} looks whether the parent is still there, ms. */
export const PARENT_POLL_MS = 500;

/**
 * Whether process `pid` is still this process's parent: on POSIX an orphan is re-parented (its
 * `process.ppid` changes), on Windows it is not, so the pid is also probed with signal 0 (ESRCH:
 * no such process; EPERM: one that exists).
 */
function parentAlive(pid: number): boolean {
  if (process.platform !== 'win32' && process.ppid !== pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Calls `onGone` once when the process `parentPid` ends, looking every `intervalMs` (the timer
 * never keeps the process alive). `npm start` watches its parent so a SIGTERM or SIGHUP sent to
 * npm, which reaches the script's shell (or nothing) but not the runner, still stops the run
 * instead of leaving it serving as an orphan (newcomer report s29, M1). Only under npm: a runner
 * started directly (`node scripts/start.mjs &` in a script) may outlive its shell on purpose.
 * @param alive probe for tests (default: re-parented or no such process means gone).
 * @returns a function that stops watching.
 */
export function watchParent(
  parentPid: number,
  onGone: () => void,
  intervalMs = PARENT_POLL_MS,
  alive: (pid: number) => boolean = parentAlive,
): () => void {
  const timer = setInterval(() => {
    if (alive(parentPid)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The second signal: the copy goes now (a late write into it fails, nothing is left behind), then the process. */
function forceStop(vault: RunVault, actions: StopActions): void {
  let removed = '';
  if (vault.temporary) {
    try {
      rmSync(vault.dir, { recursive: true, force: true, maxRetries: 3 });
      removed = '; the temporary copy is removed';
    } catch (error) {
      removed = `; could not remove the temporary vault ${vault.dir} (${(error as Error).message}), delete it by hand`;
    }
  }
  actions.print(`Stopped at once: running calls were cut off${removed}.`);
  actions.exit(FORCED_EXIT_CODE);
}
