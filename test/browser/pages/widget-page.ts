/**
 * What the widget browser entries (widget-entry.ts, widget-navigation-entry.ts) share: a host
 * Plugin with the real `vault-mcp-widget` code block processor (registerWidgetBlocks) over a
 * widget source, and a note section in the page's `#note` that the plugin's post processors turn
 * into widget frames. The tests' pages set `window.vaultMcpWidgetPort` (their local HTTP server)
 * before the entry runs; the entry sets `window.vaultMcpWidget` for the test to drive.
 */
import type { App, Plugin as ObsidianPlugin } from 'obsidian';
import { createHostElement } from '../../host/ui/dom';
import { HostPostProcessorContext } from '../../host/workspace/markdown-render-child';
import { Plugin } from '../../host/plugin';
import { registerWidgetBlocks, type WidgetSource } from '../../../src/ui/widgets/widget-block';
import { PLUGIN_MANIFEST } from '../../fixtures/plugin-manifest';

declare global {
  interface Window {
    vaultMcpWidgetPort: number;
    vaultMcpWidget: { ctx: HostPostProcessorContext; changed: () => void };
  }
}

/**
 * Renders a note with widget blocks into the page's `#note` element: `fill` writes the note's
 * contents (widget code blocks: `pre > code.language-vault-mcp-widget` holding an id) into a host
 * section element, then the post processors run over it as Obsidian runs them for the note at
 * `notePath`.
 * @returns the post-processor context (unload it to unload the section's widgets).
 * @throws TypeError when the page has no `#note` element.
 */
export async function renderWidgetNote(
  source: WidgetSource,
  notePath: string,
  fill: (note: HTMLElement) => void,
): Promise<HostPostProcessorContext> {
  const plugin = new (class extends Plugin {})({} as App, PLUGIN_MANIFEST);
  registerWidgetBlocks(plugin as unknown as ObsidianPlugin, source);
  // A host element first: it installs Obsidian's DOM helpers (createEl, ...) on this page.
  const note = createHostElement('div', 'markdown-preview-section');
  document.getElementById('note')!.appendChild(note);
  fill(note);
  const ctx = new HostPostProcessorContext(notePath);
  for (const processor of plugin.markdownPostProcessors) await processor(note, ctx);
  return ctx;
}
