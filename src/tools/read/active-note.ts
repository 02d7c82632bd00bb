import { clusterPrefix } from '../../vault/content/text/graphemes';
import { defineTool } from '../tool';

/** Longest selection returned, chars (cut on a grapheme-cluster boundary, so it may be a few shorter); the rest is reachable through read_note. */
export const SELECTION_BUDGET = 8000;

/** What `active_note` says when no note it may show is open. */
export const NO_NOTE_OPEN = "No note is open in Obsidian's editor; ask the user to open one, or find notes with search or list_notes.";

/** `active_note`: what the user is looking at in Obsidian right now. */
export const activeNoteTool = defineTool({
  name: 'active_note',
  title: 'Active note',
  description:
    "The note in Obsidian's focused editor: path, id, title, frontmatter, tags, mtime, cursor_line, selection (≤8000 chars), " +
    'or active: null.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'Active note', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const { notes, scope } = ctx;
    const active = notes.activeNote(scope);
    if (!active) return { active: null, note: NO_NOTE_OPEN };
    const { file, selection, cursor } = active;
    return {
      active: {
        path: file.path,
        id: notes.noteId(file),
        title: notes.noteTitle(file),
        frontmatter: notes.frontmatterOf(file),
        tags: notes.tagsOf(file),
        mtime: new Date(file.stat.mtime).toISOString(),
        cursor_line: cursor ? cursor.line + 1 : null,
        selection: clusterPrefix(selection, SELECTION_BUDGET),
        selection_length: selection.length,
      },
    };
  },
});
