import { ToolError } from '../../errors';
import type { WriteRequest } from './write-types';

/** C0 and C1 control characters other than tab, line feed, form feed and carriage return, and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const CONTROL = /[\u0001-\u0008\u000b\u000e-\u001f\u007f-\u009f]/g;

/**
 * The text an agent's request puts into a note, with the argument that carries it: create_note's,
 * append_note's and edit_note's `content`, write_note's `body`; none for other requests (a property
 * value is written as YAML, which escapes a control character). A restore (a revert putting back
 * what a note held) is not the agent's text.
 */
function writtenText(request: WriteRequest): { text: string; arg: string } | null {
  switch (request.kind) {
    case 'create':
      return request.restore ? null : { text: request.content, arg: 'content' };
    case 'append':
    case 'edit':
      return { text: request.content, arg: 'content' };
    case 'write':
      return request.body === undefined ? null : { text: request.body, arg: 'body' };
    default:
      return null;
  }
}

/**
 * Checks the text a write request puts into a note for characters no note should hold unseen. A NUL
 * (U+0000) is refused: git, grep and many editors take a file holding one for binary (a newcomer's
 * append_note wrote one, session 43). Other control characters (ESC of a terminal colour code, BEL,
 * DEL) are written as given, with a remark: an editor shows none of them, and a search snippet
 * returns them raw.
 * @returns the remark for the result's `note`, or undefined when the text holds none.
 * @throws ToolError('invalid_argument') naming the argument and where the NUL is (1-based character).
 */
export function checkWrittenText(request: WriteRequest): string | undefined {
  const written = writtenText(request);
  if (written === null) return undefined;
  const nul = written.text.indexOf('\u0000');
  if (nul >= 0) {
    throw new ToolError(
      'invalid_argument',
      `${written.arg} holds a NUL character (U+0000) at character ${nul + 1}: git, grep and many editors would take the note ` +
        'for a binary file. Remove it (escape it as text if it is meant to be shown); nothing was written.',
    );
  }
  const controls = written.text.match(CONTROL);
  if (controls === null) return undefined;
  const kinds = [...new Set(controls)].map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  return (
    `${written.arg} holds ${controls.length} control character${controls.length === 1 ? '' : 's'} (${kinds.slice(0, 5).join(', ')}), ` +
    'written as given: no editor shows them, so the user will not see them in the note.'
  );
}
