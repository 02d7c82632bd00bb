import * as path from 'node:path';
import type { JSDOM as JSDOMType } from 'jsdom';

// jsdom 29 (the top-level copy) is ESM-only under Jest's CommonJS runtime on Node 20; the copy
// jest-environment-jsdom ships (jsdom 26) is CommonJS and has the same API.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JSDOM } = require(path.resolve(__dirname, '../../../node_modules/jest-environment-jsdom/node_modules/jsdom')) as {
  JSDOM: typeof JSDOMType;
};
type JSDOM = JSDOMType;

/** What {@link installDom} returns: the window and the texts copied to the clipboard. */
export interface InstalledDom {
  window: JSDOM['window'];
  /** Every text `navigator.clipboard.writeText` received, oldest first. */
  clipboard: string[];
  /** Removes the globals again. */
  uninstall(): void;
}

const GLOBALS = [
  'window',
  'document',
  'Node',
  'Element',
  'HTMLElement',
  'HTMLInputElement',
  'Event',
  'MouseEvent',
  'DocumentFragment',
] as const;

/**
 * Gives a Node test a DOM (jsdom) as globals, so the host's `createHostElement` makes real
 * elements, while Node's own `fetch` and `node:http` stay available for the MCP SDK client
 * (Jest's jsdom environment would hide them). `navigator.clipboard` records copies.
 */
export function installDom(): InstalledDom {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  const g = globalThis as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const name of GLOBALS) {
    saved.set(name, Object.getOwnPropertyDescriptor(g, name));
    Object.defineProperty(g, name, {
      value: name === 'window' ? dom.window : (dom.window as unknown as Record<string, unknown>)[name],
      configurable: true,
      writable: true,
    });
  }
  const clipboard: string[] = [];
  saved.set('navigator', Object.getOwnPropertyDescriptor(g, 'navigator'));
  Object.defineProperty(g, 'navigator', {
    value: { clipboard: { writeText: async (text: string) => void clipboard.push(text) } },
    configurable: true,
    writable: true,
  });
  return {
    window: dom.window,
    clipboard,
    uninstall() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(g, name, descriptor);
        else delete g[name];
      }
      dom.window.close();
    },
  };
}

/** Types `value` into an input or textarea as a user would: sets it and fires `input`, then `change` when `commit`. */
export function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string, commit = false): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  if (commit) input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Chooses `value` in a `<select>` and fires `change`. */
export function choose(select: HTMLSelectElement, value: string): void {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The setting row (`.setting-item`) of `root` whose name is exactly `name`; throws naming the rows when absent. */
export function settingRow(root: HTMLElement, name: string): HTMLElement {
  const rows = Array.from(root.querySelectorAll<HTMLElement>('.setting-item'));
  const row = rows.find((r) => r.querySelector('.setting-item-name')?.textContent === name);
  if (!row)
    throw new Error(`No setting named "${name}"; rows: ${rows.map((r) => r.querySelector('.setting-item-name')?.textContent).join(' | ')}`);
  return row;
}

/** Lets pending promise callbacks and I/O run (settings saves, server restarts). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits until `check()` is truthy, polling every 10 ms up to `limit` tries; throws `message` otherwise. */
export async function until<T>(check: () => T, message: string, limit = 500): Promise<T> {
  for (let i = 0; i < limit; i++) {
    const value = check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(message);
}
