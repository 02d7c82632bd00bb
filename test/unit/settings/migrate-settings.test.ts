import {
  accessShapeNotice,
  holdsSettings,
  migrateSettings,
  noSettingsNotice,
  STAMPED_BLOCKS,
} from '../../../src/settings/migrate-settings';
import { defaultSettings, NEVER_CHANGED, SETTINGS_SCHEMA_VERSION } from '../../../src/settings/settings';

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
    expect(migrateSettings({ access: { quarantine: ['Journal'] } }).access).toEqual({ quarantine: ['Journal'], trustedSymlinks: [] });
    expect(migrateSettings({ access: { trustedSymlinks: 'Shared' } }).access.trustedSymlinks).toEqual([]);
    expect(migrateSettings({ access: { trustedSymlinks: ['Shared'] } }).access.trustedSymlinks).toEqual(['Shared']);
  });

  it('reads a quarantine written as one folder as that folder (it only narrows); a trusted-link list that is not a list trusts nothing', () => {
    expect(migrateSettings({ access: { quarantine: 'Journal' } }).access.quarantine).toEqual(['Journal']);
    expect(migrateSettings({ access: { quarantine: '' } }).access.quarantine).toEqual(['']);
    for (const bad of [5, null, { Journal: true }, true])
      expect(migrateSettings({ access: { quarantine: bad } }).access.quarantine).toEqual([]);
    for (const bad of ['Shared', 5, null, { Shared: true }]) {
      expect(migrateSettings({ access: { trustedSymlinks: bad } }).access.trustedSymlinks).toEqual([]);
    }
  });

  it('holdsSettings: an object with at least one settings key; {} or unknown keys only hold none (B5)', () => {
    for (const none of [{}, { schemaVersion: 1 }, { unrelated: true }, null, [], 'x', 7]) expect(holdsSettings(none)).toBe(false);
    for (const some of [{ keys: [] }, { server: {} }, { revokedKeys: [] }, { widgetTexts: {} }, defaultSettings()])
      expect(holdsSettings(some)).toBe(true);
    // Not inherited properties: a crafted prototype key is no setting.
    expect(holdsSettings(JSON.parse('{"__proto__": {"keys": []}}'))).toBe(false);
  });

  it('a body limit under 64 KiB or not a whole number (a hand edit) loads as the default; one above it stays', () => {
    for (const bad of [1, 0, -5, 65_535, 1.5e5 + 0.5, '4194304', null])
      expect(migrateSettings({ server: { maxBodyBytes: bad } }).server.maxBodyBytes).toBe(defaultSettings().server.maxBodyBytes);
    expect(migrateSettings({ server: { maxBodyBytes: 65_536 } }).server.maxBodyBytes).toBe(65_536);
  });

  it('noSettingsNotice says what the file holds: {}, only schemaVersion, or the unknown keys (three named, cut); nothing for no file or settings', () => {
    const holds = (saved: unknown): string | undefined =>
      /holds no settings \((.*): a sync or another tool emptied it\)/.exec(noSettingsNotice(saved) ?? '')?.[1];
    expect(holds({})).toBe('it is {}');
    expect(holds({ schemaVersion: 3 })).toBe('it holds only schemaVersion');
    expect(holds({ schemaVersion: 3, theme: 'dark' })).toBe('it holds only keys this version does not know: "theme"');
    expect(holds({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toBe('it holds only keys this version does not know: "a", "b", "c" and 2 more');
    // A long key is cut after 40 code points, never inside a surrogate pair.
    expect(holds({ [`${'k'.repeat(39)}😀😀`]: 1 })).toBe(`it holds only keys this version does not know: "${'k'.repeat(39)}😀…"`);
    expect(noSettingsNotice(null)).toBeNull();
    expect(noSettingsNotice({ keys: [] })).toBeNull();
    expect(noSettingsNotice({})).toMatch(/settings start from their defaults: no keys/);
  });

  it('accessShapeNotice names an access list read as nothing, and what to write; nothing for a readable block', () => {
    for (const fine of [
      null,
      'x',
      {},
      { access: {} },
      { access: { quarantine: 'Journal', trustedSymlinks: [] } },
      { access: { quarantine: ['J'] } },
    ]) {
      expect(accessShapeNotice(fine)).toBeNull();
    }
    expect(accessShapeNotice({ access: { trustedSymlinks: 'Shared/Team' } })).toBe(
      'Vault MCP: access.trustedSymlinks is "Shared/Team", not a list, so no symbolic link is trusted; write it as ["Shared/Team"] or trust the link again in Vault MCP settings → Access.',
    );
    expect(accessShapeNotice({ access: { quarantine: 7, trustedSymlinks: { a: 1 } } })).toMatch(
      /^Vault MCP: access\.quarantine is 7, not a list of folders, so none of yours is quarantined; .* access\.trustedSymlinks is an object, not a list, so no symbolic link is trusted; write it as \["Shared"\]/,
    );
    expect(accessShapeNotice({ access: 'Journal' })).toMatch(
      /^Vault MCP: "access" in data\.json is "Journal", not an object, so no folder of yours is quarantined/,
    );
  });

  it('stamps the server, skills, widgets and ai blocks as it stamps tools and access; a wrong-typed stamp or block never throws', () => {
    const at = '2026-12-06T17:00:00.000Z';
    const stamped = migrateSettings({
      server: { changed_at: at },
      ai: { changed_at: at },
      skills: { folder: 'S', changed_at: at },
      widgets: { folder: 'W', changed_at: at },
    });
    for (const block of STAMPED_BLOCKS)
      expect(stamped[block].changed_at).toBe(['tools', 'proposals', 'activity'].includes(block) ? NEVER_CHANGED : at);
    // Files from before the stamps: the epoch.
    const old = migrateSettings({ server: { enabled: false }, ai: { enabled: true }, skills: { folder: 'S' }, widgets: { folder: 'W' } });
    for (const block of STAMPED_BLOCKS) expect(old[block].changed_at).toBe(NEVER_CHANGED);
    for (const bad of [5, null, true, {}, [], 'yesterday', '']) {
      const file = {
        server: { changed_at: bad },
        ai: { changed_at: bad },
        skills: { folder: 'S', changed_at: bad },
        widgets: { folder: 'W', changed_at: bad },
      };
      expect(() => migrateSettings(file)).not.toThrow();
      for (const block of STAMPED_BLOCKS) expect(migrateSettings(file)[block].changed_at).toBe(NEVER_CHANGED);
    }
    // A server or ai block that is not an object takes its defaults (it threw on a string: a property set on a primitive).
    for (const bad of ['on', 5, [], true]) {
      expect(() => migrateSettings({ server: bad, ai: bad })).not.toThrow();
      expect(migrateSettings({ server: bad, ai: bad })).toMatchObject({ server: defaultSettings().server, ai: defaultSettings().ai });
    }
  });

  it('reads ai.enabled and ai.allowRemote that are not true or false as off (a hand-written "false" is text, and truthy)', () => {
    for (const bad of ['false', 'no', 1, null, {}]) {
      expect(migrateSettings({ ai: { enabled: bad, allowRemote: bad } }).ai).toMatchObject({ enabled: false, allowRemote: false });
    }
    expect(migrateSettings({ ai: { enabled: true, allowRemote: true } }).ai).toMatchObject({ enabled: true, allowRemote: true });
  });

  it('reads the server switch, "Allow writes" and each tool toggle that are not true or false as off', () => {
    for (const bad of ['false', 'true', 'no', 1, null, {}, []]) {
      const settings = migrateSettings({
        server: { enabled: bad },
        tools: { allowWrites: bad, enabled: { write_note: bad, read_note: bad } },
      });
      expect(settings.server.enabled).toBe(false);
      expect(settings.tools.allowWrites).toBe(false);
      expect(settings.tools.enabled).toEqual({ write_note: false, read_note: false });
    }
    const on = migrateSettings({ server: { enabled: true }, tools: { allowWrites: true, enabled: { write_note: true, search: false } } });
    expect(on.server.enabled).toBe(true);
    expect(on.tools).toMatchObject({ allowWrites: true, enabled: { write_note: true, search: false } });
    // Absent: the defaults (server on, writes off, no toggle of its own).
    expect(migrateSettings({}).server.enabled).toBe(true);
    expect(migrateSettings({ tools: { enabled: 'all' } }).tools.enabled).toEqual({});
    // A key named like a prototype property stays a plain toggle.
    const proto = migrateSettings(JSON.parse('{"tools":{"enabled":{"__proto__":true}}}'));
    expect(Object.getPrototypeOf(proto.tools.enabled)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads an ai.provider other than the two types as the default, and a notifyOnNew that is not a flag as its default', () => {
    for (const bad of ['openai', 'Anthropic', '', 7, null])
      expect(migrateSettings({ ai: { provider: bad } }).ai.provider).toBe('openai-compatible');
    expect(migrateSettings({ ai: { provider: 'anthropic' } }).ai.provider).toBe('anthropic');
    // (The block's stamp is the epoch on a file without one, as for every stamped block.)
    const never = { changed_at: NEVER_CHANGED };
    expect(migrateSettings({ proposals: { notifyOnNew: 'no' } }).proposals).toEqual({ notifyOnNew: true, ...never });
    expect(migrateSettings({ proposals: { notifyOnNew: false } }).proposals).toEqual({ notifyOnNew: false, ...never });
    expect(migrateSettings({ proposals: 'quiet' }).proposals).toEqual({ notifyOnNew: true, ...never });
    // Its stamps are kept through the repair of a bad value.
    const stamped = { notifyOnNew: 'no', changed_at: '2026-12-06T17:00:00.000Z', fieldTimes: { notifyOnNew: '2026-12-06T17:00:00.000Z' } };
    expect(migrateSettings({ proposals: stamped }).proposals).toEqual({ ...stamped, notifyOnNew: true });
  });

  it('gives settings saved before the activity log its default limits, and repairs bad ones', () => {
    expect(migrateSettings({ server: { port: 27300 } }).activity).toEqual({ maxMegabytes: 20, maxDays: 30, changed_at: NEVER_CHANGED });
    expect(migrateSettings({ activity: { maxMegabytes: 5, maxDays: 7 } }).activity).toEqual({
      maxMegabytes: 5,
      maxDays: 7,
      changed_at: NEVER_CHANGED,
    });
    expect(migrateSettings({ activity: { maxMegabytes: -1, maxDays: '9' } }).activity).toEqual({
      maxMegabytes: 20,
      maxDays: 30,
      changed_at: NEVER_CHANGED,
    });
    expect(migrateSettings({ activity: 'big' }).activity).toEqual({ maxMegabytes: 20, maxDays: 30, changed_at: NEVER_CHANGED });
    expect(migrateSettings({ activity: { maxMegabytes: Infinity, maxDays: 0 } }).activity).toEqual({
      maxMegabytes: 20,
      maxDays: 30,
      changed_at: NEVER_CHANGED,
    });
    const stamps = { changed_at: '2026-12-06T17:00:00.000Z', fieldTimes: { maxDays: '2026-12-06T17:00:00.000Z' } };
    expect(migrateSettings({ activity: { maxDays: -3, ...stamps } }).activity).toEqual({ maxMegabytes: 20, maxDays: 30, ...stamps });
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
    expect(migrateSettings({ tools: { changed_at: '2026-12-06T00:00:00.000Z' }, server: { changed_at: 7 } })).toMatchObject({
      tools: { changed_at: '2026-12-06T00:00:00.000Z' },
      server: { changed_at: NEVER_CHANGED },
    });
    // access carries no stamp (its lists merge entry by entry): an older file's, readable or not, loads and is dropped.
    for (const changed_at of ['2026-12-06T00:00:00.000Z', 7])
      expect(migrateSettings({ access: { quarantine: ['Journal'], changed_at } }).access).toEqual({
        quarantine: ['Journal'],
        trustedSymlinks: [],
      });
    // A block that is not an object takes its defaults rather than throwing.
    expect(() => migrateSettings({ tools: 'all', access: 5 })).not.toThrow();
    expect(migrateSettings({ tools: 'all', access: 5 })).toMatchObject({
      tools: defaultSettings().tools,
      access: defaultSettings().access,
    });
  });
});
