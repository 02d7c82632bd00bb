/**
 * The text an activity entry alone held, written out when the log's size limit drops the entry
 * (the user never loses an agent-replaced text silently). Pure string work; main.ts
 * writes the result as a file in the vault's `.trash` folder (where Obsidian keeps notes
 * deleted to the vault trash), so the user finds it with the other deleted notes.
 */
import type { DataAdapter } from 'obsidian';
import type { ActivityEntry } from './types';
import { textsOf } from './undo-data';

/** The vault's own trash folder (Obsidian's "Move to Obsidian trash"), vault-relative. */
export const VAULT_TRASH = '.trash';

/**
 * The file to keep for `entry`: its name (in {@link VAULT_TRASH}, `Vault MCP <id> <note name>.md`)
 * and its text: one line on where it came from, then the note's whole text before the change
 * when the entry has it (a delete, an entry with its text after), else each replaced part with
 * its line number.
 */
export function keptAsideFile(entry: ActivityEntry): { path: string; text: string } {
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1).replace(/\.(md|html)$/, '');
  const head = `Vault MCP kept this text of '${entry.path}' when its agent activity log dropped change ${entry.id} (${entry.tool} by "${entry.key_label}", ${entry.at}) for its size limit`;
  let before: string | null = null;
  try {
    before = textsOf(entry).before;
  } catch {
    before = null;
  }
  const text =
    before !== null
      ? `${head}: the whole text before the change follows.\n\n${before}`
      : `${head}: the lines the change replaced follow, each part with its line number in the note after the change.\n` +
        (entry.undo.patch ?? [])
          .filter((h) => h.inserted !== '')
          .map((h) => `\n--- line ${h.line ?? '?'}:\n${h.inserted}`)
          .join('');
  return { path: `${VAULT_TRASH}/Vault MCP ${entry.id} ${name}.md`, text };
}

/** One entry whose text {@link keepAsideInTrash} kept aside: its id, its note, the file written, and the error when it could not be. */
export interface KeptAside {
  id: string;
  note: string;
  file: string;
  error?: string;
}

/**
 * Where {@link keepAsideInTrash} may write, judged on the disk right before each file (a link can
 * be placed there at any time: a sync, the user, another program).
 */
export interface KeepAsidePlaces {
  /**
   * True when the vault's {@link VAULT_TRASH} folder may take the file: a plain folder or none yet
   * (NotePolicy.localTrashRefusal null). False when it is a symbolic link the user does not trust,
   * out of the vault or to nothing, which would carry the text out or lose it.
   */
  trashUsable(): boolean;
  /** True when nothing lies at the vault path `path` on disk and no link on its way leads it elsewhere (NotePolicy.isFreeNow). */
  isFreeNow(path: string): boolean;
  /** The vault path of the folder used when {@link VAULT_TRASH} is not usable or takes nothing: the plugin's own folder's `kept-aside`. */
  fallbackFolder: string;
}

/** How many numbered names (`… 2.md`, `… 3.md`, …) {@link keepAsideInTrash} tries when the first is taken. */
const MAX_NAME_TRIES = 100;

/**
 * The `keepAside` hook of ActivityLog for a vault: writes {@link keptAsideFile} of each entry one
 * trim dropped through the vault's DataAdapter, then calls `report` once with every file of that
 * trim (a key flooding the log drops many entries at once, and each one its own Notice piled up
 * sticky Notices). Nothing is overwritten and nothing goes through a link: each file goes to the
 * first free name (`Vault MCP <id> <note>.md`, then `… 2.md`, …) in {@link VAULT_TRASH} (skipped
 * while that is a link the user does not trust, {@link KeepAsidePlaces}), else in
 * `places.fallbackFolder`, each folder created when missing and passed over when it is no folder
 * or a link lies on its way. A text no folder took is reported in its item with each folder's
 * reason; never throws.
 */
export function keepAsideInTrash(
  adapter: DataAdapter,
  places: KeepAsidePlaces,
  report: (items: KeptAside[]) => void,
): (entries: readonly ActivityEntry[]) => void {
  return (entries) => {
    if (entries.length === 0) return;
    void (async () => {
      const items: KeptAside[] = [];
      for (const entry of entries) items.push(await keepAside(adapter, places, entry));
      report(items);
    })();
  };
}

