/**
 * The strict reading of the plugin's settings format (data.json, settings.ts), for settings a
 * person hands over as a file (`npm start -- --settings FILE`, the vault's own data.json in a
 * run). The plugin's own load stays lenient (migrate-settings.ts repairs what it can, because a
 * synced or hand-edited file must never stop Obsidian); this check instead names the first
 * thing that is wrong, so a typo is fixed rather than silently ignored. Every key is optional:
 * what a file leaves out takes its default.
 */
import * as z from 'zod';
import { checkKeyRoots, KEY_ROOT_ADVICE, quoteRoot } from './key-roots';
import { FIELD_BLOCKS, FIELD_GROUPS, fieldNames, toolToggleField, type FieldRecord } from './field-times';
import { migrateSettings } from './migrate-settings';
import { stampMs } from './stamps';
import { MAX_PORT, MIN_BODY_BYTES, MIN_PORT, SETTINGS_SCHEMA_VERSION, type VaultMcpSettings } from './settings';

/** "must be …" texts, one per kind of value, shared by every key of that kind. */
const TEXT = 'text in quotes';
const FLAG = 'true or false';
const COUNT = 'a whole number of 0 or more';
const PORT = `a whole number from ${MIN_PORT} to ${MAX_PORT}`;
const KEY_ID = 'lowercase letters, digits and dashes in quotes, as secret storage ids are';
const POSITIVE = 'a number above 0';
const FOLDERS = 'a list of vault folders in quotes, such as ["Private"]';

const text = z.string({ error: TEXT });
const flag = z.boolean({ error: FLAG });
const count = z.number({ error: COUNT }).int({ error: COUNT }).min(0, { error: COUNT });
const BODY_BYTES = `a whole number of bytes from ${MIN_BODY_BYTES} up (the largest request body the server reads; default 4194304)`;
const bodyBytes = z.number({ error: BODY_BYTES }).int({ error: BODY_BYTES }).min(MIN_BODY_BYTES, { error: BODY_BYTES });
const positive = z.number({ error: POSITIVE }).positive({ error: POSITIVE });
const folders = z.array(text, { error: FOLDERS });
const object = (what: string) => ({ error: `an object of ${what} in braces` });
const TIME = 'a date and time in quotes, such as "2026-01-31T09:00:00.000Z"';
const time = z.string({ error: TIME }).refine((t) => Number.isFinite(stampMs(t, NaN)), { error: TIME });
const entryTimes = z.record(
  z.string(),
  z.strictObject({ added: time, removed: time }, object('"added" and "removed" times')).partial(),
  object('paths to their "added" and "removed" times'),
);

/** `fieldTimes` of a block or key: field names (checked by {@link checkFieldTimes}) to when each changed. */
const fieldTimes = z.record(z.string(), time, object('field names to the times they last changed'));

const keyRecordSchema = z
  .strictObject(
    {
      id: z.string({ error: KEY_ID }).regex(/^[a-z0-9-]+$/, { error: KEY_ID }),
      label: text,
      mode: z.enum(['propose', 'force'], { error: '"propose" or "force"' }),
      scope: z.enum(['local', 'cloud', 'both'], { error: '"local", "cloud" or "both"' }),
      roots: folders,
      tools: z.union([z.literal('all'), z.literal('read'), z.array(text)], { error: '"all", "read" or a list of tool names in quotes' }),
      created_at: text,
      last_used_at: text.nullable(),
      changed_at: text,
      fieldTimes,
    },
    object('key settings'),
  )
  .partial();

/**
 * An `access` block without the `changed_at` versions before this one wrote (migrate-settings.ts STAMPED_BLOCKS:
 * the lists merge by their entries' times, and the block's stamp is no longer kept); anything else as given.
 */
function withoutAccessStamp(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !Object.hasOwn(raw, 'changed_at')) return raw;
  const { changed_at: _dropped, ...rest } = raw as Record<string, unknown>;
  return rest;
}

