import { readEntryTimes } from './access-entries';
import { FIELD_BLOCKS, readFieldTimes } from './field-times';
import { checkKeyRoots } from './key-roots';
import { mergeRevokedKeys, revokedIdsIn } from './revoked-keys';
import { readableStamp } from './stamps';
import { normalizeKeyMode, normalizeKeyScope, normalizeKeyTools, type KeyRecord } from './key-record';
import {
  defaultSettings,
  MAX_PORT,
  MIN_BODY_BYTES,
  MIN_PORT,
  NEVER_CHANGED,
  SETTINGS_SCHEMA_VERSION,
  type VaultMcpSettings,
  type WidgetWriter,
} from './settings';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a finite number above 0, else `fallback`. */
function positiveOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Merges `saved` over `defaults` key by key (objects recursively; arrays and scalars replace). */
function mergeOver<T>(defaults: T, saved: unknown): T {
  if (!isObject(defaults) || !isObject(saved)) return (saved === undefined ? defaults : saved) as T;
  const out: Json = { ...defaults };
  for (const [key, value] of Object.entries(saved)) {
    const base = (defaults as Json)[key];
    out[key] = isObject(base) && isObject(value) ? mergeOver(base, value) : value;
  }
  return out as T;
}

/**
 * A saved key's roots (key-roots.ts): normalized when every one passes the roots rule; else kept
 * as written, so the key is refused at the server's door and confined to nothing, never widened to
 * the whole vault by dropping the bad root. A lone string is one root; missing or null is no roots
 * (the whole vault); any other value, or a non-text entry, becomes an empty root, refused the same way.
 */
function migrateRoots(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const given = Array.isArray(raw) ? raw : [raw];
  const roots = given.map((root) => (typeof root === 'string' ? root : ''));
  const verdict = checkKeyRoots(roots);
  return verdict.ok ? verdict.roots : roots;
}

/**
 * Repairs one saved key record (unknown mode → propose, scope → local, roots by {@link migrateRoots}, tools → all: keys from before
 * tool sets keep every tool; no `changed_at` → `created_at`, one that is there but no readable time → the epoch, so this version's
 * data.json always carries it; `fieldTimes` read by field-times.ts readFieldTimes: keys/key-ring.ts mergeSyncedKeys).
 */
function migrateKey(raw: unknown): KeyRecord | null {
  if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.label !== 'string') return null;
  const created_at = typeof raw.created_at === 'string' ? raw.created_at : NEVER_CHANGED;
  const key: KeyRecord = {
    id: raw.id,
    label: raw.label,
    mode: normalizeKeyMode(raw.mode),
    scope: normalizeKeyScope(raw.scope),
    roots: migrateRoots(raw.roots),
    tools: normalizeKeyTools(raw.tools),
    created_at,
    last_used_at: typeof raw.last_used_at === 'string' ? raw.last_used_at : null,
    changed_at: raw.changed_at === undefined ? created_at : stampOf(raw.changed_at),
  };
  return raw.fieldTimes === undefined ? key : { ...key, fieldTimes: readFieldTimes(raw.fieldTimes) };
}

/**
 * Repairs the widget writers record (settings `widgetWriters`) without ever dropping an entry: an
 * entry is what confines a widget to its key's view, so a damaged one is kept with an empty key id,
 * which names no key (the widget then shows no data and says why) rather than falling back to the
 * user's whole view. Ids are lower-cased. Not an object at all: no entries. The same repair serves
 * `widgetTexts` (keyed by a text's SHA-256 hex, lower-cased too).
 */
function migrateWidgetWriters(raw: unknown): Record<string, WidgetWriter> {
  const out: Record<string, WidgetWriter> = {};
  if (!isObject(raw)) return out;
  for (const [id, entry] of Object.entries(raw)) {
    const e: Json = isObject(entry) ? entry : {};
    out[id.toLowerCase()] = {
      key_id: typeof e.key_id === 'string' ? e.key_id : '',
      key_label: typeof e.key_label === 'string' ? e.key_label : '',
      written_at: typeof e.written_at === 'string' ? e.written_at : new Date(0).toISOString(),
      ...(typeof e.hash === 'string' ? { hash: e.hash.toLowerCase() } : {}),
    };
  }
  return out;
}

