import { getFrontMatterInfo, type App, type TFile } from 'obsidian';
import { ToolError } from '../errors';
import type { AccessScope } from './access';
import { EntryWriter } from './entry-writer';
import {
  assertWritableFrontmatter,
  assertWritableText,
  guardFrontmatter,
  noteNotFound,
  parseFrontmatter,
  protectedFingerprint,
  protectedKeysError,
} from './frontmatter-guard';
import { hashText } from './hash';
import { cacheMatchesText, nextIndexed } from './index-freshness';
import type { NoteReader } from './note-reader';
import { applyPropertyPatch, validatePropertyPatch } from './property-patch';
import type { NoteSection } from './sections';
import { appendText, editAtAnchor, editAtHeading, lineAt, replaceBody, startsWithFrontmatter } from './text-edits';
import { assertExpectedHash, byteSize, writableNote } from './write-checks';
import { WriteLock } from './write-lock';
import type { PreparedWrite, PropertyPatch, TextEdit, TextEditResult, WriteRequest, WriteResult } from './write-types';

/** How long a heading edit waits for Obsidian to index a note that just changed, ms. */
const INDEX_WAIT_MS = 3000;
/** How often a heading edit re-reads a note that changed between reading and writing. */
const EDIT_ATTEMPTS = 6;

