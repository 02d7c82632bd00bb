import { mergeRevokedKeys, revokedIdsIn } from './revoked-keys';
import type { RevokedKey } from './settings';

/**
 * The `localStorage` key (per vault and per device: `App.saveLocalStorage`, Obsidian 1.8.7+) of
 * this device's own copy of the revocation list (settings `revokedKeys`). data.json can be
 * replaced while Obsidian is closed by an older synced copy that lacks a revocation made here;
 * localStorage is not synced, so the copy brings it back at the next load.
 */
export const DEVICE_REVOCATIONS_KEY = 'vault-mcp-revoked-keys';

/** The part of Obsidian's `App` this module uses. */
export interface DeviceStorage {
  loadLocalStorage(key: string): unknown;
  saveLocalStorage(key: string, data: unknown): void;
}

/**
 * Writes `list` as this device's copy of the revocations. A failure (storage full or refused) is
 * ignored: data.json still holds the list.
 */
export function rememberRevocations(storage: DeviceStorage, list: readonly RevokedKey[]): void {
  try {
    storage.saveLocalStorage(DEVICE_REVOCATIONS_KEY, list);
  } catch {
    // data.json holds the list; this copy only guards against an older data.json written over it.
  }
}

/**
 * Settings `revokedKeys` (as loaded from data.json) with this device's copy merged in
 * ({@link mergeRevokedKeys}), every id either revokes ({@link revokedIdsIn}), and whether the copy
 * held revocations data.json lacked (data.json should then be saved, so they reach the other
 * devices again). A copy that cannot be read counts as none.
 * @param fromData the list data.json gave. @param storage where this device's copy is.
 */
export function withDeviceRevocations(
  fromData: readonly RevokedKey[],
  storage: DeviceStorage,
): { list: RevokedKey[]; revoked: Set<string>; dataLacked: boolean } {
  let copy: unknown = null;
  try {
    copy = storage.loadLocalStorage(DEVICE_REVOCATIONS_KEY);
  } catch {
    copy = null;
  }
  const inData = revokedIdsIn(fromData);
  const revoked = revokedIdsIn(fromData, copy);
  return { list: mergeRevokedKeys(fromData, copy), revoked, dataLacked: revoked.size > inData.size };
}
