/**
 * Per-field stamps (`fieldTimes`) of the settings blocks a sync merges (`server`, `tools`,
 * `skills`, `widgets`, `ai`) and of key records, so a synced data.json is merged field by field
 * rather than block by block (docs/settings.md#synced-settings). The settings tab and the key ring
 * stamp exactly the field they change; at a sync each field takes the value of the side that
 * changed it later, and a side that never changed it (no stamp) loses to one that did, so a device
 * that never touched "Allow writes" cannot flip it, whatever its clock or its other changes.
 */
import { NEVER_CHANGED } from './settings';
import { nextStamp, readableStamp, stampMs, type FieldTimes } from './stamps';

/** A settings block or key record that carries stamps. */
export interface Stamped {
  /** When anything in it last changed (what versions before `fieldTimes` merge by). */
  changed_at?: string;
  fieldTimes?: FieldTimes;
}

/**
 * The fields of each stamped block and of a key record, by the name their stamp goes under, with
 * the settings each covers. Settings that describe one thing travel together under one stamp: the
 * AI provider type, base URL and model name one endpoint (a model name means nothing at another
 * provider), so a change of any of them here brings all three. Each tool's own toggle
 * (`tools.enabled[name]`) is a field of its own, `enabled.<name>` ({@link toolToggleField}).
 * `ai.usage` is no field: each device counts its own tokens (ui/settings/external-change.ts).
 */
export const FIELD_GROUPS = {
  server: { enabled: ['enabled'], port: ['port'], maxBodyBytes: ['maxBodyBytes'] },
  tools: { allowWrites: ['allowWrites'] },
  skills: { folder: ['folder'] },
  widgets: { folder: ['folder'] },
  proposals: { notifyOnNew: ['notifyOnNew'] },
  activity: { maxMegabytes: ['maxMegabytes'], maxDays: ['maxDays'] },
  ai: {
    enabled: ['enabled'],
    allowRemote: ['allowRemote'],
    endpoint: ['provider', 'baseUrl', 'model'],
    embeddingModel: ['embeddingModel'],
    semanticIndex: ['semanticIndex'],
  },
  key: { label: ['label'], mode: ['mode'], scope: ['scope'], roots: ['roots'], tools: ['tools'] },
} as const satisfies Record<string, Record<string, readonly string[]>>;

/** What carries `fieldTimes`: a settings block, or a key record (`key`). */
export type FieldRecord = keyof typeof FIELD_GROUPS;
/** The settings blocks that carry `fieldTimes`. */
export const FIELD_BLOCKS = [
  'server',
  'tools',
  'skills',
  'widgets',
  'proposals',
  'activity',
  'ai',
] as const satisfies readonly FieldRecord[];

const TOOL_TOGGLE = 'enabled.';
/** A field name of record kind `R`. */
export type FieldOf<R extends FieldRecord> = (keyof (typeof FIELD_GROUPS)[R] & string) | (R extends 'tools' ? `enabled.${string}` : never);

