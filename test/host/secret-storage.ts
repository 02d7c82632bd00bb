import type * as O from 'obsidian';
import { Events } from './events';

const SECRET_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Obsidian's `SecretStorage` (obsidian.d.ts, since 1.11.4): secrets by id, kept out of the
 * vault. The host keeps them in memory; pass the same Map to several Apps (createHostApp's
 * `secrets` option) to keep secrets across an App restart, as the OS keychain would.
 */
export class SecretStorage extends Events implements O.SecretStorage {
  /** Creates a store over `store` (a new empty Map by default). */
  constructor(private readonly store: Map<string, string> = new Map()) {
    super();
  }

  /**
   * Stores `secret` under `id`. Throws an Error when `id` is not lowercase letters and digits
   * with single dashes between them (e.g. `vault-mcp-key-1`), or `secret` is not a string.
   */
  setSecret(id: string, secret: string): void {
    if (typeof id !== 'string' || !SECRET_ID.test(id)) {
      throw new Error(`Invalid secret id "${id}": use lowercase letters, digits and dashes (e.g. "my-plugin-token").`);
    }
    if (typeof secret !== 'string') throw new Error(`Secret "${id}" must be a string.`);
    this.store.set(id, secret);
  }

  getSecret(id: string): string | null {
    return this.store.get(id) ?? null;
  }

  listSecrets(): string[] {
    return [...this.store.keys()].sort();
  }
}