/**
 * The settings blocks the settings tab stamps with `changed_at` when the user changes them (versions
 * before field stamps merge a synced data.json's blocks whole by it; this one merges them field by
 * field, field-times.ts FIELD_BLOCKS, and keeps the later `changed_at` for those versions:
 * ui/settings/external-change.ts, docs/settings.md#synced-settings). `access` carries no stamp: its
 * lists merge entry by entry (access-entries.ts mergeAccessLists), and a file that still holds
 * `access.changed_at` (versions before this one stamped it, though nothing merged by it) loads with it dropped.
 */
export const STAMPED_BLOCKS = ['server', 'tools', 'skills', 'widgets', 'proposals', 'activity', 'ai'] as const;

/**
 * `access.quarantine` as saved, read as a list: a lone text is one folder (`"Journal"` means
 * `["Journal"]`: a hand edit's evident meaning, and reading it so only narrows access); anything
 * else that is not a list quarantines nothing, and {@link accessShapeNotice} tells the user.
 * Entries are kept as written (quarantine.ts quarantineNotice names those that name no folder).
 */
function readQuarantine(raw: unknown): unknown[] {
  if (typeof raw === 'string') return [raw];
  return Array.isArray(raw) ? raw : [];
}

/**
 * The warning for an `access` block of data.json whose shape the lenient load could not read as
 * the user meant (a hand edit, a sync tool's merge): the block not an object, or `trustedSymlinks`
 * or `quarantine` neither a list nor (for `quarantine`) one folder's text. What was read instead
 * narrows nothing and widens nothing (no link trusted, no folder of the user's quarantined), so
 * the user is told, once at load and at each outside change, as for the quarantine entries
 * (quarantine.ts quarantineNotice). Missing keys are fine (defaults).
 * @param saved data.json as parsed (anything).
 * @returns `Vault MCP: ` and one sentence per problem, naming the setting, what was found and what
 *   to write, or null when there is none.
 */
export function accessShapeNotice(saved: unknown): string | null {
  if (!isObject(saved) || saved.access === undefined) return null;
  const found = (value: unknown): string => (isObject(value) ? 'an object' : (JSON.stringify(value) ?? String(value)).slice(0, 40));
  if (!isObject(saved.access)) {
    return `Vault MCP: "access" in data.json is ${found(saved.access)}, not an object, so no folder of yours is quarantined and no link is trusted; set them again in Vault MCP settings → Access.`;
  }
  const problems: string[] = [];
  const { quarantine, trustedSymlinks } = saved.access;
  if (quarantine !== undefined && typeof quarantine !== 'string' && !Array.isArray(quarantine)) {
    problems.push(
      `access.quarantine is ${found(quarantine)}, not a list of folders, so none of yours is quarantined; write it as ["Private"] or add the folders in Vault MCP settings → Access.`,
    );
  }
  if (trustedSymlinks !== undefined && !Array.isArray(trustedSymlinks)) {
    const write = typeof trustedSymlinks === 'string' ? JSON.stringify([trustedSymlinks]) : '["Shared"]';
    problems.push(
      `access.trustedSymlinks is ${found(trustedSymlinks)}, not a list, so no symbolic link is trusted; write it as ${write} or trust the link again in Vault MCP settings → Access.`,
    );
  }
  return problems.length === 0 ? null : `Vault MCP: ${problems.join(' ')}`;
}

/**
 * Whether data.json as parsed holds settings: an object with at least one of the settings' own keys
 * (`server`, `keys`, `revokedKeys`, `tools`, …; `schemaVersion` alone is none). `{}`, or an object of
 * unknown keys only, holds none: merged at a sync it would pass for a file of a version before
 * stamps and revocation lists, whose missing keys drop this device's keys (ui/settings/external-change.ts refuses it).
 * @param saved data.json as parsed (anything).
 */
export function holdsSettings(saved: unknown): boolean {
  if (!isObject(saved)) return false;
  return Object.keys(defaultSettings()).some((key) => key !== 'schemaVersion' && Object.hasOwn(saved, key));
}

/**
 * The warning for a data.json met at load that parses as an object but holds none of the settings
 * ({@link holdsSettings}: `{}`, or only keys this version does not know; a sync or a tool emptied
 * it). Settings then start from their defaults, as on a fresh install, since there is nothing else
 * to start from; at a sync the same file is refused and the current settings kept
 * (ui/settings/external-change.ts). The defaults carry no stamps, so the data.json this device
 * writes from them replaces nothing another device changed (field-times.ts mergeFields), and that
 * device's copy, synced in, brings its settings back.
 * @param saved data.json as parsed at load (null: no file, a fresh install: no warning).
 * @returns `Vault MCP: ` and what happened and what to do, or null.
 */
