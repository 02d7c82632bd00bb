/**
 * Browser entry for the Agent activity test: the real AgentActivityView (an ItemView of the
 * host) in a right-sidebar leaf inside `#sidebar`, over a real ActivityLog whose file lives in
 * memory and starts as `window.vaultMcpActivityFile` (written by the test in Node, where the
 * entries' hashes and reverse patches are computed). The page has no vault, so Revert answers
 * with a Notice saying so. `window.vaultMcpActivity` exposes the log and the notices.
 */
import type { App, WorkspaceLeaf as ObsidianLeaf } from 'obsidian';
import { MemoryActivityFile } from '../../fakes/memory-activity-file';
import { Notice } from '../../host/ui/notice';
import { Workspace } from '../../host/workspace/workspace';
import { WorkspaceLeaf } from '../../host/workspace/workspace-leaf';
import { ActivityLog } from '../../../src/activity/activity-log';
import type { ActivityRevert, RevertOutcome } from '../../../src/activity/activity-revert';
import type { ActivityEntry } from '../../../src/activity/types';
import { AgentActivityView } from '../../../src/ui/activity/activity-view';

declare global {
  interface Window {
    vaultMcpActivityFile: string;
    vaultMcpActivity: { log: ActivityLog; notices: () => string[] };
  }
}

const NO_VAULT = 'This page has no vault, so nothing can be reverted here.';

/** Reverts answer that the page has no vault (the view's buttons still run). */
const noVault = {
  revert: async (id: string): Promise<RevertOutcome> => ({ id, reverted: false, message: NO_VAULT }),
  revertAll: async (entries: ActivityEntry[]): Promise<RevertOutcome[]> =>
    entries.map((e) => ({ id: e.id, reverted: false, message: NO_VAULT })),
};

async function main(): Promise<void> {
  const log = new ActivityLog(new MemoryActivityFile(window.vaultMcpActivityFile), () => ({ maxMegabytes: 20, maxDays: 100000 }));
  await log.load();
  const workspace = new Workspace({} as App);
  const leaf = new WorkspaceLeaf(workspace, 'right');
  const view = new AgentActivityView(leaf as unknown as ObsidianLeaf, log, noVault as unknown as ActivityRevert);
  document.getElementById('sidebar')!.appendChild(leaf.containerEl);
  await leaf.open(view);
  window.vaultMcpActivity = { log, notices: () => Notice.messages() };
}

void main();
