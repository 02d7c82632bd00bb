/** @jest-environment jsdom */
/**
 * Feature-checked Obsidian APIs newer than minAppVersion (scripts/api-audit/decisions.json):
 * on an app older than the API, the fallback runs and nothing throws; on a newer one, the API
 * itself is used. The host reports the version set with setHostApiVersion.
 */
import { Setting } from 'obsidian';
import { createHostElement, setHostApiVersion } from '../../host/index';
import { showSettingError } from '../../../src/ui/settings/setting-error';
import { registerCliHandlers } from '../../../src/ui/settings/cli-handlers';
import type { SettingsTabPlugin } from '../../../src/ui/settings/tab-context';

afterEach(() => setHostApiVersion());

function row(): Setting {
  const el = createHostElement('div');
  document.body.appendChild(el);
  return new Setting(el).setName('Port');
}

describe('showSettingError (Setting.setErrorMessage is @since 1.13.0)', () => {
  it('before 1.13.0 draws its own error line and clears it', () => {
    setHostApiVersion('1.12.7');
    const setting = row();
    const setErrorMessage = jest.spyOn(setting, 'setErrorMessage');
    showSettingError(setting, 'Port must be between 1024 and 65535.');
    showSettingError(setting, 'Port must be a whole number.');
    expect(setErrorMessage).not.toHaveBeenCalled();
    expect(setting.settingEl.classList.contains('is-invalid')).toBe(true);
    const lines = setting.infoEl.querySelectorAll('.vault-mcp-setting-error');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.textContent).toBe('Port must be a whole number.');
    expect(lines[0]!.getAttribute('role')).toBe('alert');
    showSettingError(setting, null);
    expect(setting.settingEl.classList.contains('is-invalid')).toBe(false);
    expect(setting.infoEl.querySelector('.vault-mcp-setting-error')).toBeNull();
  });

  it('from 1.13.0 uses Setting.setErrorMessage', () => {
    setHostApiVersion('1.13.0');
    const setting = row();
    showSettingError(setting, 'Out of range');
    expect(setting.errorEl?.textContent).toBe('Out of range');
    expect(setting.infoEl.querySelector('.vault-mcp-setting-error')).toBeNull();
    showSettingError(setting, '');
    expect(setting.errorEl).toBeNull();
  });
});

describe('registerCliHandlers (Plugin.registerCliHandler is @since 1.12.2)', () => {
  const fakePlugin = (): SettingsTabPlugin & { registerCliHandler: jest.Mock } =>
    ({ registerCliHandler: jest.fn() }) as unknown as SettingsTabPlugin & { registerCliHandler: jest.Mock };

  it('registers nothing before 1.12.2', () => {
    setHostApiVersion('1.12.1');
    const plugin = fakePlugin();
    expect(registerCliHandlers(plugin)).toBe(false);
    expect(plugin.registerCliHandler).not.toHaveBeenCalled();
  });

  it('registers vault-mcp:status and vault-mcp:url from 1.12.2', () => {
    setHostApiVersion('1.12.2');
    const plugin = fakePlugin();
    expect(registerCliHandlers(plugin)).toBe(true);
    expect(plugin.registerCliHandler.mock.calls.map((c: unknown[]) => c[0])).toEqual(['vault-mcp:status', 'vault-mcp:url']);
  });
});
