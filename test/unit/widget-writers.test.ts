import { MAX_TEXT_RECORDS, widgetReadRefusal, WidgetWriters } from '../../src/keys/widget-writers';
import type { KeyRecord } from '../../src/settings/key-record';
import { migrateSettings } from '../../src/settings/migrate-settings';
import { defaultSettings, type WidgetWriter } from '../../src/settings/settings';
import type { AccessScope } from '../../src/vault/access/access';
import { hashText } from '../../src/vault/hash';

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

  it("a revert gives the text put back its own writer: a key's, none (the user's), or unknown (no data); never the reverting key", async () => {
    const { state, writers } = make();
    await writers.noteWrite({ id: 'board', scope: scopeOf('kb', 'KeyB'), text: 'B' });
    const kb = state.records.board!;
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'A' });
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'B', restoring: { writer: kb } });
    expect(writers.scopeFor('board', hashText('B'))).toMatchObject({ ok: true, scope: { label: 'KeyB' } });
    await writers.noteWrite({ id: 'board', scope: scopeOf('ka', 'KeyA'), text: 'mine', restoring: { writer: null } });
    expect(state.records.board).toBeUndefined();
    expect(writers.scopeFor('board', hashText('mine'))).toMatchObject({ ok: true, writer: null });
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
