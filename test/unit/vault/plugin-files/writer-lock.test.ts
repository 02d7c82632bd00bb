import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { FileSystemAdapter } from '../../../host/index';
import { HEARTBEAT_MS, STALE_MS, WRITER_LOCK_FILE, WriterLock, WriterLockedError } from '../../../../src/vault/plugin-files/writer-lock';

/** vault/plugin-files/writer-lock.ts: one writer per plugin folder, with heartbeat and stale-lock takeover. */
describe('WriterLock', () => {
  let dir: string;
  let adapter: FileSystemAdapter;
  const FOLDER = '.obsidian/plugins/vault-mcp';
  const lockFile = (): string => nodePath.join(dir, FOLDER, WRITER_LOCK_FILE);
  let clock: Date;
  const now = (): Date => clock;
  const locks: WriterLock[] = [];
  const make = (options: ConstructorParameters<typeof WriterLock>[2] = {}): WriterLock => {
    const lock = new WriterLock(adapter, FOLDER, { now, ...options });
    locks.push(lock);
    return lock;
  };

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-lock-'));
    adapter = new FileSystemAdapter(dir);
    clock = new Date('2026-12-01T20:00:00Z');
  });
  afterEach(async () => {
    for (const lock of locks.splice(0)) await lock.release();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  test('the first instance takes the lock (pid, host, times in the file); a second is refused naming it', async () => {
    const first = make();
    expect(await first.acquire()).toBeNull();
    expect(JSON.parse(await fsp.readFile(lockFile(), 'utf8'))).toEqual({
      id: first.id,
      pid: process.pid,
      host: os.hostname(),
      started_at: clock.toISOString(),
      heartbeat_at: clock.toISOString(),
    });
    const second = make();
    const refusal = await second.acquire();
    expect(refusal).toBeInstanceOf(WriterLockedError);
    expect(refusal?.message).toMatch(
      new RegExp(`^Another Vault MCP instance is writing this vault's plugin files \\(process ${process.pid} on `),
    );
    expect(refusal?.code).toBe('unavailable');
    await expect(second.ensure()).rejects.toBeInstanceOf(WriterLockedError);
    expect(await first.ensure()).toBe('held');
  });

  test('a lock without a heartbeat for STALE_MS is taken over; the old holder notices at its next ensure', async () => {
    const first = make();
    await first.acquire();
    clock = new Date(clock.getTime() + STALE_MS - 1);
    await expect(make().ensure()).rejects.toBeInstanceOf(WriterLockedError);
    clock = new Date(clock.getTime() + 2);
    const second = make();
    expect(await second.ensure()).toBe('acquired');
    expect(await second.ensure()).toBe('held');
    await expect(first.ensure()).rejects.toBeInstanceOf(WriterLockedError);
    expect(first.isHeld).toBe(false);
  });

  test('a lock left by a process that is gone (same host) is taken over at once', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await fsp.mkdir(nodePath.dirname(lockFile()), { recursive: true });
    await fsp.writeFile(
      lockFile(),
      JSON.stringify({ id: 'old', pid: dead, host: os.hostname(), started_at: clock.toISOString(), heartbeat_at: clock.toISOString() }),
    );
    expect(await make().acquire()).toBeNull();
    // On another host the pid says nothing: only the heartbeat's age counts.
    await fsp.writeFile(
      lockFile(),
      JSON.stringify({ id: 'other', pid: dead, host: 'another-host', started_at: clock.toISOString(), heartbeat_at: clock.toISOString() }),
    );
    expect(await make().acquire()).toBeInstanceOf(WriterLockedError);
  });

  test('a second release (a host exiting after the unload started one) waits for the same removal', async () => {
    const lock = make();
    await lock.acquire();
    const first = lock.release();
    const second = lock.release();
    expect(second).toBe(first);
    await second;
    await expect(fsp.stat(lockFile())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('released while an acquire is under way (the plugin unloaded during start-up): the acquire refuses and leaves no lock', async () => {
    const lock = make();
    const acquiring = lock.acquire();
    await lock.release();
    await expect(acquiring).rejects.toThrow('Vault MCP is stopping; nothing was changed. Retry once it runs again.');
    await expect(fsp.stat(lockFile())).rejects.toThrow();
    await expect(lock.ensure()).rejects.toThrow(/is stopping/);
    expect(lock.isClosed).toBe(true);
  });

  test('a lock file that does not parse (a crash mid-write) counts as free', async () => {
    await fsp.mkdir(nodePath.dirname(lockFile()), { recursive: true });
    await fsp.writeFile(lockFile(), '{"id": ');
    expect(await make().acquire()).toBeNull();
  });

  test('a holder read half-written once (its heartbeat written in place) is read again, not taken over', async () => {
    const holder = make();
    await holder.acquire();
    const whole = await fsp.readFile(lockFile(), 'utf8');
    const other = make();
    const adapter = (other as unknown as { adapter: { read(path: string): Promise<string> } }).adapter;
    const read = adapter.read.bind(adapter);
    let reads = 0;
    adapter.read = async (path) => (++reads === 1 ? whole.slice(0, 9) : read(path));
    expect(await other.acquire()).toBeInstanceOf(WriterLockedError);
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(await fsp.readFile(lockFile(), 'utf8')).id).toBe(holder.id);
  });

  test('release removes only its own lock; the heartbeat refreshes heartbeat_at', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const first = make();
      await first.acquire();
      clock = new Date(clock.getTime() + HEARTBEAT_MS);
      jest.advanceTimersByTime(HEARTBEAT_MS);
      // The heartbeat writes the file in place (as Obsidian's adapter does): a read may meet it half-written.
      const beatNow = async () => {
        try {
          return JSON.parse(await fsp.readFile(lockFile(), 'utf8')).heartbeat_at;
        } catch {
          return null;
        }
      };
      for (let i = 0; i < 20 && (await beatNow()) !== clock.toISOString(); i++) await new Promise((resolve) => setImmediate(resolve));
      expect(JSON.parse(await fsp.readFile(lockFile(), 'utf8')).heartbeat_at).toBe(clock.toISOString());
    } finally {
      jest.useRealTimers();
    }
    const refused = make();
    await refused.acquire();
    await refused.release();
    expect(JSON.parse(await fsp.readFile(lockFile(), 'utf8')).id).toBe(locks[0].id);
    await locks[0].release();
    await expect(fsp.stat(lockFile())).rejects.toThrow();
  });
});
