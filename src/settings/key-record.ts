import type { FieldTimes } from './stamps';

/**
 * A key record as stored in data.json. The token itself is never stored here: it lives
 * in `app.secretStorage` under {@link secretIdForKey} (Obsidian 1.11.4+, `SecretStorage`).
 */
export interface KeyRecord {
  /** Stable id, lowercase letters/digits/dashes (SecretStorage ids must be). */
  id: string;
  /** The caller's name, shown on proposals and matched by `agent_overrides`. Unique. */
  label: string;
  /** `propose` stages every write for review; `force` applies it directly. */
  mode: KeyMode;
  /** Where the key may be used: the loopback server accepts `local` and `both`. */
  scope: KeyScope;
  /** Vault folders the key is confined to; empty = whole vault. */
  roots: string[];
  /**
   * The key's tool set (docs/architecture.md#keys): `all` enabled tools (the default, also when
   * missing), `read` tools only, or a chosen list of tool names. Tools outside it are absent
   * from this key's tools/list and refused if called. Read with {@link normalizeKeyTools}.
   */
  tools?: KeyToolSet;
  /** ISO 8601 timestamp. */
  created_at: string;
  /** ISO 8601 timestamp of the last authenticated request, or null. */
  last_used_at: string | null;
  /** ISO 8601 timestamp of the last change of its mode, scope, roots or tool set (absent: `created_at`); what versions before `fieldTimes` merge a record by. */
  changed_at?: string;
  /**
   * When each of `label`, `mode`, `scope`, `roots`, `tools` last changed (settings/field-times.ts), so a
   * synced data.json's record is merged field by field (keys/key-ring.ts mergeSyncedKeys). Absent in files of versions before it.
   */
  fieldTimes?: FieldTimes;
}

/** Write behaviour of a key. Any unknown value is read as `propose`. */
export type KeyMode = 'propose' | 'force';
/** Where a key may be used. Any unknown value is read as `local`. */
export type KeyScope = 'local' | 'cloud' | 'both';

/** A key's tool set: every enabled tool, the enabled read tools, or the enabled tools of a chosen list. */
export type KeyToolSet = 'all' | 'read' | string[];

/**
 * `tools` read leniently: `read` and a list of names (strings kept, duplicates dropped) as
 * given, anything else (missing, unknown) means `all`, so keys saved before tool sets existed
 * keep every tool.
 */
export function normalizeKeyTools(value: unknown): KeyToolSet {
  if (value === 'read') return 'read';
  if (Array.isArray(value))
    return [...new Set(value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()))];
  return 'all';
}

/** SecretStorage id holding the bearer token of key `keyId`. */
export function secretIdForKey(keyId: string): string {
  return `vault-mcp-key-${keyId}`;
}

/** `mode` read leniently: anything but `force` means `propose` (docs/architecture.md#keys). */
export function normalizeKeyMode(value: unknown): KeyMode {
  return value === 'force' ? 'force' : 'propose';
}

/** `scope` read leniently: unknown or missing means `local` (docs/architecture.md#keys). */
export function normalizeKeyScope(value: unknown): KeyScope {
  return value === 'cloud' || value === 'both' ? value : 'local';
}

/** True when the loopback server may accept this key (`local` or `both`). */
export function isLocallyUsable(key: Pick<KeyRecord, 'scope'>): boolean {
  return key.scope !== 'cloud';
}
