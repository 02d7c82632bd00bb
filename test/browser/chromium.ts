import * as fs from 'node:fs';
import * as path from 'node:path';

/** Debian's Chromium, which the browser tests drive with playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
/** The repository root. */
export const ROOT = path.resolve(__dirname, '../..');
/** The Obsidian-like theme, editor and sidebar CSS the pages load (test/browser/styles/). */
export const STYLES = path.join(__dirname, 'styles');
/** The plugin's own styles.css, as Obsidian loads it beside main.js. */
export const PLUGIN_STYLES = path.join(ROOT, 'styles.css');

/**
 * `describe` when Chromium and playwright-core are installed, else `describe.skip` with a
 * console message naming what is missing (the tests skip cleanly on machines without them).
 * @param what the suite, for the message ("the settings-tab browser test").
 */
export function describeWithChromium(what: string): jest.Describe {
  const available = fs.existsSync(CHROMIUM) && fs.existsSync(path.join(ROOT, 'node_modules/playwright-core'));
  if (!available) console.log(`Skipping ${what}: needs ${CHROMIUM} and the playwright-core devDependency.`);
  return available ? describe : describe.skip;
}

/**
 * Starts headless Chromium with the flags this project uses (no sandbox, no GPU, no
 * background networking, updates or sync).
 * @param extraArgs more command-line flags (a profiler's `--js-flags=...`); none for the tests
 * @returns playwright-core's Browser (typed loosely: playwright-core is imported lazily so a
 *   machine without it still loads the test file).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<any> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}
