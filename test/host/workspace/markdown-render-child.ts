import type * as O from 'obsidian';
import { Component } from '../component';

/**
 * Obsidian's `MarkdownRenderChild` (obsidian.d.ts): a Component tied to an element of a
 * rendered Markdown section. Obsidian unloads it when the section is rendered again or goes
 * away; in the host that is {@link HostPostProcessorContext.unload}.
 */
export class MarkdownRenderChild extends Component implements O.MarkdownRenderChild {
  containerEl: HTMLElement;

  /** @param containerEl the element of the rendered section the child belongs to. */
  constructor(containerEl: HTMLElement) {
    super();
    this.containerEl = containerEl;
  }
}

/**
 * The `MarkdownPostProcessorContext` a post processor (or code block processor) receives for
 * one rendered section of a note: `addChild` loads the child at once, as Obsidian does for a
 * section on screen, and {@link unload} unloads every child (the section re-rendered or
 * closed). `getSectionInfo` answers null, as Obsidian does for an element outside the preview.
 */
export class HostPostProcessorContext implements O.MarkdownPostProcessorContext {
  readonly docId: string;
  frontmatter: Record<string, unknown> | null | undefined = undefined;
  private readonly children: MarkdownRenderChild[] = [];

  /** @param sourcePath the vault path of the note being rendered. */
  constructor(readonly sourcePath: string) {
    this.docId = `host-${Math.random().toString(36).slice(2)}`;
  }

  addChild(child: O.MarkdownRenderChild): void {
    const c = child as unknown as MarkdownRenderChild;
    this.children.push(c);
    c.load();
  }

  getSectionInfo(_el: HTMLElement): O.MarkdownSectionInformation | null {
    return null;
  }

  /** Host: unloads every child added, as Obsidian does when the section goes away. */
  unload(): void {
    while (this.children.length) (this.children.pop() as MarkdownRenderChild).unload();
  }
}