export function noSettingsNotice(saved: unknown): string | null {
  if (saved === null || saved === undefined || holdsSettings(saved)) return null;
  return `Vault MCP: data.json holds no settings (${whatItHolds(saved)}: a sync or another tool emptied it), so settings start from their defaults: no keys, no folders of yours quarantined, writes off. If another device has your settings, its data.json brings them back at the next sync (these defaults replace nothing there); else set them again in Vault MCP settings.`;
}

/** Unknown keys a {@link noSettingsNotice} names at most, each cut to {@link NOTICE_KEY_CHARS} code points (never inside a surrogate pair). */
const NOTICE_KEYS = 3;
const NOTICE_KEY_CHARS = 40;

/** What a data.json without settings holds, for {@link noSettingsNotice}: `it is {}`, `it holds only schemaVersion`, or its unknown keys (the first {@link NOTICE_KEYS}, JSON-quoted). */
function whatItHolds(saved: unknown): string {
  const keys = isObject(saved) ? Object.keys(saved) : [];
  if (keys.length === 0) return 'it is {}';
  const unknown = keys.filter((key) => key !== 'schemaVersion');
  if (unknown.length === 0) return 'it holds only schemaVersion';
  const named = unknown
    .slice(0, NOTICE_KEYS)
    .map((key) => JSON.stringify([...key].length > NOTICE_KEY_CHARS ? `${[...key].slice(0, NOTICE_KEY_CHARS).join('')}…` : key));
  const more = unknown.length > NOTICE_KEYS ? ` and ${unknown.length - NOTICE_KEYS} more` : '';
  return `it holds only keys this version does not know: ${named.join(', ')}${more}`;
}

/** A block's `changed_at` ({@link STAMPED_BLOCKS}) as saved when it is a readable time, else {@link NEVER_CHANGED}. */
function stampOf(raw: unknown): string {
  return readableStamp(raw) ?? NEVER_CHANGED;
}

/** The AI provider types `ai.provider` may name (settings.ts). */
const AI_PROVIDERS: readonly string[] = ['openai-compatible', 'anthropic'] satisfies ReadonlyArray<VaultMcpSettings['ai']['provider']>;

/** `tools.enabled` read leniently: a toggle that is not true or false is off, and a block that is not an object is empty. */
function readToolToggles(raw: unknown): Record<string, boolean> {
  if (!isObject(raw)) return {};
  return Object.fromEntries(Object.entries(raw).map(([tool, on]) => [tool, on === true]));
}

/**
 * Turns whatever `Plugin.loadData()` returned (null on first run, an older schema, or a
 * file edited by hand or synced from another device) into current settings. Unknown keys
 * are kept, missing ones take defaults, invalid key records are dropped, and so are records of keys
 * listed as revoked ({@link mergeRevokedKeys}); a body limit under MIN_BODY_BYTES and a port outside MIN_PORT–MAX_PORT fall back to the
 * default; a block ({@link STAMPED_BLOCKS}) without a readable `changed_at` gets {@link NEVER_CHANGED}, one that is
 * not an object its defaults; `access.quarantine` given as one text is that one folder ({@link readQuarantine}), a
 * `trustedSymlinks` that is not a list trusts nothing, `access.entryTimes` keeps only readable times
 * (access-entries.ts readEntryTimes), each block's and key's `fieldTimes` keeps only readable times (field-times.ts
 * readFieldTimes; an unreadable one is the epoch); the switches that widen what agents or the AI provider may do
 * (`server.enabled`, `tools.allowWrites`, each `tools.enabled` toggle, `ai.enabled`, `ai.allowRemote`) are off
 * when they are not true or false (a hand-written `"false"` is text, and would be truthy), and an
 * `ai.provider` other than `openai-compatible` or `anthropic` is the default's.
 * @returns a fresh object; `schemaVersion` is {@link SETTINGS_SCHEMA_VERSION}.
 */
