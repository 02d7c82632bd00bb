import {
  MAX_TOMBSTONES,
  mergeAccessLists,
  readEntryTimes,
  recordEntryChange,
  type AccessEntryTimes,
  type TimedAccess,
} from '../../../src/settings/access-entries';
import { migrateSettings } from '../../../src/settings/migrate-settings';

const T0 = '2026-12-01T00:00:00.000Z';
const T1 = '2026-12-02T00:00:00.000Z';
const T2 = '2026-12-03T00:00:00.000Z';

function side(quarantine: unknown[], times: Partial<AccessEntryTimes> = {}, trustedSymlinks: unknown[] = []): TimedAccess {
  return { quarantine, trustedSymlinks, entryTimes: { quarantine: {}, trustedSymlinks: {}, ...times } };
}

describe('mergeAccessLists: each entry by its latest add against its latest removal', () => {
  it('keeps an entry the other side never touched, whatever that side did to its other entries (break-it B3, B2)', () => {
    const mine = side(['Journal'], { quarantine: { Journal: { added: T0 } } });
    const theirs = side([], { trustedSymlinks: { Shared: { added: T2 } } }, ['Shared']);
    const merged = mergeAccessLists(mine, theirs);
    expect(merged.quarantine).toEqual(['Journal']);
    expect(merged.trustedSymlinks).toEqual(['Shared']);
    expect(merged.entryTimes).toEqual({ quarantine: { Journal: { added: T0 } }, trustedSymlinks: { Shared: { added: T2 } } });
    expect(merged.keptMine).toBe(true);
    expect(merged.changed).toBe(true);
  });

  it('drops an entry removed on the other side after it was added here; keeps one added here after the removal there', () => {
    const removedThere = side([], { quarantine: { Journal: { added: T0, removed: T1 } } });
    expect(mergeAccessLists(side(['Journal'], { quarantine: { Journal: { added: T0 } } }), removedThere).quarantine).toEqual([]);
    const readded = mergeAccessLists(side(['Journal'], { quarantine: { Journal: { added: T2, removed: T1 } } }), removedThere);
    expect(readded.quarantine).toEqual(['Journal']);
    expect(readded.entryTimes.quarantine.Journal).toEqual({ added: T2, removed: T1 });
  });

  it('counts an entry listed with no time as added at the epoch: kept against no removal, dropped by any readable one', () => {
    expect(mergeAccessLists(side(['Old'], {}), side([])).quarantine).toEqual(['Old']);
    expect(mergeAccessLists(side(['Old'], {}), side([], { quarantine: { Old: { removed: T0 } } })).quarantine).toEqual([]);
    // Neither listed nor added anywhere: a tombstone alone lists nothing.
    expect(mergeAccessLists(side([]), side([], { quarantine: { Gone: { removed: T0 } } })).quarantine).toEqual([]);
    // Times alone, with no listing (a list that lost the entry), still list it when the add is the later.
    expect(mergeAccessLists(side([]), side([], { quarantine: { Back: { added: T1, removed: T0 } } })).quarantine).toEqual(['Back']);
  });

  it('is symmetric in what it lists, and says nothing was kept when the synced side already holds it all (no save loop)', () => {
    const a = side(['A', 'B'], { quarantine: { A: { added: T0 }, C: { added: T0, removed: T1 } } });
    const b = side(['B', 'D'], { quarantine: { D: { added: T2 } } });
    const ab = mergeAccessLists(a, b);
    const ba = mergeAccessLists(b, a);
    expect([...ab.quarantine].sort()).toEqual([...ba.quarantine].sort());
    expect(ab.entryTimes).toEqual(ba.entryTimes);
    // Device B takes the merged file: it has everything, and in another order.
    const again = mergeAccessLists({ ...ab, quarantine: [...ab.quarantine].reverse() }, ab);
    expect(again.keptMine).toBe(false);
    expect(again.changed).toBe(false);
  });

  it('reads malformed times leniently: never throws, bad times count as none, the lists are still merged', () => {
    for (const entryTimes of [
      undefined,
      null,
      'x',
      5,
      [],
      { quarantine: 5 },
      { quarantine: { J: 'removed' } },
      { quarantine: { J: { removed: 'yesterday', added: 7 } } },
    ]) {
      const theirs = { quarantine: ['Later'], trustedSymlinks: [], entryTimes } as unknown as TimedAccess;
      const merged = mergeAccessLists(side(['J'], { quarantine: { J: { added: T0 } } }), theirs);
      expect(merged.quarantine).toEqual(['J', 'Later']);
    }
  });

  it('keeps entries that are not text as listed (quarantine.ts names them)', () => {
    expect(mergeAccessLists(side([5]), side([])).quarantine).toEqual([5]);
  });

  it(`bounds the tombstones of a list at ${MAX_TOMBSTONES}, the newest kept; listed entries are never dropped`, () => {
    const stones: Record<string, { removed: string }> = {};
    for (let i = 0; i < MAX_TOMBSTONES + 10; i++) stones[`F${i}`] = { removed: new Date(Date.parse(T0) + i * 1000).toISOString() };
    const merged = mergeAccessLists(side(['Kept'], { quarantine: { Kept: { added: T0 } } }), side([], { quarantine: stones }));
    const kept = Object.keys(merged.entryTimes.quarantine);
    expect(kept).toHaveLength(MAX_TOMBSTONES + 1);
    expect(kept).toContain('Kept');
    expect(kept).not.toContain('F0');
    expect(kept).toContain(`F${MAX_TOMBSTONES + 9}`);
  });
});

