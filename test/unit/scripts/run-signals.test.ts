import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { spawnSync } from 'node:child_process';
import {
  FORCED_EXIT_CODE,
  handleStopSignals,
  PARENT_GONE_LINE,
  STOP_SIGNALS,
  STOPPING_LINE,
  watchParent,
  type StopActions,
} from '../../../scripts/start/run-signals';

/** The actions a run passes, recording what happened; `finish` ends the orderly stop. */
function recorder() {
  const events: string[] = [];
  let finish: (ok: boolean) => void = () => undefined;
  const actions: StopActions = {
    stop: () => {
      events.push('stop');
      return new Promise<boolean>((resolve) => (finish = resolve));
    },
    print: (line) => events.push(`print ${line}`),
    exit: (code) => events.push(`exit ${code}`),
    quiet: () => events.push('quiet'),
  };
  return { events, actions, finish: (ok: boolean) => finish(ok) };
}

describe('npm start: the signals that end a run', () => {
  it('listens to Ctrl-C, SIGTERM and a closed terminal', () => {
    const target = new EventEmitter();
    handleStopSignals(target, { dir: '/nowhere', temporary: false }, recorder().actions);
    expect(STOP_SIGNALS.map((s) => target.listenerCount(s))).toEqual([1, 1, 1]);
  });

  it("says at once on Ctrl-C that it is stopping, then exits with the stop's verdict", async () => {
    const target = new EventEmitter();
    const { events, actions, finish } = recorder();
    handleStopSignals(target, { dir: '/nowhere', temporary: false }, actions);
    target.emit('SIGINT');
    expect(events).toEqual([`print ${STOPPING_LINE}`, 'stop']);
    finish(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([`print ${STOPPING_LINE}`, 'stop', 'exit 1']);
  });

  it('silences output on SIGHUP (no terminal is left) and still stops', async () => {
    const target = new EventEmitter();
    const { events, actions, finish } = recorder();
    handleStopSignals(target, { dir: '/nowhere', temporary: false }, actions);
    target.emit('SIGHUP');
    finish(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['quiet', 'stop', 'exit 0']);
  });

  it('forces the exit on a second signal, removing the temporary copy at once', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    try {
      const target = new EventEmitter();
      const { events, actions } = recorder();
      handleStopSignals(target, { dir: copy.dir, temporary: true }, actions);
      target.emit('SIGINT');
      target.emit('SIGINT');
      expect(events).toEqual([
        `print ${STOPPING_LINE}`,
        'stop',
        'print Stopped at once: running calls were cut off; the temporary copy is removed.',
        `exit ${FORCED_EXIT_CODE}`,
      ]);
      await expect(fsp.stat(copy.dir)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await copy.cleanup();
    }
  });

  it('leaves a --vault folder alone when forced', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    try {
      const target = new EventEmitter();
      const { events, actions } = recorder();
      handleStopSignals(target, { dir: copy.dir, temporary: false }, actions);
      target.emit('SIGTERM');
      target.emit('SIGINT');
      expect(events).toEqual(['print Stopping…', 'stop', 'print Stopped at once: running calls were cut off.', `exit ${FORCED_EXIT_CODE}`]);
      expect((await fsp.stat(copy.dir)).isDirectory()).toBe(true);
    } finally {
      await copy.cleanup();
    }
  });
});

describe('npm start: stopping when npm, which started the run, ends', () => {
  it('stops in order once the parent is gone, and never forces a stop a signal already began', async () => {
    const target = new EventEmitter();
    const { events, actions, finish } = recorder();
    const stopper = handleStopSignals(target, { dir: '/nowhere', temporary: false }, actions);
    target.emit('SIGINT');
    // npm's shell dies after the Ctrl-C: the orderly stop goes on, not a forced one.
    stopper.stopOnce(PARENT_GONE_LINE);
    finish(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([`print ${STOPPING_LINE}`, 'stop', 'exit 0']);

    const quiet = recorder();
    handleStopSignals(new EventEmitter(), { dir: '/nowhere', temporary: false }, quiet.actions).stopOnce(PARENT_GONE_LINE);
    quiet.finish(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(quiet.events).toEqual([`print ${PARENT_GONE_LINE}`, 'stop', 'exit 0']);
  });

  it('calls back once when the parent ends, not while it lives', async () => {
    let parentAlive = true;
    const probed: number[] = [];
    const gone = jest.fn();
    const stop = watchParent(4242, gone, 5, (pid) => (probed.push(pid), parentAlive));
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(gone).not.toHaveBeenCalled();
      parentAlive = false;
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(gone).toHaveBeenCalledTimes(1);
      expect(new Set(probed)).toEqual(new Set([4242]));
    } finally {
      stop();
    }
  });

  it('sees its real parent as alive and an ended process as gone', async () => {
    const gone = jest.fn();
    // A pid that is not this process's parent reads as gone (re-parented, or no such process).
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const ended = Number(child.stdout);
    const stopEnded = watchParent(ended, gone, 5);
    await new Promise((resolve) => setTimeout(resolve, 40));
    stopEnded();
    expect(gone).toHaveBeenCalledTimes(1);
    const kept = jest.fn();
    const stopReal = watchParent(process.ppid, kept, 5);
    await new Promise((resolve) => setTimeout(resolve, 40));
    stopReal();
    expect(kept).not.toHaveBeenCalled();
  });
});
