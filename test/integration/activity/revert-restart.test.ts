// Verifier s29 (second round), F3: a restart of `npm start` must not make reverts of the changes
// made before it refuse. Each boot runs in its own module registry on one vault folder, so the
// host and the plugin start from nothing but the disk (activity.json included), as a new process does.
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { WriteEnv } from '../../harness/edits/write-helpers';
import type { ActivityEntry } from '../../../src/activity/types';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

type Helpers = typeof import('../../harness/edits/write-helpers');

/** Boots the plugin on `dir` in a fresh module registry, runs `body`, then waits for the log to be saved and stops. */
async function boot(dir: string, body: (env: WriteEnv, helpers: Helpers) => Promise<void>): Promise<void> {
  await jest.isolateModulesAsync(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const helpers = require('../../harness/edits/write-helpers') as Helpers;
    const env = await helpers.bootWriteEnvIn(dir, {}, async () => undefined);
    try {
      await body(env, helpers);
      await env.booted.plugin.activity.whenSaved();
    } finally {
      await env.done();
    }
  });
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a revert after a restart of the host (npm start) on the same vault folder', () => {
  let copy: Awaited<ReturnType<typeof copyToTemp>>;
  const disk = (p: string): string => nodePath.join(copy.dir, p);
  const inode = async (p: string): Promise<string> => String((await fsp.stat(disk(p), { bigint: true })).ino);

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    await fsp.writeFile(disk('Daily.md'), '- [ ] a\n- [ ] b\n');
    await pause(30);
  });
  afterEach(async () => {
    await copy.cleanup();
  });

  /** Boot 1: edits Daily.md through edit_note; returns its log entry and the note's file on disk just after. */
  async function editBeforeRestart(): Promise<{ entry: ActivityEntry; ino: string }> {
    const ino = await inode('Daily.md');
    let entry: ActivityEntry | undefined;
    await boot(copy.dir, async (env, { call }) => {
      await call(env.client, 'edit_note', { path: 'Daily', anchor: '- [ ] a', op: 'replace', content: '- [x] a' });
      entry = env.booted.plugin.activity.all()[0];
    });
    if (!entry) throw new Error('boot 1 logged nothing');
    expect(entry.kind).toBe('edit');
    return { entry, ino };
  }

  it('reverts an edit made before the restart: the host writes notes in place, so the note keeps its file and creation time', async () => {
    const birth = Math.round((await fsp.stat(disk('Daily.md'))).birthtimeMs);
    const { entry, ino } = await editBeforeRestart();
    expect(await fsp.readFile(disk('Daily.md'), 'utf8')).toBe('- [x] a\n- [ ] b\n');
    await boot(copy.dir, async (env) => {
      expect(env.booted.plugin.activity.all().map((e) => e.id)).toContain(entry.id);
      const outcome = await env.booted.plugin.reverts.revert(entry.id);
      expect(outcome.message).not.toMatch(/not the one/);
      expect(outcome).toMatchObject({ id: entry.id, reverted: true });
    });
    expect(await fsp.readFile(disk('Daily.md'), 'utf8')).toBe('- [ ] a\n- [ ] b\n');
    // Both writes kept the note's file, as Obsidian's desktop adapter does: the log kept its inode too.
    expect(await inode('Daily.md')).toBe(ino);
    expect(entry.inode).toBe(ino);
    if (birth > 0) expect(entry.created).toBe(birth);
  });

  it('still refuses, after the restart, a note really replaced while the host was stopped (a new file renamed over it)', async () => {
    const { entry } = await editBeforeRestart();
    await pause(30);
    // What a sync tool or an editor that saves by replacing files does: same text, a new file.
    await fsp.writeFile(disk('.Daily.md.sync'), '- [x] a\n- [ ] b\n');
    await fsp.rename(disk('.Daily.md.sync'), disk('Daily.md'));
    await boot(copy.dir, async (env) => {
      const outcome = await env.booted.plugin.reverts.revert(entry.id);
      expect(outcome.reverted).toBe(false);
      expect(outcome.message).toMatch(
        /'Daily\.md' is not the one this change was made to: the note there now (was put there after this change|is another file on disk)/,
      );
    });
    expect(await fsp.readFile(disk('Daily.md'), 'utf8')).toBe('- [x] a\n- [ ] b\n');
  });

  it('refuses, after the restart, another note renamed to the path while the host was stopped; the moved note is reverted once back', async () => {
    const { entry } = await editBeforeRestart();
    await fsp.rename(disk('Daily.md'), disk('Daily kept.md'));
    await fsp.writeFile(disk('Daily.md'), '- [x] a\n- [ ] b\n');
    await boot(copy.dir, async (env) => {
      const refused = await env.booted.plugin.reverts.revert(entry.id);
      expect(refused.reverted).toBe(false);
      expect(refused.message).toMatch(/not the one this change was made to/);
    });
    expect(await fsp.readFile(disk('Daily.md'), 'utf8')).toBe('- [x] a\n- [ ] b\n');
    await fsp.rm(disk('Daily.md'));
    await fsp.rename(disk('Daily kept.md'), disk('Daily.md'));
    await boot(copy.dir, async (env) => {
      expect(await env.booted.plugin.reverts.revert(entry.id)).toMatchObject({ reverted: true });
    });
    expect(await fsp.readFile(disk('Daily.md'), 'utf8')).toBe('- [ ] a\n- [ ] b\n');
  });
});
