import type { Plugin } from 'obsidian';
import type { ProposalStore } from '../../proposals/store/proposal-store';

/**
 * A status-bar item with the number of pending proposals ("3 pending changes"), hidden when
 * there are none; clicking it runs `open` (the Pending changes view). Follows the store.
 * @returns the item (for tests).
 */
export function addPendingStatusBarItem(plugin: Plugin, proposals: ProposalStore, open: () => void): HTMLElement {
  const item = plugin.addStatusBarItem();
  item.addClass('mod-clickable', 'vault-mcp-pending-count');
  item.setAttribute('aria-label', 'Open pending changes');
  item.addEventListener('click', open);
  const update = (): void => {
    const n = proposals.pending().length;
    item.setText(n === 0 ? '' : `${n} pending change${n === 1 ? '' : 's'}`);
    item.toggleClass('vault-mcp-hidden', n === 0);
  };
  plugin.register(proposals.onChange(update));
  update();
  return item;
}
