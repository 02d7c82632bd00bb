import {
  ProtocolErrorCode as ErrorCode,
  type ListResourcesResult,
  type ReadResourceResult,
  type ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type { TFile } from 'obsidian';
import { quoteInput, ToolError } from '../../errors';
import { isWellFormedText } from '../../vault/content/text/lone-surrogates';
import type { AccessScope } from '../../vault/access/access';
import type { NoteStore } from '../../vault/note-store';
import { endsInSeparator, foldPath } from '../../vault/paths/paths';
import { JsonRpcError } from '../session/rpc-errors';
import type { KeyToolSet } from '../../settings/key-record';
import type { ToolContext } from '../../tools/tool';
import { outsideToolSetRoute, toolSetServes } from './tool-set-routes';

/** Every note resource URI starts with this: `vault-mcp://note/` + the vault path, each segment percent-encoded. */
export const NOTE_URI_PREFIX = 'vault-mcp://note/';

/** The RFC 6570 template of note URIs (resources/templates/list); its variable is `path`. */
export const NOTE_URI_TEMPLATE = `${NOTE_URI_PREFIX}{+path}`;

/** Notes per resources/list page. */
export const RESOURCE_PAGE_SIZE = 200;

/** Most values one completion/complete answer carries (MCP spec 2025-06-18, "Completion": at most 100). */
export const MAX_COMPLETIONS = 100;

/**
 * JSON-RPC code for an unknown resource: -32602, as MCP 2026-07-28 ("Resources" → Error Handling)
 * and the SDK's v2 line answer on every revision (the SDK re-emits the older -32002 as -32602).
 */
export const RESOURCE_NOT_FOUND = ErrorCode.InvalidParams;

/** Media type of a note's text. */
const MARKDOWN = 'text/markdown';

/** resources/templates/list's entry for notes. */
export const NOTE_TEMPLATE: ResourceTemplate = {
  uriTemplate: NOTE_URI_TEMPLATE,
  name: 'note',
  title: 'Vault note',
  description: 'A Markdown note by vault path, e.g. vault-mcp://note/Projects/Plan.md (segments percent-encoded).',
  mimeType: MARKDOWN,
};

/** The resource URI of a note: {@link NOTE_URI_PREFIX} + each path segment percent-encoded (`encodeURIComponent`). */
export function noteUri(path: string): string {
  return NOTE_URI_PREFIX + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The vault path a note URI names (segments percent-decoded), or null when `uri` is not a
 * note URI at all (another scheme: perhaps another catalog's).
 * @throws JsonRpcError(-32602) for a note URI with no path, a broken percent-escape, or a lone
 *   UTF-16 surrogate (which {@link noteUri} could not encode back).
 */
export function pathOfNoteUri(uri: string): string | null {
  if (!uri.toLowerCase().startsWith(NOTE_URI_PREFIX)) return null;
  const rest = uri.slice(NOTE_URI_PREFIX.length);
  let path: string;
  try {
    path = rest.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid resource URI ${quoteInput(uri)}: a percent-escape is broken; encode each path segment with encodeURIComponent.`,
    );
  }
  if (path.trim() === '')
    throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid resource URI ${quoteInput(uri)}: give a note path after ${NOTE_URI_PREFIX}.`);
  if (!isWellFormedText(path))
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Invalid resource URI ${quoteInput(uri)}: it holds a lone UTF-16 surrogate, which no note path has.`,
    );
  return path;
}

/** The not-found answer ({@link RESOURCE_NOT_FOUND}) for a note URI no readable note has: the same whether missing, private, quarantined or outside the key's roots. */
function notFound(uri: string): JsonRpcError {
  return new JsonRpcError(
    RESOURCE_NOT_FOUND,
    `Resource not found: no note this key may read is at ${quoteInput(uri)}; list notes with resources/list.`,
    { uri },
  );
}

/** Encodes a list position as an opaque cursor (base64url of the last path shown). */
function cursorAfter(path: string): string {
  return Buffer.from(JSON.stringify({ after: path }), 'utf8').toString('base64url');
}

/** @throws JsonRpcError(-32602) when `cursor` is not one {@link cursorAfter} made (a lone UTF-16 surrogate included, raw or encoded). */
function pathOfCursor(cursor: string): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  const after = decoded && typeof decoded === 'object' ? (decoded as { after?: unknown }).after : undefined;
  // A lone surrogate is in no note path (and no cursor this server made).
  if (typeof after !== 'string' || !isWellFormedText(after) || cursorAfter(after) !== cursor) {
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      'Invalid cursor for resources/list: pass the nextCursor of the previous page unchanged, or omit it for the first page.',
    );
  }
  return after;
}

/** Code-unit order of paths (stable across calls, so cursors stay meaningful while the vault changes). */
function byPath(a: TFile, b: TFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Notes as MCP resources (MCP spec 2025-06-18, "Resources"), for one key's scope: only notes
 * the scope may read are listed, read, subscribed to or completed (quarantine, access rules,
 * roots; anything else answers "not found"), and only as far as the key's tool set serves
 * them (tool-set-routes.ts: a key without read_note reads and hears of no note, one without
 * list_notes lists and completes none).
 */
export class NoteResources {
  private readonly reads: boolean;
  private readonly lists: boolean;

  /** @param notes the note store. @param scope the calling key's access scope. @param tools the key's tool set (missing = all). */
  constructor(
    private readonly notes: NoteStore,
    private readonly scope: AccessScope,
    tools?: KeyToolSet,
  ) {
    this.reads = toolSetServes(tools, 'read');
    this.lists = toolSetServes(tools, 'list');
  }

  /** The resources of a context's key: its notes, scope and tool set. */
  static of(ctx: ToolContext): NoteResources {
    return new NoteResources(ctx.notes, ctx.scope, ctx.caller.tools);
  }

  /**
   * One page of resources/list, notes in path order, {@link RESOURCE_PAGE_SIZE} per page.
   * @param cursor the previous page's `nextCursor`; absent for the first page.
   * @throws JsonRpcError(-32602) for a cursor this server did not make.
   */
  list(cursor: string | undefined): ListResourcesResult {
    const after = cursor === undefined ? null : pathOfCursor(cursor);
    const sorted = this.lists ? this.notes.readableNotes(this.scope).sort(byPath) : [];
    let start = 0;
    if (after !== null) {
      let high = sorted.length;
      while (start < high) {
        const mid = (start + high) >> 1;
        if (sorted[mid].path <= after) start = mid + 1;
        else high = mid;
      }
    }
    const page = sorted.slice(start, start + RESOURCE_PAGE_SIZE);
    const result: ListResourcesResult = {
      resources: page.map((file) => ({
        uri: noteUri(file.path),
        name: file.path,
        title: this.notes.noteTitle(file),
        mimeType: MARKDOWN,
        size: file.stat.size,
        annotations: { lastModified: new Date(file.stat.mtime).toISOString() },
      })),
    };
    if (start + RESOURCE_PAGE_SIZE < sorted.length) result.nextCursor = cursorAfter(page[page.length - 1].path);
    return result;
  }

  /**
   * The readable note a note URI names: the decoded path made vault-relative without further
   * decoding (backslashes, `.`/`..` segments, NFC, an absolute path inside the vault: NotePolicy.literalPath), case and Unicode form
   * matched to the vault's real spelling.
   * @throws JsonRpcError(-32602) for a malformed note URI or one of another scheme, or for any
   *   note when the key's tool set serves no reading (outsideToolSetRoute, whether a note is there or not);
   *   JsonRpcError({@link RESOURCE_NOT_FOUND}) when no note the scope may read is there.
   */
  noteAt(uri: string): TFile {
    const path = pathOfNoteUri(uri);
    if (path === null) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Unknown resource URI ${quoteInput(uri)}: notes are ${NOTE_URI_PREFIX}<path>; list them with resources/list.`,
        { uri },
      );
    }
    if (!this.reads) throw outsideToolSetRoute('read', this.scope.label);
    // A trailing '/' names a folder, never the note normalization would reach by dropping it; a note the key may read
    // there is named, as read_note names it (docs/tool-reference.md: "a path ending in '/'").
    if (endsInSeparator(path)) {
      const note = this.readableAt(path.replace(/[/\\]+$/, ''));
      if (note === null) throw notFound(uri);
      throw new JsonRpcError(
        RESOURCE_NOT_FOUND,
        `Resource not found: ${quoteInput(uri)} ends in '/', which names a folder; for the note, give ${quoteInput(noteUri(note.path))}.`,
        { uri },
      );
    }
    const file = this.readableAt(path);
    if (file === null) throw notFound(uri);
    return file;
  }

  /** The note at the URI's `path` when this key may read it, else null (missing, private, quarantined, outside its roots). */
  private readableAt(path: string): TFile | null {
    let real: string;
    try {
      real = this.notes.policy.checkedPath(this.notes.policy.literalPath(path), this.scope);
    } catch (error) {
      if (error instanceof ToolError) return null;
      throw error;
    }
    const file = this.notes.fileByPath(real);
    return file && file.extension === 'md' && this.notes.canRead(file, this.scope) ? file : null;
  }

  /**
   * resources/read of a note: its whole Markdown text (frontmatter included) under its canonical URI.
   * @throws as {@link noteAt}.
   */
  async read(uri: string): Promise<ReadResourceResult> {
    const file = this.noteAt(uri);
    // A text the key may not read (its rules newer than the metadata noteAt judged): answered as a missing note.
    const text = await this.notes.read(file, this.scope);
    if (text === null) throw notFound(uri);
    return { contents: [{ uri: noteUri(file.path), mimeType: MARKDOWN, text }] };
  }

  /**
   * True when the scope's quarantine and roots admit `path` (its folder rules, not a note's
   * frontmatter) and the key's tool set serves reading: how a removed note, whose frontmatter is
   * gone, is judged for update notifications.
   */
  admitsPath(path: string): boolean {
    if (!this.reads) return false;
    try {
      this.notes.policy.checkedPath(path, this.scope);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The version of the file at this vault path now, its modification time (ms) and size in bytes
   * as Obsidian's `TFile.stat` holds them, or null when there is none: tells one edit heard twice
   * (NoteSubscriptions.changed) from two edits.
   */
  versionOf(path: string): string | null {
    const stat = this.notes.fileByPath(path)?.stat;
    return stat ? `${stat.mtime}/${stat.size}` : null;
  }

  /** True when a Markdown note the scope (and tool set) may read is at this vault path now (for update notifications; other files are no resources). */
  canReadPath(path: string): boolean {
    const file = this.notes.fileByPath(path);
    return this.reads && file !== null && file.extension === 'md' && this.notes.canRead(file, this.scope);
  }

  /**
   * Note paths starting with `prefix` (ignoring case and Unicode form: foldPath; an absolute path inside the vault
   * counts from the vault folder, as every path route reads it), in path order, for completion/complete;
   * none when the key's tool set serves no listing.
   * @returns at most {@link MAX_COMPLETIONS} values, the number of matches and whether more exist.
   */
  completePath(prefix: string): { values: string[]; total: number; hasMore: boolean } {
    const wanted = foldPath(this.completionPrefix(prefix));
    const matches = (this.lists ? this.notes.readableNotes(this.scope) : [])
      .filter((file) => foldPath(file.path).startsWith(wanted))
      .sort(byPath)
      .map((file) => file.path);
    return { values: matches.slice(0, MAX_COMPLETIONS), total: matches.length, hasMore: matches.length > MAX_COMPLETIONS };
  }

  /**
   * A completion prefix as a vault path prefix: an absolute path inside the vault loses the
   * vault folder (NotePolicy.literalPath, with a partial last segment kept as typed); anything
   * else, including what does not normalize yet, stays as typed.
   */
  private completionPrefix(prefix: string): string {
    const cut = Math.max(prefix.lastIndexOf('/'), prefix.lastIndexOf('\\'));
    if (cut < 0) return prefix;
    try {
      const folder = this.notes.policy.literalPath(prefix.slice(0, cut + 1));
      return folder === '' ? prefix.slice(cut + 1) : `${folder}/${prefix.slice(cut + 1)}`;
    } catch {
      return prefix;
    }
  }
}
