import { ButtonComponent, DropdownComponent, ExtraButtonComponent, Notice, Setting, TextComponent } from 'obsidian';
import type { KeyMode, KeyRecord, KeyScope } from '../../../settings/key-record';
import {
  checkKeyRoot,
  checkKeyRoots,
  formatRootList,
  KEY_ROOT_ADVICE,
  pickListedRoot,
  quoteRoot,
  splitRootList,
  untrimmedRoot,
} from '../../../settings/key-roots';
import {
  attachFolderSuggestions,
  copyToClipboard,
  formatTimestamp,
  twoStepButton,
  vaultFolders,
  type SectionContext,
  type SettingsTabPlugin,
} from '../tab-context';
import { showSettingError } from '../setting-error';
import { renderKeyToolsCell } from './key-tools-cell';

/** Scope choices as the dropdown shows them. */
const SCOPE_LABELS: Record<KeyScope, string> = { local: 'local', both: 'both', cloud: 'cloud' };

/**
 * Splits the roots field (`Projects, Journal/2025`) into folder paths, each checked by the roots
 * rule (settings/key-roots.ts); blanks between commas are dropped (an empty field is the whole vault).
 * Entries are trimmed, but an entry typed with outer spaces names the folder of that exact name
 * when the trimmed name names none, and is refused when both name a folder (key-roots.ts
 * pickListedRoot, the rule `--roots` follows too).
 * @param toVaultPath makes one entry vault-relative first (the settings tab passes
 *   {@link keyRootPath}, so an absolute path inside the vault is read as the vault-relative
 *   path and one outside is refused); default: the entry as typed.
 * @param folderAt the existing folder a vault path names, in the vault's spelling, or null
 *   (the tab passes NoteStore.folderAt's path); default: none, so the trimmed entry is meant.
 * @returns the roots in order (duplicates are dropped when the key ring saves them).
 * @throws what `toVaultPath` throws (a ToolError whose sentence the tab shows), or an Error naming
 *   an entry that breaks the roots rule (`.`, `/`, the vault's own folder, `..` out): it is refused, never dropped into the whole vault;
 *   or one naming an entry whose trimmed and typed spellings name two folders.
 */
export function parseRoots(
  raw: string,
  toVaultPath: (root: string) => string = (r) => r,
  folderAt: (path: string) => string | null = () => null,
): string[] {
  return splitRootList(raw).map((entry) => {
    const path = toVaultPath(entry.trimmed);
    // '' from toVaultPath: the entry names the vault itself (`.`, `./`, the vault's own folder).
    const verdict = checkKeyRoot(path === '' ? '.' : path);
    if (!verdict.ok) throw new Error(`The root "${entry.trimmed}" ${verdict.reason}; ${KEY_ROOT_ADVICE}.`);
    const exact = untrimmedRoot(entry, verdict.root, toVaultPath);
    const picked = pickListedRoot(
      { root: verdict.root, folder: folderAt(verdict.root) },
      exact === null ? null : { root: exact, folder: folderAt(exact) },
    );
    if (!picked.ok) throw new Error(`The root ${quoteRoot(entry.typed)} ${picked.reason}.`);
    return picked.root;
  });
}

/**
 * One entry of the roots field as a vault path: made vault-relative (NotePolicy.literalPath, so an
 * absolute path inside the vault is read as the vault-relative path), then in the spelling of the
 * existing folder it names (NoteStore.rootSpelling, the rule client roots follow too: `projects` is
 * `Projects/` on every disk). A root naming nothing stays as typed (it matches no note until the folder exists).
 * @throws what literalPath throws (a ToolError whose sentence the tab shows).
 */
export function keyRootPath(notes: SettingsTabPlugin['notes'], typed: string): string {
  const path = notes.policy.literalPath(typed);
  return path === '' ? path : (notes.rootSpelling(path) ?? path);
}

/**
 * The "Keys" section: a table of keys (label, mode, scope, roots, tool set, created, last used) with
 * copy token, mode switch, scope, roots, tool set (key-tools-cell.ts) and revoke per row, and a mint row below. Key-ring
 * refusals (`KeyRingError`: empty or duplicate label, revoking or scoping away the last
 * locally usable key) are shown inline under the table and as a Notice.
 */
export function renderKeysSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  new Setting(containerEl)
    .setName('Keys')
    .setHeading()
    .setDesc('One key per client. Its label is the name shown on proposals and matched by agent_overrides.');

  const keys = plugin.keyRing.list();
  const wrap = containerEl.createDiv({ cls: 'vault-mcp-keys' });
  const messageEl = containerEl.createDiv({ cls: 'vault-mcp-keys-message', attr: { role: 'alert' } });
  const report = (error: unknown): void => {
    const message = (error as Error).message;
    messageEl.setText(message);
    messageEl.addClass('mod-error');
    new Notice(`Vault MCP: ${message}`);
  };

  if (keys.length === 0) {
    wrap.createDiv({ cls: 'vault-mcp-empty', text: 'No keys yet: mint one below, then connect a client with it.' });
  } else {
    const table = wrap.createEl('table', { cls: 'vault-mcp-key-table' });
    const head = table.createEl('thead').createEl('tr');
    for (const title of ['Label', 'Mode', 'Scope', 'Roots', 'Tools', 'Created', 'Last used', '']) head.createEl('th', { text: title });
    const body = table.createEl('tbody');
    const folders = vaultFolders(ctx.app);
    for (const key of keys) renderKeyRow(body.createEl('tr', { attr: { 'data-key-id': key.id } }), key, ctx, folders, report);
  }

  renderMintRow(containerEl, ctx);
}

