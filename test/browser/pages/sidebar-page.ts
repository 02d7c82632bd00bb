import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleHostPage } from './bundle';
import { launchChromium, PLUGIN_STYLES, ROOT, STYLES } from '../chromium';

/** What {@link useSidebarPage} sets up for a suite. */
export interface SidebarPage {
  /** The playwright-core Page (typed loosely, as chromium.ts launches it); set in beforeAll. */
  readonly page: any;
  /** Where a screenshot goes: docs/ with UPDATE_SCREENSHOT set, else the suite's temporary folder. */
  shot(name: string): string;
  /** The text contents of every element matching `selector`. */
  texts(selector: string): Promise<string[]>;
}

/**
 * A sidebar view's page for a browser suite: Obsidian-like theme, editor and sidebar CSS, the
 * plugin's styles.css, an empty `#sidebar`, then `data` (a script run first) and the bundled
 * `entry` (test/browser/<entry>). Registers the suite's hooks: Chromium and the page are started
 * once (a temporary folder holds the HTML file); each test starts from a fresh load and waits
 * for `ready`, and fails when the page logged an error; everything is closed and removed at the end.
 * @param viewport the page size in CSS pixels.
 */
export function useSidebarPage(options: {
  entry: string;
  viewport: { width: number; height: number };
  data?: () => Promise<string>;
  ready: (page: any) => Promise<unknown>;
}): SidebarPage {
  let browser: any;
  let page: any;
  let dir = '';
  let file = '';
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: options.viewport, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'UTC' });
    page.on('pageerror', (e: Error) => errors.push(e.message));
    page.on('console', (m: { type(): string; text(): string }) => m.type() === 'error' && errors.push(m.text()));
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-sidebar-'));
    file = path.join(dir, 'page.html');
    await fsp.writeFile(file, await sidebarPageHtml(options.entry, (await options.data?.()) ?? ''));
  });
  beforeEach(async () => {
    await page.goto(`file://${file}`);
    await options.ready(page);
  });
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });
  return {
    get page() {
      return page;
    },
    shot: (name) => (process.env.UPDATE_SCREENSHOT ? path.join(ROOT, 'docs', name) : path.join(dir, name)),
    texts: (selector) => page.locator(selector).allTextContents(),
  };
}

/** The HTML of {@link useSidebarPage}: the CSS, `#sidebar`, the `data` script, the bundled entry. */
async function sidebarPageHtml(entry: string, data: string): Promise<string> {
  const css = await Promise.all(
    ['obsidian-theme.css', 'obsidian-editor.css', 'obsidian-sidebar.css']
      .map((f) => fsp.readFile(path.join(STYLES, f), 'utf8'))
      .concat(fsp.readFile(PLUGIN_STYLES, 'utf8')),
  );
  const script = await bundleHostPage(entry);
  const inline = (js: string): string => `<script>${js.replace(/<\/script/g, '<\\/script')}</script>`;
  return (
    `<!doctype html><html><head><meta charset="utf-8">${css.map((c) => `<style>${c}</style>`).join('')}</head>` +
    `<body class="theme-light"><div id="sidebar"></div>${data ? inline(data) : ''}${inline(script)}</body></html>`
  );
}
