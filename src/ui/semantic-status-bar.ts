import type { Plugin } from 'obsidian';
import type { SemanticIndex, SemanticStatus } from '../search/semantic/semantic-index';

/**
 * The status-bar text for a semantic index status: progress while building ("Semantic index
 * 40 %"), "Semantic index paused" while the provider is unreachable, nothing when ready or off.
 */
export function semanticStatusText(status: SemanticStatus): string {
  switch (status.state) {
    case 'building':
      return `Semantic index ${status.total === 0 ? 0 : Math.floor((100 * status.indexed) / status.total)} %`;
    case 'paused':
      return 'Semantic index paused';
    default:
      return '';
  }
}

/**
 * A status-bar item that follows the semantic index (`SemanticIndex.onStatus`); its tooltip
 * carries the pause reason. Hidden when there is nothing to say.
 * @returns the item (for tests)
 */
export function addSemanticStatusBarItem(plugin: Plugin, semantic: Pick<SemanticIndex, 'current' | 'onStatus'>): HTMLElement {
  const item = plugin.addStatusBarItem();
  item.addClass('vault-mcp-semantic-status');
  const update = (status: SemanticStatus): void => {
    const text = semanticStatusText(status);
    item.setText(text);
    item.setAttribute('aria-label', status.state === 'paused' ? status.reason : text);
    item.toggleClass('vault-mcp-hidden', text === '');
  };
  plugin.register(semantic.onStatus(update));
  update(semantic.current);
  return item;
}