/** The settings format as a Zod schema: strict objects (unknown keys refused), every key optional. */
export const SETTINGS_FILE_SCHEMA = z
  .strictObject(
    {
      schemaVersion: z.number({ error: COUNT }).int({ error: COUNT }).min(0, { error: COUNT }),
      server: z
        .strictObject(
          {
            enabled: flag,
            port: z.number({ error: PORT }).int({ error: PORT }).min(MIN_PORT, { error: PORT }).max(MAX_PORT, { error: PORT }),
            maxBodyBytes: bodyBytes,
            changed_at: text,
            fieldTimes,
          },
          object('server settings'),
        )
        .partial(),
      keys: z.array(keyRecordSchema, { error: 'a list of key objects in brackets' }),
      revokedKeys: z.array(
        z.strictObject(
          { id: z.string({ error: KEY_ID }).regex(/^[a-z0-9-]+$/, { error: KEY_ID }), revoked_at: text },
          object('id and revoked_at'),
        ),
        { error: 'a list of revoked keys ({"id": …, "revoked_at": …}) in brackets' },
      ),
      tools: z
        .strictObject(
          {
            allowWrites: flag,
            enabled: z.record(z.string(), flag, object('tool names to true or false')),
            changed_at: text,
            fieldTimes,
          },
          object('tool settings'),
        )
        .partial(),
      // An older version's `access.changed_at` (stamped, never merged by) is read past: its data.json still starts a run.
      access: z.preprocess(
        withoutAccessStamp,
        z
          .strictObject(
            {
              quarantine: folders,
              trustedSymlinks: folders,
              entryTimes: z
                .strictObject({ quarantine: entryTimes, trustedSymlinks: entryTimes }, object('quarantine and trustedSymlinks times'))
                .partial(),
            },
            object('access settings'),
          )
          .partial(),
      ),
      skills: z.strictObject({ folder: text, changed_at: text, fieldTimes }, object('skills settings')).partial(),
      proposals: z.strictObject({ notifyOnNew: flag, changed_at: text, fieldTimes }, object('proposal settings')).partial(),
      widgets: z.strictObject({ folder: text, changed_at: text, fieldTimes }, object('widget settings')).partial(),
      widgetWriters: z.record(
        z.string(),
        z.strictObject(
          { key_id: text, key_label: text, written_at: text, hash: text.optional() },
          object('key_id, key_label, written_at and hash'),
        ),
        object('widget ids to the key that last wrote each'),
      ),
      widgetTexts: z.record(
        z.string(),
        z.strictObject(
          { key_id: text, key_label: text, written_at: text, hash: text.optional() },
          object('key_id, key_label and written_at'),
        ),
        object('widget text hashes to the key that wrote each'),
      ),
      activity: z
        .strictObject({ maxMegabytes: positive, maxDays: positive, changed_at: text, fieldTimes }, object('activity log limits'))
        .partial(),
      ai: z
        .strictObject(
          {
            enabled: flag,
            allowRemote: flag,
            provider: z.enum(['openai-compatible', 'anthropic'], { error: '"openai-compatible" or "anthropic"' }),
            baseUrl: text,
            model: text,
            embeddingModel: text,
            semanticIndex: flag,
            usage: z
              .strictObject({ inputTokens: count, outputTokens: count, embeddingTokens: count, scope: text }, object('token counters'))
              .partial(),
            changed_at: text,
            fieldTimes,
          },
          object('AI provider settings'),
        )
        .partial(),
    },
    object('settings'),
  )
  .partial();

/** What {@link checkSettingsData} found: the settings to use, or the first problem. */
export type SettingsVerdict =
  | { ok: true; settings: VaultMcpSettings }
  | {
      ok: false;
      /** The key at fault as a path, e.g. `access.quarantine`, `keys[1].mode`; '' for the whole file. */
      key: string;
      /** One sentence naming the key, what it must be and what to do (no file name: the caller adds it). */
      message: string;
    };

/** Options of {@link checkSettingsData}. */
export interface CheckSettingsOptions {
  /** Names of the plugin's tools; when given, `tools.enabled` may name only these (tools/registry.ts). */
  toolNames?: readonly string[];
}

