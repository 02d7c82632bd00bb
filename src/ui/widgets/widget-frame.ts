import { MarkdownRenderChild } from 'obsidian';

/**
 * One widget on screen: its HTML in an `<iframe>` that can run the widget's own scripts and
 * nothing else. `sandbox="allow-scripts"` without `allow-same-origin` gives the frame an
 * opaque origin (HTML standard, "Sandboxing"): it cannot touch the note, Obsidian's DOM,
 * storage or cookies, open windows, submit forms or navigate the app. A Content Security
 * Policy placed first in its document forbids every request the page makes; it cannot forbid
 * the frame navigating itself to a web address (no CSP directive governs that), so data goes
 * in only through a MessageChannel opened by the plugin's own first script in the document
 * (a page the frame navigates to never holds that channel) and only while the frame shows the
 * document the plugin loaded: its second `load` event means it left, and the frame is
 * replaced by a notice. The one message taken back is a height request.
 */

/** The frame's Content Security Policy: no network at all; inline scripts and styles, and data: images and fonts. */
export const WIDGET_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; form-action 'none'; base-uri 'none'";

/** The `sandbox` attribute of every widget frame: scripts only (no same-origin, forms, popups, top navigation, downloads). */
export const WIDGET_SANDBOX = 'allow-scripts';

/** Message type of the channel the plugin's first script in the frame hands to the parent. */
export const WIDGET_CHANNEL_MESSAGE = 'vault-mcp-widget-channel';
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

/**
 * Thrown by {@link WidgetFrameOptions.data} when the widget must show no data any more (its
 * writing key was deleted since, say): the frame is replaced by the message.
 */
export class WidgetStopped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WidgetStopped';
  }
}

/** A widget to show: its id, HTML, manifest query, how to get the query's result now, and when to get it again. */
export interface WidgetFrameOptions {
  id: string;
  html: string;
  query: string;
  /** The query's current result, as plain data. @throws WidgetStopped when the widget may show no data. */
  data: () => Promise<unknown>;
  /** Calls `listener` when the data may have changed; returns the unsubscribe function. */
  onDataChanged?: (listener: () => void) => () => void;
}

/**
 * The plugin's script, first in every widget document (before any of the widget's own code can
 * run): opens a MessageChannel, hands one end to the parent, and re-dispatches what arrives on
 * its end as a window `message` event (so widgets keep `addEventListener('message', ...)`;
 * `event.source` is null). The channel's end lives and dies with this document, so a page the
 * frame navigates to cannot receive the data. The script removes itself from the DOM.
 */
export const WIDGET_CHANNEL_SCRIPT =
  `<script>(()=>{const c=new MessageChannel();c.port1.onmessage=(e)=>window.dispatchEvent(new MessageEvent('message',{data:e.data}));` +
  `parent.postMessage({type:'${WIDGET_CHANNEL_MESSAGE}'},'*',[c.port2]);document.currentScript.remove();})()</script>`;

/**
 * The widget's HTML with the CSP `<meta>` and {@link WIDGET_CHANNEL_SCRIPT} placed first (right
 * after a leading doctype, so standards mode is kept): nothing in the document can load before
 * the policy applies, a policy of the widget's own can only narrow it further (CSP policies
 * combine), and the plugin's channel is opened before the widget's code runs.
 * @param html the widget file's text. @returns the frame's `srcdoc`.
 */
export function widgetDocument(html: string): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">${WIDGET_CHANNEL_SCRIPT}`;
  const doctype = /^\s*<!doctype\b[^>]{0,200}>/i.exec(html);
  return doctype ? doctype[0] + head + html.slice(doctype[0].length) : head + html;
}

/**
 * The render child of a `vault-mcp-widget` block (added with MarkdownPostProcessorContext.addChild,
 * so it unloads with its section): on load it fills `containerEl` with the sandboxed frame, posts
 * the data through the frame's channel when the frame has loaded and again when the data changes,
 * and takes height requests from that frame only. A second `load` of the frame (the widget
 * navigated it away from the document the plugin gave it) ends it: no data is posted again and
 * the frame is replaced by a notice; so does {@link WidgetStopped} from the data.
 */
export class WidgetFrame extends MarkdownRenderChild {
  /** The frame, while it is shown. */
  frame: HTMLIFrameElement | null = null;
  /** Why the widget was stopped (shown in its place), or null while it runs. */
  stopped: string | null = null;
  /** The parent's end of the channel the plugin's script in the frame opened; null until it arrives. */
  private port: MessagePort | null = null;
  /** How many times the frame fired `load`: 1 while it shows the plugin's document. */
  private loads = 0;

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
    this.registerDomEvent(frame, 'load', () => this.onFrameLoad());
    const win = this.containerEl.ownerDocument.defaultView;
    if (win) this.registerDomEvent(win, 'message', (event: MessageEvent) => this.onMessage(event));
    if (this.options.onDataChanged) this.register(this.options.onDataChanged(() => void this.postData()));
    this.register(() => this.closePort());
    frame.srcdoc = widgetDocument(this.options.html);
  }

  /**
   * The frame loaded: the first time it is the plugin's document, and the data is posted; any
   * later time the widget navigated its frame (to a web address, a reload, anything), so it is stopped.
   */
  private onFrameLoad(): void {
    this.loads += 1;
    if (this.loads === 1)
      void this.postData(); // posts once the channel is here too (whichever comes last)
    else
      this.stop(
        `Widget '${this.options.id}' tried to leave its page (it navigated its frame to another address) and was stopped; ` +
          'it gets no more data. Read its file before showing it again.',
      );
  }

  /**
   * Runs the query and posts its result through the frame's channel: only while the frame shows
   * the plugin's document (one `load`) and the channel from its first script has arrived.
   */
  private async postData(): Promise<void> {
    if (this.stopped || this.loads !== 1 || !this.port) return;
    let result: unknown;
    try {
      result = JSON.parse(JSON.stringify(await this.options.data()));
    } catch (err) {
      if (err instanceof WidgetStopped) return this.stop(err.message);
      result = { error: (err as Error).message };
    }
    if (this.stopped || this.loads !== 1) return;
    const message: WidgetDataMessage = { type: WIDGET_DATA_MESSAGE, id: this.options.id, query: this.options.query, result };
    this.port?.postMessage(message);
  }

  /** Ends the widget for good: closes its channel, removes the frame and shows `reason` in its place. */
  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.closePort();
    this.frame?.remove();
    this.frame = null;
    this.containerEl.createDiv({ cls: 'vault-mcp-widget-error', text: `Vault MCP widget: ${reason}` });
  }

  private closePort(): void {
    this.port?.close();
    this.port = null;
  }

  /**
   * A message from this widget's frame: the channel from the plugin's first script (the first
   * one only: the plugin's script runs before anything else in its document, so a page the frame
   * navigates to later can only send a second one), then the data is posted if the frame has
   * loaded; or a height request `{type: 'vault-mcp-widget-height', height}`,
   * clamped. Anything else is ignored.
   */
  private onMessage(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    const data: unknown = event.data;
    const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
    if (type === WIDGET_CHANNEL_MESSAGE) {
      const port = event.ports[0];
      if (this.port || this.stopped || !port) return port?.close();
      this.port = port;
      port.start();
      return void this.postData();
    }
    if (type !== WIDGET_HEIGHT_MESSAGE) return;
    const height = Number((data as { height?: unknown }).height);
    if (!Number.isFinite(height)) return;
    this.frame.setAttribute('height', String(Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)))));
  }
}
