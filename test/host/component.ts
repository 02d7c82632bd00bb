import type * as O from 'obsidian';
import type { HostEventRef } from './events';

/**
 * Obsidian's `Component` (obsidian.d.ts): `load()` calls `onload()` then loads children;
 * `unload()` unloads children (last added first), runs every registered cleanup (last first)
 * and then calls `onunload()`. `registerEvent`, `registerDomEvent` and `registerInterval`
 * register their own cleanup, so an unloaded component leaves no listener or timer behind.
 */
export class Component implements O.Component {
  /** Whether `load()` ran and `unload()` has not. */
  protected _loaded = false;
  private readonly _children: Component[] = [];
  private readonly _cleanups: Array<() => unknown> = [];
  /** The promise returned by an async `onload()` during the last `load()`, if any. */
  protected _loading: Promise<unknown> | null = null;

  load(): void {
    if (this._loaded) return;
    this._loaded = true;
    const result: unknown = this.onload();
    if (result && typeof (result as Promise<unknown>).then === 'function') this._loading = result as Promise<unknown>;
    for (const child of this._children.slice()) child.load();
  }

  onload(): void | Promise<void> {}

  unload(): void {
    if (!this._loaded) return;
    this._loaded = false;
    while (this._children.length) (this._children.pop() as Component).unload();
    while (this._cleanups.length) {
      const cleanup = this._cleanups.pop() as () => unknown;
      try {
        cleanup();
      } catch (err) {
        console.error(err);
      }
    }
    this.onunload();
  }

  onunload(): void {}

  addChild<T extends O.Component>(component: T): T {
    const c = component as unknown as Component;
    this._children.push(c);
    if (this._loaded) c.load();
    return component;
  }

  removeChild<T extends O.Component>(component: T): T {
    const c = component as unknown as Component;
    const i = this._children.indexOf(c);
    if (i >= 0) {
      this._children.splice(i, 1);
      c.unload();
    }
    return component;
  }

  register(cb: () => any): void {
    this._cleanups.push(cb);
  }

  registerEvent(eventRef: O.EventRef): void {
    const ref = eventRef as HostEventRef;
    this.register(() => ref.e.offref(ref));
  }

  registerDomEvent(
    el: any,
    type: string,
    callback: (this: HTMLElement, ev: any) => any,
    options?: boolean | AddEventListenerOptions,
  ): void {
    el.addEventListener(type, callback, options);
    this.register(() => el.removeEventListener(type, callback, options));
  }

  registerInterval(id: number): number {
    this.register(() => clearInterval(id));
    return id;
  }

  /** Host: the promise of an async `onload()` started by `load()` (resolved if none). */
  async whenLoaded(): Promise<void> {
    await this._loading;
  }
}