/** Key names that hold secrets elsewhere; met in a file they get their own advice. */
const SECRET_NAMES = /^(token|tokens|api_?key|secret|password)$/i;

/**
 * Checks settings read from a file against the plugin's settings format (settings.ts), strictly:
 * unknown keys, values of the wrong type, enum values outside their list, a port outside
 * MIN_PORT–MAX_PORT, a `schemaVersion` newer than this plugin reads, key records without a label
 * or with a label or id used twice, a label with spaces at its ends, a key root that breaks the roots rule (key-roots.ts: empty,
 * `.`, absolute, climbing out with `..`), a `fieldTimes` time that is no date or a field name the block or key does not
 * have (field-times.ts FIELD_GROUPS), and (with `toolNames`) unknown tool names are refused. One folder's text
 * where a folder list goes (`"quarantine": "Journal"`) is refused with the list to write (`["Journal"]`): the lenient
 * load reads it as that folder for the quarantine but as nothing for trusted links, so a run does not guess.
 * @param data the parsed JSON (anything).
 * @returns `{ok: true, settings}` with every missing key at its default (migrateSettings) and
 *   every key record given an id (`key-<n>`) when it has none and its roots normalized
 *   (`Projects/` → `Projects`), or
 *   `{ok: false, key, message}` for the first problem in document order. Never throws.
 */
export function checkSettingsData(data: unknown, options: CheckSettingsOptions = {}): SettingsVerdict {
  const parsed = SETTINGS_FILE_SCHEMA.safeParse(data);
  if (!parsed.success) return describeIssue(parsed.error.issues[0], data);
  const file = parsed.data;
  if (file.schemaVersion !== undefined && file.schemaVersion > SETTINGS_SCHEMA_VERSION) {
    return problem(
      'schemaVersion',
      `schemaVersion ${file.schemaVersion} was written by a newer Vault MCP (this one reads up to ${SETTINGS_SCHEMA_VERSION}); update Vault MCP, or remove the key to read the file as version ${SETTINGS_SCHEMA_VERSION}.`,
    );
  }
  const keyProblem = checkKeys(file.keys ?? []) ?? checkFieldNames(file, options.toolNames);
  if (keyProblem) return keyProblem;
  if (options.toolNames) {
    const unknown = Object.keys(file.tools?.enabled ?? {}).find((name) => !options.toolNames!.includes(name));
    if (unknown !== undefined) {
      return problem(
        `tools.enabled.${unknown}`,
        `tools.enabled.${unknown} is not a tool of Vault MCP; correct the name or remove it (tools: ${options.toolNames.join(', ')}).`,
      );
    }
    for (const [i, key] of (file.keys ?? []).entries()) {
      const name = Array.isArray(key.tools) ? key.tools.find((t) => !options.toolNames!.includes(t)) : undefined;
      if (name !== undefined) {
        return problem(
          `keys[${i}].tools`,
          `keys[${i}].tools names "${name}", which is not a tool of Vault MCP; correct the name or remove it (tools: ${options.toolNames.join(', ')}).`,
        );
      }
    }
  }
  return { ok: true, settings: migrateSettings(withKeyIds(withCheckedRoots(data as Record<string, unknown>), file.keys ?? [])) };
}

/**
 * `data` with an id for every key record that has none: `key-<n>` (n its 1-based place in the
 * list, counted up past ids already taken), so a hand-written file need not invent ids.
 */
function withKeyIds(data: Record<string, unknown>, keys: Array<{ id?: string }>): Record<string, unknown> {
  if (keys.every((key) => key.id !== undefined)) return data;
  const taken = new Set(keys.map((key) => key.id));
  const records = keys.map((key, i) => {
    if (key.id !== undefined) return key;
    let n = i + 1;
    while (taken.has(`key-${n}`)) n++;
    taken.add(`key-${n}`);
    return { ...key, id: `key-${n}` };
  });
  return { ...data, keys: records };
}

