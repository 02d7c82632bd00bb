import { Setting } from 'obsidian';
import { attachFolderSuggestions, vaultFolders, type SectionContext } from '../tab-context';
import { showSettingError } from '../setting-error';
import { recordEntryChange } from '../../../settings/access-entries';
import { listSpelling, pickListedRoot, quoteRoot, untrimmedRoot, type ListedRootVerdict } from '../../../settings/key-roots';
import {
  fileKind,
  QUARANTINE_ADVICE,
  quarantinedFileAt,
  quarantineFileReason,
  readQuarantineEntry,
} from '../../../vault/access/quarantine';

/** A vault path as typed, outer whitespace kept: backslashes read as `/`, empty and `.` segments dropped (`./ Sp /` is ` Sp `). */
function typedPath(raw: string): string {
  return raw
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

/**
 * Normalizes a folder typed by the user: trims the outer whitespace, reads backslashes as `/`,
 * drops leading, trailing and doubled slashes and `.` segments (` \\Work\\Clients/ ` → `Work/Clients`,
 * `./ Sp /` → ` Sp `: the `./` and `/` keep the spaces from the trimming). Which of the trimmed
 * and the typed spelling a field means is {@link pickTypedPath}'s rule. Never throws.
 * @param raw the field's text. @returns the vault path, `''` when the text names none.
 */
export function cleanFolder(raw: string): string {
  return typedPath(raw.trim());
}

/**
 * The vault path a settings field that takes one path means (a trusted symbolic link, the skills
 * and widgets folders), by the rule of a key's roots list (src/settings/key-roots.ts
 * pickListedRoot; docs/security.md#key-roots): the trimmed entry ({@link cleanFolder}) is meant,
 * unless it names nothing in the vault and the entry as typed, outer spaces kept, names something;
 * when both do, and not the same entry, the field is refused, since either reading may open or
 * close another place than the one the user meant (Obsidian trims nothing: ` Shared` and `Shared`
 * are two entries). `./ Sp /` names ` Sp ` whatever exists.
 * @param typed the field's text as typed.
 * @param existing the entry a vault path names in the vault, as the vault spells it, or null
 *   (the trusted-link field looks for any entry, the folder fields for a folder).
 * @param things what a refusal calls the two entries (plural), e.g. `folders`.
 * @returns `{ok: true, root}` with the vault path to save (the vault's spelling of an existing
 *   entry; `''` when the text names no path), or `{ok: false, reason}`, a clause to follow the
 *   quoted text, naming both entries and how to type each.
 */
export function pickTypedPath(typed: string, existing: (path: string) => string | null, things: string): ListedRootVerdict {
  const trimmed = cleanFolder(typed);
  if (trimmed === '') return { ok: true, root: '' };
  const exact = untrimmedRoot({ typed, trimmed: typed.trim() }, trimmed, typedPath);
  return pickListedRoot(
    { root: trimmed, folder: existing(trimmed) },
    exact === null ? null : { root: exact, folder: existing(exact) },
    things,
  );
}

/**
 * The "Access" section: the built-in quarantine (config folder, dot-folders, `_private/`),
 * shown and fixed; the user's quarantined folders with add/remove; the symbolic links out of
 * the vault the user trusts (`access.trustedSymlinks`); and what the `access` and
 * `agent_overrides` frontmatter keys do (docs/architecture.md#trust-model).
 */
export function renderAccessSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { app } = ctx;
  const { policy } = ctx.plugin.notes;
  // An entry is read as the plugin applies it (Quarantine: an absolute path inside the vault is the folder below it).
  const entry = (typed: string) => readQuarantineEntry(typed, (e) => policy.literalPath(e));
  // The existing note or file an entry names: quarantine takes folders (an entry naming a file would hide that file alone).
  const fileAt = quarantinedFileAt(ctx.plugin.notes);
  const savedFile = (saved: string): string | null => {
    const verdict = entry(saved);
    return verdict.ok ? fileAt(verdict.folder) : null;
  };
  // A saved entry as its row names it: a folder with its slash, a (synced) entry naming a file as that file.
  const shownEntry = (saved: string): string => (savedFile(saved) === null ? `${saved}/` : saved);
  new Setting(containerEl)
    .setName('Access')
    .setHeading()
    .setDesc('Quarantined folders are invisible to agents: no tool reads, lists, searches or writes there.');

  const builtIn = new Setting(containerEl).setName('Always quarantined').setDesc('Built in; cannot be removed.');
  const chips = builtIn.controlEl.createDiv({ cls: 'vault-mcp-chips' });
  for (const [label, title] of [
    [`${app.vault.configDir}/`, 'The Obsidian config folder'],
    ['.*/', 'Every dot-folder, at any depth'],
    ['_private/', 'Every folder named _private, at any depth'],
  ]) {
    chips.createSpan({ cls: ['vault-mcp-chip', 'mod-fixed'], text: label, attr: { 'aria-label': title, title } });
  }

  renderPathList(containerEl, ctx, {
    key: 'quarantine',
    // A synced entry naming a file is shown as that file, not as a folder.
    rowName: (folder) => shownEntry(folder),
    rowClass: 'vault-mcp-quarantine-row',
    removeTooltip: (folder) => `Stop quarantining ${shownEntry(folder)}`,
    addName: 'Quarantine a folder',
    addDesc: 'Includes its subfolders.',
    placeholder: 'Folder, e.g. Journal',
    button: 'Add',
    duplicate: (folder) => `${folder}/ is already quarantined.`,
    // Refused when it can name no folder, or names a note or file; an existing folder's own spelling is kept (`journal` → `Journal`).
    check: (typed) => {
      const verdict = entry(typed);
      if (!verdict.ok) throw new Error(`"${typed.trim()}" ${verdict.reason}; ${QUARANTINE_ADVICE}.`);
      const file = fileAt(verdict.folder);
      if (file !== null) throw new Error(`"${typed.trim()}" ${quarantineFileReason(file)}.`);
      return policy.entryAt(verdict.folder)?.path ?? verdict.folder;
    },
    // A synced data.json may hold an entry that names no folder (kept, and shown as quarantining nothing) or a file (it hides that file alone).
    rowNote: (saved) => {
      const verdict = entry(saved);
      if (!verdict.ok) return `Quarantines nothing: it ${verdict.reason}.`;
      const file = fileAt(verdict.folder);
      if (file !== null) return `Hides only this ${fileKind(file)}: it ${quarantineFileReason(file)}.`;
      return policy.entryAt(verdict.folder) ? null : 'No such folder yet: quarantined once it exists.';
    },
  });
  const invalidLink = 'Type the vault path of the link, e.g. "Shared" or "Work/Team drive".';
  // A saved link as its row names it: one with outer spaces as the field takes it back (`./ Shared/`), so its spaces show.
  const shownLink = (link: unknown): string => (typeof link === 'string' ? listSpelling(link) : String(link));
  renderPathList(containerEl, ctx, {
    key: 'trustedSymlinks',
    rowName: shownLink,
    rowDesc: 'Trusted link out of the vault',
    rowClass: 'vault-mcp-trusted-link-row',
    removeTooltip: (link) => `Stop trusting ${shownLink(link)}`,
    addName: 'Trust a symbolic link',
    addDesc:
      'Files and folders whose real location is outside the vault (symbolic links) are quarantined. List a link here to let agents use what it points to.',
    placeholder: 'Link path, e.g. Shared',
    button: 'Trust',
    duplicate: (link) => `${shownLink(link)} is already trusted.`,
    // Trimmed, but never into another link than the one typed: ` Shared` beside `Shared` is refused, naming both.
    check: (typed) => {
      const path = cleanFolder(typed);
      if (!path || path.split('/').includes('..')) throw new Error(invalidLink);
      const picked = pickTypedPath(typed, (p) => policy.entryAt(p)?.path ?? null, 'entries of the vault');
      if (!picked.ok) throw new Error(`The link ${quoteRoot(typed)} ${picked.reason}.`);
      return picked.root;
    },
  });

  const rules = new Setting(containerEl).setName('Per-note rules').setClass('vault-mcp-rules');
  const desc = rules.descEl;
  const line = (parts: Array<string | [string]>): void => {
    const el = desc.createDiv();
    for (const part of parts) {
      if (typeof part === 'string') el.appendText(part);
      else el.createEl('code', { text: part[0] });
    }
  };
  line(["Set in a note's frontmatter:"]);
  line([['access: read-only'], ' refuses every write to the note.']);
  line([['access: private'], ' makes the note behave as missing for every tool.']);
  line([['agent_overrides: {Claude Code: no-access}'], ' tightens a note for one key label (read-only or no-access).']);
  line(['Agents can never create, change or remove these two keys.']);
}

