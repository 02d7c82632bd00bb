/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Notice } from '../../host/index';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { waitUntil } from '../../harness/wait-until';
import { bootWriteEnv, call, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A key flooding the agent activity log over MCP (official SDK client, the plugin in the test
 * host): every entry the size limit drops while it holds text the agent replaced is kept in the
 * vault's `.trash`, and the user gets one sticky Notice that counts the files and names the
 * folder, rewritten by later trims while it is shown, never one Notice per dropped entry.
 */
describe('text kept aside when the activity log is full', () => {
  let env: WriteEnv;
  const keptNotices = (): string[] => Notice.messages().filter((m) => m.startsWith('The agent activity log'));
  const trashed = async (): Promise<string[]> =>
    (await fsp.readdir(path.join(env.dir, '.trash')).catch(() => [] as string[])).filter((f) => f.startsWith('Vault MCP a_'));

  beforeAll(async () => {
    env = await bootWriteEnv(DEMO_VAULT, {
      mode: 'force',
      label: 'Flood',
      configure: (settings) => void (settings.activity = { maxMegabytes: 0.01, maxDays: 30 }),
    });
  });
  afterAll(async () => env?.done());

  it('one trim dropping several changes raises one Notice; later trims rewrite it; dismissed, the next one is new', async () => {
    Notice.clear();
    for (let i = 0; i < 4; i++) {
      await call(env.client, 'create_note', { path: `Flood/N${i}`, content: `the user's own text ${i}\n` });
      await call(env.client, 'write_note', { path: `Flood/N${i}`, body: `replaced ${i}\n` });
    }
    expect(keptNotices()).toEqual([]);
    // One write whose replaced text alone fills the log: every older entry goes in one trim.
    await call(env.client, 'create_note', { path: 'Flood/Big', content: `${'big line\n'.repeat(1200)}` });
    await call(env.client, 'write_note', { path: 'Flood/Big', body: 'small\n' });
    await waitUntil(() => keptNotices().length > 0, 'the kept-aside notice');
    await env.booted.plugin.activity.whenSaved();
    expect(await trashed()).toHaveLength(4);
    expect(keptNotices()).toEqual([
      'The agent activity log is full, so 4 changes left it; the text they would restore is kept in 4 files in the vault\'s .trash folder, named "Vault MCP <change id> <note name>.md".',
    ]);

    // More such writes, one trim each, while the Notice is shown: the same Notice counts them all.
    for (let i = 0; i < 3; i++) await call(env.client, 'write_note', { path: 'Flood/Big', body: `${`again ${i}\n`.repeat(1200)}` });
    // Each drops the write before it (which holds the text it replaced): 3 more files.
    await waitUntil(() => /so 7 changes/.test(keptNotices()[0] ?? ''), 'the notice to count 7 files');
    expect(keptNotices()).toHaveLength(1);
    expect(keptNotices()[0]).toContain("kept in 7 files in the vault's .trash folder");
    expect(await trashed()).toHaveLength(7);

    // The user clicks it away; the next trim raises a new one.
    (document.body.querySelector('.notice') as HTMLElement).click();
    await call(env.client, 'write_note', { path: 'Flood/Big', body: 'last\n' });
    await waitUntil(() => keptNotices().length === 2, 'a new notice');
    expect(keptNotices()[1]).toMatch(
      /^The agent activity log is full, so change a_[0-9a-f]{12} to 'Flood\/Big\.md' left it; the text it would restore is kept in \.trash\/Vault MCP a_[0-9a-f]{12} Big\.md\.$/,
    );
  });
});

/**
 * The same flood while the vault's `.trash` is a symbolic link out of the vault (a sync or the
 * user placed it): the kept text must neither follow the link out nor be lost, so it goes to the
 * plugin's own folder (`kept-aside`), and the Notice names that file.
 */
describe('text kept aside while .trash is a symbolic link out of the vault', () => {
  let env: WriteEnv;
  let outside: string;

  beforeAll(async () => {
    env = await bootWriteEnv(DEMO_VAULT, {
      mode: 'force',
      label: 'Flood',
      configure: (settings) => void (settings.activity = { maxMegabytes: 0.01, maxDays: 30 }),
    });
    outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'kept-aside-outside-'));
    await fsp.rm(path.join(env.dir, '.trash'), { recursive: true, force: true });
    await fsp.symlink(outside, path.join(env.dir, '.trash'));
  });
  afterAll(async () => {
    await env?.done();
    await fsp.rm(outside, { recursive: true, force: true });
  });

  it('writes nothing through the link and keeps the text in the plugin folder, named in the Notice', async () => {
    Notice.clear();
    await call(env.client, 'create_note', { path: 'Flood/Only', content: 'the only copy of the user text\n' });
    await call(env.client, 'write_note', { path: 'Flood/Only', body: 'replaced\n' });
    await call(env.client, 'create_note', { path: 'Flood/Big', content: `${'big line\n'.repeat(1200)}` });
    await call(env.client, 'write_note', { path: 'Flood/Big', body: 'small\n' });
    const notices = (): string[] => Notice.messages().filter((m) => m.startsWith('The agent activity log'));
    await waitUntil(() => notices().length > 0, 'the kept-aside notice');
    expect(await fsp.readdir(outside)).toEqual([]);
    const named = /kept in (\S+\/kept-aside\/Vault MCP a_[0-9a-f]{12} Only\.md)\.$/.exec(notices()[0]);
    expect(named).not.toBeNull();
    expect(named?.[1].startsWith(`${env.booted.plugin.app.vault.configDir}/plugins/`)).toBe(true);
    const text = await fsp.readFile(path.join(env.dir, named?.[1] ?? ''), 'utf8');
    expect(text).toContain('the only copy of the user text');
    expect(notices().join('\n')).not.toContain('.trash/');
  });
});
