import { MarkdownRenderChild } from 'obsidian';

/**
 * One widget on screen: its HTML in an `<iframe>` that can run the widget's own scripts and
 * nothing else. `sandbox="allow-scripts"` without `allow-same-origin` gives the frame an
 * opaque origin (HTML standard, "Sandboxing"): it cannot touch the note, Obsidian's DOM,
 * storage or cookies, open windows, submit forms or navigate the app. A Content Security
 * Policy placed first in its document forbids every network request. Data goes in only by
 * `postMessage`; the one message taken back is a height request.
 */

/** The frame's Content Security Policy: no network at all; inline scripts and styles, and data: images and fonts. */
export const WIDGET_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; form-action 'none'; base-uri 'none'";

/** The `sandbox` attribute of every widget frame: scripts only (no same-origin, forms, popups, top navigation, downloads). */
export const WIDGET_SANDBOX = 'allow-scripts';

/** Message type of the data a widget receives. */
export const WIDGET_DATA_MESSAGE = 'vault-mcp-widget-data';
/** Message type of a widget's height request. */
export const WIDGET_HEIGHT_MESSAGE = 'vault-mcp-widget-height';

/** Height bounds of a widget frame, CSS pixels; before any request it is {@link DEFAULT_HEIGHT}. */
const MIN_HEIGHT = 24;
const MAX_HEIGHT = 4000;
const DEFAULT_HEIGHT = 200;

/** What a widget receives: `{type, id, query, result}`; result is query_notes' `{columns, rows, total}` or `{error}`. */
export interface WidgetDataMessage {
  type: typeof WIDGET_DATA_MESSAGE;
  id: string;
  query: string;
  result: unknown;
}

/** A widget to show: its id, HTML, manifest query, how to get the query's result now, and when to get it again. */
export interface WidgetFrameOptions {
  id: string;
  html: string;
  query: string;
  /** The query's current result, as plain data. */
  data: () => Promise<unknown>;
  /** Calls `listener` when the data may have changed; returns the unsubscribe function. */
  onDataChanged?: (listener: () => void) => () => void;
}

/**
 * The widget's HTML with the CSP `<meta>` placed first (right after a leading doctype, so
 * standards mode is kept): nothing in the document can load before the policy applies, and
 * a policy of the widget's own can only narrow it further (CSP policies combine).
 * @param html the widget file's text. @returns the frame's `srcdoc`.
 */
export function widgetDocument(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">`;
  const doctype = /^\s*<!doctype\b[^>]{0,200}>/i.exec(html);
  return doctype ? doctype[0] + meta + html.slice(doctype[0].length) : meta + html;
}

/**
 * The render child of a `vault-mcp-widget` block (added with MarkdownPostProcessorContext.addChild,
 * so it unloads with its section): on load it fills `containerEl` with the sandboxed frame,
 * posts the data each time the frame loads and again when the data changes, and takes
 * height requests from that frame only.
 */
export class WidgetFrame extends MarkdownRenderChild {
  /** The frame, once loaded. */
  frame: HTMLIFrameElement | null = null;

  /** @param containerEl the block's element. @param options the widget and its data. */
  constructor(
    containerEl: HTMLElement,
    private readonly options: WidgetFrameOptions,
  ) {
    super(containerEl);
  }

  override onload(): void {
    const frame = this.containerEl.createEl('iframe', {
      cls: 'vault-mcp-widget-frame',
      attr: { sandbox: WIDGET_SANDBOX, title: `Widget ${this.options.id}`, height: String(DEFAULT_HEIGHT), referrerpolicy: 'no-referrer' },
    });
    this.frame = frame;
    this.registerDomEvent(frame, 'load', () => void this.postData());
    const win = this.containerEl.ownerDocument.defaultView;
    if (win) this.registerDomEvent(win, 'message', (event: MessageEvent) => this.onMessage(event));
    if (this.options.onDataChanged) this.register(this.options.onDataChanged(() => void this.postData()));
    frame.srcdoc = widgetDocument(this.options.html);
  }

  /** Runs the query and posts its result to the frame (target origin `*`: a sandboxed frame's origin is opaque). */
  private async postData(): Promise<void> {
    let result: unknown;
    try {
      result = JSON.parse(JSON.stringify(await this.options.data()));
    } catch (err) {
      result = { error: (err as Error).message };
    }
    const message: WidgetDataMessage = { type: WIDGET_DATA_MESSAGE, id: this.options.id, query: this.options.query, result };
    this.frame?.contentWindow?.postMessage(message, '*');
  }

  /** A height request from this widget's frame: `{type: 'vault-mcp-widget-height', height}`, clamped. Anything else is ignored. */
  private onMessage(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== WIDGET_HEIGHT_MESSAGE) return;
    const height = Number((data as { height?: unknown }).height);
    if (!Number.isFinite(height)) return;
    this.frame.setAttribute('height', String(Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)))));
  }
}