function renderKeyRow(
  row: HTMLTableRowElement,
  key: KeyRecord,
  ctx: SectionContext,
  folders: string[],
  report: (e: unknown) => void,
): void {
  const { plugin } = ctx;
  const run = async (action: () => Promise<void>): Promise<void> => {
    try {
      await action();
      ctx.redisplay();
    } catch (error) {
      report(error);
    }
  };

  row.createEl('td', { cls: 'vault-mcp-key-label', text: key.label });

  const modeCell = row.createEl('td', { cls: 'vault-mcp-key-mode' });
  modeCell.createSpan({ cls: ['vault-mcp-badge', `mod-${key.mode}`], text: key.mode });
  const modeButton = new ButtonComponent(modeCell).setClass('vault-mcp-small-button');
  if (key.mode === 'propose') {
    twoStepButton(modeButton, 'Use force', 'Confirm: no review', () => run(() => plugin.keyRing.setMode(key.id, 'force')));
  } else {
    modeButton.setButtonText('Use propose').onClick(() => run(() => plugin.keyRing.setMode(key.id, 'propose')));
  }

  const scope = new DropdownComponent(row.createEl('td', { cls: 'vault-mcp-key-scope' })).addOptions(SCOPE_LABELS).setValue(key.scope);
  scope.selectEl.setAttr('aria-label', `Where "${key.label}" may be used: local (this computer), both, or cloud only`);
  scope.onChange(async (value) => {
    await run(() => plugin.keyRing.setScope(key.id, value as KeyScope));
    scope.setValue(plugin.keyRing.list().find((k) => k.id === key.id)?.scope ?? key.scope);
  });

  const rootsCell = row.createEl('td', { cls: 'vault-mcp-key-roots' });
  const roots = new TextComponent(rootsCell).setPlaceholder('Whole vault').setValue(formatRootList(key.roots));
  roots.inputEl.setAttr('aria-label', `Folders "${key.label}" is confined to, comma-separated`);
  attachFolderSuggestions(roots.inputEl, folders);
  // Roots saved against the rule (a hand-edited or synced data.json) are kept as written and the key is refused at the door: say so here, where they are fixed.
  const savedRoots = checkKeyRoots(key.roots);
  if (!savedRoots.ok) {
    roots.inputEl.setAttr('aria-invalid', 'true');
    rootsCell.createDiv({
      cls: 'vault-mcp-key-roots-error',
      text: `Refused, may touch no note: the root ${quoteRoot(savedRoots.given)} ${savedRoots.reason}; type its folders here.`,
      attr: { role: 'alert' },
    });
  }
  roots.inputEl.addEventListener(
    'change',
    () =>
      void run(() =>
        plugin.keyRing.setRoots(
          key.id,
          parseRoots(
            roots.getValue(),
            (r) => keyRootPath(plugin.notes, r),
            (path) => plugin.notes.folderAt(path)?.path ?? null,
          ),
        ),
      ),
  );

  renderKeyToolsCell(row.createEl('td', { cls: 'vault-mcp-key-tools' }), key, ctx, run);

  for (const iso of [key.created_at, key.last_used_at]) {
    const when = formatTimestamp(iso);
    row.createEl('td', { cls: 'vault-mcp-key-date', text: when.date, attr: { title: when.full } });
  }

  const actions = row.createEl('td', { cls: 'vault-mcp-key-actions' });
  new ExtraButtonComponent(actions)
    .setIcon('copy')
    .setTooltip(`Copy the token of "${key.label}"`)
    .onClick(() => {
      const token = plugin.keyRing.tokenOf(key.id);
      if (token) void copyToClipboard(token, `the token of "${key.label}"`);
      else report(new Error(`"${key.label}" has no token on this device (secret storage is per device); revoke it and mint a new key.`));
    });
  twoStepButton(new ButtonComponent(actions).setClass('vault-mcp-small-button'), 'Revoke', 'Confirm', () =>
    run(async () => {
      await plugin.keyRing.revoke(key.id);
      await plugin.server.closeSessionsOfRevokedKeys();
    }),
  ).buttonEl.addClass('mod-destructive');
}

function renderMintRow(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  let label = '';
  let mode: KeyMode = 'propose';
  const setting = new Setting(containerEl)
    .setName('Mint a key')
    .setDesc(
      'Propose keys stage every write for your review; force keys write directly, except to agent instructions and skills, which you always review.',
    )
    .setClass('vault-mcp-mint');
  setting.addText((text) =>
    text.setPlaceholder('Client name, e.g. Claude Code').onChange((value) => {
      label = value;
      showSettingError(setting, null);
    }),
  );
  let mintButton: ButtonComponent | null = null;
  const mint = async (): Promise<void> => {
    try {
      const { record } = await plugin.keyRing.mint({ label, mode });
      ctx.selectedKeyId = record.id;
      new Notice(`Vault MCP: minted key "${record.label}" (${record.mode}). Copy its setup under "Connect a client".`);
      ctx.redisplay();
    } catch (error) {
      showSettingError(setting, (error as Error).message);
    }
  };
  const drawButton = (): void => {
    mintButton?.buttonEl.detach();
    setting.addButton((button) => {
      mintButton = button.setCta();
      if (mode === 'force') twoStepButton(button, 'Mint', 'Confirm force key', mint);
      else button.setButtonText('Mint').onClick(mint);
    });
  };
  setting.addDropdown((dropdown) =>
    dropdown
      .addOptions({ propose: 'propose (review writes)', force: 'force (write directly)' })
      .setValue(mode)
      .onChange((value) => {
        mode = value === 'force' ? 'force' : 'propose';
        drawButton();
      }),
  );
  drawButton();
}
