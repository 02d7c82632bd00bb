/** @jest-environment jsdom */
import type * as O from 'obsidian';
import { createHostElement, HostPostProcessorContext, MarkdownRenderChild, Plugin } from '../../host/index';

const manifest: O.PluginManifest = {
  id: 'blocks',
  name: 'Blocks',
  author: 'me',
  version: '1.0.0',
  minAppVersion: '1.11.4',
  description: 'test',
};

/** A render child that counts clicks on its element while loaded. */
class Counter extends MarkdownRenderChild {
  clicks = 0;
  loaded = false;
  override onload(): void {
    this.loaded = true;
    this.registerDomEvent(this.containerEl, 'click', () => this.clicks++);
  }
  override onunload(): void {
    this.loaded = false;
  }
}

describe('host code blocks: registerMarkdownCodeBlockProcessor, MarkdownRenderChild, the post-processor context', () => {
  it('replaces each pre > code.language-<lang> with a div for the handler; children live until the section unloads', async () => {
    const plugin = new (class extends Plugin {})({} as O.App, manifest);
    const seen: Array<{ source: string; sourcePath: string }> = [];
    const children: Counter[] = [];
    plugin.registerMarkdownCodeBlockProcessor('tally', (source, el, ctx) => {
      seen.push({ source, sourcePath: ctx.sourcePath });
      el.setText(`tally of ${source.trim()}`);
      const child = new Counter(el);
      children.push(child);
      ctx.addChild(child);
    });
    const section = createHostElement('div');
    section.createEl('pre').createEl('code', { cls: 'language-tally', text: 'a\n' });
    section.createEl('pre').createEl('code', { cls: 'language-other', text: 'untouched' });
    section.createEl('pre').createEl('code', { cls: 'language-tally', text: 'b\n' });
    const ctx = new HostPostProcessorContext('Note.md');
    for (const processor of plugin.markdownPostProcessors) await processor(section, ctx);

    expect(seen).toEqual([
      { source: 'a\n', sourcePath: 'Note.md' },
      { source: 'b\n', sourcePath: 'Note.md' },
    ]);
    expect(Array.from(section.querySelectorAll('.block-language-tally'), (el) => el.textContent)).toEqual(['tally of a', 'tally of b']);
    expect(section.querySelectorAll('pre').length).toBe(1);
    expect(ctx.getSectionInfo(section)).toBeNull();
    expect(children.map((c) => c.loaded)).toEqual([true, true]);
    (children[0].containerEl as HTMLElement).click();
    expect(children[0].clicks).toBe(1);

    ctx.unload();
    expect(children.map((c) => c.loaded)).toEqual([false, false]);
    (children[0].containerEl as HTMLElement).click();
    expect(children[0].clicks).toBe(1);
  });
});
