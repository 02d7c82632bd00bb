import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleHostPage } from './pages/bundle';
import { describeWithChromium, launchChromium, PLUGIN_STYLES, ROOT, STYLES } from './chromium';

const d = describeWithChromium('the widget confirm browser test');

/**
 * A widget no record says who wrote (docs/widgets.md#whose-view-a-widget-shows) shows, in place of
 * its frame, why it is not shown, what "Show with my view" would give its script, its code to read
 * and the button; none of its code runs and it gets no data until the user clicks. The real
 * registerWidgetBlocks and WidgetFrame in headless Chromium over an in-memory source
 * (widget-confirm-entry.ts). UPDATE_SCREENSHOT=1 rewrites docs/widget-confirm.png.
 */
d('a vault-mcp-widget block that no record says who wrote, in headless Chromium', () => {
  let browser: any;
  let page: any;
  let dir: string;
  const errors: string[] = [];

  beforeAll(async () => {
    const css = await Promise.all([path.join(STYLES, 'obsidian-theme.css'), PLUGIN_STYLES].map((f) => fsp.readFile(f, 'utf8')));
    const script = await bundleHostPage('widget-confirm-entry.ts');
    const html =
      `<!doctype html><html><head><meta charset="utf-8"><title>Parent page</title>${css.map((c) => `<style>${c}</style>`).join('')}` +
      '<style>#note { max-width: 700px; padding: 8px 32px 24px; } h1 { font-size: 26px; }</style></head>' +
      `<body class="theme-dark"><div id="note" class="markdown-preview-view"></div><script>window.vaultMcpWidgetPort = 0;</script>` +
      `<script>${script.replace(/<\/script/g, '<\\/script')}</script></body></html>`;
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-widget-confirm-'));
    await fsp.writeFile(path.join(dir, 'note.html'), html);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 764, height: 700 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'UTC' });
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`file://${path.join(dir, 'note.html')}`);
    await page.waitForSelector('#holder-stuck .vault-mcp-widget-confirm', { timeout: 5000 });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  it('shows why, what its script would get, its code and "Show with my view" instead of its frame; nothing of it runs', async () => {
    expect(await page.locator('iframe').count()).toBe(0);
    const box = page.locator('#holder-board .vault-mcp-widget-confirm');
    expect(await box.locator('.vault-mcp-widget-confirm-title').textContent()).toBe("Widget 'board' is not shown yet");
    const text: string = await box.locator('p').textContent();
    expect(text).toContain('Nothing on this device records who wrote Widgets/board.html');
    expect(text).toContain('its script gets every note you can read');
    expect(text).toContain('can send them out of Obsidian');
    // The code is there to read (folded), as text: never parsed as HTML in the note.
    expect(await box.locator('details summary').textContent()).toBe('Read its code');
    expect(await box.locator('details pre').textContent()).toContain('<script type="application/json" id="vault-mcp-widget">');
    expect(await box.locator('details pre script').count()).toBe(0);
    const button = box.locator('button');
    expect(await button.textContent()).toBe('Show with my view');
    expect(await button.isVisible()).toBe(true);
    expect(await page.evaluate(() => window.vaultMcpConfirmed)).toEqual([]);
    // The picture in docs/widgets.md (UPDATE_SCREENSHOT=1 rewrites it): the code unfolded, the other block out of frame.
    const shot = path.join(process.env.UPDATE_SCREENSHOT ? path.join(ROOT, 'docs') : dir, 'widget-confirm.png');
    await box.locator('details summary').click();
    expect(await box.locator('details pre').isVisible()).toBe(true);
    await page.evaluate(() => (document.getElementById('holder-stuck')!.style.display = 'none'));
    await page.locator('#note').screenshot({ path: shot });
    await page.evaluate(() => (document.getElementById('holder-stuck')!.style.display = ''));
    expect((await fsp.stat(shot)).size).toBeGreaterThan(5_000);
  });

  it('a click records the user for that exact text and draws the block again: the frame now runs and gets its data', async () => {
    await page.locator('#holder-board button').click();
    await page.waitForSelector('#holder-board iframe.vault-mcp-widget-frame', { timeout: 5000 });
    expect(await page.evaluate(() => window.vaultMcpConfirmed)).toEqual([['board', 'hash-of-board']]);
    expect(await page.locator('#holder-board .vault-mcp-widget-confirm').count()).toBe(0);
    const frame = page.frames().find((f: { parentFrame(): unknown; url(): string }) => f.parentFrame() !== null);
    await frame.waitForSelector('body[data-received]');
    expect(JSON.parse(await frame.getAttribute('body', 'data-received')).total).toBe(2);
    // The other block is untouched: still asking, no frame.
    expect(await page.locator('#holder-stuck iframe').count()).toBe(0);
    expect(await page.locator('#holder-stuck .vault-mcp-widget-confirm').count()).toBe(1);
  });

  it('a confirmation that cannot be saved says why beside the button, shows no frame and lets the user try again', async () => {
    const button = page.locator('#holder-stuck button');
    await button.click();
    await page.waitForFunction(() => document.querySelector('#holder-stuck .vault-mcp-widget-error')?.textContent !== '');
    expect(await page.locator('#holder-stuck .vault-mcp-widget-error').textContent()).toBe(
      "Vault MCP widget: Widget 'stuck' is not shown: the plugin could not save your choice (disk full); try again.",
    );
    expect(await page.locator('#holder-stuck iframe').count()).toBe(0);
    expect(await button.isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });
});
