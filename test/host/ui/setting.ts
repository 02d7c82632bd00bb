import type * as O from 'obsidian';
import { drawIcon } from './icons';

/**
 * Obsidian's setting components (obsidian.d.ts: `BaseComponent`, `ValueComponent`,
 * `TextComponent`, `TextAreaComponent`, `ToggleComponent`, `DropdownComponent`,
 * `ButtonComponent`, `ExtraButtonComponent`, `SecretComponent`) as real DOM, with the class
 * names Obsidian's own CSS uses (`checkbox-container`, `dropdown`, `mod-cta`,
 * `clickable-icon`, ...). They need a DOM (jsdom or a browser): `createHostElement`
 * returns real elements there. Events follow Obsidian: text fires `onChange` on `input`,
 * a dropdown on `change`, a toggle on click.
 */
export abstract class BaseComponent implements O.BaseComponent {
  disabled = false;

  then(cb: (component: this) => any): this {
    cb(this);
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
}

/** `ValueComponent<T>`: a component with a value; `registerOptionListener` wires a settings key. */
export abstract class ValueComponent<T> extends BaseComponent implements O.ValueComponent<T> {
  registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
    listeners[key] = (value?: T) => {
      if (value !== undefined) this.setValue(value);
      return this.getValue();
    };
    return this;
  }
  abstract getValue(): T;
  abstract setValue(value: T): this;
}

/** `AbstractTextComponent`: an `<input>` or `<textarea>` whose `onChange` fires on every `input` event. */
export class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement>
  extends ValueComponent<string>
  implements O.AbstractTextComponent<T>
{
  inputEl: T;
  private changeCallback: ((value: string) => any) | null = null;

  constructor(inputEl: T) {
    super();
    this.inputEl = inputEl;
    inputEl.addEventListener('input', () => this.onChanged());
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.inputEl.disabled = disabled;
    return this;
  }
  getValue(): string {
    return this.inputEl.value;
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }
  onChanged(): void {
    this.changeCallback?.(this.getValue());
  }
  onChange(callback: (value: string) => any): this {
    this.changeCallback = callback;
    return this;
  }
}

/** `TextComponent`: `<input type="text" spellcheck="false">` appended to `containerEl`. */
export class TextComponent extends AbstractTextComponent<HTMLInputElement> implements O.TextComponent {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text', attr: { spellcheck: 'false' } }));
  }
}

/** `TextAreaComponent`: a `<textarea>` appended to `containerEl`. */
export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> implements O.TextAreaComponent {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea', { attr: { spellcheck: 'false' } }));
  }
}

/** `ToggleComponent`: `div.checkbox-container` (class `is-enabled` when on) holding a checkbox. */
export class ToggleComponent extends ValueComponent<boolean> implements O.ToggleComponent {
  toggleEl: HTMLElement;
  private on = false;
  private changeCallback: ((value: boolean) => any) | null = null;
  private readonly checkboxEl: HTMLInputElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv({ cls: 'checkbox-container', attr: { role: 'switch', 'aria-checked': 'false', tabindex: 0 } });
    this.checkboxEl = this.toggleEl.createEl('input', { type: 'checkbox', attr: { tabindex: -1 } });
    this.toggleEl.addEventListener('click', (evt) => {
      evt.preventDefault();
      this.onClick();
    });
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.toggleEl.toggleClass('is-disabled', disabled);
    return this;
  }
  getValue(): boolean {
    return this.on;
  }
  setValue(on: boolean): this {
    const changed = on !== this.on;
    this.on = on;
    this.checkboxEl.checked = on;
    this.toggleEl.toggleClass('is-enabled', on);
    this.toggleEl.setAttr('aria-checked', String(on));
    if (changed) this.changeCallback?.(on);
    return this;
  }
  setTooltip(tooltip: string, _options?: O.TooltipOptions): this {
    this.toggleEl.setAttr('aria-label', tooltip);
    return this;
  }
  /** Flips the value (ignored while disabled), firing `onChange`. */
  onClick(): void {
    if (!this.disabled) this.setValue(!this.on);
  }
  onChange(callback: (value: boolean) => any): this {
    this.changeCallback = callback;
    return this;
  }
}

