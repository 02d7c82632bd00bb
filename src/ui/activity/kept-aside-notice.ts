import { Notice } from 'obsidian';
import { keptAsideMessage, type KeptAside } from '../../activity/kept-aside';

/**
 * The one sticky Notice telling the user that the agent activity log kept text aside in the
 * vault's `.trash` folder (activity/kept-aside.ts). A later trim while that Notice is still
 * shown rewrites it (`Notice.setMessage`) to count every file kept since it appeared, instead
 * of stacking another Notice; once the user dismissed it (Obsidian takes a hidden Notice's
 * element out of the page, so `messageEl.isConnected` turns false), the next trim opens a new one.
 */
export class KeptAsideNotice {
  private notice: Notice | null = null;
  /** What the Notice shown now counts. */
  private items: KeptAside[] = [];

  /** Shows `items` (one trim's files), added to those of the Notice still shown, if any. Bound: pass it as it is. */
  readonly report = (items: readonly KeptAside[]): void => {
    if (items.length === 0) return;
    const shown = this.notice !== null && this.notice.messageEl.isConnected;
    this.items = shown ? [...this.items, ...items] : [...items];
    const message = keptAsideMessage(this.items);
    if (shown) this.notice?.setMessage(message);
    else this.notice = new Notice(message, 0);
  };
}
