/**
 * Who is asking, as far as `vault/` needs to know: the key's label (matched against a
 * note's `agent_overrides` frontmatter) and the folders the key is confined to.
 * `vault/` imports no other part of the plugin, so it takes this instead of a key record.
 */
export interface AccessScope {
  /** The key's label, e.g. "Claude Code". Matched case-sensitively in `agent_overrides`. */
  label: string;
  /** Vault-relative folders (normalized, no trailing slash). Empty = the whole vault. */
  roots: string[];
}

/** A scope with no confinement, for internal callers such as the search indexer. */
export const UNRESTRICTED_SCOPE: AccessScope = { label: '', roots: [] };
