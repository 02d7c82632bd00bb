import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { describeWithChromium } from './chromium';
import { useSidebarPage } from './pages/sidebar-page';
import { ActivityLog, type ActivityFile } from '../../src/activity/activity-log';
import type { AccessScope } from '../../src/vault/access/access';

import { LISBON_NOTE, lisbonEdited } from './pages/lisbon-note';

const d = describeWithChromium('the Agent activity browser test');

const LISBON = LISBON_NOTE;
const LISBON_EDITED = lisbonEdited(LISBON);
const DUNE_TASKS = '---\nstatus: reading\n---\n# Dune\n\nStarted in March.\n';
const DAILY = '# 2026-03-10\n\n- Call the hotel about late check-out\n- Buy tram tickets\n';
const SCRATCH = '# Old scratch\n\nNumbers from the call: 4411, 9\n';

/** The activity file the page starts with: two keys, three sessions, every kind of entry, one reverted. */
async function activityFile(): Promise<string> {
  let minutes = 0;
  const file = {
    path: 'activity.json',
    text: null as string | null,
    read: async () => null,
    write: async (t: string) => void (file.text = t),
    keepCorruptAside: async () => '',
  };
  const log = new ActivityLog(
    file as unknown as ActivityFile,
    () => ({ maxMegabytes: 20, maxDays: 100000 }),
    () => new Date(Date.UTC(2026, 2, 9, 16, 40 + minutes)),
  );
  const record: typeof log.record = (change, scope) => {
    const entry = log.record(change, scope);
    minutes++;
    return entry;
  };
  await log.load();
  const claude = (
    session: string | null,
    via?: AccessScope['actor'] extends infer A ? (A extends { via?: infer V } ? V : never) : never,
  ): AccessScope => ({
    label: 'Claude Code',
    roots: [],
    actor: { keyId: 'k-claude', ...(session ? { session } : {}), ...(via ? { via } : {}) },
  });
  const cursor: AccessScope = { label: 'Cursor', roots: [], actor: { keyId: 'k-cursor', session: '5be01d7e-cursor' } };
  record(
    { kind: 'edit', tool: 'edit_note', path: 'Travel/Lisbon trip.md', before: LISBON, after: LISBON_EDITED },
    claude('9f3a2c71-claude'),
  );
  record({ kind: 'create', tool: 'create_note', path: 'Daily notes/2026-03-10.md', after: DAILY }, claude('9f3a2c71-claude'));
  record(
    {
      kind: 'move',
      tool: 'move_note',
      from: 'Reading/Dune.md',
      path: 'Reading/Finished/Dune.md',
      folder: false,
      linkers: ['Reading list.md', 'Daily notes/2026-03-09.md'],
    },
    claude('9f3a2c71-claude'),
  );
  record(
    {
      kind: 'properties',
      tool: 'set_properties',
      path: 'Reading/Finished/Dune.md',
      before: DUNE_TASKS,
      after: DUNE_TASKS.replace('reading', 'finished'),
    },
    claude(null, { proposal: 'p_4c2e', hunks: [0] }),
  );
  const del = record({ kind: 'delete', tool: 'delete_note', path: 'Inbox/Old scratch.md', before: SCRATCH }, cursor)!;
  record(
    { kind: 'create', tool: 'revert', path: 'Inbox/Old scratch.md', after: SCRATCH },
    { ...cursor, actor: { keyId: 'k-cursor', via: { revert: del.id } } },
  );
  await log.whenSaved();
  return file.text ?? '';
}

