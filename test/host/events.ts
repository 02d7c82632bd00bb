import type * as O from 'obsidian';

/** The record behind an `EventRef`: which emitter, event name, callback and `this` context. */
export interface HostEventRef extends O.EventRef {
  e: Events;
  name: string;
  fn: (...data: any[]) => unknown;
  ctx: unknown;
}

/**
 * Obsidian's `Events` emitter (obsidian.d.ts `Events`): `on` returns an EventRef that `offref`
 * or `Component.registerEvent` detaches; `trigger` calls handlers in registration order with
 * the given `ctx` as `this`. A throwing handler is logged with console.error and does not stop
 * the other handlers, as in Obsidian.
 */
export class Events implements O.Events {
  private handlers = new Map<string, HostEventRef[]>();

  /** Registers `callback` for `name`; returns the EventRef to pass to `offref`. */
  on(name: string, callback: (...data: any[]) => unknown, ctx?: any): O.EventRef {
    const ref: HostEventRef = { e: this, name, fn: callback, ctx };
    const list = this.handlers.get(name) ?? [];
    list.push(ref);
    this.handlers.set(name, list);
    return ref;
  }

  /** Removes every registration of `callback` for `name`. */
  off(name: string, callback: (...data: any[]) => unknown): void {
    const list = this.handlers.get(name);
    if (!list) return;
    this.handlers.set(
      name,
      list.filter((r) => r.fn !== callback),
    );
  }

  /** Removes the registration behind `ref` (no-op if already removed). */
  offref(ref: O.EventRef): void {
    const r = ref as HostEventRef;
    const list = this.handlers.get(r.name);
    if (!list) return;
    this.handlers.set(
      r.name,
      list.filter((x) => x !== r),
    );
  }

  /** Calls every handler of `name` with `data`, in order, isolating handler errors. */
  trigger(name: string, ...data: unknown[]): void {
    const list = this.handlers.get(name);
    if (!list) return;
    for (const ref of list.slice()) this.tryTrigger(ref, data);
  }

  /** Calls one handler; an exception is logged with console.error, not rethrown. */
  tryTrigger(evt: O.EventRef, args: unknown[]): void {
    const r = evt as HostEventRef;
    try {
      r.fn.apply(r.ctx, args);
    } catch (err) {
      console.error(err);
    }
  }

  /** Number of handlers registered for `name` (host helper for leak checks in tests). */
  listenerCount(name: string): number {
    return this.handlers.get(name)?.length ?? 0;
  }
}