/** `DropdownComponent`: `select.dropdown`; `onChange` fires on the `change` event. */
export class DropdownComponent extends ValueComponent<string> implements O.DropdownComponent {
  selectEl: HTMLSelectElement;
  private changeCallback: ((value: string) => any) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl('select', { cls: 'dropdown' });
    this.selectEl.addEventListener('change', () => this.changeCallback?.(this.getValue()));
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.selectEl.disabled = disabled;
    return this;
  }
  addOption(value: string, display: string): this {
    this.selectEl.createEl('option', { text: display, attr: { value } });
    return this;
  }
  addOptions(options: Record<string, string>): this {
    for (const [value, display] of Object.entries(options)) this.addOption(value, display);
    return this;
  }
  getValue(): string {
    return this.selectEl.value;
  }
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  onChange(callback: (value: string) => any): this {
    this.changeCallback = callback;
    return this;
  }
}

/** `ButtonComponent`: a `<button>`; `setCta` adds `mod-cta`, `setDestructive`/`setWarning` add `mod-destructive`/`mod-warning`. */
export class ButtonComponent extends BaseComponent implements O.ButtonComponent {
  buttonEl: HTMLButtonElement;
  private clickCallback: ((evt: MouseEvent) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
    this.buttonEl.addEventListener('click', (evt) => {
      if (!this.disabled) void this.clickCallback?.(evt);
    });
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.buttonEl.disabled = disabled;
    return this;
  }
  setCta(): this {
    this.buttonEl.addClass('mod-cta');
    return this;
  }
  removeCta(): this {
    this.buttonEl.removeClass('mod-cta');
    return this;
  }
  setWarning(): this {
    this.buttonEl.addClass('mod-warning');
    return this;
  }
  setDestructive(): this {
    this.buttonEl.addClass('mod-destructive');
    return this;
  }
  removeDestructive(): this {
    this.buttonEl.removeClass('mod-destructive');
    return this;
  }
  setTooltip(tooltip: string, _options?: O.TooltipOptions): this {
    this.buttonEl.setAttr('aria-label', tooltip);
    return this;
  }
  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }
  setIcon(icon: O.IconName): this {
    drawIcon(this.buttonEl, icon);
    this.buttonEl.setAttr('data-icon', icon);
    return this;
  }
  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }
  onClick(callback: (evt: MouseEvent) => unknown | Promise<unknown>): this {
    this.clickCallback = callback;
    return this;
  }
}

/** `ExtraButtonComponent`: a `div.clickable-icon.extra-setting-button` showing an icon. */
export class ExtraButtonComponent extends BaseComponent implements O.ExtraButtonComponent {
  extraSettingsEl: HTMLElement;
  private clickCallback: (() => any) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.extraSettingsEl = containerEl.createDiv({
      cls: ['clickable-icon', 'extra-setting-button'],
      attr: { role: 'button', tabindex: 0 },
    });
    this.extraSettingsEl.addEventListener('click', () => {
      if (!this.disabled) this.clickCallback?.();
    });
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.extraSettingsEl.toggleClass('is-disabled', disabled);
    return this;
  }
  setTooltip(tooltip: string, _options?: O.TooltipOptions): this {
    this.extraSettingsEl.setAttr('aria-label', tooltip);
    return this;
  }
  setIcon(icon: O.IconName): this {
    drawIcon(this.extraSettingsEl, icon);
    this.extraSettingsEl.setAttr('data-icon', icon);
    return this;
  }
  onClick(callback: () => any): this {
    this.clickCallback = callback;
    return this;
  }
}

/**
 * `SecretComponent` (Obsidian 1.11.4+): picks a secret of `app.secretStorage` by name. Its
 * value is the secret's id, never the secret; the host draws a text input with a datalist of
 * `listSecrets()` and fires `onChange(id)` on `change`.
 */
export class SecretComponent extends BaseComponent implements O.SecretComponent {
  /** Host: the input holding the selected secret id. */
  readonly inputEl: HTMLInputElement;
  private changeCallback: ((value: string) => unknown) | null = null;