d('Agent activity view in headless Chromium', () => {
  const ui = useSidebarPage({
    entry: 'activity-entry.ts',
    viewport: { width: 360, height: 1100 },
    data: async () => `window.vaultMcpActivityFile = ${JSON.stringify(await activityFile())};`,
    ready: (page) =>
      page.waitForFunction(() => document.querySelectorAll('.vault-mcp-activity-entry').length === 6, undefined, { timeout: 5000 }),
  });
  const { shot, texts } = ui;

  it('groups by key and session, newest first, with kinds, routes, diffs and a reverted entry; screenshots light and dark', async () => {
    expect(await ui.page.textContent('.vault-mcp-activity-title')).toBe('6 changes by agents');
    expect(await texts('.vault-mcp-activity-key-header-title')).toEqual(['Cursor', 'Claude Code']);
    expect(await texts('.vault-mcp-activity-session-header-title')).toEqual([
      'Accepted proposals and reverts',
      'Session 5be01d7e',
      'Accepted proposals and reverts',
      'Session 9f3a2c71',
    ]);
    expect(await texts('.vault-mcp-activity-kind')).toEqual(['revert · new note', 'delete', 'properties', 'move', 'new note', 'edit']);
    expect(await texts('.vault-mcp-activity-state')).toEqual(['reverted']);
    expect(await ui.page.locator('.vault-mcp-activity-entry.is-reverted .vault-mcp-activity-path').allTextContents()).toEqual([
      'Inbox/Old scratch.md',
    ]);
    expect(await texts('.vault-mcp-activity-detail')).toEqual([
      'your revert · 9 Mar 2026, 16:45',
      'via delete_note · 9 Mar 2026, 16:44',
      'accepted proposal (1 hunk) · 9 Mar 2026, 16:43',
      'via move_note · 9 Mar 2026, 16:42',
      'via create_note · 9 Mar 2026, 16:41',
      'via edit_note · 9 Mar 2026, 16:40',
    ]);
    const edit = ui.page.locator('.vault-mcp-activity-entry').last();
    expect(await edit.locator('.vault-mcp-diff-removed').allTextContents()).toEqual(['− - Stay three nights near Alfama']);
    expect(await edit.locator('.vault-mcp-diff-inserted').allTextContents()).toEqual([
      '+ - Stay four nights near Alfama, checking out on Tuesday',
      '+ A Lisboa Card for three days is 45 euros.',
    ]);
    expect(await edit.locator('.vault-mcp-diff-head').allTextContents()).toEqual(['Line 5', 'Line 11']);
    expect(
      await ui.page.locator('.vault-mcp-activity-entry', { hasText: 'move' }).locator('.vault-mcp-diff-message').allTextContents(),
    ).toEqual(['Reading/Dune.md → Reading/Finished/Dune.md', 'Links to it updated in 2 notes:']);
    expect(
      await ui.page.locator('.vault-mcp-activity-entry', { hasText: 'move' }).locator('.vault-mcp-diff-context').allTextContents(),
    ).toEqual(['  Reading list.md', '  Daily notes/2026-03-09.md']);
    // A reverted entry has no Revert; its revert offers Redo. Revert all per key and per session.
    expect(await ui.page.locator('.vault-mcp-activity-actions button').allTextContents()).toEqual([
      'Redo',
      'Revert',
      'Revert',
      'Revert',
      'Revert',
    ]);
    expect(await ui.page.getByRole('button', { name: /^Redo what a_\w+ reverted$/ }).count()).toBe(1);
    expect(await ui.page.getByRole('button', { name: 'Revert all from Claude Code' }).count()).toBe(1);
    expect(await ui.page.getByRole('button', { name: 'Revert session 9f3a2c71 of Claude Code' }).count()).toBe(1);

    // Readable: inserted and removed lines tinted apart, the button on the card's first row inside the sidebar.
    const [inserted, removed, plain] = await Promise.all(
      ['.vault-mcp-diff-inserted', '.vault-mcp-diff-removed', '.vault-mcp-activity-meta'].map((s) =>
        ui.page
          .locator(s)
          .first()
          .evaluate((e: Element) => getComputedStyle(e).backgroundColor),
      ),
    );
    expect(inserted).not.toBe(plain);
    expect(removed).not.toBe(plain);
    expect(inserted).not.toBe(removed);
    const button = await edit.getByRole('button', { name: 'Revert edit of Travel/Lisbon trip.md' }).boundingBox();
    const kind = await edit.locator('.vault-mcp-activity-kind').boundingBox();
    const sidebar = await ui.page.locator('#sidebar').boundingBox();
    expect(Math.abs(button.y - kind.y)).toBeLessThan(8);
    expect(button.x + button.width).toBeLessThanOrEqual(sidebar.x + sidebar.width);

    await fsp.mkdir(path.dirname(shot('agent-activity.png')), { recursive: true });
    await ui.page.locator('#sidebar').screenshot({ path: shot('agent-activity.png') });
    await ui.page.evaluate(() => document.body.classList.replace('theme-light', 'theme-dark'));
    await ui.page.locator('#sidebar').screenshot({ path: shot('agent-activity-dark.png') });
    for (const name of ['agent-activity.png', 'agent-activity-dark.png']) expect((await fsp.stat(shot(name))).size).toBeGreaterThan(20_000);
  });

  it('Revert and Revert all answer in a Notice; the page has no vault, so nothing changes', async () => {
    await ui.page.getByRole('button', { name: 'Revert edit of Travel/Lisbon trip.md' }).click();
    await ui.page.waitForFunction(() => window.vaultMcpActivity.notices().length === 1);
    expect(await ui.page.evaluate(() => window.vaultMcpActivity.notices())).toEqual([
      'Vault MCP: This page has no vault, so nothing can be reverted here.',
    ]);
    await ui.page.getByRole('button', { name: 'Revert all from Claude Code' }).click();
    await ui.page.waitForFunction(() => window.vaultMcpActivity.notices().length === 2);
    expect((await ui.page.evaluate(() => window.vaultMcpActivity.notices()))[1]).toMatch(
      /^Vault MCP: reverted 0 of 4 changes\. This page has no vault/,
    );
    expect(await ui.page.textContent('.vault-mcp-activity-title')).toBe('6 changes by agents');
  });
});
