import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  isLocallyUsable,
  normalizeKeyMode,
  normalizeKeyScope,
  normalizeKeyTools,
  secretIdForKey,
  type KeyMode,
  type KeyRecord,
  type KeyScope,
  type KeyToolSet,
} from '../settings/key-record';
import { checkKeyRoots, KEY_ROOT_ADVICE, quoteRoot } from '../settings/key-roots';
import { mergeRevokedKeys } from '../settings/revoked-keys';
import { mergeFields, stampField, type FieldOf } from '../settings/field-times';
import { laterTime } from '../settings/stamps';
import type { RevokedKey } from '../settings/settings';

/** The part of Obsidian's `SecretStorage` (1.11.4+) the key ring uses. */
export interface SecretStore {
  getSecret(id: string): string | null;
  setSecret(id: string, secret: string): void;
}

/** Thrown when a key operation is refused; `message` says why and what to do. */
export class KeyRingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyRingError';
  }
}

/** Where the key ring keeps its revocations (settings `revokedKeys`; written to data.json by the next `saveKeys`). */
export interface RevocationList {
  get(): readonly RevokedKey[];
  set(list: RevokedKey[]): void;
}

/** What {@link KeyRing.mint} takes. */
export interface MintRequest {
  label: string;
  mode?: KeyMode;
  scope?: KeyScope;
  roots?: string[];
  /** The key's tool set (default `all`). */
  tools?: KeyToolSet;
  /** Use this token instead of a random one (the headless runner's `--token`). ≥ 16 chars. */
  token?: string;
}

const TOKEN_PREFIX = 'vmcp_';
const MIN_TOKEN_LENGTH = 16;

/**
 * A key's roots by the one roots rule (settings/key-roots.ts), normalized (`Projects/` → `Projects`).
 * @throws KeyRingError naming the first root that breaks it and what to give instead.
 */
function checkedRoots(roots: readonly string[]): string[] {
  const verdict = checkKeyRoots(roots);
  if (!verdict.ok) throw new KeyRingError(`The root ${quoteRoot(verdict.given)} ${verdict.reason}; ${KEY_ROOT_ADVICE}.`);
  return verdict.roots;
}

/**
 * The set of bearer keys: records in settings (via `getKeys`/`saveKeys`), tokens in
 * `SecretStorage`. Minting, revoking, mode/scope/roots/tool-set changes and token lookup.
 * Revoke and set-scope refuse to leave zero locally usable keys (docs/architecture.md#keys).
 */
export class KeyRing {
  /**
   * @param secrets Obsidian's `app.secretStorage` (or an equivalent).
   * @param getKeys returns the live key list from settings.
   * @param saveKeys persists a new key list (settings save).
   * @param revocations where a revocation is recorded before `saveKeys` persists it, so a synced
   *   data.json still holding the key never brings it back (ui/settings/external-change.ts); none
   *   (the headless runner, which syncs nothing): revocations are not remembered.
   */
  constructor(
    private readonly secrets: SecretStore,
    private readonly getKeys: () => KeyRecord[],
    private readonly saveKeys: (keys: KeyRecord[]) => Promise<void>,
    private readonly revocations?: RevocationList,
  ) {}

  /** All key records, with mode and scope normalized (unknown mode → propose, scope → local). */
  list(): KeyRecord[] {
    return this.getKeys().map((k) => ({
      ...k,
      mode: normalizeKeyMode(k.mode),
      scope: normalizeKeyScope(k.scope),
      roots: Array.isArray(k.roots) ? k.roots : [],
      tools: normalizeKeyTools(k.tools),
    }));
  }

  /**
   * Creates a key and stores its token in secret storage.
   * @returns the record and the token (shown to the user once; copyable later from settings).
   * @throws KeyRingError when the label is empty or already used, a given token is too short, or a
   *   root breaks the roots rule ({@link checkedRoots}).
   */
  async mint(request: MintRequest): Promise<{ record: KeyRecord; token: string }> {
    const label = request.label.trim();
    if (!label) throw new KeyRingError('A key needs a label: name the client that will use it, e.g. "Claude Code".');
    if (this.list().some((k) => k.label === label)) {
      throw new KeyRingError(`A key labelled "${label}" already exists; pick another label.`);
    }
    if (request.token !== undefined && request.token.length < MIN_TOKEN_LENGTH) {
      throw new KeyRingError(`A token must be at least ${MIN_TOKEN_LENGTH} characters long.`);
    }
    const roots = checkedRoots(request.roots ?? []);
    const token = request.token ?? TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    // A revoked key's id stays dead on every device: a new key never takes it.
    const revoked = new Set((this.revocations?.get() ?? []).map((r) => r.id));
    let id = randomBytes(6).toString('hex');
    while (revoked.has(id)) id = randomBytes(6).toString('hex');
    const record: KeyRecord = {
      id,
      label,
      mode: normalizeKeyMode(request.mode),
      scope: normalizeKeyScope(request.scope),
      roots,
      tools: normalizeKeyTools(request.tools),
      created_at: now,
      last_used_at: null,
      changed_at: now,
      // Fields are stamped when they change: a record as minted is the same on every device that holds it.
      fieldTimes: {},
    };
    this.secrets.setSecret(secretIdForKey(record.id), token);
    await this.saveKeys([...this.getKeys(), record]);
    return { record, token };
  }

