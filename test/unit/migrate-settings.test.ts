import { migrateSettings } from '../../src/settings/migrate-settings';
import { defaultSettings, NEVER_CHANGED, SETTINGS_SCHEMA_VERSION } from '../../src/settings/settings';

describe('migrateSettings', () => {
  it('returns defaults for a first run', () => {
    expect(migrateSettings(null)).toEqual(defaultSettings());
  });

  it('keeps saved values, fills new fields, repairs keys and bad ports', () => {
    const migrated = migrateSettings({
      server: { port: 80 },
      tools: { allowWrites: true },
      keys: [{ id: 'k1', label: 'Cursor', mode: 'weird', scope: 'nowhere' }, { label: 'no id' }],
    });
    expect(migrated.schemaVersion).toBe(SETTINGS_SCHEMA_VERSION);
    expect(migrated.server.port).toBe(27200);
    expect(migrated.server.enabled).toBe(true);
    expect(migrated.tools).toEqual({ allowWrites: true, enabled: {}, changed_at: NEVER_CHANGED });
    expect(migrated.keys).toEqual([
      expect.objectContaining({ id: 'k1', label: 'Cursor', mode: 'propose', scope: 'local', roots: [], last_used_at: null }),
    ]);
    expect(migrated.ai.baseUrl).toBe(defaultSettings().ai.baseUrl);
  });

  it('gives keys saved before tool sets every tool, keeps read and lists, and repairs anything else', () => {
    const keys = migrateSettings({
      keys: [
        { id: 'old', label: 'Old' },
        { id: 'r', label: 'Reader', tools: 'read' },
        { id: 'l', label: 'Lister', tools: ['search', ' read_note ', 3, '', 'search'] },
        { id: 'x', label: 'Broken', tools: { all: true } },
      ],
    }).keys;
    expect(keys.map((k) => k.tools)).toEqual(['all', 'read', ['search', 'read_note'], 'all']);
  });

  it('normalizes good roots and keeps a key whose roots break the rule as saved (refused at the door), never widened by dropping one', () => {
    const keys = migrateSettings({
      keys: [
        { id: 'a', label: 'Good', roots: ['Projects/', './Journal'] },
        { id: 'b', label: 'Empty', roots: [''] },
        { id: 'c', label: 'Mixed', roots: ['Projects', '../etc'] },
        { id: 'd', label: 'Odd', roots: [5] },
        { id: 'e', label: 'One', roots: 'Projects' },
        { id: 'f', label: 'Object', roots: { a: 1 } },
        { id: 'g', label: 'None', roots: null },
      ],
    }).keys;
    expect(keys.map((k) => k.roots)).toEqual([['Projects', 'Journal'], [''], ['Projects', '../etc'], [''], ['Projects'], [''], []]);
  });

  it('gives settings saved before trusted links an empty list, and repairs a non-list', () => {
    expect(migrateSettings({ access: { quarantine: ['Journal'] } }).access).toEqual({
      quarantine: ['Journal'],
      trustedSymlinks: [],
      changed_at: NEVER_CHANGED,
    });
    expect(migrateSettings({ access: { trustedSymlinks: 'Shared' } }).access.trustedSymlinks).toEqual([]);
    expect(migrateSettings({ access: { trustedSymlinks: ['Shared'] } }).access.trustedSymlinks).toEqual(['Shared']);
  });

  it('gives settings saved before the activity log its default limits, and repairs bad ones', () => {
    expect(migrateSettings({ server: { port: 27300 } }).activity).toEqual({ maxMegabytes: 20, maxDays: 30 });
    expect(migrateSettings({ activity: { maxMegabytes: 5, maxDays: 7 } }).activity).toEqual({ maxMegabytes: 5, maxDays: 7 });
    expect(migrateSettings({ activity: { maxMegabytes: -1, maxDays: '9' } }).activity).toEqual({ maxMegabytes: 20, maxDays: 30 });
    expect(migrateSettings({ activity: 'big' }).activity).toEqual({ maxMegabytes: 20, maxDays: 30 });
    expect(migrateSettings({ activity: { maxMegabytes: Infinity, maxDays: 0 } }).activity).toEqual({ maxMegabytes: 20, maxDays: 30 });
  });

  it('reads files from before revocation lists and block stamps unchanged; drops a key listed as revoked; repairs non-object blocks', () => {
    const old = { keys: [{ id: 'k1', label: 'Cursor' }], tools: { allowWrites: true }, access: { quarantine: ['Journal'] } };
    const migrated = migrateSettings(old);
    expect(migrated.keys.map((k) => k.id)).toEqual(['k1']);
    expect(migrated.revokedKeys).toEqual([]);
    expect(migrated.tools).toEqual({ allowWrites: true, enabled: {}, changed_at: NEVER_CHANGED });
    expect(migrated.access.quarantine).toEqual(['Journal']);
    // A record merged back in beside its revocation (a sync tool joining two copies) stays revoked.
    const both = migrateSettings({ ...old, revokedKeys: [{ id: 'k1', revoked_at: '2026-12-06T00:00:00.000Z' }] });
    expect(both.keys).toEqual([]);
    // Stamps: readable kept, anything else the epoch.
    expect(migrateSettings({ tools: { changed_at: '2026-12-06T00:00:00.000Z' }, access: { changed_at: 7 } })).toMatchObject({
      tools: { changed_at: '2026-12-06T00:00:00.000Z' },
      access: { changed_at: NEVER_CHANGED },
    });
    // A block that is not an object takes its defaults rather than throwing.
    expect(() => migrateSettings({ tools: 'all', access: 5 })).not.toThrow();
    expect(migrateSettings({ tools: 'all', access: 5 })).toMatchObject({
      tools: defaultSettings().tools,
      access: defaultSettings().access,
    });
  });
});
