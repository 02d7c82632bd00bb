import { requireApiVersion, type Setting } from 'obsidian';

/** The fallback error line of each row on apps before 1.13.0 (the row's own `errorEl` is 1.13.0+). */
const fallbackErrors = new WeakMap<Setting, HTMLElement>();

/**
 * Shows `message` as a validation error under a settings row, or clears it for null or ''.
 * On Obsidian 1.13.0+ this is `Setting.setErrorMessage` (obsidian.d.ts, since 1.13.0); on
 * older apps (minAppVersion is 1.11.4) it draws the same thing itself: the row gets
 * `is-invalid` and a `div.setting-item-error.vault-mcp-setting-error` (role alert) in its info
 * column, styled in styles.css. Feature-checked with `requireApiVersion`, as recorded in
 * scripts/api-audit/decisions.json.
 */
export function showSettingError(setting: Setting, message: string | null): void {
  if (requireApiVersion('1.13.0')) {
    setting.setErrorMessage(message);
    return;
  }
  setting.settingEl.toggleClass('is-invalid', !!message);
  const existing = fallbackErrors.get(setting);
  if (!message) {
    existing?.detach();
    fallbackErrors.delete(setting);
    return;
  }
  const el = existing ?? setting.infoEl.createDiv({ cls: ['setting-item-error', 'vault-mcp-setting-error'], attr: { role: 'alert' } });
  el.setText(message);
  fallbackErrors.set(setting, el);
}
