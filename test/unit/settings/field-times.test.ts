import { mergeFields, predatesStamps, readFieldTimes, stampField, toolToggleField } from '../../../src/settings/field-times';
import { migrateSettings } from '../../../src/settings/migrate-settings';
import { defaultSettings, NEVER_CHANGED, type VaultMcpSettings } from '../../../src/settings/settings';

const T0 = '2026-12-01T00:00:00.000Z';
const T1 = '2026-12-02T00:00:00.000Z';
const T2 = '2026-12-03T00:00:00.000Z';
const DAY_AHEAD = '2026-12-04T00:00:00.000Z';

type Tools = VaultMcpSettings['tools'];
type Ai = VaultMcpSettings['ai'];

function tools(
  allowWrites: boolean,
  enabled: Record<string, boolean>,
  fieldTimes: Record<string, string> | undefined,
  changed_at = T0,
): Tools {
  return { allowWrites, enabled, changed_at, ...(fieldTimes ? { fieldTimes } : {}) };
}

describe('mergeFields: each field by its own stamp (break-it B3, B2)', () => {
  it('a device that never touched "Allow writes" cannot turn it back on by toggling a tool later', () => {
    // Here: writes turned off at T1. There (a stale copy, writes on): list_tags turned off at T2 > T1.
    const mine = tools(false, {}, { allowWrites: T1 }, T1);
    const theirs = tools(true, { list_tags: false }, { 'enabled.list_tags': T2 }, T2);
    const { merged, keptMine } = mergeFields('tools', mine, theirs);
    expect(merged).toEqual({
      allowWrites: false,
      enabled: { list_tags: false },
      changed_at: T2,
      fieldTimes: { allowWrites: T1, 'enabled.list_tags': T2 },
    });
    expect(keptMine).toBe(true);
  });

  it('a clock a day ahead wins only the fields that device changed', () => {
    const mine = tools(false, { write_note: false }, { allowWrites: T1, 'enabled.write_note': T1 }, T1);
    const theirs = tools(true, { write_note: true, list_tags: false }, { 'enabled.list_tags': DAY_AHEAD }, DAY_AHEAD);
    const { merged } = mergeFields('tools', mine, theirs);
    expect(merged.allowWrites).toBe(false);
    expect(merged.enabled).toEqual({ write_note: false, list_tags: false });
    expect(merged.changed_at).toBe(DAY_AHEAD);
  });

  it('a field changed later on the other device arrives; a tie or a field neither side stamped goes to the synced file', () => {
    const mine = tools(false, {}, { allowWrites: T1 }, T1);
    expect(mergeFields('tools', mine, tools(true, {}, { allowWrites: T2 }, T2)).merged.allowWrites).toBe(true);
    // Same stamp, other value: a hand edit of data.json keeping the stamps applies.
    const tie = mergeFields('tools', mine, tools(true, {}, { allowWrites: T1 }, T1));
    expect(tie).toEqual({ merged: tools(true, {}, { allowWrites: T1 }, T1), keptMine: false });
    const server = (port: number): VaultMcpSettings['server'] => ({ ...defaultSettings().server, port, fieldTimes: {} });
    expect(mergeFields('server', server(1111), server(2222)).merged.port).toBe(2222);
  });

  it('a tool toggle the winning side never set is removed (the tool takes its default)', () => {
    const mine = tools(true, {}, { 'enabled.write_note': T2 }, T2);
    const theirs = tools(true, { write_note: true }, { 'enabled.write_note': T1 }, T1);
    expect(mergeFields('tools', mine, theirs).merged.enabled).toEqual({});
  });

  it('returns the synced record itself when nothing of this device is kept, and never changes either side', () => {
    const mine = tools(false, { a: true }, { allowWrites: T0 }, T0);
    const theirs = tools(true, { a: false }, { allowWrites: T1 }, T1);
    const before = JSON.stringify([mine, theirs]);
    const result = mergeFields('tools', mine, theirs);
    expect(result.merged).toBe(theirs);
    expect(result.keptMine).toBe(false);
    const kept = mergeFields('tools', theirs, mine);
    expect(kept.merged).not.toBe(mine);
    expect(kept.merged).not.toBe(theirs);
    expect(JSON.stringify([mine, theirs])).toBe(before);
  });

  it('the AI provider type, base URL and model travel together (one endpoint); the other AI fields do not', () => {
    const ai = (over: Partial<Ai>): Ai => ({ ...defaultSettings().ai, ...over });
    const mine = ai({ allowRemote: false, baseUrl: 'http://localhost:11434/v1', model: 'llama', fieldTimes: { allowRemote: T1 } });
    const theirs = ai({
      allowRemote: true,
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude',
      embeddingModel: 'e',
      fieldTimes: { endpoint: T2, embeddingModel: T0 },
    });
    const { merged } = mergeFields('ai', mine, theirs);
    expect(merged).toMatchObject({ allowRemote: false, provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude' });
    const endpointHere = mergeFields('ai', { ...mine, fieldTimes: { allowRemote: T1, endpoint: DAY_AHEAD } }, theirs).merged;
    expect(endpointHere).toMatchObject({
      provider: 'openai-compatible',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama',
      embeddingModel: 'e',
    });
  });

  it("the per-device token counts are no field: the synced file keeps its own (external-change puts this device's back)", () => {
    const mine = { ...defaultSettings().ai, usage: { inputTokens: 5, outputTokens: 5 }, fieldTimes: { enabled: T2 } };
    const theirs = { ...defaultSettings().ai, usage: { inputTokens: 9, outputTokens: 9 }, fieldTimes: {} };
    expect(mergeFields('ai', mine, theirs).merged.usage).toEqual({ inputTokens: 9, outputTokens: 9 });
  });
});

describe('mergeFields with missing maps and bad stamps', () => {
  it('a side from a version before field stamps counts its changed_at for every field (the block rule of those versions)', () => {
    const mine = tools(false, {}, { allowWrites: T1 }, T1);
    // Changed later there, as a whole block: it wins every field, as before.
    const older = tools(true, { list_tags: false }, undefined, T2);
    expect(mergeFields('tools', mine, older).merged).toMatchObject({ allowWrites: true, enabled: { list_tags: false } });
    // Changed earlier there: this device's field stays, and the old block's tool toggle (stamped by its changed_at) arrives.
    const earlier = tools(true, { list_tags: false }, undefined, T0);
    const merged = mergeFields('tools', mine, earlier).merged;
    expect(merged).toMatchObject({ allowWrites: false, enabled: { list_tags: false } });
    expect(merged.fieldTimes).toEqual({ allowWrites: T1, 'enabled.list_tags': T0 });
    // This device on a version before field stamps (no map yet): its changed_at covers its fields too.
    const mineOld = tools(false, {}, undefined, T1);
    expect(mergeFields('tools', mineOld, tools(true, { x: true }, { 'enabled.x': T2 }, T2)).merged).toMatchObject({
      allowWrites: false,
      enabled: { x: true },
    });
  });

  it("a block never changed (changed_at at the epoch, no map) stamps nothing: the other side's stamps decide, ties go to the file", () => {
    const never = tools(true, {}, undefined, NEVER_CHANGED);
    expect(mergeFields('tools', tools(false, {}, { allowWrites: T0 }), never).merged.allowWrites).toBe(false);
    expect(mergeFields('tools', never, tools(false, {}, {}, NEVER_CHANGED)).merged.allowWrites).toBe(false);
  });

  it('garbage stamps are the epoch: older than any real stamp, but still a stamp', () => {
    for (const bad of [0, {}, null, 'yesterday', [], true]) {
      const times = readFieldTimes({ allowWrites: bad });
      expect(times).toEqual({ allowWrites: NEVER_CHANGED });
      const theirs = tools(true, {}, times, NEVER_CHANGED);
      expect(mergeFields('tools', tools(false, {}, { allowWrites: T0 }), theirs).merged.allowWrites).toBe(false);
      expect(mergeFields('tools', tools(false, {}, {}), theirs).merged.allowWrites).toBe(true);
    }
    for (const notAMap of [5, 'x', null, [T2], true]) expect(readFieldTimes(notAMap)).toEqual({});
  });

  it('never pollutes a prototype: `__proto__` as a field or a tool name is left out', () => {
    const raw = JSON.parse(`{"__proto__": "${T2}", "enabled.__proto__": "${T2}", "allowWrites": "${T2}"}`) as unknown;
    const times = readFieldTimes(raw);
    expect(Object.getPrototypeOf(times)).toBe(Object.prototype);
    const enabled = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, boolean>;
    const { merged } = mergeFields('tools', tools(false, enabled, times, T2), tools(true, {}, {}, T0));
    expect(Object.getPrototypeOf(merged.enabled)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(merged.allowWrites).toBe(false);
  });
});

describe('mergeFields with the defaults: a value chosen with no stamp beats a default nobody chose', () => {
  const defaults = defaultSettings();
  const never = NEVER_CHANGED;

  it('a file written from the defaults (after a {} data.json at load, or by a new device) replaces no value chosen here', () => {
    // Here: an older version's choices (no stamps): writes on, the server off on another port. There: the defaults.
    const mine: VaultMcpSettings['server'] = { ...defaults.server, enabled: false, port: 27300, changed_at: never };
    const { merged, keptMine } = mergeFields('server', mine, defaults.server, defaults.server);
    expect(merged).toMatchObject({ enabled: false, port: 27300 });
    expect(keptMine).toBe(true);
    const toolsHere = tools(true, { write_note: true }, undefined, never);
    expect(mergeFields('tools', toolsHere, defaults.tools, defaults.tools).merged).toMatchObject({
      allowWrites: true,
      enabled: { write_note: true },
    });
    // Without the defaults (the rule before): the file's defaults replaced them.
    expect(mergeFields('server', mine, defaults.server).merged).toMatchObject({ enabled: true, port: defaults.server.port });
  });

  it("the other way round the file's chosen value arrives; both chosen: the file's (the newer write); any stamp beats a chosen value", () => {
    const theirs: VaultMcpSettings['server'] = { ...defaults.server, enabled: false, changed_at: never };
    expect(mergeFields('server', defaults.server, theirs, defaults.server).merged.enabled).toBe(false);
    const mine: VaultMcpSettings['server'] = { ...defaults.server, port: 27300, changed_at: never };
    expect(mergeFields('server', mine, { ...theirs, port: 27400 }, defaults.server).merged.port).toBe(27400);
    // Turned back to the default in a settings tab there (stamped): beats the value chosen here without one.
    const stampedThere = { ...defaults.server, fieldTimes: { enabled: T1 }, changed_at: T1 };
    expect(mergeFields('server', { ...mine, enabled: false }, stampedThere, defaults.server).merged.enabled).toBe(true);
    // And a change made here (stamped) beats a value chosen there without one.
    const stampedHere = { ...defaults.server, fieldTimes: { enabled: T1 }, changed_at: T1 };
    expect(mergeFields('server', stampedHere, theirs, defaults.server).merged.enabled).toBe(true);
  });

  it('the activity limits and "Notify on new proposals" are fields too, stamped by the settings tab', () => {
    const activity = { ...defaults.activity, maxDays: 90, fieldTimes: { maxDays: T1 }, changed_at: T1 };
    expect(mergeFields('activity', activity, defaults.activity, defaults.activity).merged).toMatchObject({ maxDays: 90, maxMegabytes: 20 });
    const proposals = { notifyOnNew: false, fieldTimes: { notifyOnNew: T1 }, changed_at: T1 };
    expect(mergeFields('proposals', proposals, defaults.proposals, defaults.proposals).merged.notifyOnNew).toBe(false);
    const later = { notifyOnNew: true, fieldTimes: { notifyOnNew: T2 }, changed_at: T2 };
    expect(mergeFields('proposals', proposals, later, defaults.proposals).merged.notifyOnNew).toBe(true);
  });
});

describe('stampField: a change made here beats the stamp it replaces', () => {
  it('stamps exactly the field changed, now, and moves changed_at', () => {
    const block = tools(false, {}, { allowWrites: T0 }, T0);
    stampField('tools', block, toolToggleField('write_note'), Date.parse(T2));
    expect(block.fieldTimes).toEqual({ allowWrites: T0, 'enabled.write_note': T2 });
    expect(block.changed_at).toBe(T2);
  });

  it('after a stamp from a clock running a day ahead: 1 ms past it, so the change here still wins the next merge', () => {
    const block = tools(true, {}, { allowWrites: DAY_AHEAD }, DAY_AHEAD);
    stampField('tools', block, 'allowWrites', Date.parse(T2));
    const past = new Date(Date.parse(DAY_AHEAD) + 1).toISOString();
    expect(block.fieldTimes!.allowWrites).toBe(past);
    expect(block.changed_at).toBe(past);
    block.allowWrites = false;
    expect(mergeFields('tools', block, tools(true, {}, { allowWrites: DAY_AHEAD }, DAY_AHEAD)).merged.allowWrites).toBe(false);
  });

  it('a block from before field stamps first gives every field its changed_at, so that older change keeps its claim', () => {
    const block = tools(false, { list_tags: false }, undefined, T1);
    stampField('tools', block, 'enabled.write_note', Date.parse(T2));
    expect(block.fieldTimes).toEqual({ allowWrites: T1, 'enabled.list_tags': T1, 'enabled.write_note': T2 });
    const never = tools(false, {}, undefined, NEVER_CHANGED);
    stampField('tools', never, 'allowWrites', Date.parse(T2));
    expect(never.fieldTimes).toEqual({ allowWrites: T2 });
  });
});

describe('predatesStamps and the load of field stamps', () => {
  it('only a record with no changed_at at all is from a version before stamps', () => {
    expect(predatesStamps({ enabled: true })).toBe(true);
    for (const stamped of [{ changed_at: 0 }, { changed_at: null }, { changed_at: {} }, { changed_at: 'x' }, { changed_at: T0 }])
      expect(predatesStamps(stamped)).toBe(false);
    for (const notRecord of [undefined, null, 'on', 7, []]) expect(predatesStamps(notRecord)).toBe(false);
  });

  it('migrateSettings reads fieldTimes leniently on blocks and keys and adds none to a file without them', () => {
    const settings = migrateSettings({
      tools: { allowWrites: true, changed_at: T1, fieldTimes: { allowWrites: T1, 'enabled.x': 'soon' } },
      server: { changed_at: T1, fieldTimes: 'garbage' },
      ai: { changed_at: T1 },
      keys: [
        { id: 'a', label: 'A', created_at: T0, changed_at: T1, fieldTimes: { roots: T1, mode: 5 } },
        { id: 'b', label: 'B', created_at: T0, changed_at: null },
      ],
    });
    expect(settings.tools.fieldTimes).toEqual({ allowWrites: T1, 'enabled.x': NEVER_CHANGED });
    expect(settings.server.fieldTimes).toEqual({});
    expect(settings.ai.fieldTimes).toBeUndefined();
    expect(settings.keys[0].fieldTimes).toEqual({ roots: T1, mode: NEVER_CHANGED });
    // A key's changed_at that is there but no time is the epoch (not its created_at): B5.
    expect(settings.keys[1]).toMatchObject({ changed_at: NEVER_CHANGED });
    expect(settings.keys[1].fieldTimes).toBeUndefined();
  });
});
