import { promises as fsp } from 'node:fs';
import { stopRun } from '../../../scripts/start/run-vault';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { bootWriteEnv } from '../../harness/edits/write-helpers';

/**
 * `npm start` stopping on Ctrl-C while an agent is writing: the runner awaits the server's
 * own stop (running calls answer or are cut), unloads the plugin, then removes the demo copy,
 * without throwing (it once crashed with ENOTEMPTY on Projects/Alpha).
 */
describe('npm start: Ctrl-C with writes in flight', () => {
  test('the server stops first, every call settles, and the temporary copy is removed', async () => {
    const env = await bootWriteEnv(DEMO_VAULT, { label: 'npm start' });
    const server = (env.booted.plugin as unknown as { server: { stop(): Promise<void>; getStatus(): { state: string } } }).server;
    const calls = Array.from({ length: 30 }, (_, i) =>
      env.client
        .callTool({ name: 'create_note', arguments: { path: `Projects/Alpha/Late ${i}.md`, content: `note ${i}\n`.repeat(200) } })
        .then(
          () => 'answered',
          () => 'cut',
        ),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reported: string[] = [];
    const order: string[] = [];
    const ok = await stopRun(
      {
        stopServer: async () => {
          const first = server.stop();
          // A second stop while one runs is that same stop: its caller waits for everything to close.
          expect(server.stop()).toBe(first);
          await first;
          order.push(`server ${server.getStatus().state}`);
        },
        unload: async () => {
          order.push('unload');
          await env.booted.stop();
        },
      },
      { dir: env.dir, temporary: true },
      (m) => reported.push(m),
    );
    // Every call settles (answered, or cut when the server closed its connection).
    await Promise.all(calls);
    await env.client.close().catch(() => undefined);
    expect(reported).toEqual([]);
    expect(ok).toBe(true);
    expect(order).toEqual(['server stopped', 'unload']);
    await expect(fsp.stat(env.dir)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 30_000);
});
