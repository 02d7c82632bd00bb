import type { VaultSight } from '../../errors';

/**
 * Who is asking, as far as `vault/` needs to know: the key's label (matched against a
 * note's `agent_overrides` frontmatter) and the folders the key is confined to.
 * `vault/` imports no other part of the plugin, so it takes this instead of a key record.
 */
export interface AccessScope {
  /** The key's label, e.g. "Claude Code". Matched case-sensitively in `agent_overrides`, in either Unicode form (NFC or NFD). */
  label: string;
  /** Vault-relative folders (normalized, no trailing slash). Empty = the whole vault. */
  roots: string[];
  /**
   * On whose behalf a write is made, for the agent activity log
   * (docs/architecture.md#agent-activity); absent for internal callers. Access decisions never read it.
   */
  actor?: WriteActor;
  /**
   * What the key's tool set lets it see of the vault beyond what it sends, for the messages it gets
   * (ToolError.messageFor; docs/security.md#keys): no "did you mean" note names without `names`, no
   * heading lists or frontmatter lines without `text`. Absent = both (internal callers, the user).
   * Access decisions never read it.
   */
  sight?: VaultSight;
}

/**
 * Who causes a write, as the activity log records it: the key's id, its MCP session (when the
 * client has one), and the route when it is not the agent's own call: the user accepting a
 * proposal (with the hunk indices accepted) or reverting a logged change.
 */
export interface WriteActor {
  keyId: string;
  session?: string;
  via?: { proposal: string; hunks?: number[] } | { revert: string };
}

/** A scope with no confinement, for internal callers such as the search indexer. */
export const UNRESTRICTED_SCOPE: AccessScope = { label: '', roots: [] };