  constructor(app: O.App, containerEl: HTMLElement) {
    super();
    const wrap = containerEl.createDiv({ cls: 'secret-component' });
    const listId = `secret-list-${Math.random().toString(36).slice(2)}`;
    this.inputEl = wrap.createEl('input', { type: 'text', placeholder: 'Secret name', attr: { list: listId, spellcheck: 'false' } });
    const list = wrap.createEl('datalist', { attr: { id: listId } });
    for (const id of app.secretStorage.listSecrets()) list.createEl('option', { attr: { value: id } });
    this.inputEl.addEventListener('change', () => this.changeCallback?.(this.inputEl.value));
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.inputEl.disabled = disabled;
    return this;
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  onChange(cb: (value: string) => unknown): this {
    this.changeCallback = cb;
    return this;
  }
}

/**
 * Obsidian's `Setting` row: `div.setting-item` > `div.setting-item-info` (name, description)
 * + `div.setting-item-control`. `setHeading()` adds `setting-item-heading`; `setErrorMessage`
 * adds `is-invalid` and a `div.setting-item-error` below the row's info. It has the members
 * of obsidian.d.ts `Setting` the plugin uses (no search, moment, color, slider, progress or
 * display-value controls); it does not `implements O.Setting` because those would be missing.
 */
export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  components: O.BaseComponent[] = [];
  errorEl: HTMLElement | null = null;

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv({ cls: 'setting-item' });
    this.infoEl = this.settingEl.createDiv({ cls: 'setting-item-info' });
    this.nameEl = this.infoEl.createDiv({ cls: 'setting-item-name' });
    this.descEl = this.infoEl.createDiv({ cls: 'setting-item-description' });
    this.controlEl = this.settingEl.createDiv({ cls: 'setting-item-control' });
  }

  setErrorMessage(message: string | null): this {
    this.settingEl.toggleClass('is-invalid', !!message);
    if (!message) {
      this.errorEl?.detach();
      this.errorEl = null;
      return this;
    }
    this.errorEl ??= this.infoEl.createDiv({ cls: 'setting-item-error', attr: { role: 'alert' } });
    this.errorEl.setText(message);
    return this;
  }
  setName(name: string | DocumentFragment): this {
    setContent(this.nameEl, name);
    return this;
  }
  setDesc(desc: string | DocumentFragment): this {
    setContent(this.descEl, desc);
    return this;
  }
  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }
  setTooltip(tooltip: string, _options?: O.TooltipOptions): this {
    this.nameEl.setAttr('aria-label', tooltip);
    return this;
  }
  setHeading(): this {
    this.settingEl.addClass('setting-item-heading');
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass('is-disabled', disabled);
    for (const c of this.components) c.setDisabled(disabled);
    return this;
  }
  addButton(cb: (component: O.ButtonComponent) => any): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }
  addExtraButton(cb: (component: O.ExtraButtonComponent) => any): this {
    return this.add(new ExtraButtonComponent(this.controlEl), cb);
  }
  addToggle(cb: (component: O.ToggleComponent) => any): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }
  addText(cb: (component: O.TextComponent) => any): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }
  addComponent<T extends O.BaseComponent>(cb: (el: HTMLElement) => T): this {
    this.components.push(cb(this.controlEl));
    return this;
  }
  addTextArea(cb: (component: O.TextAreaComponent) => any): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }
  addDropdown(cb: (component: O.DropdownComponent) => any): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }
  then(cb: (setting: this) => any): this {
    cb(this);
    return this;
  }
  /** Removes every control (Obsidian: `clear()` empties `controlEl`). */
  clear(): this {
    this.controlEl.empty();
    this.components = [];
    return this;
  }

  private add<C extends O.BaseComponent>(component: C, cb: (component: C) => any): this {
    this.components.push(component);
    cb(component);
    return this;
  }
}

function setContent(el: HTMLElement, content: string | DocumentFragment): void {
  el.empty();
  if (typeof content === 'string') el.setText(content);
  else el.appendChild(content);
}