/** `data` with each key record's roots in the normalized form {@link checkKeyRoots} gives (they passed it in {@link checkKeys}). */
function withCheckedRoots(data: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(data.keys)) return data;
  const keys = (data.keys as Array<Record<string, unknown>>).map((key) => {
    const verdict = Array.isArray(key.roots) ? checkKeyRoots(key.roots) : null;
    return verdict?.ok ? { ...key, roots: verdict.roots } : key;
  });
  return { ...data, keys };
}

/** Labels present, non-empty and unique; ids unique; roots by the roots rule (key-roots.ts). */
function checkKeys(keys: Array<{ id?: string; label?: string; roots?: string[] }>): SettingsVerdict | null {
  for (const [i, key] of keys.entries()) {
    const roots = checkKeyRoots(key.roots ?? []);
    if (!roots.ok)
      return problem(
        `keys[${i}].roots[${roots.index}]`,
        `keys[${i}].roots[${roots.index}] ${quoteRoot(roots.given)} ${roots.reason}; ${KEY_ROOT_ADVICE}.`,
      );
    const label = key.label?.trim() ?? '';
    if (label === '')
      return problem(
        `keys[${i}].label`,
        `keys[${i}].label is ${key.label === undefined ? 'missing' : 'empty'}; give every key a label, the name of the client that uses it, such as "Claude Code".`,
      );
    // A note's agent_overrides names a key by its exact label (docs/security.md): a label with spaces at its ends, which the
    // settings tab never saves, would escape the rules written for the label as it reads.
    if (key.label !== label)
      return problem(
        `keys[${i}].label`,
        `keys[${i}].label ${JSON.stringify(key.label)} has spaces at its ends; write it as ${JSON.stringify(label)} (agent_overrides in notes match labels exactly).`,
      );
    const first = keys.findIndex((other) => other.label?.trim() === label);
    if (first < i)
      return problem(`keys[${i}].label`, `keys[${i}].label "${label}" is also the label of keys[${first}]; give each key its own label.`);
    const sameId = key.id === undefined ? -1 : keys.findIndex((other) => other.id === key.id);
    if (sameId !== -1 && sameId < i)
      return problem(
        `keys[${i}].id`,
        `keys[${i}].id "${key.id}" is also the id of keys[${sameId}]; give each key its own id, or leave ids out.`,
      );
  }
  return null;
}

/**
 * The field names of every `fieldTimes` (field-times.ts FIELD_GROUPS): one the block or key does not
 * have is refused, naming the ones it has; in `tools`, `enabled.<name>` must name a tool of Vault MCP
 * (when `toolNames` is given), as `tools.enabled` must.
 */
function checkFieldNames(file: z.infer<typeof SETTINGS_FILE_SCHEMA>, toolNames?: readonly string[]): SettingsVerdict | null {
  const stamped: Array<[string, FieldRecord, Record<string, string> | undefined]> = [
    ...FIELD_BLOCKS.map((block): [string, FieldRecord, Record<string, string> | undefined] => [block, block, file[block]?.fieldTimes]),
    ...(file.keys ?? []).map((key, i): [string, FieldRecord, Record<string, string> | undefined] => [`keys[${i}]`, 'key', key.fieldTimes]),
  ];
  for (const [where, record, times] of stamped) {
    for (const name of Object.keys(times ?? {})) {
      if (Object.hasOwn(FIELD_GROUPS[record], name)) continue;
      const tool = record === 'tools' && name.startsWith(toolToggleField('')) ? name.slice(toolToggleField('').length) : '';
      if (tool !== '' && (toolNames === undefined || toolNames.includes(tool))) continue;
      const key = `${where}.fieldTimes.${name}`;
      if (tool !== '')
        return problem(
          key,
          `${key} names "${tool}", which is not a tool of Vault MCP; correct the name or remove it (tools: ${toolNames!.join(', ')}).`,
        );
      return problem(key, `${key} is not a field of ${where}; write one of ${fieldNames(record).join(', ')}, or remove it.`);
    }
  }
  return null;
}

function problem(key: string, message: string): SettingsVerdict {
  return { ok: false, key, message };
}

