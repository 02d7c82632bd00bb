/**
 * What the `vaults` tool reads about the session it runs in: the open vaults (from the
 * registry of running plugins) and the session's effective roots. The server builds it; tools
 * only read it.
 */

/** One open vault, as `vaults` lists it. */
export interface VaultListing {
  /** Short name to pass as a tool's `vault` argument (the vault name, made unique). */
  handle: string;
  /** The vault's name (its folder name). */
  name: string;
  /** Absolute path of the vault folder. */
  path: string;
  /** True for the vault this server serves (where calls without `vault` run). */
  active: boolean;
}

/** A root the server did not use, with why. */
export interface IgnoredRootReport {
  uri: string;
  reason: string;
}

/** The folders a session may touch and where that comes from (MCP roots, the key). */
export interface RootsReport {
  /** `client`: narrowed by the client's MCP roots; `key`: the key's own folders apply. */
  source: 'key' | 'client';
  /** Vault folders the session may touch; empty = none when `source` is `client`, the whole vault when `key`. */
  effective: string[];
  /** The key's own folders (empty = whole vault). */
  key_roots: string[];
  /** The client's usable roots as absolute paths (empty when it shared none). */
  client_roots: string[];
  /** Client roots that were not used, with why. */
  ignored: IgnoredRootReport[];
  /** One sentence saying what applies and why. */
  note: string;
}

/** The session's view for the `vaults` tool. */
export interface VaultsView {
  /** Open vaults (this one included), from the registry; stale entries are pruned on the way. */
  list(): Promise<VaultListing[]>;
  /** The session's effective roots at the time of the call. */
  roots: RootsReport;
}
