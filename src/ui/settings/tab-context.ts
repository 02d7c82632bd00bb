import { Notice, type App, type ButtonComponent, type Plugin } from 'obsidian';
import type { AiService } from '../../ai/ai-service';
import { localDate, twoDigits } from '../../vault/content/frontmatter/calendar-date';
import type { SearchIndex } from '../../search/search-index';
import type { SemanticIndex } from '../../search/semantic/semantic-index';
import type { KeyRing } from '../../keys/key-ring';
import type { McpHttpServer } from '../../server/http/mcp-http-server';
import type { VaultMcpSettings } from '../../settings/settings';
import type { ActivityLog } from '../../activity/activity-log';
import type { NotePolicy } from '../../vault/note-policy';
import type { NoteStore } from '../../vault/note-store';

/**
 * The plugin surface the settings tab uses (what src/main.ts's VaultMcpPlugin exposes), as
 * a type so the tab never imports main.ts and the headless screenshot can pass a stand-in.
 */
export interface SettingsTabPlugin extends Plugin {
  settings: VaultMcpSettings;
  keyRing: Pick<KeyRing, 'list' | 'mint' | 'tokenOf' | 'revoke' | 'setMode' | 'setScope' | 'setRoots' | 'setTools' | 'forgetTokens'>;
  server: Pick<
    McpHttpServer,
    'getStatus' | 'notifyToolListChanged' | 'notifyPromptListChanged' | 'closeSessionsOfRevokedKeys' | 'accessChanged'
  >;
  ai: Pick<AiService, 'testConnection' | 'getUsage' | 'resetUsage' | 'settingsChanged' | 'chatAvailability'>;
  /** Rebuilt when the quarantine list changes, so search follows it at once. */
  search: Pick<SearchIndex, 'reindex'>;
  /** The semantic index: its status, a sync after AI settings change, and Rebuild. */
  semantic: Pick<SemanticIndex, 'current' | 'refresh' | 'rebuild'>;
  /** The agent activity log, for how much it holds (absent in stand-ins without one). */
  activity?: Pick<ActivityLog, 'all' | 'sizeBytes'>;
  /**
   * The vault's path rules: key roots typed as absolute paths inside the vault are read as vault
   * paths, and one naming an existing folder in another case takes that folder's spelling (NoteStore.rootSpelling);
   * quarantine entries are read the same way (Quarantine), and `entryAt` tells whether their folder exists.
   */
  notes: Pick<NoteStore, 'rootSpelling' | 'folderAt'> & { policy: Pick<NotePolicy, 'literalPath' | 'entryAt'> };
  /** (Re)binds the server to the configured port; failures become a Notice and the status line. */
  restartServer(): Promise<void>;
  /** Persists settings to data.json. */
  saveSettings(): Promise<void>;
}

/** What every section of the tab gets: the app, the plugin and a way to redraw the whole tab. */
export interface SectionContext {
  app: App;
  plugin: SettingsTabPlugin;
  /** Redraws the tab from current settings (after an action that changes what is shown). */
  redisplay(): void;
  /** Key id chosen in "Connect a client" (kept across redraws); null = the first usable key. */
  selectedKeyId: string | null;
}

/**
 * Copies `text` to the system clipboard (`navigator.clipboard`, available in Obsidian's
 * Electron window) and confirms with a Notice naming `what`; a refused copy is reported in a
 * Notice too, never thrown.
 */
export async function copyToClipboard(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    new Notice(`Copied ${what}.`);
  } catch (error) {
    new Notice(`Could not copy ${what}: ${(error as Error).message}`);
  }
}

/** Milliseconds a two-step button stays armed before it returns to its first label. */
export const CONFIRM_WINDOW_MS = 5000;

/**
 * Makes `button` ask before acting: the first click changes its text to `confirmText` and
 * adds `mod-warning`; a second click within {@link CONFIRM_WINDOW_MS} runs `action`. Used
 * for revoking keys and choosing force mode (writes without review), where Obsidian would
 * show a confirm modal.
 */
export function twoStepButton(
  button: ButtonComponent,
  text: string,
  confirmText: string,
  action: () => Promise<void> | void,
): ButtonComponent {
  let armed = false;
  let timer: number | null = null;
  const disarm = (): void => {
    armed = false;
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    button.setButtonText(text);
    button.buttonEl.removeClass('mod-warning');
  };
  button.setButtonText(text).onClick(async () => {
    if (!armed) {
      armed = true;
      button.setButtonText(confirmText);
      button.buttonEl.addClass('mod-warning');
      timer = window.setTimeout(disarm, CONFIRM_WINDOW_MS);
      return;
    }
    disarm();
    await action();
  });
  return button;
}

/**
 * A timestamp for tables in local time: `{date: 'YYYY-MM-DD', full: 'YYYY-MM-DD HH:MM'}`,
 * or `never` for both when `iso` is null, invalid or the epoch (a migrated record without one).
 */
export function formatTimestamp(iso: string | null): { date: string; full: string } {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime()) || d.getTime() === 0) return { date: 'never', full: 'never' };
  const date = localDate(d);
  return { date, full: `${date} ${twoDigits(d.getHours())}:${twoDigits(d.getMinutes())}` };
}

/** Every folder of the vault except the root, sorted (for the folder suggestions of root and quarantine fields). */
export function vaultFolders(app: App): string[] {
  return app.vault
    .getAllFolders(false)
    .map((f) => f.path)
    .sort((a, b) => a.localeCompare(b));
}

/**
 * Adds a `<datalist>` of vault folders after `input` and links them, so the text field
 * suggests folders as the user types (a native stand-in for `AbstractInputSuggest`).
 */
export function attachFolderSuggestions(input: HTMLInputElement, folders: string[]): void {
  const id = `vault-mcp-folders-${Math.random().toString(36).slice(2, 10)}`;
  const list = (input.parentElement ?? input).createEl('datalist', { attr: { id } });
  for (const folder of folders) list.createEl('option', { attr: { value: folder } });
  input.setAttr('list', id);
}
