import { KeyRing, KeyRingError, mergeSyncedKeys, type SecretStore } from '../../../src/keys/key-ring';
import { secretIdForKey, type KeyRecord } from '../../../src/settings/key-record';
import { mergeRevokedKeys, revokedIdsIn } from '../../../src/settings/revoked-keys';
import { MAX_REVOKED_KEYS, NEVER_CHANGED, type RevokedKey } from '../../../src/settings/settings';

function memorySecrets(): SecretStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getSecret: (id) => map.get(id) ?? null, setSecret: (id, s) => void map.set(id, s) };
}

function ring(): { keys: KeyRing; secrets: ReturnType<typeof memorySecrets>; saved: () => KeyRecord[]; revoked: () => RevokedKey[] } {
  let stored: KeyRecord[] = [];
  let revoked: RevokedKey[] = [];
  const secrets = memorySecrets();
  const keys = new KeyRing(
    secrets,
    () => stored,
    async (next) => void (stored = next),
    { get: () => revoked, set: (list) => void (revoked = list) },
  );
  return { keys, secrets, saved: () => stored, revoked: () => revoked };
}

describe('KeyRing', () => {
  it('mints a propose-mode local key whose token lives only in secret storage', async () => {
    const { keys, secrets, saved } = ring();
    const { record, token } = await keys.mint({ label: 'Claude Code' });
    expect(record.mode).toBe('propose');
    expect(record.scope).toBe('local');
    expect(token).toMatch(/^vmcp_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(saved())).not.toContain(token);
    expect([...secrets.map.values()]).toContain(token);
    expect(keys.authenticate(token)?.id).toBe(record.id);
  });

  it('refuses empty and duplicate labels and short tokens', async () => {
    const { keys } = ring();
    await keys.mint({ label: 'a' });
    await expect(keys.mint({ label: '  ' })).rejects.toThrow(KeyRingError);
    await expect(keys.mint({ label: 'a' })).rejects.toThrow(/already exists/);
    await expect(keys.mint({ label: 'b', token: 'short' })).rejects.toThrow(/at least 16/);
  });

  it('authenticates only exact tokens, and never an empty one', async () => {
    const { keys } = ring();
    const a = await keys.mint({ label: 'a' });
    const b = await keys.mint({ label: 'b', token: 'b-token-0123456789' });
    expect(keys.authenticate(b.token)?.label).toBe('b');
    expect(keys.authenticate(a.token + 'x')).toBeNull();
    expect(keys.authenticate('')).toBeNull();
    await keys.mint({ label: 'c' });
    await keys.revoke(a.record.id);
    expect(keys.authenticate(a.token)).toBeNull();
  });

  it('refuses to revoke or make cloud-only the last locally usable key', async () => {
    const { keys } = ring();
    const a = await keys.mint({ label: 'a' });
    await expect(keys.revoke(a.record.id)).rejects.toThrow(/last key/);
    await expect(keys.setScope(a.record.id, 'cloud')).rejects.toThrow(/no usable key/);
    const b = await keys.mint({ label: 'b' });
    await keys.setScope(a.record.id, 'cloud');
    await expect(keys.revoke(b.record.id)).rejects.toThrow(/last key/);
    await keys.revoke(a.record.id);
    expect(keys.list().map((k) => k.label)).toEqual(['b']);
  });

  it('sets mode, roots and last use; unknown ids are refused', async () => {
    const { keys } = ring();
    const a = await keys.mint({ label: 'a' });
    await keys.setMode(a.record.id, 'force');
    await keys.setRoots(a.record.id, ['Projects/', './Projects']);
    await keys.touch(a.record.id, new Date('2026-01-02T03:04:05Z'));
    expect(keys.list()[0]).toMatchObject({ mode: 'force', roots: ['Projects'], last_used_at: '2026-01-02T03:04:05.000Z' });
    // A root that would widen the key to the whole vault, or leaves it, is refused (the roots stay), never dropped.
    for (const bad of ['', '.', '/etc', '../etc']) {
      await expect(keys.setRoots(a.record.id, ['Journal', bad])).rejects.toThrow(
        /^The root ".*" (is empty|names the vault itself|is an absolute path|climbs out)/,
      );
    }
    expect(keys.list()[0].roots).toEqual(['Projects']);
    await expect(keys.mint({ label: 'b', roots: [''] })).rejects.toThrow(/The root "" is empty, which would be the whole vault/);
    expect(keys.list().map((k) => k.label)).toEqual(['a']);
    await expect(keys.setMode('nope', 'force')).rejects.toThrow(/No key/);
  });
});

