import type { App, TFile } from 'obsidian';
import { ToolError } from '../errors';
import type { AccessScope } from './access';
import { EntryWriter } from './entry-writer';
import { assertWritableText, guardFrontmatter } from './frontmatter-guard';
import { hashText } from './hash';
import { cacheMatchesText, nextIndexed } from './index-freshness';
import type { NoteReader } from './note-reader';
import { patchFrontmatterText, validatePropertyPatch } from './property-patch';
import type { NoteSection } from './sections';
import { appendText, editAtAnchor, editAtHeading, replaceBody, startsWithFrontmatter } from './text-edits';
import { assertExpectedHash, assertStillAt, byteSize, writableNote } from './write-checks';
import { WriteLock } from './write-lock';
import type { PreparedTextWrite, PreparedWrite, PropertyPatch, TextEdit, TextEditResult, WriteRequest, WriteResult } from './write-types';

/** How long a heading edit waits for Obsidian to index a note that just changed, ms. */
const INDEX_WAIT_MS = 3000;
/** How often a heading edit tries again when the note changed between reading and writing. */
const EDIT_ATTEMPTS = 6;

/**
 * Every write of the write tools, in two steps: {@link prepare} validates a request against
 * the note as it is now (paths, access rules, expected_hash, anchors and headings, the
 * frontmatter guard) and computes the new text; {@link apply} carries it out through the
 * Obsidian API only: one `vault.process` for every text change, property patches included
 * (the hash check runs inside its callback, and the access re-check, the edit and the
 * frontmatter guard too when the note changed since prepare, so they are atomic with the
 * write), `fileManager.renameFile` for moves, `vault.trash` for deletes. Propose mode stages
 * a prepared write instead of applying it.
 */
export class NoteWriter {
  private readonly lock = new WriteLock();
  private readonly entries: EntryWriter;

  /** @param app the Obsidian app. @param notes the note store whose rules (paths, access) writes follow. */
  constructor(
    private readonly app: App,
    private readonly notes: NoteReader,
  ) {
    this.entries = new EntryWriter(app, notes, this.lock);
  }

  /**
   * Validates `request` for `scope` and computes the change on the note's current text.
   * Nothing is written.
   * @throws ToolError for anything the agent can fix: not_found (private notes included),
   *   forbidden (quarantine, roots, read-only, protected keys), conflict (expected_hash),
   *   ambiguous / not_found (anchor, heading), invalid_argument, exists.
   */
  async prepare(request: WriteRequest, scope: AccessScope): Promise<PreparedWrite> {
    switch (request.kind) {
      case 'create':
        return this.entries.prepareCreate(request.tool, request.path, request.content, scope);
      case 'folder':
        return this.entries.prepareFolder(request.tool, request.path, scope);
      case 'move':
        return this.entries.prepareMove(request.tool, request.path, request.to, request.expectedHash, scope);
      case 'delete':
        return this.entries.prepareDelete(request.tool, request.path, request.expectedHash, scope);
      default:
        return this.prepareText(request, scope);
    }
  }

  /**
   * Applies a prepared write (force mode), re-checking expected_hash and the access rules on
   * the note as it is at that moment.
   * @returns what was done ({@link WriteResult}).
   * @throws ToolError as {@link prepare} when the note changed in a way that makes the write
   *   invalid; ToolError('conflict') when a heading edit kept racing other writes.
   */
  async apply(prepared: PreparedWrite, scope: AccessScope): Promise<WriteResult> {
    switch (prepared.kind) {
      case 'edit':
      case 'properties':
        return this.applyText(prepared, scope);
      default:
        return this.entries.apply(prepared, scope);
    }
  }

  /**
   * prepare() for write_note, append_note, edit_note and set_properties: reads the note once
   * (heading edits may take the newer text the index describes), checks expected_hash and the
   * access rules on that text, and runs the edit on it.
   */
  private async prepareText(request: TextRequest, scope: AccessScope): Promise<PreparedWrite> {
    const file = writableNote(this.notes, request.path, scope);
    let baseText = await this.notes.read(file);
    assertExpectedHash(baseText, request.expectedHash, file.path);
    assertWritableText(baseText, scope, file.path);
    const { kind, edit, needsOutline } = textEditOf(request, file.path);
    let outline: NoteSection[] | null = null;
    if (needsOutline) {
      const indexed = await this.indexedOutline(file, baseText);
      if (indexed.text !== baseText) {
        assertExpectedHash(indexed.text, request.expectedHash, file.path);
        assertWritableText(indexed.text, scope, file.path);
      }
      ({ text: baseText, outline } = indexed);
    }
    const proposed = edit(baseText, outline);
    guardFrontmatter(baseText, proposed.text, file.path);
    return {
      kind,
      tool: request.tool,
      file,
      path: file.path,
      expectedHash: request.expectedHash,
      baseText,
      baseHash: hashText(baseText),
      proposedText: proposed.text,
      proposedLines: proposed.lines,
      edit,
      needsOutline,
    };
  }

