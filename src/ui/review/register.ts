import { Notice, requireApiVersion, type Plugin } from 'obsidian';
import type { ProposalReview } from '../../proposals/review/proposal-review';
import type { ProposalStore } from '../../proposals/store/proposal-store';
import type { VaultMcpSettings } from '../../settings/settings';
import { decideProposal, listPendingProposals, parseHunkNumber, showProposal } from './review-commands';
import { reviewExtension } from '../../editor/review-extension';
import { addReviewEditorCommands } from './review-editor-commands';
import { notePathOf, proposalReviewController } from './proposal-review-controller';
import { addPendingStatusBarItem } from './pending-status-bar';
import { PENDING_VIEW, PendingChangesView } from './pending-view';
import { addSidebarView } from '../sidebar-view';

/** How often a store that does not hold the writer lock looks for what the holder wrote, ms. */
const REFRESH_MS = 2000;

/** The plugin as the review wiring needs it. */
export interface ReviewPlugin extends Plugin {
  settings: VaultMcpSettings;
  proposals: ProposalStore;
  review: ProposalReview;
}

/**
 * Wires the user's side of propose mode into Obsidian, so main.ts stays wiring only: the
 * inline review in every editor (`registerEditorExtension`) and its editor commands; the Pending changes view with its ribbon icon,
 * command and status-bar count; a Notice for each new proposal (unless muted in settings);
 * and the Obsidian CLI handlers `vault-mcp:proposals`, `vault-mcp:show`, `vault-mcp:accept`,
 * `vault-mcp:reject` (`Plugin.registerCliHandler`, since 1.12.2; skipped on older apps); while
 * another instance holds the writer lock, a look every {@link REFRESH_MS} at what it staged.
 * Everything registered is released on unload.
 */
export function registerReview(plugin: ReviewPlugin): void {
  plugin.registerEditorExtension(reviewExtension(proposalReviewController(plugin.proposals, plugin.review), notePathOf));
  addReviewEditorCommands(plugin);
  const open = addSidebarView(plugin, PENDING_VIEW, (leaf) => new PendingChangesView(leaf, plugin.proposals, plugin.review));
  addPendingStatusBarItem(plugin, plugin.proposals, open);
  // What the instance holding the writer lock stages fires no event here: the view, the status
  // bar and the editors see it within REFRESH_MS (one stat each time; ProposalStore.refresh).
  const timer = setInterval(() => void plugin.proposals.refresh(), REFRESH_MS);
  plugin.register(() => clearInterval(timer));
  plugin.register(
    plugin.proposals.onChange((event) => {
      if (event.type !== 'staged' || !plugin.settings.proposals.notifyOnNew) return;
      const p = event.proposal;
      new Notice(
        `Vault MCP: ${p.key_label} proposed ${p.kind === 'edit' || p.kind === 'properties' ? 'changes to' : `to ${p.kind}`} ${p.path}. Review it in the editor or in Pending changes.`,
      );
    }),
  );
  registerReviewCliHandlers(plugin);
}

/** The CLI handlers (feature-checked: `registerCliHandler` is since 1.12.2); @returns false on older apps. */
function registerReviewCliHandlers(plugin: ReviewPlugin): boolean {
  if (requireApiVersion('1.12.2')) {
    const idFlag = { id: { value: '<proposal id>', description: 'The proposal, as vault-mcp:proposals lists it', required: true } };
    const hunkFlag = { hunk: { value: '<n>', description: 'Only this hunk of an edit (numbered from 0)' } };
    plugin.registerCliHandler('vault-mcp:proposals', 'List the changes agents proposed that await review', null, () =>
      listPendingProposals(plugin),
    );
    plugin.registerCliHandler('vault-mcp:show', 'Show a proposed change and its hunks', idFlag, (params) =>
      showProposal(plugin, params.id ?? ''),
    );
    for (const verdict of ['accept', 'reject'] as const) {
      plugin.registerCliHandler(
        `vault-mcp:${verdict}`,
        `${verdict === 'accept' ? 'Accept' : 'Reject'} a proposed change (or one hunk of it)`,
        { ...idFlag, ...hunkFlag },
        (params) => {
          const hunk = parseHunkNumber(params.hunk);
          if (hunk === null) return `hunk must be a whole number such as 0 or 2, got '${params.hunk}'.`;
          return decideProposal(plugin, verdict, params.id ?? '', hunk);
        },
      );
    }
    return true;
  }
  return false;
}
