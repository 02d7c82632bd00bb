/**
 * Input descriptions several tools share, written once so tools/list stays short and the
 * tools say the same thing the same way.
 */

/** The `path` of a tool that acts on one existing note (write tools; ids are read tools' extra). */
export const NOTE_ARG_DESCRIPTION = 'Path (.md optional) or [[wikilink]] name.';