/** Writes one entry's {@link keptAsideFile} in the first folder that takes it (see {@link keepAsideInTrash}). */
async function keepAside(adapter: DataAdapter, places: KeepAsidePlaces, entry: ActivityEntry): Promise<KeptAside> {
  const kept = keptAsideFile(entry);
  const name = kept.path.slice(VAULT_TRASH.length + 1);
  const folders = places.trashUsable() ? [VAULT_TRASH, places.fallbackFolder] : [places.fallbackFolder];
  const reasons: string[] = places.trashUsable() ? [] : [`${VAULT_TRASH} is a symbolic link`];
  for (const folder of folders) {
    try {
      const file = await freeNameIn(adapter, places, folder, name);
      await adapter.write(file, kept.text);
      return { id: entry.id, note: entry.path, file };
    } catch (err) {
      reasons.push(`${folder}: ${(err as Error).message}`);
    }
  }
  return { id: entry.id, note: entry.path, file: `${folders[folders.length - 1]}/${name}`, error: reasons.join('; ') };
}

/**
 * The first of `folder/name`, then `name` numbered 2, 3, … ({@link MAX_NAME_TRIES}), that nothing
 * lies at and no link leads elsewhere ({@link KeepAsidePlaces.isFreeNow}); creates `folder` when
 * missing.
 * @throws Error saying why the folder takes nothing: not a folder, a link on its way, every name taken.
 */
async function freeNameIn(adapter: DataAdapter, places: KeepAsidePlaces, folder: string, name: string): Promise<string> {
  const stat = await adapter.stat(folder);
  if (stat === null) {
    if (!places.isFreeNow(folder)) throw new Error('a symbolic link lies on its way');
    await adapter.mkdir(folder);
  } else if (stat.type !== 'folder') throw new Error('not a folder');
  const stem = name.slice(0, -'.md'.length);
  let linked = false;
  for (let n = 1; n <= MAX_NAME_TRIES; n++) {
    const candidate = `${folder}/${n === 1 ? name : `${stem} ${n}.md`}`;
    if (await adapter.exists(candidate)) continue;
    if (places.isFreeNow(candidate)) return candidate;
    linked = true;
  }
  throw new Error(linked ? 'a symbolic link lies on its way' : `'${name}' and ${MAX_NAME_TRIES - 1} numbered names beside it are taken`);
}

/**
 * The one sentence telling the user about text kept aside ({@link keepAsideInTrash}): for one
 * change, its id, note and file; for several, how many files and the folders they are in
 * ({@link VAULT_TRASH}, or the fallback folder while that is a link), and how many could not be
 * kept, with the first error.
 */
export function keptAsideMessage(items: readonly KeptAside[]): string {
  if (items.length === 1) {
    const [{ id, note, file, error }] = items;
    return error === undefined
      ? `The agent activity log is full, so change ${id} to '${note}' left it; the text it would restore is kept in ${file}.`
      : `The agent activity log dropped change ${id} to '${note}' and could not keep its text in ${file} (${error}).`;
  }
  const kept = items.filter((i) => i.error === undefined);
  const failed = items.filter((i) => i.error !== undefined);
  const parts = [`The agent activity log is full, so ${items.length} changes left it`];
  if (kept.length === 1) parts.push(`the text one of them would restore is kept in ${kept[0].file}`);
  else if (kept.length > 1) {
    const folders = [...new Set(kept.map((i) => i.file.slice(0, i.file.lastIndexOf('/'))))];
    const where = folders.length === 1 && folders[0] === VAULT_TRASH ? `the vault's ${VAULT_TRASH} folder` : folders.join(' and ');
    parts.push(`the text they would restore is kept in ${kept.length} files in ${where}, named "Vault MCP <change id> <note name>.md"`);
  }
  if (failed.length > 0) {
    const folder = failed[0].file.slice(0, failed[0].file.lastIndexOf('/'));
    parts.push(`the text of ${failed.length === 1 ? 'one' : failed.length} could not be kept in ${folder} (${failed[0].error})`);
  }
  return `${parts.join('; ')}.`;
}
