import type { KeyRecord } from '../settings/key-record';
import type { ProposalReview } from '../proposals/proposal-review';
import type { ProposalStore } from '../proposals/proposal-store';
import type { SearchIndex } from '../search/search-index';
import type { SemanticIndex } from '../search/semantic/semantic-index';
import type { VaultMcpSettings } from '../settings/settings';
import { enabledTools } from '../tools/registry';
import type { NoteStore } from '../vault/note-store';
import type { SessionServices } from './mcp-session';

/**
 * Binds the registry and the vault/search services into what MCP sessions need.
 * @param version plugin version (manifest.json) reported as `serverInfo.version`.
 * @param semantic the embedding index behind semantic/hybrid search, or null without one.
 */
export function createSessionServices(
  notes: NoteStore,
  search: SearchIndex,
  proposals: ProposalStore,
  review: ProposalReview,
  getSettings: () => VaultMcpSettings,
  version: string,
  semantic: SemanticIndex | null = null,
): SessionServices {
  return {
    version,
    enabledTools: () => enabledTools(getSettings()),
    contextFor: (caller: KeyRecord) => ({
      notes,
      search,
      semantic,
      proposals,
      review,
      caller,
      scope: { label: caller.label, roots: caller.roots },
      settings: getSettings(),
    }),
  };
}
