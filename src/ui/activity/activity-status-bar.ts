import type { Plugin } from 'obsidian';
import type { ActivityLog } from '../../activity/activity-log';

/** How recent a force-mode write must be for the status bar to mention it, minutes. */
export const RECENT_WRITE_MINUTES = 5;
/** How often the hint is recomputed so it disappears once the last write is old, ms. */
const REFRESH_MS = 30 * 1000;

/**
 * A status-bar hint when a force-mode key wrote in the last {@link RECENT_WRITE_MINUTES}
 * minutes ("Claude Code made 3 changes · 1 min ago"), hidden otherwise; clicking it runs
 * `open` (the Agent activity view). Follows the log and refreshes every half minute.
 * @param now the clock (tests pass their own).
 * @returns the item (for tests).
 */
export function addActivityStatusBarItem(plugin: Plugin, log: ActivityLog, open: () => void, now: () => number = Date.now): HTMLElement {
  const item = plugin.addStatusBarItem();
  item.addClass('mod-clickable', 'vault-mcp-activity-hint');
  item.setAttribute('aria-label', 'Open agent activity');
  item.addEventListener('click', open);
  const update = (): void => {
    const text = recentWriteHint(log, now());
    item.setText(text ?? '');
    item.toggleClass('vault-mcp-hidden', text === null);
  };
  plugin.register(log.onChange(update));
  const timer = setInterval(update, REFRESH_MS);
  plugin.register(() => clearInterval(timer));
  update();
  return item;
}

/**
 * The hint's text: who wrote directly (force mode, not accepted proposals or reverts) in the
 * last {@link RECENT_WRITE_MINUTES} minutes before `nowMs`, how many changes, how long ago;
 * null when nobody did.
 */
export function recentWriteHint(log: ActivityLog, nowMs: number): string | null {
  const since = nowMs - RECENT_WRITE_MINUTES * 60 * 1000;
  const recent = log.all().filter((e) => e.via === 'agent' && Date.parse(e.at) >= since);
  if (recent.length === 0) return null;
  const labels = [...new Set(recent.map((e) => e.key_label))];
  const who = labels.length === 1 ? labels[0] : `${labels.length} agents`;
  const minutes = Math.floor((nowMs - Date.parse(recent[0].at)) / 60000);
  return `${who} made ${recent.length} change${recent.length === 1 ? '' : 's'} · ${minutes < 1 ? 'just now' : `${minutes} min ago`}`;
}
