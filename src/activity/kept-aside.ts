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
 * The `keepAside` hook of ActivityLog for a vault: writes {@link keptAsideFile} of each entry one
 * trim dropped through the vault's DataAdapter (creating `.trash` when missing), then calls
 * `report` once with every file of that trim (a key flooding the log drops many entries at once,
 * and each one its own Notice piled up sticky Notices). A failed write is reported in its item;
 * never throws.
 */
export function keepAsideInTrash(adapter: DataAdapter, report: (items: KeptAside[]) => void): (entries: readonly ActivityEntry[]) => void {
  return (entries) => {
    if (entries.length === 0) return;
    void (async () => {
      const items: KeptAside[] = [];
      for (const entry of entries) {
        const { path, text } = keptAsideFile(entry);
        try {
          if (!(await adapter.exists(VAULT_TRASH))) await adapter.mkdir(VAULT_TRASH);
          await adapter.write(path, text);
          items.push({ id: entry.id, note: entry.path, file: path });
        } catch (err) {
          items.push({ id: entry.id, note: entry.path, file: path, error: (err as Error).message });
        }
      }
      report(items);
    })();
  };
}

/**
 * The one sentence telling the user about text kept aside ({@link keepAsideInTrash}): for one
 * change, its id, note and file; for several, how many files and the folder they are in
 * ({@link VAULT_TRASH}), and how many could not be kept, with the first error.
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
  else if (kept.length > 1)
    parts.push(
      `the text they would restore is kept in ${kept.length} files in the vault's ${VAULT_TRASH} folder, named "Vault MCP <change id> <note name>.md"`,
    );
  if (failed.length > 0)
    parts.push(`the text of ${failed.length === 1 ? 'one' : failed.length} could not be kept in ${VAULT_TRASH} (${failed[0].error})`);
  return `${parts.join('; ')}.`;
}
