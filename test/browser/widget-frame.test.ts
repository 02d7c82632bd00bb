import * as fsp from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { WIDGET_CSP } from '../../src/ui/widgets/widget-frame';
import { bundleHostPage } from './pages/bundle';
import { describeWithChromium, launchChromium, PLUGIN_STYLES, ROOT, STYLES } from './chromium';

const d = describeWithChromium('the widget browser test');

d('a vault-mcp-widget block in headless Chromium', () => {
  let browser: any;
  let page: any;
  let dir: string;
  let server: http.Server;
  const requests: string[] = [];
  const errors: string[] = [];
  /** Console errors: here only the browser's reports of what the widget's CSP blocked. */
  const consoleErrors: string[] = [];
  const shot = (name: string) => (process.env.UPDATE_SCREENSHOT ? path.join(ROOT, 'docs', name) : path.join(dir, name));

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const css = await Promise.all([path.join(STYLES, 'obsidian-theme.css'), PLUGIN_STYLES].map((f) => fsp.readFile(f, 'utf8')));
    const script = await bundleHostPage('widget-entry.ts');
    const html =
      `<!doctype html><html><head><meta charset="utf-8"><title>Parent page</title>${css.map((c) => `<style>${c}</style>`).join('')}` +
      '<style>#note { max-width: 700px; padding: 8px 32px 24px; } h1 { font-size: 26px; } p { color: var(--text-muted); }</style></head>' +
      `<body class="theme-dark"><div id="note" class="markdown-preview-view"></div><script>window.vaultMcpWidgetPort = ${port};</script>` +
      `<script>${script.replace(/<\/script/g, '<\\/script')}</script></body></html>`;
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-widget-'));
    await fsp.writeFile(path.join(dir, 'note.html'), html);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 764, height: 560 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'UTC' });
    page.on('pageerror', (e: Error) => errors.push(e.message));
    page.on('console', (m: { type(): string; text(): string }) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(`file://${path.join(dir, 'note.html')}`);
    await page.waitForSelector('iframe.vault-mcp-widget-frame', { timeout: 5000 }).catch((err: Error) => {
      throw new Error(`${err.message}\nPage errors: ${[...errors, ...consoleErrors].join('\n')}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  const widget = () => page.frames().find((f: { parentFrame(): unknown }) => f.parentFrame() !== null);
  const probes = async (): Promise<Record<string, unknown>> => JSON.parse((await widget().getAttribute('#probes', 'data-results')) ?? '{}');

  it('the frame is sandboxed to scripts only, with the no-network CSP first in its document', async () => {
    const frame = page.locator('iframe.vault-mcp-widget-frame');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await frame.evaluate((f: HTMLIFrameElement) => [...f.sandbox].join(' '))).toBe('allow-scripts');
    const srcdoc: string = await frame.getAttribute('srcdoc');
    expect(srcdoc.startsWith(`<!doctype html><meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">`)).toBe(true);
    expect(WIDGET_CSP).toMatch(/^default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:/);
    expect(await page.locator('iframe').count()).toBe(1);
    expect(await page.textContent('.vault-mcp-widget-error')).toBe("Vault MCP widget: No widget 'no-such-widget' in the widgets folder.");
  });

  it('the query result arrives by postMessage and the widget draws it; its height request is applied', async () => {
    await widget().waitForSelector('body[data-received]');
    const received = JSON.parse(await widget().getAttribute('body', 'data-received'));
    expect(received).toEqual({
      type: 'vault-mcp-widget-data',
      id: 'reading-board',
      query: 'WHERE tags contains "book" SORT rating desc COLUMNS title, author, status, rating',
      result: {
        columns: ['file.path', 'title', 'author', 'status', 'rating'],
        rows: [
          ['Reading/Piranesi.md', 'Piranesi', 'Susanna Clarke', 'finished', 5],
          ['Reading/Dune.md', 'Dune', 'Frank Herbert', 'finished', 4],
          ['Reading/The Dispossessed.md', 'The Dispossessed', 'Ursula K. Le Guin', 'reading', 4],
          ['Reading/Klara and the Sun.md', 'Klara and the Sun', 'Kazuo Ishiguro', 'to read', 3],
        ],
        total: 4,
      },
    });
    expect(await widget().locator('#rows tr').count()).toBe(4);
    await page.waitForFunction(() => document.querySelector('iframe')?.getAttribute('height') !== '200');
    const height = Number(await page.locator('iframe').getAttribute('height'));
    expect(height).toBeGreaterThan(150);
    expect(height).toBeLessThan(400);
    // A note change posts the data again.
    await page.evaluate(() => window.vaultMcpWidget.changed());
    await widget().waitForFunction(() => JSON.parse(document.getElementById('probes')!.dataset.results ?? '{}').messages === 2);
    await fsp.mkdir(path.dirname(shot('widget.png')), { recursive: true });
    await page.locator('#note').screenshot({ path: shot('widget.png') });
    expect((await fsp.stat(shot('widget.png'))).size).toBeGreaterThan(10_000);
  });

  it('the widget cannot reach the parent page, storage or the network; the parent can reach the server', async () => {
    await widget().waitForFunction(() => {
      const r = JSON.parse(document.getElementById('probes')!.dataset.results ?? '{}');
      return r.fetch !== undefined && r.image !== undefined;
    });
    const result = await probes();
    expect(result).toMatchObject({
      parentDocument: 'blocked: SecurityError',
      topLocation: 'blocked: SecurityError',
      storage: 'blocked: SecurityError',
      fetch: 'blocked: TypeError',
      image: 'blocked',
    });
    // Control: the same server answers a request from the parent page, so silence above is the sandbox's doing.
    await page.evaluate(
      (port: number) => fetch(`http://127.0.0.1:${port}/control`, { mode: 'no-cors' }),
      (server.address() as AddressInfo).port,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual(['/control']);
    // Messages from anywhere but the widget's frame are ignored, and from it only a height is taken.
    const before = await page.locator('iframe').getAttribute('height');
    await page.evaluate(() => window.postMessage({ type: 'vault-mcp-widget-height', height: 999 }, '*'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await page.locator('iframe').getAttribute('height')).toBe(before);
    await widget().evaluate(() => parent.postMessage({ type: 'vault-mcp-widget-height', note: 'no height' }, '*'));
    await widget().evaluate(() => parent.postMessage({ type: 'vault-mcp-widget-height', height: 1e9 }, '*'));
    await page.waitForFunction(() => document.querySelector('iframe')?.getAttribute('height') === '4000');
    expect(errors).toEqual([]);
    for (const message of consoleErrors) expect(message).toMatch(/Content Security Policy/);
    for (const blocked of ['/fetch', '/beacon', '/image.png']) expect(consoleErrors.some((m) => m.includes(blocked))).toBe(true);
  });

  it("unloading the section removes the frame's listeners: later height requests change nothing", async () => {
    await page.evaluate(() => window.vaultMcpWidget.ctx.unload());
    await widget().evaluate(() => parent.postMessage({ type: 'vault-mcp-widget-height', height: 50 }, '*'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await page.locator('iframe').getAttribute('height')).toBe('4000');
  });
});
