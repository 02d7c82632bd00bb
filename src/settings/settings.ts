import type { KeyRecord } from './key-record';
import type { AccessEntryTimes } from './access-entries';
import type { FieldTimes } from './stamps';

/** The schema version written to data.json; bump it and add a step in migrate-settings.ts. */
export const SETTINGS_SCHEMA_VERSION = 1;

/** Lowest port the server may use (below 1024 needs root on most systems). */
export const MIN_PORT = 1024;
/** Smallest request body limit `server.maxBodyBytes` may set, bytes: below it even an `initialize` or a short note's write is refused. */
export const MIN_BODY_BYTES = 64 * 1024;
/** Highest TCP port. */
export const MAX_PORT = 65535;

/** Default loopback port of the MCP server. */
export const DEFAULT_PORT = 27200;

/** The widgets folder of a fresh install (`widgets.folder`). */
export const DEFAULT_WIDGETS_FOLDER = 'Widgets';

/** The agent activity log's limits of a fresh install (`activity`): 20 MB, 30 days. */
export const DEFAULT_ACTIVITY_LIMITS = { maxMegabytes: 20, maxDays: 30 } as const;

/**
 * The key that last wrote a widget (settings `widgetWriters`, `widgetTexts`): its id and label
 * then, and when (ISO 8601). `hash`: SHA-256 hex of the text it stands for (the text written, or
 * the text a revert put back); absent on records kept before it was. An empty `key_id` names no
 * key: a damaged record, or a text a revert put back whose writer is not known (no data).
 */
export interface WidgetWriter {
  key_id: string;
  key_label: string;
  written_at: string;
  hash?: string;
}

/**
 * How many revocations data.json remembers (settings `revokedKeys`, the newest kept). Each is about
 * 60 bytes, so the list stays under 15 KB of a file every device syncs; it only has to outlive a
 * stale data.json still holding the key (a device offline since then, an old backup), and once the
 * device that minted the key has met it, that device's token is blank for good
 * (docs/security.md#revoking-a-key), so a record coming back later no longer authenticates.
 */
export const MAX_REVOKED_KEYS = 200;

/** A key revoked on some device (settings `revokedKeys`): its id and when (ISO 8601). */
export interface RevokedKey {
  id: string;
  revoked_at: string;
}

