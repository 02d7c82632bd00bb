import * as z from 'zod';
import { TFolder } from 'obsidian';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool, type ToolContext } from '../tool';
import { otherFileTypeRemark } from '../../vault/paths/note-names';
import { joinRemarks } from '../../vault/remarks';

/** `move_note`: move or rename a note or folder; Obsidian updates the links. */
export const moveNoteTool = defineTool({
  name: 'move_note',
  title: 'Move note',
  description:
    'Move or rename a note or folder to `to`; Obsidian updates links to it. A note target gets ".md"; missing folders are ' +
    'created. Never overwrites.',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Note path or [[wikilink]] name, or a folder.'),
    to: z.string().describe('New path, e.g. "Archive/Plan.md".'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Move note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const result = await submitWrite(ctx, {
      tool: 'move_note',
      kind: 'move',
      path: args.path,
      to: args.to,
      expectedHash: args.expected_hash,
    });
    const staged = result.status === 'pending';
    const to = staged ? result.to : result.path;
    const remarks = [folderBesideNote(ctx, args.to, result), typeof to === 'string' ? otherFileTypeRemark(args.to, to) : null];
    return remarks.every((r) => r === null) ? result : { ...result, note: joinRemarks(result.note, ...remarks) };
  },
});

/**
 * The remark for a note moved (or staged to move) to `Name.md` when `to` did not say `.md` and a folder `Name/` the key may
 * see is there: the agent likely meant "into that folder", which a path ending in `/` refuses with the path to give, while
 * this one succeeded silently beside it (docs/tool-reference.md: beside a folder, `Topic` is the note). A folder the key may
 * not see (quarantined, outside its roots) gets no remark, so the answer tells nothing of it.
 * @param result what submitWrite answered: applied, `path` the note's new path and `from` its old one; staged (propose),
 *   `path` the note and `to` its new path (a folder move's paths have no `.md`)
 * @returns the sentence, or null
 */
function folderBesideNote(ctx: ToolContext, to: string, result: Record<string, unknown>): string | null {
  const staged = result.status === 'pending';
  const [path, from] = staged ? [result.to, result.path] : [result.path, result.from];
  if (typeof path !== 'string' || typeof from !== 'string' || !path.endsWith('.md') || /\.md\s*$/i.test(to)) return null;
  const folderPath = path.slice(0, -'.md'.length);
  const { policy } = ctx.notes;
  try {
    if (policy.normalizeFolderPath(folderPath, ctx.scope) !== folderPath || policy.isQuarantined(folderPath)) return null;
  } catch {
    return null;
  }
  if (!(policy.entryAt(folderPath) instanceof TFolder)) return null;
  const name = from.slice(from.lastIndexOf('/') + 1);
  return `'${folderPath}' is also a folder: this moves the note to '${path}' beside it; to move it into the folder, give '${folderPath}/${name}'.`;
}