export function migrateSettings(saved: unknown): VaultMcpSettings {
  const defaults = defaultSettings();
  if (!isObject(saved)) return defaults;
  const merged = mergeOver(defaults, saved);
  // A block that is not an object (a hand edit) takes its defaults rather than stopping the load.
  for (const block of ['server', 'tools', 'access', 'ai'] as const)
    if (!isObject(merged[block])) Object.assign(merged, { [block]: defaults[block] });
  const port = Number(merged.server.port);
  merged.server.port = Number.isInteger(port) && port >= MIN_PORT && port <= MAX_PORT ? port : defaults.server.port;
  // A limit below the smallest request (a hand edit) would refuse every request, initialize too, blaming the client.
  const bodyBytes = merged.server.maxBodyBytes;
  if (!Number.isInteger(bodyBytes) || bodyBytes < MIN_BODY_BYTES) merged.server.maxBodyBytes = defaults.server.maxBodyBytes;
  merged.revokedKeys = mergeRevokedKeys(saved.revokedKeys);
  // A key revoked somewhere never comes back with a record a sync merged back in beside its revocation (all of them, past the stored bound).
  const revoked = revokedIdsIn(saved.revokedKeys);
  merged.keys = (Array.isArray(saved.keys) ? saved.keys : [])
    .map(migrateKey)
    .filter((k): k is KeyRecord => k !== null && !revoked.has(k.id));
  // Entries stay as written, text or not (quarantine.ts reads each and quarantineNotice names the unreadable).
  merged.access.quarantine = readQuarantine(merged.access.quarantine) as string[];
  // A trusted link widens access: anything but a list trusts nothing (accessShapeNotice tells the user).
  if (!Array.isArray(merged.access.trustedSymlinks)) merged.access.trustedSymlinks = [];
  // Per-entry times are read leniently (bad ones dropped); a file without them loads as before.
  // The block's own stamp decided nothing (the lists merge by their entries' times): an older file's is dropped, not written back.
  delete (merged.access as { changed_at?: unknown }).changed_at;
  if (merged.access.entryTimes !== undefined) merged.access.entryTimes = readEntryTimes(merged.access.entryTimes);
  // Switches that widen what agents may do read a non-flag (a hand-written "false" is text, and truthy) as off.
  merged.tools.enabled = readToolToggles(merged.tools.enabled);
  if (typeof merged.tools.allowWrites !== 'boolean') merged.tools.allowWrites = false;
  if (typeof merged.server.enabled !== 'boolean') merged.server.enabled = false;
  if (!isObject(merged.proposals)) merged.proposals = defaults.proposals;
  else if (typeof merged.proposals.notifyOnNew !== 'boolean') merged.proposals.notifyOnNew = defaults.proposals.notifyOnNew;
  if (!isObject(merged.skills) || typeof merged.skills.folder !== 'string') merged.skills = defaults.skills;
  if (!isObject(merged.widgets) || typeof merged.widgets.folder !== 'string') merged.widgets = defaults.widgets;
  if (!isObject(merged.activity)) merged.activity = defaults.activity;
  merged.activity.maxMegabytes = positiveOr(merged.activity.maxMegabytes, defaults.activity.maxMegabytes);
  merged.activity.maxDays = positiveOr(merged.activity.maxDays, defaults.activity.maxDays);
  // Files from before the stamps have none: the epoch, so this version's data.json always carries one.
  for (const block of STAMPED_BLOCKS) merged[block].changed_at = stampOf(merged[block].changed_at);
  // Field stamps read leniently (field-times.ts); a block from before them has none, and merges by its changed_at.
  for (const block of FIELD_BLOCKS)
    if (merged[block].fieldTimes !== undefined) merged[block].fieldTimes = readFieldTimes(merged[block].fieldTimes);
  merged.widgetWriters = migrateWidgetWriters(merged.widgetWriters);
  merged.widgetTexts = migrateWidgetWriters(merged.widgetTexts);
  if (typeof merged.ai.embeddingModel !== 'string') merged.ai.embeddingModel = defaults.ai.embeddingModel;
  if (typeof merged.ai.semanticIndex !== 'boolean') merged.ai.semanticIndex = defaults.ai.semanticIndex;
  // Each opens a way out for note text: a hand-written "false" (text, so truthy) or other non-flag must not turn it on.
  if (typeof merged.ai.enabled !== 'boolean') merged.ai.enabled = false;
  if (typeof merged.ai.allowRemote !== 'boolean') merged.ai.allowRemote = false;
  // The two provider types there are (the AI section offers no other); anything else is the default's.
  if (!AI_PROVIDERS.includes(merged.ai.provider)) merged.ai.provider = defaults.ai.provider;
  merged.schemaVersion = SETTINGS_SCHEMA_VERSION;
  return merged;
}
