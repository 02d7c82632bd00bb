/**
 * Plain DOM helpers for the editor's widgets and panels (document.createElement and
 * friends, not Obsidian's global `createDiv`/`createEl`), so editor/ runs in any DOM: the
 * app, a popout window, jsdom in unit tests.
 */

/** What an element starts with: CSS classes, its text, attributes. */
export interface ElementSpec {
  cls?: string | readonly string[];
  text?: string;
  attr?: Readonly<Record<string, string>>;
}

/**
 * A new `<tag>` element of `doc` with `spec`'s classes, text and attributes.
 * Pass the editor's own document (`view.dom.ownerDocument`) so a popout window gets its own elements.
 */
export function makeElement<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  spec: ElementSpec = {},
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  const classes = typeof spec.cls === 'string' ? [spec.cls] : (spec.cls ?? []);
  if (classes.length) el.classList.add(...classes);
  if (spec.text !== undefined) el.textContent = spec.text;
  for (const [name, value] of Object.entries(spec.attr ?? {})) el.setAttribute(name, value);
  return el;
}

/** {@link makeElement} in `parent`'s document, appended as its last child. @returns the new element. */
export function addElement<K extends keyof HTMLElementTagNameMap>(
  parent: HTMLElement,
  tag: K,
  spec: ElementSpec = {},
): HTMLElementTagNameMap[K] {
  return parent.appendChild(makeElement(parent.ownerDocument, tag, spec));
}
