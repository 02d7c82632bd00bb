import { defineTool } from './tool';

/** Longest selection returned, chars; the rest is reachable through read_note. */
export const SELECTION_BUDGET = 8000;

/** `active_note`: what the user is looking at in Obsidian right now. */
export const activeNoteTool = defineTool({
  name: 'active_note',
  title: 'Active note',
  description:
    'The note open in Obsidian\'s focused editor: path, id, title, frontmatter, tags, mtime and selection (up to 8000 chars); ' +
    '{active: null} when none. read_note gives its body.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'Active note', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const { notes, scope } = ctx;
    const active = notes.activeNote(scope);
    if (!active) return { active: null };
    const { file, selection } = active;
    return {
      active: {
        path: file.path,
        id: notes.noteId(file),
        title: notes.noteTitle(file),
        frontmatter: notes.frontmatterOf(file),
        tags: notes.tagsOf(file),
        mtime: new Date(file.stat.mtime).toISOString(),
        selection: selection.slice(0, SELECTION_BUDGET),
        selection_length: selection.length,
      },
    };
  },
});