  /**
   * Applies a prepared text write in one `vault.process`: expected_hash is checked inside the
   * callback; when the note still equals `baseText` the prepared text is written as it is,
   * otherwise the access rules, the edit and the frontmatter guard run again on the current
   * text. A heading edit whose note changed needs the outline of the new text, so it leaves
   * the note as it is, waits for the index and tries again.
   */
  private applyText(p: PreparedTextWrite, scope: AccessScope): Promise<WriteResult> {
    return this.lock.run(p.file, async () => {
      assertStillAt(this.app.vault, p.file, p.path);
      let base = p.baseText;
      let outline: NoteSection[] | null = null;
      for (let attempt = 0; attempt < EDIT_ATTEMPTS; attempt++) {
        if (attempt > 0) ({ text: base, outline } = await this.indexedOutline(p.file, base));
        const box: { before: string; result?: TextEditResult } = { before: base };
        await this.app.vault.process(p.file, (current) => {
          assertExpectedHash(current, p.expectedHash, p.path);
          box.before = current;
          if (current === p.baseText) {
            box.result = { text: p.proposedText, lines: p.proposedLines };
            return p.proposedText;
          }
          if (p.needsOutline && current !== base) return current;
          assertWritableText(current, scope, p.path);
          const result = p.edit(current, outline);
          guardFrontmatter(current, result.text, p.path);
          box.result = result;
          return result.text;
        });
        const { before, result } = box;
        if (result !== undefined) {
          return {
            status: 'applied',
            path: p.file.path,
            hash: hashText(result.text),
            size_before: byteSize(before),
            size_after: byteSize(result.text),
            ...(result.lines ? { lines: result.lines } : {}),
          };
        }
        base = before;
      }
      throw new ToolError('conflict', `Note '${p.path}' kept changing while this edit was applied, so nothing was written; read it again and retry.`);
    });
  }

  /**
   * The note's outline from the metadata cache (NoteStore.outline) together with the exact text
   * it describes. When the cache is behind `text`, waits for Obsidian to index the note; when
   * the note moved on meanwhile, continues with its newer text (so callers compare the
   * returned text, not the one they passed).
   * @throws ToolError('unavailable') when the index does not catch up within INDEX_WAIT_MS.
   */
  private async indexedOutline(file: TFile, text: string): Promise<{ text: string; outline: NoteSection[] }> {
    const deadline = Date.now() + INDEX_WAIT_MS;
    let current = text;
    while (!cacheMatchesText(this.app.metadataCache.getFileCache(file), current)) {
      const remaining = deadline - Date.now();
      const indexed = remaining > 0 ? await nextIndexed(this.app.metadataCache, file, remaining) : null;
      if (indexed === null) {
        if (cacheMatchesText(this.app.metadataCache.getFileCache(file), current)) break;
        throw new ToolError('unavailable', `Obsidian has not finished indexing '${file.path}' after its last change; retry in a moment.`);
      }
      current = indexed;
    }
    return { text: current, outline: this.notes.outline(file, current) };
  }
}

/** The text-changing requests. */
type TextRequest = Extract<WriteRequest, { kind: 'write' | 'append' | 'edit' | 'properties' }>;

/**
 * The edit a text request makes, as a function of the note's text (see {@link TextEdit}), and
 * its proposal kind: `properties` for set_properties and a patch-only write_note, else `edit`.
 * write_note with both a body and a frontmatter_patch is one edit (patched frontmatter plus
 * the new body), so it applies in one `vault.process`.
 * @throws ToolError('invalid_argument') for a write_note without body and patch, or a body
 *   that starts with a frontmatter block; what validatePropertyPatch throws for a bad patch.
 */
function textEditOf(request: TextRequest, notePath: string): { kind: 'edit' | 'properties'; edit: TextEdit; needsOutline: boolean } {
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
        return { kind: 'properties', edit: (text) => patchFrontmatterText(text, frontmatterPatch as PropertyPatch, notePath), needsOutline: false };
      }
      if (startsWithFrontmatter(body)) {
        throw new ToolError(
          'invalid_argument',
          'body starts with a --- frontmatter block; pass only the body (what read_note returns as body) and put property changes in frontmatter_patch.',
        );
      }
      const edit: TextEdit = frontmatterPatch === undefined
        ? (text) => replaceBody(text, body)
        : (text) => replaceBody(patchFrontmatterText(text, frontmatterPatch, notePath).text, body);
      return { kind: 'edit', edit, needsOutline: false };
    }
    case 'append': {
      const { content, ensureNewline } = request;
      return { kind: 'edit', edit: (text) => appendText(text, content, ensureNewline), needsOutline: false };
    }
    case 'edit': {
      const { target, op, content } = request;
      if ('heading' in target) {
        return { kind: 'edit', edit: (text, outline) => editAtHeading(text, outline ?? [], target.heading, op, content, notePath), needsOutline: true };
      }
      return { kind: 'edit', edit: (text) => editAtAnchor(text, target.anchor, op, content, notePath), needsOutline: false };
    }
  }
}
