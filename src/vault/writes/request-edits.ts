import { ToolError } from '../../errors';
import { editAsCrNote } from '../content/text/line-endings';
import { assertAppendable } from './append-write';
import { patchFrontmatterText, validatePropertyPatch } from './frontmatter/property-patch';
import { appendText, editAtAnchor, editAtHeading, replaceBody, startsWithFrontmatter } from './edits/text-edits';
import type { PropertyPatch, TextEdit, WriteRequest } from './write-types';

/** The text-changing requests (write_note, append_note, edit_note, set_properties). */
export type TextRequest = Extract<WriteRequest, { kind: 'write' | 'append' | 'edit' | 'properties' }>;

/**
 * The edit a text request makes, as a function of the note's text (see {@link TextEdit}), and
 * its proposal kind: `properties` for set_properties and a patch-only write_note, else `edit`.
 * write_note with both a body and a frontmatter_patch is one edit (patched frontmatter plus
 * the new body), so it applies in one `vault.process`.
 * A note whose lines end in `\r` alone is edited as its LF view and keeps its `\r` line
 * endings (line-endings.ts editAsCrNote), so sections, fences and appended lines land as in an
 * LF note.
 * @throws ToolError('invalid_argument') for a write_note without body and patch, or a body
 *   that starts with a frontmatter block; what validatePropertyPatch throws for a bad patch.
 */
export function textEditOf(request: TextRequest, notePath: string): { kind: 'edit' | 'properties'; edit: TextEdit; needsOutline: boolean } {
  const made = lineBreakEditOf(request, notePath);
  const edit = made.edit;
  return { ...made, edit: (text, outline) => editAsCrNote(text, (view) => edit(view, outline)) };
}

/** {@link textEditOf}'s edit for a note with `\n` or `\r\n` line breaks. */
function lineBreakEditOf(request: TextRequest, notePath: string): { kind: 'edit' | 'properties'; edit: TextEdit; needsOutline: boolean } {
  switch (request.kind) {
    case 'properties': {
      const { properties } = request;
      validatePropertyPatch(properties, notePath);
      return { kind: 'properties', edit: (text) => patchFrontmatterText(text, properties, notePath), needsOutline: false };
    }
    case 'write': {
      const { body, frontmatterPatch } = request;
      if (body === undefined && frontmatterPatch === undefined) {
        throw new ToolError('invalid_argument', 'Give body, frontmatter_patch or both; to add text use append_note or edit_note.');
      }
      if (frontmatterPatch !== undefined) validatePropertyPatch(frontmatterPatch, notePath);
      if (body === undefined) {
        return {
          kind: 'properties',
          edit: (text) => patchFrontmatterText(text, frontmatterPatch as PropertyPatch, notePath),
          needsOutline: false,
        };
      }
      if (startsWithFrontmatter(body)) {
        throw new ToolError(
          'invalid_argument',
          'body starts with a --- frontmatter block; pass only the body (what read_note returns as body) and put property changes in frontmatter_patch.',
        );
      }
      const edit: TextEdit =
        frontmatterPatch === undefined
          ? (text) => replaceBody(text, body)
          : (text) => {
              const patched = patchFrontmatterText(text, frontmatterPatch, notePath);
              const replaced = replaceBody(patched.text, body);
              return patched.note !== undefined ? { ...replaced, note: patched.note } : replaced;
            };
      return { kind: 'edit', edit, needsOutline: false };
    }
    case 'append': {
      const { content, ensureNewline } = request;
      assertAppendable(content, notePath);
      return { kind: 'edit', edit: (text) => appendText(text, content, ensureNewline), needsOutline: false };
    }
    case 'edit': {
      const { target, op, content } = request;
      if ('heading' in target) {
        return {
          kind: 'edit',
          edit: (text, outline) => editAtHeading(text, outline ?? [], target.heading, op, content, notePath),
          needsOutline: true,
        };
      }
      return { kind: 'edit', edit: (text) => editAtAnchor(text, target.anchor, op, content, notePath), needsOutline: false };
    }
  }
}