  /** The token of key `id`, or null when it has none (revoked or lost). */
  tokenOf(id: string): string | null {
    const token = this.secrets.getSecret(secretIdForKey(id));
    return token ? token : null;
  }

  /**
   * Finds the key whose token equals `presented`. Compares SHA-256 digests with
   * `timingSafeEqual` against every key, without stopping at a match, so timing reveals
   * neither which key matched nor how many exist.
   * @returns the normalized record, or null when no key matches.
   */
  authenticate(presented: string): KeyRecord | null {
    const presentedDigest = createHash('sha256').update(presented, 'utf8').digest();
    let match: KeyRecord | null = null;
    for (const key of this.list()) {
      const token = this.tokenOf(key.id) ?? '';
      const digest = createHash('sha256').update(token, 'utf8').digest();
      const equal = timingSafeEqual(presentedDigest, digest) && token.length > 0;
      if (equal && match === null) match = key;
    }
    return match;
  }

  /**
   * Removes a key, blanks its token (SecretStorage has no delete) and records the revocation
   * (`revokedKeys`, the newest settings.ts MAX_REVOKED_KEYS kept), so the device holding its token blanks
   * it when the synced data.json reaches it and no older data.json brings the key back.
   * @throws KeyRingError when the key is unknown or it is the last locally usable key.
   */
  async revoke(id: string, now = new Date()): Promise<void> {
    const key = this.require(id);
    const rest = this.list().filter((k) => k.id !== id);
    if (isLocallyUsable(key) && !rest.some(isLocallyUsable)) {
      throw new KeyRingError('This is the last key local clients can use; mint another key before revoking it.');
    }
    this.secrets.setSecret(secretIdForKey(id), '');
    this.revocations?.set(mergeRevokedKeys(this.revocations.get(), [{ id, revoked_at: now.toISOString() }]));
    await this.saveKeys(this.getKeys().filter((k) => k.id !== id));
  }

  /**
   * Blanks the tokens of keys revoked elsewhere (their ids), as {@link revoke} does: the token of
   * a key lives only on the device that minted it, so that device must forget it itself when it
   * learns of the revocation (a synced data.json, at load or while running). Ids with no token
   * here are left alone (SecretStorage is not written), and so are ids SecretStorage refuses
   * (not lowercase letters, digits and dashes: none was ever minted so).
   * @returns the ids whose token was blanked.
   */
  forgetTokens(ids: Iterable<string>): string[] {
    const blanked: string[] = [];
    for (const id of ids) {
      try {
        if (!this.secrets.getSecret(secretIdForKey(id))) continue;
        this.secrets.setSecret(secretIdForKey(id), '');
        blanked.push(id);
      } catch {
        // Not a valid secret id (a hand-edited revocation list): no token was ever stored under it.
      }
    }
    return blanked;
  }

  /** Sets a key's mode. @throws KeyRingError for an unknown key. */
  async setMode(id: string, mode: KeyMode): Promise<void> {
    this.require(id);
    await this.update(id, { mode: normalizeKeyMode(mode) }, 'mode');
  }

  /**
   * Sets a key's scope.
   * @throws KeyRingError for an unknown key, or when `cloud` would leave no locally usable key.
   */
  async setScope(id: string, scope: KeyScope): Promise<void> {
    this.require(id);
    const next = normalizeKeyScope(scope);
    const others = this.list().filter((k) => k.id !== id);
    if (next === 'cloud' && !others.some(isLocallyUsable)) {
      throw new KeyRingError('Local clients would have no usable key left; keep this key "local" or "both", or mint another first.');
    }
    await this.update(id, { scope: next }, 'scope');
  }

  /**
   * Sets the folders a key is confined to (empty = whole vault), normalized ({@link checkedRoots}).
   * @throws KeyRingError for an unknown key, or a root that breaks the roots rule (empty, `.`,
   *   absolute, climbing out with `..`): it is refused, never dropped into the whole vault.
   */
  async setRoots(id: string, roots: string[]): Promise<void> {
    this.require(id);
    await this.update(id, { roots: checkedRoots(roots) }, 'roots');
  }

