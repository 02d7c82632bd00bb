import * as fsp from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleHostPage } from './pages/bundle';
import { describeWithChromium, launchChromium } from './chromium';

const d = describeWithChromium('the widget navigation browser test');

/**
 * A widget that navigates its own frame to a web address (which no CSP directive can forbid) takes
 * its first data with it once, and nothing more: the real WidgetFrame in headless Chromium, with a
 * local HTTP listener standing in for the remote host. The remote pages report every message they
 * get; a control shows that such a report does arrive when something is posted to them.
 */
d('a vault-mcp-widget that navigates its frame away, in headless Chromium', () => {
  let browser: any;
  let page: any;
  let dir: string;
  let server: http.Server;
  const requests: string[] = [];
  const open: http.ServerResponse[] = [];

  /** The remote page: reports that it runs, and every message it receives. */
  const remotePage = (name: string): string =>
    `<!doctype html><html><body><p>remote ${name}</p><script>fetch('/alive-${name}',{mode:'no-cors'});` +
    `addEventListener('message',e=>fetch('/got-${name}?m='+encodeURIComponent(JSON.stringify(e.data)),{mode:'no-cors'}))</script>`;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = req.url ?? '';
      requests.push(url);
      res.setHeader('Content-Type', 'text/html');
      if (url.startsWith('/leak')) return res.end(remotePage('leak') + '</body></html>');
      if (url.startsWith('/stream')) {
        // A response that never ends: the frame's document never finishes loading, so no second `load` fires.
        res.write(remotePage('stream') + ' '.repeat(2048));
        open.push(res);
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const script = await bundleHostPage('widget-navigation-entry.ts');
    const html =
      '<!doctype html><html><head><meta charset="utf-8"><title>Parent page</title></head>' +
      `<body><div id="note"></div><script>window.vaultMcpWidgetPort = ${port};</script>` +
      `<script>${script.replace(/<\/script/g, '<\\/script')}</script></body></html>`;
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-widget-nav-'));
    await fsp.writeFile(path.join(dir, 'note.html'), html);
    browser = await launchChromium();
    page = await browser.newPage();
    // Not `load`: a page's load waits for its frames, and the slow widget's frame may be navigating to the response that never
    // ends before the page's own load fires (a CI run timed out at 30 s that way); the tests wait for what they need.
    await page.goto(`file://${path.join(dir, 'note.html')}`, { waitUntil: 'domcontentloaded' });
  });

  afterAll(async () => {
    for (const res of open) res.end('</body></html>');
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const waitForRequest = async (prefix: string): Promise<void> => {
    // Up to 20 s: Chromium on a loaded machine (the suites run two at a time) takes seconds to load a frame.
    for (let i = 0; i < 400 && !requests.some((r) => r.startsWith(prefix)); i++) await settle(50);
    expect(requests.filter((r) => r.startsWith(prefix)).length).toBeGreaterThan(0);
  };

  it('a frame that loaded a second document is replaced by a notice and gets no second post', async () => {
    // Each widget took its first data away once, by navigating (documented: a widget can send what it is given).
    await waitForRequest('/alive-leak');
    await waitForRequest('/alive-stream');
    const leak = requests.filter((r) => r.startsWith('/leak?'));
    expect(leak).toHaveLength(1);
    expect(JSON.parse(decodeURIComponent(leak[0]!.slice('/leak?d='.length)))).toEqual({
      columns: ['file.path', 'status', 'secretfield'],
      rows: [['Projects/Open.md', 'open', expect.stringMatching(/^fine-/)]],
      total: 1,
    });
    expect(requests.filter((r) => r.startsWith('/stream?'))).toHaveLength(1);
    await page.waitForFunction(() => document.querySelector('#holder-leaky .vault-mcp-widget-error') !== null, null, {
      timeout: 5000,
    });
    expect(await page.textContent('#holder-leaky .vault-mcp-widget-error')).toBe(
      "Vault MCP widget: Widget 'leaky' tried to leave its page (it navigated its frame to another address) and was stopped; " +
        'it gets no more data. Read its file before showing it again.',
    );
    expect(await page.locator('#holder-leaky iframe').count()).toBe(0);
    await settle(300);
    expect(requests.filter((r) => r.startsWith('/got-leak'))).toEqual([]);
  });

  it('note changes feed nothing to the page a widget navigated to, even one that never finishes loading', async () => {
    for (let i = 0; i < 3; i++) {
      await page.evaluate(() => window.vaultMcpWidget.changed());
      await settle(250);
    }
    await settle(500);
    expect(requests.filter((r) => r.startsWith('/got-'))).toEqual([]);
    expect(requests.filter((r) => r.startsWith('/leak?') || r.startsWith('/stream?'))).toHaveLength(2);
    // Control: the page that never finished loading is still in its frame and does report a message posted to it.
    expect(await page.locator('#holder-slow iframe').count()).toBe(1);
    await page.evaluate(() =>
      document.querySelector<HTMLIFrameElement>('#holder-slow iframe')!.contentWindow!.postMessage({ probe: 1 }, '*'),
    );
    await waitForRequest('/got-stream');
    expect(requests.filter((r) => r.startsWith('/got-'))).toEqual([`/got-stream?m=${encodeURIComponent('{"probe":1}')}`]);
  });
});