describe('mergeSyncedKeys: a data.json synced in never widens a key narrowed here since', () => {
  const key = (id: string, roots: string[], changed_at?: string): KeyRecord => ({
    id,
    label: id,
    mode: 'force',
    scope: 'local',
    roots,
    tools: 'all',
    created_at: '2026-12-01T00:00:00.000Z',
    last_used_at: null,
    ...(changed_at ? { changed_at } : {}),
  });

  it('keeps the record that changed last for a key both hold; the synced list decides which keys exist', () => {
    const current = [key('a', ['Projects'], '2026-12-06T10:00:00.000Z'), key('b', []), key('mine', [])];
    const synced = [key('a', [], '2026-12-05T00:00:00.000Z'), key('b', ['Work'], '2026-12-06T11:00:00.000Z'), key('theirs', [])];
    const merged = mergeSyncedKeys(current, synced);
    // Records without fieldTimes (versions before them) count their changed_at for every field: the whole record, as before.
    const allAt = (at: string): KeyRecord['fieldTimes'] => ({ label: at, mode: at, scope: at, roots: at, tools: at });
    // 'mine' is not in the synced file: revoked there, or minted here since.
    expect(merged.keys).toEqual([{ ...current[0], fieldTimes: allAt(current[0].changed_at!) }, synced[1], synced[2]]);
    expect(merged.kept).toBe(true);
    // Records with neither changed_at nor fieldTimes have no stamps: the synced one wins.
    expect(mergeSyncedKeys([key('a', ['Projects'])], [key('a', [])])).toEqual({ keys: [key('a', [])], kept: false });
    expect(mergeSyncedKeys([key('a', ['Projects'], 'not a time')], [key('a', [])]).kept).toBe(false);
    // A synced record written without changed_at (an older version of the plugin on that device): no known time, it wins.
    expect(mergeSyncedKeys(current, synced, new Set(['a'])).keys[0]).toEqual(synced[0]);
  });

  it('merges a key both hold field by field: roots narrowed here stay when the other device changed its mode or label later (break-it B3)', () => {
    const base = key('a', [], '2026-12-01T00:00:00.000Z');
    const mine: KeyRecord = {
      ...base,
      roots: ['Projects'],
      changed_at: '2026-12-02T00:00:00.000Z',
      fieldTimes: { roots: '2026-12-02T00:00:00.000Z' },
    };
    const theirs: KeyRecord = {
      ...base,
      mode: 'propose',
      label: 'Renamed',
      last_used_at: '2026-12-01T08:00:00.000Z',
      changed_at: '2026-12-03T00:00:00.000Z',
      fieldTimes: { mode: '2026-12-03T00:00:00.000Z', label: '2026-12-03T00:00:00.000Z' },
    };
    const merged = mergeSyncedKeys([{ ...mine, last_used_at: '2026-12-05T00:00:00.000Z' }], [theirs]);
    expect(merged.kept).toBe(true);
    expect(merged.keys).toEqual([
      {
        ...base,
        roots: ['Projects'],
        mode: 'propose',
        label: 'Renamed',
        last_used_at: '2026-12-05T00:00:00.000Z',
        changed_at: '2026-12-03T00:00:00.000Z',
        fieldTimes: { roots: '2026-12-02T00:00:00.000Z', mode: '2026-12-03T00:00:00.000Z', label: '2026-12-03T00:00:00.000Z' },
      },
    ]);
    // A clock a day ahead there, or a record stamped with garbage: still only the fields it changed.
    const ahead: KeyRecord = { ...theirs, changed_at: '2026-12-09T00:00:00.000Z', fieldTimes: { scope: '2026-12-09T00:00:00.000Z' } };
    expect(mergeSyncedKeys([mine], [ahead]).keys[0].roots).toEqual(['Projects']);
    const garbage: KeyRecord = { ...theirs, changed_at: NEVER_CHANGED, fieldTimes: { roots: NEVER_CHANGED } };
    expect(mergeSyncedKeys([mine], [garbage]).keys[0].roots).toEqual(['Projects']);
    // A synced record from a version before stamps (no changed_at in the file) still wins whole, as before.
    expect(mergeSyncedKeys([mine], [theirs], new Set(['a'])).keys[0]).toBe(theirs);
  });

  it('each setter stamps exactly its field, past a stamp from a clock running ahead; a use stamps nothing', async () => {
    const { keys, saved } = ring();
    const { record } = await keys.mint({ label: 'a' });
    expect(record.fieldTimes).toEqual({});
    const ahead = new Date(Date.now() + 86_400_000).toISOString();
    saved()[0]!.fieldTimes = { roots: ahead };
    await keys.setRoots(record.id, ['Projects']);
    expect(Date.parse(saved()[0]!.fieldTimes!.roots)).toBe(Date.parse(ahead) + 1);
    await keys.setMode(record.id, 'force');
    await keys.setScope(record.id, 'both');
    await keys.setTools(record.id, 'read');
    expect(Object.keys(saved()[0]!.fieldTimes!).sort()).toEqual(['mode', 'roots', 'scope', 'tools']);
    const before = JSON.stringify(saved()[0]!.fieldTimes);
    await keys.touch(record.id);
    expect(JSON.stringify(saved()[0]!.fieldTimes)).toBe(before);
  });

  it('every change of mode, scope, roots or tool set stamps changed_at; a use does not', async () => {
    const { keys, saved } = ring();
    const { record } = await keys.mint({ label: 'a' });
    expect(record.changed_at).toBe(record.created_at);
    const stamp = async (change: () => Promise<void>): Promise<string> => {
      saved()[0]!.changed_at = '2000-01-01T00:00:00.000Z';
      await change();
      return saved()[0]!.changed_at!;
    };
    for (const change of [
      () => keys.setMode(record.id, 'force'),
      () => keys.setScope(record.id, 'both'),
      () => keys.setRoots(record.id, ['Projects']),
      () => keys.setTools(record.id, 'read'),
    ])
      expect(await stamp(change)).not.toBe('2000-01-01T00:00:00.000Z');
    expect(await stamp(() => keys.touch(record.id))).toBe('2000-01-01T00:00:00.000Z');
  });
});

