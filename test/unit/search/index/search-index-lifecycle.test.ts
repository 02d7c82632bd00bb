import { changedSince, Debounce, IndexLifecycle, mapGrowsAtNextSet, reportDamaged, stampOf } from '../../../../src/search/index-lifecycle';
import type { NoteChange, NoteStore } from '../../../../src/vault/note-store';

/** A NoteStore with only the change subscription, which the test fires by hand. */
function changeSource(): { notes: NoteStore; fire(change: NoteChange): void; listeners(): number } {
  const listeners = new Set<(change: NoteChange) => void>();
  const notes = {
    onNoteChange(listener: (change: NoteChange) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as NoteStore;
  return { notes, fire: (change) => listeners.forEach((l) => l(change)), listeners: () => listeners.size };
}

const file = (mtime: number, size: number): never => ({ stat: { mtime, size } }) as never;

describe('IndexLifecycle', () => {
  it('hands changes to the current run with its generation, and none after end()', () => {
    const source = changeSource();
    const lifecycle = new IndexLifecycle(source.notes, 12);
    const seen: [string, number][] = [];
    const first = lifecycle.follow((change, generation) => seen.push([change.path, generation]));
    source.fire({ type: 'modify', path: 'a.md' });
    const second = lifecycle.follow((change, generation) => seen.push([change.path, generation]));
    source.fire({ type: 'modify', path: 'b.md' });
    expect(source.listeners()).toBe(1);
    expect(seen).toEqual([
      ['a.md', first],
      ['b.md', second],
    ]);
    expect(lifecycle.isLive(first)).toBe(false);
    expect(lifecycle.isLive(second)).toBe(true);
    lifecycle.end();
    expect(lifecycle.following).toBe(false);
    expect(lifecycle.isLive(second)).toBe(false);
    source.fire({ type: 'modify', path: 'c.md' });
    expect(seen).toHaveLength(2);
  });

  it('supersede() stops the earlier generation but keeps following', () => {
    const source = changeSource();
    const lifecycle = new IndexLifecycle(source.notes, 12);
    const generation = lifecycle.follow(() => undefined);
    expect(lifecycle.supersede()).toBe(generation + 1);
    expect(lifecycle.isLive(generation)).toBe(false);
    expect(lifecycle.following).toBe(true);
  });

  it('runs a sliced loop in order, yielding to the event loop every few steps, and stops once not live', async () => {
    const lifecycle = new IndexLifecycle(changeSource().notes, 1_000_000);
    const slicer = lifecycle.slicer(3);
    const order: string[] = [];
    // Work queued for the event loop before the loop starts (in Node the Slicer yields with setImmediate, after it).
    setImmediate(() => order.push('other task'));
    let live = true;
    for await (const n of lifecycle.sliced([1, 2, 3, 4, 5, 6, 7, 8], slicer, () => live)) {
      order.push(String(n));
      if (n === 5) live = false;
    }
    expect(order).toEqual(['1', '2', '3', 'other task', '4', '5']);
  });
});

describe('index lifecycle helpers', () => {
  it('tells when a large Map rebuilds its table at its next new key (full at a power of two), and not for small maps', () => {
    for (const size of [16384, 32768, 65536, 131072]) expect(mapGrowsAtNextSet(size)).toBe(true);
    for (const size of [0, 1, 4, 8192, 16383, 16385, 65535, 65537, 100000]) expect(mapGrowsAtNextSet(size)).toBe(false);
  });

  it('tells a note changed since its stamp by mtime or size, or when it has none', () => {
    expect(changedSince(undefined, file(1, 2))).toBe(true);
    expect(changedSince([1, 2], file(1, 2))).toBe(false);
    expect(changedSince([1, 2], file(3, 2))).toBe(true);
    expect(changedSince([1, 2], file(1, 3))).toBe(true);
    expect(stampOf(file(5, 6))).toEqual([5, 6]);
  });

  it('runs a debounced task once, after the last schedule, and not after cancel', async () => {
    let runs = 0;
    const d = new Debounce(() => runs++);
    d.schedule(5);
    d.schedule(5);
    await new Promise((r) => setTimeout(r, 30));
    expect(runs).toBe(1);
    d.schedule(5);
    d.cancel();
    await new Promise((r) => setTimeout(r, 30));
    expect(runs).toBe(1);
  });

  it('reports a damaged file without throwing, even when keeping it aside fails', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const reasons: string[] = [];
    await reportDamaged('search index', 'bad line', async (reason) => {
      reasons.push(reason);
      throw new Error('disk full');
    });
    expect(reasons).toEqual(['bad line']);
    expect(warn.mock.calls[0][0]).toContain('search index is damaged (bad line)');
    expect(error.mock.calls[0][0]).toContain('could not keep the damaged search index aside');
    warn.mockRestore();
    error.mockRestore();
  });
});
