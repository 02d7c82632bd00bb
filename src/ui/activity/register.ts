import { Notice, requireApiVersion, type Plugin } from 'obsidian';
import type { ActivityLog } from '../../activity/activity-log';
import type { ActivityRevert } from '../../activity/activity-revert';
import type { NoteStore } from '../../vault/note-store';
import { listActivity, revertActivity, showActivity } from './activity-commands';
import { addActivityStatusBarItem } from './activity-status-bar';
import { ACTIVITY_VIEW, AgentActivityView } from './activity-view';
import { addSidebarView } from '../sidebar-view';

/** How often the log looks for what another instance on the vault wrote to its file, ms. */
const REFRESH_MS = 2000;

/** The plugin as the activity wiring needs it. */
export interface ActivityPlugin extends Plugin {
  notes: NoteStore;
  activity: ActivityLog;
  reverts: ActivityRevert;
}

/**
 * Wires the agent activity log into Obsidian, so main.ts stays wiring only: the log follows
 * every applied write (NoteStore.applied) from now on and loads its file once the layout is
 * ready (a damaged file becomes a Notice); the Agent activity view with its ribbon icon and
 * command; the status-bar hint after force-mode writes; and the Obsidian CLI handlers
 * `vault-mcp:activity` and `vault-mcp:revert` (`Plugin.registerCliHandler`, since 1.12.2;
 * skipped on older apps); every {@link REFRESH_MS} the log takes in what another instance on
 * the vault wrote. Everything registered is released on unload.
 */
export function registerActivity(plugin: ActivityPlugin): void {
  plugin.register(plugin.activity.follow(plugin.notes.applied));
  plugin.app.workspace.onLayoutReady(() => {
    void plugin.activity.load().then(({ problem }) => problem && new Notice(problem, 0));
  });
  // Another instance's writes to the file fire no event: the view, the status bar and the
  // settings tab see them within REFRESH_MS (one stat each time; ActivityLog.refresh).
  const timer = setInterval(() => void plugin.activity.refresh(), REFRESH_MS);
  plugin.register(() => clearInterval(timer));
  const open = addSidebarView(plugin, ACTIVITY_VIEW, (leaf) => new AgentActivityView(leaf, plugin.activity, plugin.reverts));
  addActivityStatusBarItem(plugin, plugin.activity, open);
  registerActivityCliHandlers(plugin);
}

/** The CLI handlers (feature-checked: `registerCliHandler` is since 1.12.2); @returns false on older apps. */
function registerActivityCliHandlers(plugin: ActivityPlugin): boolean {
  if (requireApiVersion('1.12.2')) {
    const idFlag = {
      id: { value: '<entry id>', description: 'One entry, as vault-mcp:activity lists it' },
      line: { value: '<n>', description: 'The diff line to start from (a long diff is shown 80 lines at a time)' },
    };
    plugin.registerCliHandler('vault-mcp:activity', 'List what agents changed, or one change with its diff', idFlag, async (params) => {
      await plugin.activity.refresh();
      return params.id ? showActivity(plugin.activity, params.id, Math.max(1, Number(params.line) || 1)) : listActivity(plugin.activity);
    });
    const flags = {
      id: { value: '<entry id>', description: 'The change to revert' },
      key: { value: '<label>', description: 'Revert every change of this key' },
      session: { value: '<session>', description: 'Revert every change of this session' },
    };
    plugin.registerCliHandler('vault-mcp:revert', 'Revert an agent change, or every change of a key or a session', flags, (params) => {
      const given = (['id', 'key', 'session'] as const).filter((f) => params[f]);
      if (given.length !== 1) return 'Give exactly one of id=<entry id>, key=<label> or session=<session>.';
      const what =
        given[0] === 'id' ? { id: params.id ?? '' } : given[0] === 'key' ? { key: params.key ?? '' } : { session: params.session ?? '' };
      return revertActivity(plugin, what);
    });
    return true;
  }
  return false;
}