  /**
   * Sets a key's tool set (`all`, `read`, or a list of tool names; see normalizeKeyTools).
   * @throws KeyRingError for an unknown key, or an empty list (a key with no tool cannot do anything: choose `read` or some tools).
   */
  async setTools(id: string, tools: KeyToolSet): Promise<void> {
    this.require(id);
    const next = normalizeKeyTools(tools);
    if (Array.isArray(next) && next.length === 0)
      throw new KeyRingError('Choose at least one tool for this key, or give it read tools only.');
    await this.update(id, { tools: next }, 'tools');
  }

  /** Records that key `id` was just used (ISO timestamp). Unknown ids are ignored. */
  async touch(id: string, now = new Date()): Promise<void> {
    if (!this.getKeys().some((k) => k.id === id)) return;
    await this.update(id, { last_used_at: now.toISOString() });
  }

  private require(id: string): KeyRecord {
    const key = this.list().find((k) => k.id === id);
    if (!key) throw new KeyRingError(`No key with id "${id}"; it may have been revoked.`);
    return key;
  }

  /** Applies `patch` to key `id` and saves; `field`: the field the user changed, stamped (settings/field-times.ts stampField). */
  private async update(id: string, patch: Partial<KeyRecord>, field?: FieldOf<'key'>): Promise<void> {
    const now = Date.now();
    const changed = (k: KeyRecord): KeyRecord => {
      const next = { ...k, ...patch };
      if (field) stampField('key', next, field, now);
      return next;
    };
    await this.saveKeys(this.getKeys().map((k) => (k.id === id ? changed(k) : k)));
  }
}

/** What {@link mergeSyncedKeys} knows of revocations: both sides' `revokedKeys`, and whether the synced file has such a list. */
export interface SyncedRevocations {
  /** Ids revoked on this device or in the synced file (the union of both `revokedKeys`). */
  revoked: ReadonlySet<string>;
  /**
   * True when the synced data.json carries a `revokedKeys` list (written by a version that
   * records revocations): a key it lacks was then not revoked there (that would be listed) but
   * minted here after it was written, and stays.
   */
  tracksRevocations: boolean;
}

/**
 * The key records to keep when a data.json written elsewhere replaces this device's settings
 * (Plugin.onExternalSettingsChange). A key revoked on either side (`revocations.revoked`) is
 * dropped whichever side still holds it, so a stale file never brings a revoked key back. A key
 * only the synced file holds stays (with no token here unless minted here). A key only this
 * device holds stays when the synced file records revocations (it was minted here after that
 * file was written: its token may already be in a client) and goes when the file has no such
 * list (a version from before it: it may have been revoked there, we cannot tell). A key both
 * hold is merged field by field (settings/field-times.ts mergeFields: label, mode, scope, roots,
 * tool set): each is this device's when it changed here later (`fieldTimes`), so a data.json from a
 * device that never saw a key narrowed here must not widen it again, even when that device changed
 * the key's mode or label since; `last_used_at` is the later of the two. A synced record written
 * without `changed_at` (by a version from before it; this one always writes it) has no known time
 * and wins whole, as every record did before.
 * @param current this device's keys now. @param synced the keys read from the synced data.json.
 * @param unstamped ids of the synced records that had no `changed_at` in the file.
 * @param revocations revoked ids and whether the synced file lists them (default: none, and it does not).
 * @returns the keys (the synced file's order, then this device's own), and `kept`: whether any
 *   field of this device's was kept (so data.json should be saved).
 */
export function mergeSyncedKeys(
  current: readonly KeyRecord[],
  synced: readonly KeyRecord[],
  unstamped: ReadonlySet<string> = new Set(),
  revocations: SyncedRevocations = { revoked: new Set(), tracksRevocations: false },
): { keys: KeyRecord[]; kept: boolean } {
  const { revoked, tracksRevocations } = revocations;
  let kept = false;
  const keys = synced
    .filter((theirs) => !revoked.has(theirs.id))
    .map((theirs) => {
      const mine = current.find((k) => k.id === theirs.id);
      if (!mine || unstamped.has(theirs.id)) return theirs;
      const { merged, keptMine } = mergeFields('key', mine, theirs);
      kept ||= keptMine;
      // When the key was last used is news, not a choice: the later of the two (not worth a save of its own).
      const lastUsed = laterTime(theirs.last_used_at ?? undefined, mine.last_used_at ?? undefined);
      return { ...merged, last_used_at: lastUsed ?? null };
    });
  if (tracksRevocations) {
    const theirIds = new Set(synced.map((k) => k.id));
    for (const mine of current) {
      if (theirIds.has(mine.id) || revoked.has(mine.id)) continue;
      keys.push(mine);
      kept = true;
    }
  }
  return { keys, kept };
}