/** Everything the plugin keeps in data.json. No secrets: tokens and API keys live in SecretStorage. */
export interface VaultMcpSettings {
  schemaVersion: number;
  server: {
    /** Master switch: when off, every request gets 403. */
    enabled: boolean;
    /** TCP port on 127.0.0.1, MIN_PORT–MAX_PORT. */
    port: number;
    /** Largest accepted request body, bytes. */
    maxBodyBytes: number;
    /** As `tools.changed_at`: when the user last switched the server or moved its port here. */
    changed_at?: string;
    /** As `tools.fieldTimes`: `enabled`, `port`, `maxBodyBytes` (no setting of the tab). */
    fieldTimes?: FieldTimes;
  };
  keys: KeyRecord[];
  /**
   * Keys revoked on this or another device, newest last, at most {@link MAX_REVOKED_KEYS}: a synced
   * data.json still holding one of them never brings it back (ui/settings/external-change.ts), and
   * the device that minted it blanks its token when it meets the revocation.
   */
  revokedKeys: RevokedKey[];
  tools: {
    /** "Allow writes": without it no write tool is listed or callable. */
    allowWrites: boolean;
    /** Per-tool toggle by tool name; a tool missing here uses its default (read on, write off). */
    enabled: Record<string, boolean>;
    /**
     * When the user last changed this block in the settings tab (ISO 8601; the epoch when never):
     * what versions before `fieldTimes` merge the block by. Absent in files of versions before it.
     */
    changed_at?: string;
    /**
     * When the user last changed each field here or on a synced device (settings/field-times.ts:
     * `allowWrites`, `enabled.<tool>`), so a synced data.json is merged field by field. Absent in files
     * of versions before it.
     */
    fieldTimes?: FieldTimes;
  };
  access: {
    /** User-listed quarantined folders (vault-relative). Built-ins are always added. */
    quarantine: string[];
    /**
     * Vault paths of symbolic links (e.g. `Shared` → a folder outside the vault) whose target
     * agents may use. Any other entry whose real path is outside the vault is quarantined.
     */
    trustedSymlinks: string[];
    /**
     * When each entry of the two lists was last added and removed (settings/access-entries.ts), so a
     * synced data.json is merged entry by entry. Absent in files of versions before it.
     */
    entryTimes?: AccessEntryTimes;
  };
  skills: {
    /** "Skills folder": where `<name>/SKILL.md` skills live (vault-relative; empty = `Skills`). */
    folder: string;
    /** As `tools.changed_at`: when the user last changed the skills folder here. */
    changed_at?: string;
    /** As `tools.fieldTimes`: `folder`. */
    fieldTimes?: FieldTimes;
  };
  proposals: {
    /** Show a Notice when an agent proposes a change (propose mode). */
    notifyOnNew: boolean;
    /** As `tools.changed_at`: when the user last changed "Notify on new proposals" here. */
    changed_at?: string;
    /** As `tools.fieldTimes`: `notifyOnNew`. */
    fieldTimes?: FieldTimes;
  };
  widgets: {
    /** "Widgets folder": where widget_write keeps `<id>.html` widgets; note tools do not use it. */
    folder: string;
    /** As `tools.changed_at`: when the user last changed the widgets folder here. */
    changed_at?: string;
    /** As `tools.fieldTimes`: `folder`. */
    fieldTimes?: FieldTimes;
  };
  /**
   * Which key last wrote each widget through widget_write (directly or by an accepted proposal), by
   * widget id in lower case (docs/widgets.md#whose-view-a-widget-shows); a revert puts back the
   * record of the text it restores. Other files in the widgets folder (a backup, a widget renamed
   * to `board.txt` or into a subfolder) have theirs by their lower-case path inside the folder. A
   * widget's query runs with that key's rights; a widget with no entry and whose text no key wrote
   * (the user's own) runs over the user's view.
   */
  widgetWriters: Record<string, WidgetWriter>;
  /**
   * Which key wrote each widget text, by the text's SHA-256 hex (the newest writes kept,
   * keys/widget-writers.ts MAX_TEXT_RECORDS): a widget file whose name has no record of its own
   * (renamed through another name or out of the widgets folder and back) runs with the rights of
   * the key that wrote that exact text.
   */
  widgetTexts: Record<string, WidgetWriter>;
  activity: {
    /** "Activity log size": the agent activity file's largest size, megabytes; oldest entries go first past it. */
    maxMegabytes: number;
    /** "Keep activity for": entries older than this many days are dropped. */
    maxDays: number;
    /** As `tools.changed_at`: when the user last changed a limit of the log here. */
    changed_at?: string;
    /** As `tools.fieldTimes`: `maxMegabytes`, `maxDays`. */
    fieldTimes?: FieldTimes;
  };
  ai: {
    enabled: boolean;
    allowRemote: boolean;
    provider: 'openai-compatible' | 'anthropic';
    baseUrl: string;
    model: string;
    /** Model of the provider's `/embeddings` endpoint for semantic search, e.g. `nomic-embed-text`; '' = none. */
    embeddingModel: string;
    /** "Index for semantic search": embed readable notes through the provider (off by default). */
    semanticIndex: boolean;
    /**
     * Token counters since the last reset, and `scope`: the provider type and base URL they
     * were counted for (so a provider changed while Obsidian was closed, e.g. by sync,
     * still resets them). Absent scope = counted for the current provider.
     */
    usage: { inputTokens: number; outputTokens: number; embeddingTokens?: number; scope?: string };
    /**
     * As `tools.changed_at`: when the user last changed a setting of this block here (the settings
     * tab's AI provider section). The plugin's own writes of `usage` never stamp it: a device that
     * only counted tokens since must not beat a newer change made on another device.
     */
    changed_at?: string;
    /**
     * As `tools.fieldTimes`: `enabled`, `allowRemote`, `endpoint` (provider, base URL and model, one
     * stamp), `embeddingModel`, `semanticIndex`; never `usage`.
     */
    fieldTimes?: FieldTimes;
  };
}

/** The `changed_at` of a settings block never changed on a version that stamps it: the epoch, older than any change. */
export const NEVER_CHANGED = new Date(0).toISOString();

/** Settings of a fresh install. */
export function defaultSettings(): VaultMcpSettings {
  return {
    schemaVersion: SETTINGS_SCHEMA_VERSION,
    server: { enabled: true, port: DEFAULT_PORT, maxBodyBytes: 4 * 1024 * 1024, changed_at: NEVER_CHANGED },
    keys: [],
    revokedKeys: [],
    tools: { allowWrites: false, enabled: {}, changed_at: NEVER_CHANGED },
    access: { quarantine: [], trustedSymlinks: [] },
    skills: { folder: 'Skills', changed_at: NEVER_CHANGED },
    proposals: { notifyOnNew: true, changed_at: NEVER_CHANGED },
    widgets: { folder: DEFAULT_WIDGETS_FOLDER, changed_at: NEVER_CHANGED },
    widgetWriters: {},
    widgetTexts: {},
    activity: { ...DEFAULT_ACTIVITY_LIMITS, changed_at: NEVER_CHANGED },
    ai: {
      enabled: false,
      allowRemote: false,
      provider: 'openai-compatible',
      baseUrl: 'http://localhost:11434/v1',
      model: '',
      embeddingModel: '',
      semanticIndex: false,
      usage: { inputTokens: 0, outputTokens: 0, embeddingTokens: 0 },
      changed_at: NEVER_CHANGED,
    },
  };
}
