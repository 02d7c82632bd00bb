/**
 * How `npm start` answers the signals that end it: Ctrl-C (SIGINT), SIGTERM and a closed
 * terminal (SIGHUP) all stop the run in order and remove the temporary demo copy; the first
 * Ctrl-C says at once what is happening, and a second signal during the stop forces the exit,
 * still removing the copy.
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

/**
 * Registers the stop on every signal of {@link STOP_SIGNALS}. The first one starts
 * `actions.stop()` and exits 0 (or 1 when a step failed); on SIGINT it prints
 * {@link STOPPING_LINE} first, on SIGTERM "Stopping…", on SIGHUP nothing (no terminal is left).
 * Any second signal removes the temporary copy at once, synchronously, and exits with
 * {@link FORCED_EXIT_CODE}, cutting off running calls.
 * @param vault the folder served (its copy is removed when `temporary`).
 */
export function handleStopSignals(target: SignalTarget, vault: RunVault, actions: StopActions): void {
  let stopping = false;
  for (const signal of STOP_SIGNALS) {
    target.on(signal, () => {
      if (signal === 'SIGHUP') actions.quiet();
      if (stopping) {
        forceStop(vault, actions);
        return;
      }
      stopping = true;
      if (signal === 'SIGINT') actions.print(STOPPING_LINE);
      if (signal === 'SIGTERM') actions.print('Stopping…');
      void actions.stop().then((ok) => actions.exit(ok ? 0 : 1));
    });
  }
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