/** `a.b[2].c` from Zod's path segments. */
function keyPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${shownKeyName(String(segment))}`))
    .join('');
}

/** Longest key name a settings message shows, code points; a longer one is cut with `…`. */
const SHOWN_NAME_CHARS = 40;
/** Characters a terminal acts on or that reorder the line shown (C0, DEL, C1, bidi marks and overrides). */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const UNSHOWN_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A key name of a settings file as messages show it (npm start prints them to a terminal): cut
 * after {@link SHOWN_NAME_CHARS} code points with `…` (a 1 MB name is not a 1 MB line), and each
 * control or bidi character written as a `\uXXXX` escape, so a name holding ESC or BEL cannot
 * recolour or retitle the terminal.
 * @param name a key as written in the file.
 * @returns the name to print.
 */
export function shownKeyName(name: string): string {
  const points = [...name];
  const cut = points.length > SHOWN_NAME_CHARS ? `${points.slice(0, SHOWN_NAME_CHARS).join('')}…` : name;
  return cut.replace(UNSHOWN_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The value at `path` in `data`, or undefined. */
function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = data;
  for (const segment of path)
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[segment] : undefined;
  return value;
}

/** A short quote of a found value: JSON for scalars (at most 40 chars), "a list" / "an object" otherwise. */
function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 37)}...` : json;
}

/** The first Zod issue as one sentence naming the key, what it must be and what to do. */
function describeIssue(issue: z.core.$ZodIssue, data: unknown): SettingsVerdict {
  if (issue.code === 'unrecognized_keys') {
    const name = issue.keys[0];
    const key = keyPath([...issue.path, name]);
    const parent = issue.path.length ? keyPath(issue.path) : 'the top level';
    const secret = SECRET_NAMES.test(name) ? " (tokens and API keys never go in settings: they live in Obsidian's secret storage)" : '';
    return problem(
      key,
      `${key} is not a setting${secret}; correct its spelling or remove it (settings of ${parent}: ${knownKeys(issue.path).join(', ')}).`,
    );
  }
  const key = keyPath(issue.path);
  const found = valueAt(data, issue.path);
  // One folder written where a list goes (`"quarantine": "Journal"`): the plugin's lenient load reads it as one folder for
  // the quarantine and as nothing for trusted links and roots; here it is refused either way, with the list to write.
  if (issue.message === FOLDERS && typeof found === 'string')
    return problem(
      key,
      `${key} must be a list of vault folders in brackets, not one folder's text (found ${describeValue(found)}); write it as ${JSON.stringify([found])}.`,
    );
  if (key === '')
    return problem(
      '',
      `The file holds ${describeValue(data)}, not settings; write a settings object in braces, such as {"access": {"quarantine": ["Private"]}}.`,
    );
  return problem(key, `${key} must be ${issue.message} (found ${describeValue(found)}); correct it, or remove it to use the default.`);
}

/** The setting names the schema knows at `path` (an object's keys; arrays stepped through). */
function knownKeys(path: ReadonlyArray<PropertyKey>): string[] {
  let schema: z.ZodType = SETTINGS_FILE_SCHEMA;
  for (const segment of path) schema = stepInto(schema, segment);
  // The stamps are the settings tab's, not settings a person writes.
  return Object.keys(shapeOf(schema)).filter((name) => !STAMP_NAMES.has(name));
}

/** Keys the plugin writes to record when a setting changed (field-times.ts, access-entries.ts): left out of the names a message suggests. */
const STAMP_NAMES = new Set(['changed_at', 'fieldTimes', 'entryTimes']);

function stepInto(schema: z.ZodType, segment: PropertyKey): z.ZodType {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray) return inner.element as z.ZodType;
  return shapeOf(inner)[segment as string] ?? z.never();
}

function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrap(schema.unwrap() as z.ZodType);
  // z.preprocess (the access block's) is a pipe from a transform into the schema that checks.
  if (schema instanceof z.ZodPipe) return unwrap(schema.out as z.ZodType);
  return schema;
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const inner = unwrap(schema);
  return inner instanceof z.ZodObject ? inner.shape : {};
}
