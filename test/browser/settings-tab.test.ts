import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeWithChromium, launchChromium, PLUGIN_STYLES, ROOT, STYLES } from './chromium';
import { bundleSettingsTab } from './pages/bundle';

const d = describeWithChromium('the settings-tab browser test');

/** The page: Obsidian-like theme + the plugin's styles.css + the bundled tab. */
async function pageHtml(): Promise<string> {
  const [theme, styles, script] = await Promise.all([
    fsp.readFile(path.join(STYLES, 'obsidian-theme.css'), 'utf8'),
    fsp.readFile(PLUGIN_STYLES, 'utf8'),
    bundleSettingsTab(),
  ]);
  return (
    `<!doctype html><html><head><meta charset="utf-8"><style>${theme}</style><style>${styles}</style></head>` +
    `<body class="theme-dark"><div id="tab"></div><script>${script.replace(/<\/script/g, '<\\/script')}</script></body></html>`
  );
}

d('settings tab in headless Chromium', () => {
  let browser: any;
  let page: any;
  let dir: string;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 900, height: 900 }, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-tab-'));
    const file = path.join(dir, 'tab.html');
    await fsp.writeFile(file, await pageHtml());
    await page.goto(`file://${file}`);
    await page.waitForLoadState('load');
    expect(errors).toEqual([]);
    await page.waitForSelector('.vault-mcp-settings .setting-item', { timeout: 5000 });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  it('draws every section, visibly, and screenshots the whole tab', async () => {
    const headings = await page.$$eval('.setting-item-heading .setting-item-name', (els: Element[]) => els.map((e) => e.textContent));
    expect(headings).toEqual(['Server', 'Keys', 'Connect a client', 'Tools', 'Review', 'Agent activity', 'Access', 'AI provider']);
    const toggle = await page.$eval('.checkbox-container', (e: Element) => {
      const r = e.getBoundingClientRect();
      return { w: r.width, h: r.height };
    });
    expect(toggle.w).toBeGreaterThan(30);
    const shot = process.env.UPDATE_SCREENSHOT ? path.join(ROOT, 'docs/settings-tab.png') : path.join(dir, 'settings-tab.png');
    await fsp.mkdir(path.dirname(shot), { recursive: true });
    await page.locator('#tab').screenshot({ path: shot });
    expect((await fsp.stat(shot)).size).toBeGreaterThan(10_000);
  });

  it('clicks as a person would: a tool toggle, force confirmation, the last-key refusal', async () => {
    const tool = page.locator('.vault-mcp-tool', { has: page.locator('code', { hasText: /^list_tags$/ }) }).locator('.checkbox-container');
    await tool.click();
    expect(
      await page.evaluate(() => [window.vaultMcpTab.plugin.settings.tools.enabled.list_tags, window.vaultMcpTab.plugin.toolListChanges]),
    ).toEqual([false, 1]);

    const row = (label: string) =>
      page.locator('.vault-mcp-key-table tr', { has: page.locator('.vault-mcp-key-label', { hasText: label }) });
    await row('Claude Code').getByRole('button', { name: 'Use force' }).click();
    await row('Claude Code').getByRole('button', { name: 'Confirm: no review' }).click();
    expect(await page.evaluate(() => window.vaultMcpTab.plugin.settings.keys.find((k) => k.label === 'Claude Code')!.mode)).toBe('force');

    await row('Cursor').getByRole('button', { name: 'Revoke' }).click();
    await row('Cursor').getByRole('button', { name: 'Confirm' }).click();
    await row('Claude Code').getByRole('button', { name: 'Revoke' }).click();
    await row('Claude Code').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForSelector('.vault-mcp-keys-message.mod-error');
    expect(await page.textContent('.vault-mcp-keys-message')).toMatch(/last key local clients can use/);
    expect(await page.evaluate(() => window.vaultMcpTab.plugin.settings.keys.map((k) => k.label))).toEqual(['Claude Code']);
  });

  it("shows a key's saved roots that break the rule in its own row, in the error colour, until they are fixed", async () => {
    // A data.json synced in with an empty root: the field alone would show the "Whole vault" placeholder.
    const redraw = (roots: string[]) =>
      page.evaluate((r: string[]) => {
        window.vaultMcpTab.plugin.settings.keys[0].roots = r;
        window.vaultMcpTab.tab.display();
      }, roots);
    await redraw(['']);
    const alert = page.locator('.vault-mcp-key-roots [role="alert"]');
    expect(await alert.textContent()).toMatch(/^Refused, may touch no note: the root "" is empty/);
    const box = await alert.boundingBox();
    expect(box!.height).toBeGreaterThan(5);
    const [alertColour, labelColour] = await page.evaluate(() =>
      ['.vault-mcp-key-roots [role="alert"]', '.vault-mcp-key-label'].map((s) => getComputedStyle(document.querySelector(s)!).color),
    );
    expect(alertColour).not.toBe(labelColour);
    await page.locator('.vault-mcp-key-table').screenshot({ path: path.join(dir, 'key-roots-refused.png') });
    await redraw(['Projects']);
    expect(await alert.count()).toBe(0);
  });
});