describe('revocations: a key revoked on any device stays revoked on every device', () => {
  const key = (id: string, created_at = '2026-12-01T00:00:00.000Z'): KeyRecord => ({
    id,
    label: id,
    mode: 'force',
    scope: 'local',
    roots: [],
    tools: 'all',
    created_at,
    last_used_at: null,
    changed_at: created_at,
  });

  it('revoke records the id and time; forgetTokens blanks only tokens held here', async () => {
    const { keys, secrets, revoked } = ring();
    const a = await keys.mint({ label: 'a' });
    const b = await keys.mint({ label: 'b' });
    await keys.revoke(a.record.id, new Date('2026-12-06T12:00:00.000Z'));
    expect(revoked()).toEqual([{ id: a.record.id, revoked_at: '2026-12-06T12:00:00.000Z' }]);
    expect(keys.forgetTokens(['elsewhere', a.record.id, b.record.id])).toEqual([b.record.id]);
    expect(secrets.map.has(secretIdForKey('elsewhere'))).toBe(false);
    expect(keys.authenticate(b.token)).toBeNull();
  });

  it('mergeSyncedKeys drops a key revoked on either side, wherever it is still held', () => {
    const current = [key('a'), key('gone')];
    const synced = [key('a'), key('gone'), key('also-gone')];
    const merged = mergeSyncedKeys(current, synced, new Set(), { revoked: new Set(['gone', 'also-gone']), tracksRevocations: true });
    expect(merged.keys.map((k) => k.id)).toEqual(['a']);
  });

  it('a key only this device holds stays when the synced file lists revocations, and goes when it lists none (an older version)', () => {
    const current = [key('a'), key('minted-here')];
    const synced = [key('a'), key('theirs')];
    const aware = mergeSyncedKeys(current, synced, new Set(), { revoked: new Set(), tracksRevocations: true });
    expect(aware).toEqual({ keys: [key('a'), key('theirs'), key('minted-here')], kept: true });
    const older = mergeSyncedKeys(current, synced, new Set(), { revoked: new Set(), tracksRevocations: false });
    expect(older).toEqual({ keys: [key('a'), key('theirs')], kept: false });
  });

  it('mergeRevokedKeys: one entry per id (the latest), sorted, the newest MAX_REVOKED_KEYS kept', () => {
    const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    expect(
      mergeRevokedKeys(
        [
          { id: 'b', revoked_at: at(2) },
          { id: 'a', revoked_at: at(1) },
        ],
        [{ id: 'a', revoked_at: at(3) }],
      ),
    ).toEqual([
      { id: 'b', revoked_at: at(2) },
      { id: 'a', revoked_at: at(3) },
    ]);
    const many = Array.from({ length: MAX_REVOKED_KEYS + 5 }, (_, i) => ({ id: `k${i}`, revoked_at: at(i) }));
    const kept = mergeRevokedKeys(many.slice().reverse());
    expect(kept).toHaveLength(MAX_REVOKED_KEYS);
    expect(kept[0]).toEqual({ id: 'k5', revoked_at: at(5) });
    expect(kept.at(-1)).toEqual({ id: `k${MAX_REVOKED_KEYS + 4}`, revoked_at: at(MAX_REVOKED_KEYS + 4) });
  });

  it('mergeRevokedKeys dates a revocation from the future as now, so a revocation made later is never the first to go', () => {
    const future = Array.from({ length: MAX_REVOKED_KEYS }, (_, i) => ({
      id: `f${i}`,
      revoked_at: `9999-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    }));
    const before = Date.now();
    const stored = mergeRevokedKeys(future);
    for (const entry of stored) expect(Date.parse(entry.revoked_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(stored[0].revoked_at)).toBeGreaterThanOrEqual(before);
    // A key revoked here afterwards (KeyRing.revoke merges it in, dated now): kept, one of the future ones goes.
    const later = new Date().toISOString();
    const merged = mergeRevokedKeys(stored, [{ id: 'mine', revoked_at: later }]);
    expect(merged).toHaveLength(MAX_REVOKED_KEYS);
    expect(merged.at(-1)).toEqual({ id: 'mine', revoked_at: later });
  });

  it('revokedIdsIn gives every revoked id of the lists, past the stored bound', () => {
    const many = Array.from({ length: MAX_REVOKED_KEYS + 50 }, (_, i) => ({
      id: `k${i}`,
      revoked_at: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
    }));
    const ids = revokedIdsIn(many, [{ id: 'other', revoked_at: 'garbage' }], 'not a list');
    expect(ids.size).toBe(MAX_REVOKED_KEYS + 51);
    expect(ids.has('k0')).toBe(true);
    expect(ids.has('other')).toBe(true);
    expect(mergeRevokedKeys(many).some((r) => r.id === 'k0')).toBe(false);
  });

  it('mergeRevokedKeys reads bad input leniently: not a list is none, entries without an id are left out, a bad date is the epoch', () => {
    for (const bad of [undefined, null, 'a', 7, { id: 'a', revoked_at: '2026-12-06T00:00:00.000Z' }])
      expect(mergeRevokedKeys(bad)).toEqual([]);
    expect(
      mergeRevokedKeys([
        null,
        'a',
        [],
        {},
        { id: 7 },
        { id: '' },
        { revoked_at: '2026-12-06T00:00:00.000Z' },
        { id: 'no-date' },
        { id: 'bad-date', revoked_at: 'yesterday' },
        { id: 'number-date', revoked_at: 1765000000000 },
        { id: 'fine', revoked_at: '2026-12-06T00:00:00.000Z' },
      ]),
    ).toEqual([
      { id: 'no-date', revoked_at: NEVER_CHANGED },
      { id: 'bad-date', revoked_at: NEVER_CHANGED },
      { id: 'number-date', revoked_at: NEVER_CHANGED },
      { id: 'fine', revoked_at: '2026-12-06T00:00:00.000Z' },
    ]);
  });
});
