/** @jest-environment jsdom */
import { App, SecretComponent, Setting, createHostElement } from '../../host/index';
import type * as O from 'obsidian';
import { parsePort } from '../../../src/ui/settings/sections/server-section';
import { parseRoots } from '../../../src/ui/settings/sections/keys-section';
import { cleanFolder, pickTypedPath } from '../../../src/ui/settings/sections/access-section';
import { oneLine } from '../../../src/ui/settings/sections/tools-section';
import { maskToken } from '../../../src/ui/settings/sections/connect-section';
import { formatTimestamp } from '../../../src/ui/settings/tab-context';

function container(): HTMLElement {
  const el = createHostElement('div');
  document.body.appendChild(el);
  return el;
}

describe('host Setting family under jsdom', () => {
  it("draws Obsidian's row structure, heading and inline error", () => {
    const el = container();
    new Setting(el).setName('Server').setHeading();
    const s = new Setting(el).setName('Port').setDesc('TCP port').setErrorMessage('Out of range');
    expect(el.querySelector('.setting-item-heading .setting-item-name')!.textContent).toBe('Server');
    expect(s.settingEl.classList.contains('is-invalid')).toBe(true);
    expect(s.infoEl.querySelector('.setting-item-error')!.textContent).toBe('Out of range');
    s.setErrorMessage(null);
    expect(s.settingEl.querySelector('.setting-item-error')).toBeNull();
    expect(s.descEl.textContent).toBe('TCP port');
  });

  it('text fires onChange on input, toggle on click (not while disabled), dropdown on change, buttons on click', () => {
    const seen: unknown[] = [];
    const s = new Setting(container());
    let text!: O.TextComponent;
    let toggle!: O.ToggleComponent;
    s.addText((t) => (text = t.setValue('a').onChange((v) => seen.push(['text', v]))))
      .addTextArea((t) => t.setPlaceholder('more'))
      .addToggle((t) => (toggle = t.onChange((v) => seen.push(['toggle', v]))))
      .addDropdown((d) =>
        d
          .addOptions({ a: 'A', b: 'B' })
          .setValue('a')
          .onChange((v) => seen.push(['dropdown', v])),
      )
      .addButton((b) =>
        b
          .setButtonText('Go')
          .setCta()
          .onClick(() => seen.push(['button'])),
      )
      .addExtraButton((b) =>
        b
          .setIcon('copy')
          .setTooltip('Copy')
          .onClick(() => seen.push(['extra'])),
      );
    text.inputEl.value = 'abc';
    text.inputEl.dispatchEvent(new Event('input'));
    toggle.toggleEl.click();
    const select = s.controlEl.querySelector('select')!;
    select.value = 'b';
    select.dispatchEvent(new Event('change'));
    s.controlEl.querySelector<HTMLButtonElement>('button.mod-cta')!.click();
    s.controlEl.querySelector<HTMLElement>('.clickable-icon')!.click();
    expect(seen).toEqual([['text', 'abc'], ['toggle', true], ['dropdown', 'b'], ['button'], ['extra']]);
    expect(toggle.toggleEl.classList.contains('is-enabled')).toBe(true);
    expect(s.controlEl.querySelector('textarea')!.placeholder).toBe('more');
    expect(s.controlEl.querySelector('.clickable-icon svg.lucide-copy')).not.toBeNull();
    s.setDisabled(true);
    toggle.toggleEl.click();
    expect(toggle.getValue()).toBe(true);
    expect(s.controlEl.querySelector('button')!.disabled).toBe(true);
  });

  it('SecretComponent picks a secret by name from secret storage', () => {
    const app = { secretStorage: { listSecrets: () => ['openai-key', 'other'] } } as unknown as App;
    const names: string[] = [];
    const c = new SecretComponent(app as unknown as O.App, container()).setValue('openai-key').onChange((v) => void names.push(v));
    const options = Array.from(document.querySelectorAll(`#${c.inputEl.getAttribute('list')} option`)).map((o) => o.getAttribute('value'));
    expect(options).toEqual(['openai-key', 'other']);
    c.inputEl.value = 'other';
    c.inputEl.dispatchEvent(new Event('change'));
    expect(names).toEqual(['other']);
  });
});

