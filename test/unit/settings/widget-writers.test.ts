import { MAX_TEXT_RECORDS, mergeWidgetRecords, USER_WRITER_ID, widgetReadRefusal, WidgetWriters } from '../../../src/keys/widget-writers';
import type { KeyRecord } from '../../../src/settings/key-record';
import { migrateSettings } from '../../../src/settings/migrate-settings';
import { defaultSettings, type WidgetWriter } from '../../../src/settings/settings';
import type { AccessScope } from '../../../src/vault/access/access';
import { hashText } from '../../../src/vault/hash';

/** WidgetWriters' records without a vault: two keys, records in memory, a save that can be made to fail. */
function make() {
  const key = (id: string, label: string, roots: string[] = []): KeyRecord => ({
    id,
    label,
    mode: 'force',
    scope: 'local',
    roots,
    tools: 'all',
    created_at: '2026-12-06T00:00:00.000Z',
    last_used_at: null,
  });
  const state = {
    keys: [key('ka', 'KeyA'), key('kb', 'KeyB', ['Projects'])],
    records: {} as Record<string, WidgetWriter>,
    texts: {} as Record<string, WidgetWriter>,
    failSave: false,
  };
  const writers = new WidgetWriters({
    keys: () => state.keys,
    records: () => state.records,
    texts: () => state.texts,
    save: async () => {
      if (state.failSave) throw new Error('disk full');
    },
    widgetsFolder: () => 'Widgets',
    readRefusal: () => null,
  });
  return { state, writers };
}
const scopeOf = (keyId: string, label: string): AccessScope => ({ label, roots: [], actor: { keyId } });

describe('WidgetWriters: records follow the text', () => {
  it('a save that fails leaves both records as they were (no record names a key on a text it did not write)', async () => {
    const { state, writers } = make();
    await writers.noteWrite({ id: 'board', scope: scopeOf('kb', 'KeyB'), text: 'B' });
    const before = JSON.parse(JSON.stringify({ records: state.records, texts: state.texts }));
    state.failSave = true;
    await expect(writers.noteWrite({ id: 'Board', scope: scopeOf('ka', 'KeyA'), text: 'A' })).rejects.toThrow(
      "Widget 'Board' was not written: the plugin could not save which key wrote it (disk full); try again later.",
    );
    expect({ records: state.records, texts: state.texts }).toEqual(before);
    expect(writers.scopeFor('board', hashText('B'))).toMatchObject({ ok: true, scope: { label: 'KeyB', roots: ['Projects'] } });
  });

  it("a revert gives the text put back its own writer: a key's, none (no record: the user confirms it), or unknown (no data); never the reverting key", async () => {
    const { state, writers } = make();
    await writers.noteWrite({ id: 'board', scope: scopeOf('kb', 'KeyB'), text: 'B' });
    const kb = state.records.board!;
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'A' });
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'B', restoring: { writer: kb } });
    expect(writers.scopeFor('board', hashText('B'))).toMatchObject({ ok: true, scope: { label: 'KeyB' } });
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'mine', restoring: { writer: null } });
    expect(state.records.board).toBeUndefined();
    // No record says who wrote 'mine' (the user's own, never confirmed): no data until the user confirms it.
    expect(writers.scopeFor('board', hashText('mine'))).toMatchObject({ ok: false, unconfirmed: true });
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'edited', restoring: { writer: undefined } });
    expect(writers.scopeFor('board', hashText('edited'))).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Widget 'board' has no known writer/),
    });
    // ...unless a key is known to have written that exact text.
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'B', restoring: { writer: undefined } });
    expect(writers.scopeFor('board', hashText('B'))).toMatchObject({ ok: true, scope: { label: 'KeyB' } });
    // The reverting key never became a text's writer.
    expect(state.texts[hashText('mine')]).toBeUndefined();
    expect(state.texts[hashText('B')]).toMatchObject({ key_id: 'kb' });
  });

  it('keeps the newest text records past MAX_TEXT_RECORDS; a text written again counts as new', async () => {
    const { state, writers } = make();
    await writers.noteWrite({ id: 'w', scope: scopeOf('kb', 'KeyB'), text: 'first' });
    for (let i = 0; i < MAX_TEXT_RECORDS - 1; i++) await writers.noteWrite({ id: 'w', scope: scopeOf('ka', 'KeyA'), text: `t${i}` });
    await writers.noteWrite({ id: 'w', scope: scopeOf('kb', 'KeyB'), text: 'first' }); // again: now the newest
    await writers.noteWrite({ id: 'w', scope: scopeOf('ka', 'KeyA'), text: 'last' });
    expect(Object.keys(state.texts)).toHaveLength(MAX_TEXT_RECORDS);
    expect(state.texts[hashText('t0')]).toBeUndefined();
    expect(state.texts[hashText('first')]).toMatchObject({ key_id: 'kb' });
  });

  it('widgetReadRefusal: a key may not read when query_notes is outside its tool set, switched off, or it is cloud-only', () => {
    const { state } = make();
    const settings = defaultSettings();
    const kb = state.keys[1]!;
    expect(widgetReadRefusal(kb, settings)).toBeNull();
    expect(widgetReadRefusal({ ...kb, tools: ['widget_write', 'read_note'] }, settings)).toBe('whose tool set does not hold query_notes');
    expect(widgetReadRefusal({ ...kb, tools: 'read' }, settings)).toBeNull();
    expect(widgetReadRefusal({ ...kb, scope: 'cloud' }, settings)).toMatch(/cloud-only/);
    expect(widgetReadRefusal(kb, { ...settings, tools: { ...settings.tools, enabled: { query_notes: false } } })).toMatch(/switched off/);
  });
});

