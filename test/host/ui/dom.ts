/**
 * Element support for the host. With a DOM (jsdom in Jest's jsdom environment, or a real
 * browser) elements are real, and the helpers Obsidian adds to DOM prototypes (obsidian.d.ts
 * global augmentations: `setText`, `empty`, `createEl`, `addClass`, ...) are installed once.
 * Without a DOM (plain Node, `npm start`) `createHostElement` returns a small stand-in with the
 * same helpers so status-bar items and setting tabs can still be built and read by tests.
 */

/** Obsidian's `DomElementInfo` subset understood by `createEl` here. */
export interface ElementInfo {
  cls?: string | string[];
  text?: string;
  attr?: Record<string, string | number | boolean | null>;
  title?: string;
  value?: string;
  type?: string;
  placeholder?: string;
  href?: string;
}

type InfoArg = ElementInfo | string | undefined;

function normalizeInfo(o: InfoArg): ElementInfo {
  return typeof o === 'string' ? { cls: o } : (o ?? {});
}

/** A minimal element for DOM-less Node: text, classes, attributes, children, listeners. */
export class HostElement {
  tagName: string;
  textContent = '';
  children: HostElement[] = [];
  parentElement: HostElement | null = null;
  readonly classes = new Set<string>();
  readonly attributes = new Map<string, string>();
  private readonly listeners = new Map<string, Set<(...args: unknown[]) => unknown>>();

  /** Creates an element with the given tag name (upper-cased, like the DOM). */
  constructor(tag: string) {
    this.tagName = tag.toUpperCase();
  }
  get className(): string {
    return [...this.classes].join(' ');
  }
  setText(val: string): void {
    this.children = [];
    this.textContent = String(val);
  }
  getText(): string {
    return this.textContent + this.children.map((c) => c.getText()).join('');
  }
  appendText(val: string): void {
    this.textContent += val;
  }
  empty(): void {
    this.children = [];
    this.textContent = '';
  }
  addClass(...classes: string[]): void {
    for (const c of classes) for (const part of c.split(/\s+/).filter(Boolean)) this.classes.add(part);
  }
  removeClass(...classes: string[]): void {
    for (const c of classes) this.classes.delete(c);
  }
  toggleClass(classes: string | string[], value: boolean): void {
    for (const c of Array.isArray(classes) ? classes : [classes]) {
      if (value) this.classes.add(c);
      else this.classes.delete(c);
    }
  }
  hasClass(cls: string): boolean {
    return this.classes.has(cls);
  }
  setAttr(name: string, value: string | number | boolean | null): void {
    if (value === null) this.attributes.delete(name);
    else this.attributes.set(name, String(value));
  }
  getAttr(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  setAttribute(name: string, value: string): void {
    this.setAttr(name, value);
  }
  getAttribute(name: string): string | null {
    return this.getAttr(name);
  }
  appendChild<T extends HostElement>(child: T): T {
    child.detach();
    child.parentElement = this;
    this.children.push(child);
    return child;
  }
  createEl(tag: string, o?: InfoArg, callback?: (el: HostElement) => void): HostElement {
    const el = applyInfo(new HostElement(tag), normalizeInfo(o));
    this.appendChild(el);
    callback?.(el);
    return el;
  }
  createDiv(o?: InfoArg, callback?: (el: HostElement) => void): HostElement {
    return this.createEl('div', o, callback);
  }
  createSpan(o?: InfoArg, callback?: (el: HostElement) => void): HostElement {
    return this.createEl('span', o, callback);
  }
  detach(): void {
    if (this.parentElement) this.parentElement.children = this.parentElement.children.filter((c) => c !== this);
    this.parentElement = null;
  }
  remove(): void {
    this.detach();
  }
  show(): void {
    this.attributes.delete('hidden');
  }
  hide(): void {
    this.attributes.set('hidden', '');
  }
  isShown(): boolean {
    return !this.attributes.has('hidden');
  }
  addEventListener(type: string, fn: (...args: unknown[]) => unknown): void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(fn);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, fn: (...args: unknown[]) => unknown): void {
    this.listeners.get(type)?.delete(fn);
  }
  /** Calls the listeners of `event.type` (a plain object is enough); returns true. */
  dispatchEvent(event: { type: string }): boolean {
    for (const fn of [...(this.listeners.get(event.type) ?? [])]) fn.call(this, event);
    return true;
  }
}

interface InfoTarget {
  addClass(...c: string[]): void;
  setText(t: string): void;
  setAttr(n: string, v: string | number | boolean | null): void;
}

function applyInfo<T extends InfoTarget>(el: T, info: ElementInfo): T {
  if (info.cls) el.addClass(...(Array.isArray(info.cls) ? info.cls : [info.cls]));
  if (info.text !== undefined) el.setText(info.text);
  for (const [k, v] of Object.entries(info.attr ?? {})) el.setAttr(k, v);
  for (const k of ['title', 'value', 'type', 'placeholder', 'href'] as const) {
    if (info[k] !== undefined) el.setAttr(k, info[k] as string);
  }
  return el;
}