describe('settings tab helpers', () => {
  it('parsePort accepts 1024–65535 and says what to type otherwise', () => {
    expect(parsePort(' 27200 ')).toEqual({ port: 27200 });
    expect(parsePort('1023')).toEqual({ error: 'Port 1023 is out of range: use 1024–65535.' });
    expect(parsePort('65536')).toHaveProperty('error');
    expect(parsePort('12.5')).toEqual({ error: 'Type a whole number between 1024 and 65535.' });
    expect(parsePort('')).toHaveProperty('error');
  });

  it('parseRoots and cleanFolder trim slashes and blanks', () => {
    expect(parseRoots(' Projects/ , ,Journal/2025')).toEqual(['Projects', 'Journal/2025']);
    expect(parseRoots('')).toEqual([]);
    // A root that would be the whole vault, or is absolute or climbs out, is refused, never dropped into the whole vault.
    expect(() => parseRoots('.')).toThrow(
      'The root "." names the vault itself, which would be the whole vault; give folders relative to the vault',
    );
    expect(() => parseRoots('Projects, /etc')).toThrow(/The root "\/etc" is an absolute path/);
    expect(() => parseRoots('../etc')).toThrow(/The root "..\/etc" climbs out of the vault/);
    expect(cleanFolder(' \\Work\\Clients/ ')).toBe('Work/Clients');
  });

  it('parseRoots reads an entry with outer spaces as the folder of that exact name only when the trimmed name names none', () => {
    // A vault holding ` Sp ` and `Only ` but no `Only`; `Sp` and ` Sp ` both in the second vault.
    const lookup = (folders: string[]) => (path: string) => folders.find((f) => f.toLowerCase() === path.toLowerCase()) ?? null;
    const spacedOnly = lookup([' Sp ', 'Only ', 'Projects']);
    // It used to give `Sp`: a key confined to a folder the vault does not have, while the one typed was there.
    expect(parseRoots('Projects, Sp ', (r) => r, spacedOnly)).toEqual(['Projects', ' Sp ']);
    expect(parseRoots('Only , projects', (r) => r, spacedOnly)).toEqual(['Only ', 'Projects']);
    // The comma list still trims for convenience: the space after a comma is no part of a name.
    expect(parseRoots(' Projects , Later', (r) => r, spacedOnly)).toEqual(['Projects', 'Later']);
    const both = lookup(['Sp', ' Sp ']);
    // It used to give `Sp` silently: the user may have meant ` Sp `.
    expect(() => parseRoots('Projects, Sp ', (r) => r, both)).toThrow(
      'The root " Sp " names two folders, "Sp" with its outer spaces trimmed and " Sp " as typed; write "Sp" with no space before or after it for the first, ' +
        'or "./ Sp /" for the second ("./" before it and "/" after it keep its spaces).',
    );
    // Each of the two, typed as the refusal says.
    expect(parseRoots('Sp', (r) => r, both)).toEqual(['Sp']);
    expect(parseRoots('Projects, ./ Sp /', (r) => r, both)).toEqual(['Projects', ' Sp ']);
    // Bad inputs are refused as before, spaces or not: never widened into the whole vault.
    expect(() => parseRoots(' . ', (r) => r, both)).toThrow(/^The root "." names the vault itself/);
    expect(() => parseRoots(' /etc', (r) => r, both)).toThrow(/^The root "\/etc" is an absolute path/);
    expect(() => parseRoots(' ../etc ', (r) => r, both)).toThrow(/^The root "..\/etc" climbs out of the vault/);
  });

  it('pickTypedPath reads a one-path field (trusted link, skills, widgets folder) by the roots list rule: never trimmed into another entry', () => {
    const lookup = (entries: string[]) => (path: string) => entries.find((e) => e.toLowerCase() === path.toLowerCase()) ?? null;
    const spacedOnly = lookup([' Shared', 'Work']);
    // It used to give `Shared` (cleanFolder): the link the user did not type, or none at all.
    expect(pickTypedPath(' Shared', spacedOnly, 'links')).toEqual({ ok: true, root: ' Shared' });
    // Trimmed as before when the typed spelling names nothing, in the vault's spelling when it names something.
    expect(pickTypedPath(' /work/ ', spacedOnly, 'links')).toEqual({ ok: true, root: 'Work' });
    expect(pickTypedPath(' Later ', spacedOnly, 'links')).toEqual({ ok: true, root: 'Later' });
    expect(pickTypedPath('  ', spacedOnly, 'links')).toEqual({ ok: true, root: '' });
    const both = lookup([' Shared', 'Shared']);
    expect(pickTypedPath(' Shared', both, 'links')).toEqual({
      ok: false,
      reason:
        'names two links, "Shared" with its outer spaces trimmed and " Shared" as typed; write "Shared" with no space before or after it for the first, ' +
        'or "./ Shared/" for the second ("./" before it and "/" after it keep its spaces)',
    });
    expect(pickTypedPath('Shared', both, 'links')).toEqual({ ok: true, root: 'Shared' });
    expect(pickTypedPath('./ Shared/', both, 'links')).toEqual({ ok: true, root: ' Shared' });
    expect(cleanFolder('./ Sp /')).toBe(' Sp ');
  });

  it('oneLine keeps the first sentence; maskToken hides all but the prefix; formatTimestamp handles never', () => {
    expect(oneLine('Ranked search over the vault. Query takes operators.')).toBe('Ranked search over the vault.');
    expect(oneLine('No period here')).toBe('No period here');
    expect(oneLine('Read note.md files.\nMore.')).toBe('Read note.md files.');
    expect(maskToken('vmcp_abcdefghijklmnop')).toBe('vmcp_abcd…');
    expect(maskToken('short')).toBe('…');
    expect(formatTimestamp(null)).toEqual({ date: 'never', full: 'never' });
    expect(formatTimestamp(new Date(0).toISOString()).date).toBe('never');
    expect(formatTimestamp('2026-03-02T09:14:00').full).toBe('2026-03-02 09:14');
  });
});