describe('WidgetWriters: a widget no record says who wrote (verifier s30 F4)', () => {
  const user = (at = '2026-12-06T10:00:00.000Z'): WidgetWriter => ({ key_id: USER_WRITER_ID, key_label: '', written_at: at });

  it('gets no data, and is the only kind the user may confirm; a confirmation holds for that exact text only', async () => {
    const { state, writers } = make();
    expect(writers.scopeFor('mine', hashText('mine'))).toEqual({
      ok: false,
      unconfirmed: true,
      reason: expect.stringMatching(/^Widget 'mine' has no record of who wrote it .*"Show with my view"/),
    });
    await writers.confirmByUser('mine', hashText('mine'), new Date('2026-12-06T10:00:00.000Z'));
    expect(state.texts).toEqual({ [hashText('mine')]: user() });
    expect(state.records).toEqual({});
    expect(writers.scopeFor('mine', hashText('mine'))).toEqual({ ok: true, scope: { label: '', roots: [] }, writer: user() });
    expect(writers.scopeFor('other', hashText('mine'))).toMatchObject({ ok: true, writer: user() }); // the same text under another name
    expect(writers.scopeFor('mine', hashText('mine, edited'))).toMatchObject({ ok: false, unconfirmed: true });
  });

  it("a user record by name (a backup of, or a revert to, a confirmed text) stands for its own text only; a key's record by name still holds an edited text", async () => {
    const { state, writers } = make();
    state.records.board = { ...user(), hash: hashText('mine') };
    expect(writers.scopeFor('board', hashText('mine'))).toMatchObject({ ok: true, writer: { key_id: USER_WRITER_ID } });
    expect(writers.scopeFor('board', hashText('another text'))).toMatchObject({ ok: false, unconfirmed: true });
    await writers.noteWrite({ id: 'board', scope: scopeOf('kb', 'KeyB'), text: 'B' });
    expect(writers.scopeFor('board', hashText('B, edited by the user'))).toMatchObject({ ok: true, scope: { label: 'KeyB' } });
  });

  it("a confirmation never replaces a key's record, nor an unknown one; a save that fails takes it back", async () => {
    const { state, writers } = make();
    await writers.noteWrite({ id: 'board', scope: scopeOf('kb', 'KeyB'), text: 'B' });
    const before = JSON.parse(JSON.stringify(state));
    await writers.confirmByUser('board', hashText('B'));
    await writers.confirmByUser('copy', hashText('B'));
    state.records.damaged = { key_id: '', key_label: '', written_at: 'x' };
    await writers.confirmByUser('damaged', hashText('D'));
    delete state.records.damaged;
    expect(JSON.parse(JSON.stringify(state))).toEqual(before);
    state.failSave = true;
    await expect(writers.confirmByUser('mine', hashText('mine'))).rejects.toThrow(
      "Widget 'mine' is not shown: the plugin could not save your choice (disk full); try again.",
    );
    expect(state.texts[hashText('mine')]).toBeUndefined();
    expect(writers.scopeFor('mine', hashText('mine'))).toMatchObject({ ok: false, unconfirmed: true });
  });
});

