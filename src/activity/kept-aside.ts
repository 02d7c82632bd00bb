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

/**
 * The `keepAside` hook of ActivityLog for a vault: writes {@link keptAsideFile} through the
 * vault's DataAdapter (creating `.trash` when missing) and tells the user with `notify`
 * (one sentence). A failed write is reported the same way; never throws.
 */
export function keepAsideInTrash(adapter: DataAdapter, notify: (message: string) => void): (entry: ActivityEntry) => void {
  return (entry) => {
    const { path, text } = keptAsideFile(entry);
    void (async () => {
      if (!(await adapter.exists(VAULT_TRASH))) await adapter.mkdir(VAULT_TRASH);
      await adapter.write(path, text);
    })().then(
      () =>
        notify(
          `The agent activity log is full, so change ${entry.id} to '${entry.path}' left it; the text it would restore is kept in ${path}.`,
        ),
      (err: unknown) =>
        notify(
          `The agent activity log dropped change ${entry.id} to '${entry.path}' and could not keep its text in ${path} (${(err as Error).message}).`,
        ),
    );
  };
}