describe('recordEntryChange and readEntryTimes', () => {
  it('records adds and removals, creating the times when missing', () => {
    const access: TimedAccess = { quarantine: ['J'], trustedSymlinks: [] };
    recordEntryChange(access, 'quarantine', 'J', 'added', T0);
    access.quarantine = [];
    recordEntryChange(access, 'quarantine', 'J', 'removed', T1);
    expect(access.entryTimes).toEqual({ quarantine: { J: { added: T0, removed: T1 } }, trustedSymlinks: {} });
  });

  it("makes the user's last action the later one even when the clock went back or stood still", () => {
    const access: TimedAccess = { quarantine: [], trustedSymlinks: [] };
    recordEntryChange(access, 'quarantine', 'J', 'removed', T1);
    access.quarantine = ['J'];
    recordEntryChange(access, 'quarantine', 'J', 'added', T0);
    expect(access.entryTimes!.quarantine.J).toEqual({ removed: T1, added: '2026-12-02T00:00:00.001Z' });
    expect(mergeAccessLists(access, side([])).quarantine).toEqual(['J']);
  });

  it('drops unreadable times and entries', () => {
    expect(readEntryTimes({ quarantine: { A: { added: T0, removed: 'no' }, B: { removed: 3 }, C: null }, trustedSymlinks: [] })).toEqual({
      quarantine: { A: { added: T0 } },
      trustedSymlinks: {},
    });
  });

  it('a path named __proto__ never becomes a prototype: it is listed untimed', () => {
    const raw = JSON.parse(`{"quarantine": {"__proto__": {"removed": "${T1}"}, "added": {"added": "${T0}"}}}`) as unknown;
    const times = readEntryTimes(raw);
    expect(Object.getPrototypeOf(times.quarantine)).toBe(Object.prototype);
    expect(Object.keys(times.quarantine)).toEqual(['added']);
    const merged = mergeAccessLists(side(['__proto__']), { quarantine: [], trustedSymlinks: [], entryTimes: raw as AccessEntryTimes });
    expect(merged.quarantine).toEqual(['__proto__', 'added']);
    const access: TimedAccess = { quarantine: ['__proto__'], trustedSymlinks: [] };
    recordEntryChange(access, 'quarantine', '__proto__', 'added', T0);
    expect(Object.getPrototypeOf(access.entryTimes!.quarantine)).toBe(Object.prototype);
  });

  it('an old data.json (no times) loads as before: no entryTimes appear, and its block stamp (which decided nothing) is dropped', () => {
    const settings = migrateSettings({ access: { quarantine: ['Journal'], trustedSymlinks: ['Shared'], changed_at: T0 } });
    expect(settings.access).toEqual({ quarantine: ['Journal'], trustedSymlinks: ['Shared'] });
  });
});

describe('mergeAccessLists on long lists', () => {
  // Correctness at length only: speed is measured, never asserted as a wall-clock limit in a unit test (the
  // merge looks each entry up in a Set; the list-scanning version took about 8 s for 30,000 entries a side).
  it('keeps every entry of two long lists listed in opposite orders, in the order this device listed them', () => {
    const list = Array.from({ length: 5_000 }, (_, i) => `Folder ${i}`);
    const merged = mergeAccessLists(side(list), side([...list].reverse()));
    expect(merged.quarantine).toEqual(list);
    expect(merged.keptMine).toBe(false);
    expect(merged.changed).toBe(false);
  });
});
