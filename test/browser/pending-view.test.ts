import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { describeWithChromium } from './chromium';
import { useSidebarPage } from './pages/sidebar-page';

const d = describeWithChromium('the Pending changes browser test');

d('Pending changes view in headless Chromium', () => {
  const ui = useSidebarPage({
    entry: 'pending-entry.ts',
    viewport: { width: 360, height: 1000 },
    ready: (page) =>
      page.waitForFunction(() => document.querySelectorAll('.vault-mcp-proposal').length === 5, undefined, { timeout: 5000 }),
  });
  const { shot, texts } = ui;
  const card = (label: string, kind: string) =>
    ui.page
      .locator('.vault-mcp-proposal', { has: ui.page.locator('.vault-mcp-proposal-label', { hasText: label }) })
      .filter({ hasText: kind });

  it('lists every note and proposal with who proposed it, its kind and its diff lines', async () => {
    expect(await ui.page.textContent('.vault-mcp-pending-title')).toBe('5 pending changes');
    expect(await texts('.vault-mcp-pending-path')).toEqual([
      'Travel/Lisbon trip.md',
      'Daily notes/2026-03-10.md',
      'Reading/Dune.md',
      'Inbox/Old scratch.md',
    ]);
    expect(await texts('.vault-mcp-proposal-label')).toEqual(['Claude Code', 'Cursor', 'Claude Code', 'Cursor', 'Cursor']);
    const kinds = await texts('.vault-mcp-proposal-kind');
    expect(kinds).toEqual(['edit', 'property change', 'new note', 'move', 'delete']);

    const edit = card('Claude Code', 'edit_note');
    expect(await edit.locator('.vault-mcp-diff-head').allTextContents()).toEqual(['Line 9', 'Line 15']);
    expect(await edit.locator('.vault-mcp-diff-removed').allTextContents()).toEqual(['− - Stay three nights near Alfama']);
    expect(await edit.locator('.vault-mcp-diff-inserted').allTextContents()).toEqual([
      '+ - Stay four nights near Alfama, checking out on Tuesday',
      '+ A Lisboa Card for three days is 45 euros.',
    ]);
    const properties = card('Cursor', 'set_properties');
    expect(await properties.locator('.vault-mcp-diff-removed').allTextContents()).toEqual(['− status: planning', '− tags: [travel]']);
    expect(await properties.locator('.vault-mcp-diff-inserted').allTextContents()).toEqual([
      '+ status: booked',
      '+ tags: [travel, portugal]',
    ]);
    expect(await card('Claude Code', 'create_note').locator('.vault-mcp-diff-inserted').count()).toBe(5);
    expect(await card('Cursor', 'move_note').locator('.vault-mcp-diff-line').allTextContents()).toEqual(['→ Reading/Finished/Dune.md']);
    expect(await card('Cursor', 'delete_note').locator('.vault-mcp-diff-removed').allTextContents()).toEqual([
      'The whole note goes to the trash:',
      '− call plumber?',
      '− something about the tram',
    ]);
    expect(await ui.page.getByRole('button', { name: 'Reject the change from Cursor' }).count()).toBe(3);

    // Readable: diff lines tinted and monospaced, Accept and Reject side by side on one row.
    const [inserted, removed, plain] = await Promise.all(
      ['.vault-mcp-diff-inserted', '.vault-mcp-diff-removed', '.vault-mcp-proposal-meta'].map((s) =>
        ui.page
          .locator(s)
          .first()
          .evaluate((e: Element) => getComputedStyle(e).backgroundColor),
      ),
    );
    expect(inserted).not.toBe(plain);
    expect(removed).not.toBe(plain);
    expect(inserted).not.toBe(removed);
    const [accept, reject] = await Promise.all(
      ['Accept', 'Reject'].map((name) => edit.getByRole('button', { name: `${name} the change from Claude Code` }).boundingBox()),
    );
    expect(Math.abs(accept.y - reject.y)).toBeLessThan(1);
    expect(reject.x).toBeGreaterThan(accept.x + accept.width);
    const sidebar = await ui.page.locator('#sidebar').boundingBox();
    expect(reject.x + reject.width).toBeLessThanOrEqual(sidebar.x + sidebar.width);
    expect(await ui.page.locator('.vault-mcp-proposal-stale').count()).toBe(0);
    expect(await ui.page.getByRole('button', { name: /^Accept the change from/ }).count()).toBe(5);
  });

  it('the user edits a line a proposal changes: its card turns Stale with the reason and only Reject, as it happens; screenshots light and dark', async () => {
    const properties = card('Cursor', 'set_properties');
    await ui.page.evaluate(() =>
      window.vaultMcpPending.userEdit('Travel/Lisbon trip.md', (text) => text.replace('status: planning', 'status: confirmed')),
    );
    await properties.locator('.vault-mcp-proposal-stale').waitFor({ timeout: 5000 });
    expect(await properties.locator('.vault-mcp-proposal-stale').textContent()).toBe('Stale');
    expect(await properties.locator('.vault-mcp-proposal-stale-reason').textContent()).toBe(
      'The note changed where these changes would go; the user can only reject them. Propose again on the new text.',
    );
    expect(await properties.getByRole('button').allTextContents()).toEqual(['Reject']);
    expect(await ui.page.textContent('.vault-mcp-pending-title')).toBe('5 pending changes (1 stale)');
    // Claude Code's edit of the same note is elsewhere in it: still acceptable, nothing marked.
    const edit = card('Claude Code', 'edit_note');
    expect(await edit.getByRole('button').allTextContents()).toEqual(['Accept', 'Reject']);
    expect(await edit.locator('.vault-mcp-diff-head').allTextContents()).toEqual(['Line 9', 'Line 15']);
    // The badge stands out from the kind badge beside it, and the card is marked along its edge.
    const [staleColor, kindColor] = await Promise.all(
      ['.vault-mcp-proposal-stale', '.vault-mcp-proposal-kind'].map((s) =>
        properties.locator(s).evaluate((e: Element) => getComputedStyle(e).color),
      ),
    );
    expect(staleColor).not.toBe(kindColor);
    expect(await properties.evaluate((e: Element) => getComputedStyle(e).boxShadow)).not.toBe('none');

    await fsp.mkdir(path.dirname(shot('pending-changes.png')), { recursive: true });
    await ui.page.locator('#sidebar').screenshot({ path: shot('pending-changes.png') });
    await ui.page.evaluate(() => document.body.classList.replace('theme-light', 'theme-dark'));
    await ui.page.locator('#sidebar').screenshot({ path: shot('pending-changes-dark.png') });
    for (const name of ['pending-changes.png', 'pending-changes-dark.png'])
      expect((await fsp.stat(shot(name))).size).toBeGreaterThan(20_000);
  });

  it('Reject removes the proposal from the list and the count; the note group goes with its last proposal', async () => {
    const properties = card('Cursor', 'set_properties');
    const id: string = await properties.getAttribute('data-proposal-id');
    await properties.getByRole('button', { name: 'Reject the change from Cursor' }).click();
    await ui.page.waitForFunction(() => document.querySelectorAll('.vault-mcp-proposal').length === 4);
    expect(await ui.page.textContent('.vault-mcp-pending-title')).toBe('4 pending changes');
    expect(await ui.page.locator(`[data-proposal-id="${id}"]`).count()).toBe(0);
    expect(await texts('.vault-mcp-proposal-label')).toEqual(['Claude Code', 'Claude Code', 'Cursor', 'Cursor']);
    expect(await ui.page.evaluate((pid: string) => window.vaultMcpPending.store.get(pid)?.status, id)).toBe('rejected');
    const saved: { proposals: Array<{ id: string; status: string }> } = JSON.parse(
      await ui.page.evaluate(() => window.vaultMcpPending.fileText()),
    );
    expect(saved.proposals.find((p) => p.id === id)?.status).toBe('rejected');
    expect(await ui.page.evaluate(() => window.vaultMcpPending.notices())).toEqual([
      `Vault MCP: Rejected proposal ${id}; it is now rejected.`,
    ]);

    await card('Cursor', 'delete_note').getByRole('button', { name: 'Reject the change from Cursor' }).click();
    await ui.page.waitForFunction(() => document.querySelectorAll('.vault-mcp-proposal').length === 3);
    expect(await ui.page.textContent('.vault-mcp-pending-title')).toBe('3 pending changes');
    expect(await texts('.vault-mcp-pending-path')).toEqual(['Travel/Lisbon trip.md', 'Daily notes/2026-03-10.md', 'Reading/Dune.md']);
  });

  it('Accept on a page without a vault says so in a Notice and keeps the proposal', async () => {
    await card('Cursor', 'move_note').getByRole('button', { name: 'Accept the change from Cursor' }).click();
    await ui.page.waitForFunction(() => window.vaultMcpPending.notices().length === 1);
    expect(await ui.page.evaluate(() => window.vaultMcpPending.notices())).toEqual([
      'Vault MCP: This page has no vault, so nothing can be accepted here; Reject works.',
    ]);
    expect(await ui.page.textContent('.vault-mcp-pending-title')).toBe('5 pending changes');
  });
});