/** The `Node.prototype`s that already have the helpers (one per DOM window: jsdom, a browser). */
const installedOn = new WeakSet<object>();

/** Installs Obsidian's DOM prototype helpers on the current DOM's classes (idempotent per window). */
function installDomHelpers(): void {
  if (typeof document === 'undefined' || installedOn.has(Node.prototype)) return;
  installedOn.add(Node.prototype);
  const define = (proto: object, name: string, fn: (...args: any[]) => unknown): void => {
    if (!(name in proto)) Object.defineProperty(proto, name, { value: fn, configurable: true, writable: true });
  };
  const node = Node.prototype;
  const el = Element.prototype;
  const html = HTMLElement.prototype;
  // Obsidian's global createEl / createDiv / createSpan (obsidian.d.ts `declare global`): detached elements.
  const globals = globalThis as unknown as Record<string, unknown>;
  const createDetached = (tag: string, o?: InfoArg, cb?: (e: HTMLElement) => void): HTMLElement => {
    const child = applyInfo(document.createElement(tag) as unknown as HTMLElement & InfoTarget, normalizeInfo(o));
    cb?.(child);
    return child;
  };
  globals.createEl ??= createDetached;
  globals.createDiv ??= (o?: InfoArg, cb?: (e: HTMLElement) => void) => createDetached('div', o, cb);
  globals.createSpan ??= (o?: InfoArg, cb?: (e: HTMLElement) => void) => createDetached('span', o, cb);
  define(node, 'empty', function (this: Node) {
    while (this.firstChild) this.removeChild(this.firstChild);
  });
  define(node, 'detach', function (this: Node) {
    this.parentNode?.removeChild(this);
  });
  define(node, 'appendText', function (this: Node, val: string) {
    this.appendChild(document.createTextNode(val));
  });
  define(node, 'createEl', function (this: Node, tag: string, o?: InfoArg, cb?: (e: HTMLElement) => void) {
    const child = applyInfo(document.createElement(tag) as unknown as HTMLElement & InfoTarget, normalizeInfo(o));
    this.appendChild(child);
    cb?.(child);
    return child;
  });
  define(node, 'createDiv', function (this: any, o?: InfoArg, cb?: any) {
    return this.createEl('div', o, cb);
  });
  define(node, 'createSpan', function (this: any, o?: InfoArg, cb?: any) {
    return this.createEl('span', o, cb);
  });
  define(el, 'getText', function (this: Element) {
    return this.textContent ?? '';
  });
  define(el, 'setText', function (this: Element, val: string) {
    this.textContent = val;
  });
  define(el, 'addClass', function (this: Element, ...c: string[]) {
    this.classList.add(...c.flatMap((x) => x.split(/\s+/).filter(Boolean)));
  });
  define(el, 'addClasses', function (this: Element, c: string[]) {
    this.classList.add(...c);
  });
  define(el, 'removeClass', function (this: Element, ...c: string[]) {
    this.classList.remove(...c);
  });
  define(el, 'removeClasses', function (this: Element, c: string[]) {
    this.classList.remove(...c);
  });
  define(el, 'toggleClass', function (this: Element, c: string | string[], v: boolean) {
    for (const x of Array.isArray(c) ? c : [c]) this.classList.toggle(x, v);
  });
  define(el, 'hasClass', function (this: Element, c: string) {
    return this.classList.contains(c);
  });
  define(el, 'setAttr', function (this: Element, n: string, v: string | number | boolean | null) {
    if (v === null) this.removeAttribute(n);
    else this.setAttribute(n, String(v));
  });
  define(el, 'getAttr', function (this: Element, n: string) {
    return this.getAttribute(n);
  });
  define(el, 'find', function (this: Element, s: string) {
    return this.querySelector(s);
  });
  define(el, 'findAll', function (this: Element, s: string) {
    return Array.from(this.querySelectorAll(s));
  });
  define(html, 'show', function (this: HTMLElement) {
    this.style.display = '';
  });
  define(html, 'hide', function (this: HTMLElement) {
    this.style.display = 'none';
  });
  define(html, 'toggle', function (this: HTMLElement, show: boolean) {
    this.style.display = show ? '' : 'none';
  });
  define(html, 'isShown', function (this: HTMLElement) {
    return this.style.display !== 'none';
  });
}

/**
 * A new detached element: a real `HTMLElement` (with Obsidian's helpers) when `document`
 * exists, else a HostElement typed as HTMLElement for the Obsidian-typed callers.
 */
export function createHostElement(tag = 'div', o?: ElementInfo | string): HTMLElement {
  if (typeof document !== 'undefined') {
    installDomHelpers();
    return applyInfo(document.createElement(tag) as unknown as HTMLElement & InfoTarget, normalizeInfo(o));
  }
  return applyInfo(new HostElement(tag), normalizeInfo(o)) as unknown as HTMLElement;
}

// With a DOM (Jest's jsdom environment, a browser page), Obsidian's helpers and globals exist from the start, as in the app.
installDomHelpers();