/** The texts and settings key of one editable list of vault paths in the Access section. */
interface PathListSpec {
  key: 'quarantine' | 'trustedSymlinks';
  rowName(path: string): string;
  rowDesc?: string;
  rowClass: string;
  removeTooltip(path: string): string;
  addName: string;
  addDesc: string;
  placeholder: string;
  button: string;
  duplicate(path: string): string;
  /** The vault path to save for a typed entry; throws an Error whose sentence is shown. */
  check(typed: string): string;
  /** A line under a saved entry's row (what it does not do), or null. */
  rowNote?(path: string): string | null;
}

/**
 * One editable list of vault paths (`settings.access[spec.key]`): a row per path with a remove
 * button (and `spec.rowNote` under it), and a text field with folder suggestions plus an add button that refuses
 * what `spec.check` refuses and duplicates. Every change stamps the entry's
 * `added` or `removed` time (`access.entryTimes`, merged entry by entry on a sync), is saved and rebuilds the search index, since both
 * lists change what agents may see.
 */
function renderPathList(containerEl: HTMLElement, ctx: SectionContext, spec: PathListSpec): void {
  const { plugin, app } = ctx;
  const list = plugin.settings.access[spec.key];
  const save = async (next: string[]): Promise<void> => {
    const now = new Date().toISOString();
    plugin.settings.access[spec.key] = next;
    // Each entry added or removed is timed, so a synced data.json is merged entry by entry (settings/access-entries.ts):
    // a device that never removed it cannot lift a quarantine, and a removal here reaches the others.
    for (const path of next) if (!list.includes(path)) recordEntryChange(plugin.settings.access, spec.key, path, 'added', now);
    for (const path of list) if (!next.includes(path)) recordEntryChange(plugin.settings.access, spec.key, path, 'removed', now);
    await plugin.saveSettings();
    void plugin.search.reindex();
    void plugin.semantic.refresh();
    ctx.redisplay();
  };
  for (const path of list) {
    const row = new Setting(containerEl).setName(spec.rowName(path)).setClass(spec.rowClass);
    const note = spec.rowNote?.(path) ?? spec.rowDesc;
    if (note) row.setDesc(note);
    row.addExtraButton((button) =>
      button
        .setIcon('x')
        .setTooltip(spec.removeTooltip(path))
        .onClick(() => save(list.filter((p) => p !== path))),
    );
  }
  let pending = '';
  const add = new Setting(containerEl).setName(spec.addName).setDesc(spec.addDesc);
  add.addText((text) => {
    text.setPlaceholder(spec.placeholder).onChange((value) => {
      pending = value;
      showSettingError(add, null);
    });
    attachFolderSuggestions(text.inputEl, vaultFolders(app));
  });
  add.addButton((button) =>
    button.setButtonText(spec.button).onClick(async () => {
      let path: string;
      try {
        path = spec.check(pending);
      } catch (error) {
        showSettingError(add, (error as Error).message);
        return;
      }
      if (list.includes(path)) {
        showSettingError(add, spec.duplicate(path));
        return;
      }
      await save([...list, path]);
    }),
  );
}