/**
 * Every write of the write tools, in two steps: {@link prepare} validates a request against
 * the note as it is now (paths, access rules, expected_hash, anchors and headings, the
 * frontmatter guard) and describes the change; {@link apply} carries it out through the
 * Obsidian API only: `vault.process` for text (the hash check, the access re-check and the
 * frontmatter guard run inside its callback, so they are atomic with the write),
 * `fileManager.processFrontMatter` for properties, `fileManager.renameFile` for moves,
 * `vault.trash` for deletes. Propose mode stages a prepared write instead of applying it.
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
        return this.applyEdit(prepared, scope);
      case 'properties':
        return this.applyProperties(prepared, scope);
      default:
        return this.entries.apply(prepared, scope);
    }
  }

  /** prepare() for write_note, append_note, edit_note and set_properties. */
  private async prepareText(
    request: Extract<WriteRequest, { kind: 'write' | 'append' | 'edit' | 'properties' }>,
    scope: AccessScope,
  ): Promise<PreparedWrite> {
    const file = writableNote(this.notes, request.path, scope);
    const baseText = await this.notes.read(file);
    assertExpectedHash(baseText, request.expectedHash, file.path);
    const base = { tool: request.tool, file, path: file.path, expectedHash: request.expectedHash, baseText, baseHash: hashText(baseText) };
    if (request.kind === 'properties') {
      this.assertPatchable(request.properties, baseText, file.path);
      return { kind: 'properties', ...base, properties: request.properties };
    }
    let edit: TextEdit;
    let needsOutline = false;
    let properties: PropertyPatch | undefined;
    if (request.kind === 'write') {
      const { body, frontmatterPatch } = request;
      if (body === undefined && frontmatterPatch === undefined) {
        throw new ToolError('invalid_argument', 'Give body, frontmatter_patch or both; to add text use append_note or edit_note.');
      }
      if (frontmatterPatch !== undefined) {
        this.assertPatchable(frontmatterPatch, baseText, file.path);
        if (body === undefined) return { kind: 'properties', ...base, properties: frontmatterPatch };
        properties = frontmatterPatch;
      }
      const newBody = body as string;
      if (startsWithFrontmatter(newBody)) {
        throw new ToolError(
          'invalid_argument',
          'body starts with a --- frontmatter block; pass only the body (what read_note returns as body) and put property changes in frontmatter_patch.',
        );
      }
      edit = (text) => replaceBody(text, newBody);
    } else if (request.kind === 'append') {
      const { content, ensureNewline } = request;
      edit = (text) => appendText(text, content, ensureNewline);
    } else {
      const { target, op, content } = request;
      if ('heading' in target) {
        needsOutline = true;
        edit = (text, outline) => editAtHeading(text, outline ?? [], target.heading, op, content, file.path);
      } else {
        edit = (text) => editAtAnchor(text, target.anchor, op, content, file.path);
      }
    }
    if (needsOutline) {
      const indexed = await this.indexedOutline(file, baseText);
      assertExpectedHash(indexed.text, request.expectedHash, file.path);
      const proposed = edit(indexed.text, indexed.outline);
      guardFrontmatter(indexed.text, proposed.text, file.path);
      return { kind: 'edit', ...base, baseText: indexed.text, baseHash: hashText(indexed.text), proposedText: proposed.text, edit, needsOutline, properties };
    }
    const proposed = edit(baseText, null);
    guardFrontmatter(baseText, proposed.text, file.path);
    return { kind: 'edit', ...base, proposedText: proposed.text, edit, needsOutline, properties };
  }

  /** Applies a text edit inside `vault.process`, after the frontmatter patch of write_note if any. */
  private applyEdit(p: Extract<PreparedWrite, { kind: 'edit' }>, scope: AccessScope): Promise<WriteResult> {
    return this.lock.run(p.file, async () => {
      this.assertPresent(p.file, p.path);
      let expected = p.expectedHash;
      let base = p.baseText;
      let sizeBefore: number | null = null;
      if (p.properties) {
        const step = await this.patchFrontmatter(p.file, p.properties, expected, scope);
        sizeBefore = byteSize(step.before);
        base = step.after;
        expected = hashText(step.after);
      }
      for (let attempt = 0; attempt < EDIT_ATTEMPTS; attempt++) {
        let outline: NoteSection[] | null = null;
        if (p.needsOutline) ({ text: base, outline } = await this.indexedOutline(p.file, base));
        const box: { before?: string; result?: TextEditResult } = {};
        await this.app.vault.process(p.file, (current) => {
          assertExpectedHash(current, expected, p.path);
          if (outline && current !== base) return current;
          assertWritableText(current, scope, p.path);
          const result = p.edit(current, outline);
          guardFrontmatter(current, result.text, p.path);
          box.before = current;
          box.result = result;
          return result.text;
        });
        if (box.result !== undefined && box.before !== undefined) {
          return {
            status: 'applied',
            path: p.file.path,
            hash: hashText(box.result.text),
            size_before: sizeBefore ?? byteSize(box.before),
            size_after: byteSize(box.result.text),
            lines: box.result.lines,
          };
        }
        base = await this.app.vault.read(p.file);
      }
      throw new ToolError('conflict', `Note '${p.path}' kept changing while this edit was applied, so nothing was written; read it again and retry.`);
    });
  }

  /** Applies set_properties (or a patch-only write_note) through processFrontMatter. */
  private applyProperties(p: Extract<PreparedWrite, { kind: 'properties' }>, scope: AccessScope): Promise<WriteResult> {
    return this.lock.run(p.file, async () => {
      this.assertPresent(p.file, p.path);
      const { before, after } = await this.patchFrontmatter(p.file, p.properties, p.expectedHash, scope);
      const info = getFrontMatterInfo(after);
      return {
        status: 'applied',
        path: p.file.path,
        hash: hashText(after),
        size_before: byteSize(before),
        size_after: byteSize(after),
        ...(info.exists ? { lines: { start: 1, end: lineAt(after, info.to) } } : {}),
      };
    });
  }

  /**
   * Patches the frontmatter with `fileManager.processFrontMatter` (it writes back only the keys
   * that changed, so untouched keys keep their YAML form). Runs under the note's write lock:
   * expected_hash and the access rules are checked on a fresh read just before, the access
   * rules and the protected keys again on the object inside the callback.
   * @returns the whole text before and after.
   */
  private async patchFrontmatter(file: TFile, patch: PropertyPatch, expectedHash: string | undefined, scope: AccessScope): Promise<{ before: string; after: string }> {
    const before = await this.app.vault.read(file);
    assertExpectedHash(before, expectedHash, file.path);
    this.assertParseable(before, file.path);
    assertWritableText(before, scope, file.path);
    try {
      await this.app.fileManager.processFrontMatter(file, (frontmatter: Record<string, unknown>) => {
        assertWritableFrontmatter(frontmatter, scope, file.path);
        const guard = protectedFingerprint(frontmatter);
        applyPropertyPatch(frontmatter, patch);
        if (protectedFingerprint(frontmatter) !== guard) throw protectedKeysError(file.path);
      });
    } catch (err) {
      if (err instanceof ToolError) throw err;
      if (err instanceof Error && err.name.startsWith('YAML')) throw unparseableError(file.path, err.message.split('\n')[0]);
      throw err;
    }
    return { before, after: await this.app.vault.read(file) };
  }

  /** Checks a property patch and that the note's frontmatter parses. */
  private assertPatchable(patch: PropertyPatch, text: string, notePath: string): void {
    validatePropertyPatch(patch, notePath);
    this.assertParseable(text, notePath);
  }

  /** @throws ToolError('invalid_argument') with the YAML error when the note's frontmatter does not parse. */
  private assertParseable(text: string, notePath: string): void {
    const fm = parseFrontmatter(text);
    if (fm.state === 'invalid') throw unparseableError(notePath, fm.error);
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
      if (indexed !== current) current = await this.app.vault.read(file);
    }
    return { text: current, outline: this.notes.outline(file, current) };
  }

  /** @throws ToolError('not_found') when the note was deleted or moved since it was resolved. */
  private assertPresent(file: TFile, notePath: string): void {
    if (this.app.vault.getFileByPath(file.path) !== file || file.path !== notePath) throw noteNotFound(notePath);
  }
}

/** The refusal for frontmatter that does not parse: never rewrite or wipe it. */
function unparseableError(notePath: string, detail: string): ToolError {
  return new ToolError(
    'invalid_argument',
    `The frontmatter of '${notePath}' does not parse as YAML (${detail}); nothing was changed. Fix the YAML first (edit_note with an anchor inside the block) or ask the user.`,
  );
}
