import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeWithChromium, launchChromium, PLUGIN_STYLES, ROOT, STYLES } from './chromium';

const d = describeWithChromium('the inline-review browser test');

/** Bundles test/browser/review-entry.ts for Chromium (an IIFE). */
async function bundleReviewPage(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, 'pages', 'review-entry.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The page: Obsidian-like theme and editor CSS, the plugin's styles.css, two panes, the bundled entry. */
async function pageHtml(): Promise<string> {
  const [theme, editor, styles, script] = await Promise.all([
    fsp.readFile(path.join(STYLES, 'obsidian-theme.css'), 'utf8'),
    fsp.readFile(path.join(STYLES, 'obsidian-editor.css'), 'utf8'),
    fsp.readFile(PLUGIN_STYLES, 'utf8'),
    bundleReviewPage(),
  ]);
  const leaf = (id: string) =>
    `<div class="workspace-leaf" id="${id}"><div class="view-header">Lisbon trip</div><div class="view-content"></div></div>`;
  return (
    `<!doctype html><html><head><meta charset="utf-8"><style>${theme}</style><style>${editor}</style><style>${styles}</style></head>` +
    `<body class="theme-light"><div class="workspace">${leaf('left')}${leaf('right')}</div>` +
    `<script>${script.replace(/<\/script/g, '<\\/script')}</script></body></html>`
  );
}

d('inline review in headless Chromium', () => {
  let browser: any;
  let page: any;
  let dir: string;
  let file: string;
  const errors: string[] = [];

  const docOf = (pane: 'left' | 'right'): Promise<string> =>
    page.evaluate((p: 'left' | 'right') => window.vaultMcpReview[p].state.doc.toString(), pane);
  const widgets = (pane: 'left' | 'right') => page.locator(`#${pane} .vault-mcp-hunk`);
  const hunkWidget = (pane: 'left' | 'right', proposalId: string, index: number) =>
    page.locator(`#${pane} .vault-mcp-hunk[data-proposal-id="${proposalId}"][data-hunk-index="${index}"]`);
  const line = (pane: 'left' | 'right', text: string) => page.locator(`#${pane} .cm-line`, { hasText: text }).first();
  const shot = (name: string) => (process.env.UPDATE_SCREENSHOT ? path.join(ROOT, 'docs', name) : path.join(dir, name));

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 640 }, deviceScaleFactor: 1 });
    page.on('pageerror', (e: Error) => errors.push(e.message));
    page.on('console', (m: { type(): string; text(): string }) => m.type() === 'error' && errors.push(m.text()));
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-review-'));
    file = path.join(dir, 'review.html');
    await fsp.writeFile(file, await pageHtml());
  });

  beforeEach(async () => {
    await page.goto(`file://${file}`);
    await page.waitForSelector('#right .vault-mcp-hunk', { timeout: 5000 });
  });

  afterEach(() => {
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  it('shows every hunk in both panes, readably, in the light and the dark theme', async () => {
    for (const pane of ['left', 'right'] as const) {
      expect(await widgets(pane).count()).toBe(4);
      expect(await page.textContent(`#${pane} .vault-mcp-review-summary`)).toBe('4 pending changes from Claude Code, Cursor');
    }
    expect(await page.locator('#left .vault-mcp-removed-word').allTextContents()).toEqual(['three']);
    expect(await hunkWidget('left', 'p1', 0).locator('.vault-mcp-inserted-word').allTextContents()).toEqual([
      'four',
      ', checking out on Tuesday',
    ]);
    expect(await hunkWidget('left', 'p2', 1).getAttribute('class')).toContain('is-deletion');
    expect(await page.getByRole('button', { name: 'Accept change from Cursor' }).count()).toBe(4);

    // The buttons sit inside the editor column, beside (not over) the proposed text.
    const box = await hunkWidget('left', 'p1', 0).boundingBox();
    const accept = await hunkWidget('left', 'p1', 0).locator('button.mod-accept').boundingBox();
    const text = await hunkWidget('left', 'p1', 0).locator('.vault-mcp-inserted').boundingBox();
    expect(accept.x).toBeGreaterThanOrEqual(text.x + text.width - 1);
    expect(accept.x + accept.width).toBeLessThanOrEqual(box.x + box.width + 1);
    // Struck-through removed text, in the muted colour, on a tinted line.
    const removed = await page
      .locator('#left .vault-mcp-removed')
      .first()
      .evaluate((e: Element) => getComputedStyle(e).textDecorationLine);
    expect(removed).toContain('line-through');

    await fsp.mkdir(path.dirname(shot('review-inline.png')), { recursive: true });
    await page.screenshot({ path: shot('review-inline.png') });

    // Typing inside Cursor's deletion makes it stale: badge, only ✗.
    await line('left', 'tram 28').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (ask by Thursday)');
    const stale = hunkWidget('left', 'p2', 1);
    await stale.locator('.vault-mcp-hunk-stale').waitFor();
    expect(await stale.locator('button.mod-accept').count()).toBe(0);
    expect(await stale.locator('button.mod-reject').count()).toBe(1);
    await page.evaluate(() => {
      document.body.classList.replace('theme-light', 'theme-dark');
      (document.activeElement as HTMLElement | null)?.blur();
    });
    await page.screenshot({ path: shot('review-inline-dark.png') });
    for (const name of ['review-inline.png', 'review-inline-dark.png']) expect((await fsp.stat(shot(name))).size).toBeGreaterThan(20_000);
  });

  it('✓ applies a hunk and ✗ discards another, in both panes', async () => {
    await hunkWidget('left', 'p1', 0).getByRole('button', { name: 'Accept change from Claude Code' }).click();
    const accepted = await docOf('left');
    expect(accepted).toContain('- Stay four nights near Alfama, checking out on Tuesday\n');
    expect(accepted).not.toContain('three nights');
    expect(await docOf('right')).toBe(accepted);
    for (const pane of ['left', 'right'] as const)
      await page.waitForFunction((p: string) => document.querySelectorAll(`#${p} .vault-mcp-hunk`).length === 3, pane);

    await hunkWidget('right', 'p2', 0).getByRole('button', { name: 'Reject change from Cursor' }).click();
    expect(await docOf('right')).toBe(accepted);
    for (const pane of ['left', 'right'] as const) {
      await page.waitForFunction((p: string) => document.querySelectorAll(`#${p} .vault-mcp-hunk`).length === 2, pane);
      expect(await page.textContent(`#${pane} .vault-mcp-review-summary`)).toBe('2 pending changes from Claude Code, Cursor');
    }
    expect(
      await page.evaluate(() => [window.vaultMcpReview.controller.accepts.length, window.vaultMcpReview.controller.rejects.length]),
    ).toEqual([1, 1]);
  });

  it('typing between proposal and accept: the hunk shifts, or turns stale when typed inside', async () => {
    await line('left', 'Lisbon trip').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' in May');
    await hunkWidget('left', 'p2', 0).getByRole('button', { name: 'Accept change from Cursor' }).click();
    const doc = await docOf('left');
    expect(doc.startsWith('# Lisbon trip in May\n')).toBe(true);
    expect(doc).toContain('The hotel is 95 euros per night, 380 euros in all.\n');
    expect(doc).not.toContain('per night.\n');

    await line('right', 'Stay three nights').click();
    await page.keyboard.press('Home');
    await page.keyboard.type('(maybe) ');
    await hunkWidget('right', 'p1', 0).locator('.vault-mcp-hunk-stale').waitFor();
    expect(await hunkWidget('right', 'p1', 0).locator('button.mod-accept').count()).toBe(0);
    // The left pane received the typing too and marks the hunk stale as well.
    expect(await hunkWidget('left', 'p1', 0).locator('.vault-mcp-hunk-stale').count()).toBe(1);
    expect(await docOf('left')).toContain('(maybe) - Stay three nights near Alfama\n');
  });

  it('Ctrl+Z after an accept restores the text', async () => {
    const before = await docOf('left');
    await hunkWidget('left', 'p1', 1).getByRole('button', { name: 'Accept change from Claude Code' }).click();
    expect(await docOf('left')).toContain('- Visit the tile museum\n- Book a fado dinner for Saturday\n\n## Budget');
    await line('left', 'Pack the blue').click();
    await page.keyboard.press('Control+z');
    expect(await docOf('left')).toBe(before);
    expect(await docOf('right')).toBe(before);
  });

  it('a new proposal from the store shows in both panes; accept all in one pane updates the other', async () => {
    await page.evaluate(() => {
      const { controller, path: note } = window.vaultMcpReview;
      controller.propose(note, {
        proposalId: 'p3',
        index: 0,
        keyLabel: 'Codex',
        removed: 'Pack the blue rain jacket.\n',
        inserted: 'Pack the blue rain jacket and an adapter.\n',
      });
    });
    for (const pane of ['left', 'right'] as const) {
      await page.waitForFunction((p: string) => document.querySelectorAll(`#${p} .vault-mcp-hunk`).length === 5, pane);
      expect(await page.textContent(`#${pane} .vault-mcp-review-summary`)).toBe('5 pending changes from Claude Code, Cursor, Codex');
    }
    await page.locator('#right .vault-mcp-review-accept-all').click();
    for (const pane of ['left', 'right'] as const)
      await page.waitForFunction((p: string) => !document.querySelector(`#${p} .vault-mcp-review-bar`), pane);
    const doc = await docOf('left');
    expect(await docOf('right')).toBe(doc);
    expect(doc).toContain('Pack the blue rain jacket and an adapter.\n');
    expect(doc).not.toContain('tram 28');
    await line('right', 'adapter').click();
    await page.keyboard.press('Control+z');
    expect(await docOf('right')).not.toContain('adapter');
  });

  it('a 10,000-line note with 50 hunks: mounts and takes typing between the hunks (timings printed, not asserted)', async () => {
    const figures = await page.evaluate(() => window.vaultMcpReview.measureLongNote());
    console.log(
      `Inline review, 10,000 lines / 50 hunks in Chromium: mount ${figures.mountMs.toFixed(1)} ms; ${figures.keystrokes} keystrokes: mean ${figures.keystrokeMeanMs.toFixed(2)} ms, max ${figures.keystrokeMaxMs.toFixed(2)} ms`,
    );
    expect(figures.hunksAfter).toBe(50);
    expect(figures.staleAfter).toBe(0);
  });
});