/** The field of tool `name`'s own toggle (`tools.enabled[name]`) in `tools.fieldTimes`. */
export function toolToggleField(name: string): `enabled.${string}` {
  return `${TOOL_TOGGLE}${name}`;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every field of a record of kind `record`, as held by any of `sides`: name → the paths of the
 * settings it covers (`tools` adds a field per tool named in a side's `enabled` or `fieldTimes`).
 */
function fieldsOf(record: FieldRecord, ...sides: unknown[]): Map<string, string[][]> {
  const groups: Record<string, readonly string[]> = FIELD_GROUPS[record];
  const fields = new Map(Object.entries(groups).map(([name, members]) => [name, members.map((m) => [m])]));
  if (record !== 'tools') return fields;
  for (const side of sides) {
    if (!isObject(side)) continue;
    const names = [
      ...Object.keys(isObject(side.enabled) ? side.enabled : {}),
      ...Object.keys(isObject(side.fieldTimes) ? side.fieldTimes : {})
        .filter((f) => f.startsWith(TOOL_TOGGLE))
        .map((f) => f.slice(TOOL_TOGGLE.length)),
    ];
    for (const name of names) if (name !== '' && name !== '__proto__') fields.set(toolToggleField(name), [['enabled', name]]);
  }
  return fields;
}

/**
 * The field names a record of kind `record` may stamp, for messages (`enabled.<tool name>` stands for the tools' toggles).
 * @returns the names in table order.
 */
export function fieldNames(record: FieldRecord): string[] {
  return [...Object.keys(FIELD_GROUPS[record]), ...(record === 'tools' ? [`${TOOL_TOGGLE}<tool name>`] : [])];
}

/**
 * Reads `fieldTimes` as saved, leniently (a synced or hand-edited file must never stop the load):
 * anything not an object is no stamps; a stamp that is not text reading as a time is kept as the
 * epoch ({@link NEVER_CHANGED}: present, so it still beats a side with no stamp, but the oldest).
 * Field names are kept as written (a newer version may know more fields). Never throws.
 */
export function readFieldTimes(raw: unknown): FieldTimes {
  const out: FieldTimes = {};
  if (!isObject(raw)) return out;
  for (const [name, at] of Object.entries(raw)) if (name !== '__proto__') out[name] = readableStamp(at) ?? NEVER_CHANGED;
  return out;
}

/**
 * The field stamps of a record of kind `record`: its `fieldTimes`; for a record from a version
 * before them (none), its `changed_at` for every field when that is later than the epoch (it changed
 * some of them then, which is unknown: the block rule of those versions, kept for that change), else none.
 */
function timesOf(record: FieldRecord, side: Stamped): FieldTimes {
  if (side.fieldTimes !== undefined) return side.fieldTimes;
  const at = side.changed_at;
  if (at === undefined || stampMs(at, 0) <= 0) return {};
  return Object.fromEntries([...fieldsOf(record, side).keys()].map((name) => [name, at]));
}

/**
 * Whether a record as written in data.json (a block, a key) comes from a version before stamps: an
 * object with no `changed_at` at all. Such a record wins whole at a sync, as every record did then.
 * A `changed_at` that is there but no readable time (`0`, `{}`, `null`) is a stamp at the epoch, not this.
 */
export function predatesStamps(saved: unknown): boolean {
  return isObject(saved) && !Object.hasOwn(saved, 'changed_at');
}

/**
 * Records that the user changed `field` of `target` now, as the settings tab and the key ring do on
 * each change: its stamp becomes now, or 1 ms after the stamp it replaces when that is not earlier
 * (one from a device whose clock runs ahead), so this change beats it; `changed_at` moves the same way.
 * A record from a version before field stamps first gets its `changed_at` for every field ({@link timesOf}).
 * @param now ms since the epoch.
 */
export function stampField<R extends FieldRecord>(record: R, target: Stamped, field: FieldOf<R>, now: number = Date.now()): void {
  const times = timesOf(record, target);
  target.fieldTimes = { ...times, [field]: nextStamp(Object.hasOwn(times, field) ? times[field] : undefined, now) };
  target.changed_at = nextStamp(target.changed_at, now);
}

/** What {@link mergeFields} returns. */
export interface MergedFields<T> {
  merged: T;
  /** True when a field or stamp of this device's was kept, or its later `changed_at` (data.json should be saved again). */
  keptMine: boolean;
}

/**
 * Merges this device's record (`mine`) with a synced file's (`theirs`, as migrated) field by field:
 * each field ({@link FIELD_GROUPS}) is this device's when its stamp here is later than the file's
 * (a missing stamp is older than any, an unreadable one the epoch), else the file's. A field a side
 * holds at other than its default (`defaults`) with no stamp (set by a version before stamps, by
 * hand, or by a tool) counts as changed at the epoch there: a value somebody chose beats a default
 * nobody did (a file written from the defaults, after a `{}` or damaged data.json at load or by a
 * new device, replaces nothing), and any change made in a settings tab (stamped) beats it. So a tie,
 * or a field neither side stamped and both hold chosen (or default) values of, goes to the file, the
 * newer write of data.json. Everything else (unknown keys, `ai.usage`, a key's
 * ids and dates) is the file's. Stamps: the winner's per field, the later `changed_at`. A side with
 * no `fieldTimes` (a version before them) counts its `changed_at` for every field ({@link timesOf}); a
 * record written with no `changed_at` either is not merged here but taken whole ({@link predatesStamps}).
 * Never throws.
 * @param defaults the record of a fresh install (settings.ts defaultSettings), for a settings block; none for a key
 *   (a key record always carries a stamp: migrate-settings.ts migrateKey).
 * @returns `theirs` itself when nothing of this device's is kept, else a fresh record; neither side is changed.
 */
export function mergeFields<T extends Stamped>(record: FieldRecord, mine: T, theirs: T, defaults?: T): MergedFields<T> {
  const merged = copy(theirs) as T & Json;
  const mineTimes = timesOf(record, mine);
  const theirTimes = timesOf(record, theirs);
  const fields = fieldsOf(record, mine, theirs);
  const times: FieldTimes = {};
  let keptMine = false;
  /** `side`'s stamp of field `name`: its own, else the epoch when it holds a chosen value, else none. */
  const stampOf = (side: T, sideTimes: FieldTimes, name: string): string | undefined => {
    if (Object.hasOwn(sideTimes, name)) return sideTimes[name];
    if (defaults === undefined) return undefined;
    const chosen = (fields.get(name) ?? []).some((path) => JSON.stringify(valueAt(side, path)) !== JSON.stringify(valueAt(defaults, path)));
    return chosen ? NEVER_CHANGED : undefined;
  };
  for (const name of new Set([...fields.keys(), ...Object.keys(mineTimes), ...Object.keys(theirTimes)])) {
    if (name === '__proto__') continue;
    const a = stampOf(mine, mineTimes, name);
    const b = stampOf(theirs, theirTimes, name);
    const mineLater = later(a, b);
    const at = mineLater ? a : b;
    if (at !== undefined) times[name] = at;
    if (!mineLater) continue;
    keptMine = true;
    for (const path of fields.get(name) ?? []) setAt(merged, path, valueAt(mine, path));
  }
  if (later(mine.changed_at, theirs.changed_at)) {
    merged.changed_at = mine.changed_at;
    keptMine = true;
  }
  if (!keptMine) return { merged: theirs, keptMine };
  merged.fieldTimes = times;
  return { merged, keptMine };
}

/** Whether stamp `a` is later than `b` (a missing or unreadable one is older than any). */
function later(a: unknown, b: unknown): boolean {
  return stampMs(a, -Infinity) > stampMs(b, -Infinity);
}

/** A deep copy of a JSON value (settings are plain data). */
function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The value at `path` in `record` (own properties only), or undefined. */
function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const key of path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

/** Sets (a copy of) `value` at `path` in `record`, creating objects on the way; undefined deletes it. */
function setAt(record: Json, path: readonly string[], value: unknown): void {
  let parent = record;
  for (const key of path.slice(0, -1)) {
    if (!isObject(parent[key])) parent[key] = {};
    parent = parent[key] as Json;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete parent[last];
  else parent[last] = copy(value);
}