describe('mergeWidgetRecords: a data.json synced in never drops newer widget records', () => {
  const rec = (key_id: string, at: string, hash?: string): WidgetWriter => ({
    key_id,
    key_label: key_id,
    written_at: at,
    ...(hash ? { hash } : {}),
  });
  const T1 = '2026-12-01T00:00:00.000Z';
  const T2 = '2026-12-02T00:00:00.000Z';

  it('keeps records either side has; the newer wins per widget and per text, on a tie the synced one; damaged times count as oldest', () => {
    const current = {
      widgetWriters: { board: rec('kb', T2, 'h2'), mine: rec('ka', T1, 'h9'), bad: rec('ka', T1) },
      widgetTexts: { h2: rec('kb', T2), h1: rec('ka', T1), same: rec('ka', T1) },
    };
    const synced = {
      widgetWriters: { board: rec('ka', T1, 'h1'), mine: rec('kc', T2, 'h8'), bad: rec('kc', 'not a time') },
      widgetTexts: { h1: rec('ka', T1), h3: rec('kc', T2), same: rec('kc', T1) },
    };
    const merged = mergeWidgetRecords(current, synced);
    expect(merged.widgetWriters).toEqual({ board: rec('kb', T2, 'h2'), mine: rec('kc', T2, 'h8'), bad: rec('ka', T1) });
    expect(merged.widgetTexts).toEqual({ h1: rec('ka', T1), h2: rec('kb', T2), h3: rec('kc', T2), same: rec('kc', T1) });
    expect(merged.added).toBe(true);
    // Nothing this device has beyond the synced file: nothing to save.
    expect(mergeWidgetRecords({ widgetWriters: {}, widgetTexts: { h1: rec('ka', T1) } }, synced).added).toBe(false);
  });

  it('keeps the newest MAX_TEXT_RECORDS texts of the two', () => {
    const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const current: Record<string, WidgetWriter> = {};
    const synced: Record<string, WidgetWriter> = {};
    for (let i = 0; i < MAX_TEXT_RECORDS; i++) (i % 2 ? current : synced)[`h${i}`] = rec('ka', at(i));
    current.newest = rec('kb', at(MAX_TEXT_RECORDS));
    const merged = mergeWidgetRecords({ widgetWriters: {}, widgetTexts: current }, { widgetWriters: {}, widgetTexts: synced });
    expect(Object.keys(merged.widgetTexts)).toHaveLength(MAX_TEXT_RECORDS);
    expect(merged.widgetTexts.h0).toBeUndefined();
    expect(merged.widgetTexts.newest).toEqual(rec('kb', at(MAX_TEXT_RECORDS)));
    expect(Object.keys(merged.widgetTexts).at(-1)).toBe('newest'); // in written order: the oldest are pruned first later
  });
});

describe('migrateSettings: widget records', () => {
  it('keeps text records and record hashes, and keeps a damaged text record as one naming no key (no data), never dropped', () => {
    const migrated = migrateSettings({
      widgetWriters: { Board: { key_id: 'kb', key_label: 'KeyB', written_at: 'x', hash: 'AB' } },
      widgetTexts: { CD: 'garbage', ef: { key_id: 'ka', key_label: 'KeyA', written_at: 'y' } },
    });
    expect(migrated.widgetWriters).toEqual({ board: { key_id: 'kb', key_label: 'KeyB', written_at: 'x', hash: 'ab' } });
    expect(migrated.widgetTexts).toEqual({
      cd: { key_id: '', key_label: '', written_at: new Date(0).toISOString() },
      ef: { key_id: 'ka', key_label: 'KeyA', written_at: 'y' },
    });
    expect(migrateSettings({}).widgetTexts).toEqual({});
    expect(migrateSettings({ widgetTexts: 'x' }).widgetTexts).toEqual({});
  });
});
