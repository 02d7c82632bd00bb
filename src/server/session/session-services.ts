import type { KeyRecord } from '../../settings/key-record';
import type { ProposalReview } from '../../proposals/review/proposal-review';
import type { ProposalStore } from '../../proposals/store/proposal-store';
import type { SearchIndex } from '../../search/search-index';
import type { SemanticIndex } from '../../search/semantic/semantic-index';
import type { VaultMcpSettings } from '../../settings/settings';
import { enabledTools, toolsForKey } from '../../tools/registry';
import type { NoteStore } from '../../vault/note-store';
import { hostPathRules } from '../roots/client-roots';
import { toolSetSight } from '../content/tool-set-routes';
import type { SessionServices } from './mcp-session';
import { sessionAccess } from '../roots/session-access';
import type { VaultPeers } from '../vaults/vault-peers';
import type { ActivityLog } from '../../activity/activity-log';

/**
 * Binds the registry and the vault/search services into what MCP sessions need.
 * @param version plugin version (manifest.json) reported as `serverInfo.version`.
 * @param peers this vault among the user's other open vaults (its location places client roots).
 * @param semantic the embedding index behind semantic/hybrid search, or null without one.
 * @param activity the agent activity log (proposal_status's `activity`), or null without one.
 */
export function createSessionServices(
  notes: NoteStore,
  search: SearchIndex,
  proposals: ProposalStore,
  review: ProposalReview,
  getSettings: () => VaultMcpSettings,
  version: string,
  peers: VaultPeers,
  semantic: SemanticIndex | null = null,
  activity: ActivityLog | null = null,
): SessionServices {
  const rules = hostPathRules();
  return {
    version,
    peers,
    notes,
    enabledTools: (caller) => (caller ? toolsForKey(enabledTools(getSettings()), caller.tools) : enabledTools(getSettings())),
    accessFor: (caller, client) =>
      sessionAccess(caller.roots, client, peers.location.folderSpellings, rules, (root) => notes.rootSpelling(root)),
    contextFor: (caller: KeyRecord, access, vaults, session) => ({
      notes,
      search,
      semantic,
      proposals,
      review,
      activity,
      caller,
      scope: {
        label: caller.label,
        roots: access.roots,
        actor: { keyId: caller.id, ...(session ? { session } : {}) },
        sight: toolSetSight(caller.tools),
      },
      settings: getSettings(),
      vaults,
    }),
  };
}
