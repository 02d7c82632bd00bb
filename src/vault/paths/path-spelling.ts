import type { App } from 'obsidian';
import { existsSync } from 'node:fs';
import { canonicalPath, findEntry } from './lookup';
import { assertPathInput, decodePercentOnce, endsInSeparator, lexicalVaultPath, withoutVaultFolder, type VaultOnDisk } from './paths';
import { vaultLocation } from '../vault-location';

/**
 * A separator (`/`, `\\`) at the start (`/Home.md` is vault-relative) or doubled, or a `.` or `..` segment between
 * separators or at either end: what a path may hold and a wikilink never does. (A trailing separator never gets here:
 * it names a folder, NotePolicy.lookUpPath.)
 */
const PATH_ONLY = /(^|[\\/])\.{0,2}([\\/]|$)/;

/**
 * Where a vault is on disk, for paths.ts withoutVaultFolder: its folder spellings, the platform's
 * case rule (Windows and macOS ignore case) and the disk root's entries. The one builder for the
 * plugin (PathSpelling, from the app) and `npm start` (scripts/start/run-vault.ts, from the folder).
 * @param folders the vault folder's absolute spellings (as opened, real path).
 * @param hasTopEntry true when the vault has a top-level entry with this (non-empty) name.
 */
export function vaultOnDisk(folders: readonly string[], hasTopEntry: (name: string) => boolean): VaultOnDisk {
  return {
    folders,
    caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
    hasTopEntry: (name) => name !== '' && hasTopEntry(name),
    diskRootHas: (name) => name !== '' && existsSync(`/${name}`),
  };
}

/**
 * How a typed path becomes a vault path: the lexical rules (paths.ts), this vault's folder on
 * disk, percent-decoding when the literal spelling names nothing, and the real spelling of
 * existing entries. No access check: NotePolicy adds that.
 */
export class PathSpelling {
  private disk: VaultOnDisk | undefined;

  /** @param app the Obsidian app, for its vault's entries and its folder on disk. */
  constructor(private readonly app: App) {}

  /**
   * The vault path `input` spells, chosen like {@link normalizePath} (the same rule for the
   * literal versus the percent-decoded spelling) but as typed: existing entries do not lend
   * their real case or Unicode form, and no access check runs. Tells a case-only rename
   * (`Ideas` → `ideas`) from a target that is already there.
   * @throws as NotePolicy.normalizePath's path rules (empty, control characters, absolute, leaving the vault).
   */
  spelledPath(input: string): string {
    assertPathInput(input);
    return this.literalPath(this.chosenSpelling(input));
  }

  /**
   * A path made vault-relative by the lexical rules alone (paths.ts lexicalVaultPath: no
   * percent-decoding, no lookup), with this vault's folder on disk, so an absolute path inside
   * the vault reads as the vault-relative path and one outside is refused. For note URIs,
   * completion prefixes and key roots, which have no decoding step of their own.
   * @returns the vault-relative path (`''` for the vault root).
   * @throws as lexicalVaultPath.
   */
  literalPath(input: string): string {
    return lexicalVaultPath(input, this.onDisk());
  }

  /**
   * True when `input`, in the spelling {@link lexicalPath} chooses, can only be a path, never a note
   * name resolved like a wikilink: an absolute file-system path or `file://` URI inside this vault's
   * folder (paths.ts withoutVaultFolder reads it as the path below that folder), a path with a leading
   * `/` or `\\` (vault-relative: `/Home.md` is the vault's top-level Home.md, docs/tool-reference.md), or a
   * path with a `.` or `..` segment (`Reference/../Home.md`, `./Home.md`), which no link has. Such a path names
   * one place, so it must not reach a note elsewhere by its name.
   * @param input a path {@link lexicalPath} accepted (else this throws as it does).
   */
  isPathOnly(input: string): boolean {
    const chosen = this.chosenSpelling(input);
    return PATH_ONLY.test(chosen) || withoutVaultFolder(chosen, this.onDisk()) !== chosen;
  }

  /** Where the vault is on disk (computed once; no folders when the adapter has no disk path). */
  private onDisk(): VaultOnDisk {
    this.disk ??= vaultOnDisk(vaultLocation(this.app).folderSpellings, (name) => findEntry(this.app.vault, name) !== null);
    return this.disk;
  }

  /**
   * Lexical normalization with percent-decoding, then the real spelling of existing entries.
   * An exact literal name always wins: when the path as typed (or with `.md` added) names an
   * existing entry, escapes in it are part of the name (`a%20b.md` next to `a b.md`); only
   * otherwise is the once-decoded spelling used.
   */
  lexicalPath(input: string): string {
    assertPathInput(input);
    return canonicalPath(this.app.vault, this.literalPath(this.chosenSpelling(input)));
  }

  /**
   * True when `input`, in the spelling {@link lexicalPath} chooses (literal or percent-decoded),
   * ends in a separator, alone or followed by `.`/`..` (`Inbox/`, `Inbox.md\`, `Inbox.md%2F`,
   * `Inbox.md/.`): it names a folder, even though normalization drops that ending.
   * @throws as {@link assertPathInput} (too long, a lone surrogate), before any other work.
   */
  namesFolder(input: string): boolean {
    assertPathInput(input);
    return endsInSeparator(this.chosenSpelling(input));
  }

  /**
   * The spelling of `input` that path rules apply to. Outer whitespace is part of the name when
   * an entry of that exact name exists (as typed or with `.md` added: `Inbox ` is `Inbox .md`
   * beside `Inbox.md`; Obsidian's normalizePath trims nothing), else dropped (`Inbox ` is
   * `Inbox.md`), so a path never reaches another note than one it names exactly. Then the
   * literal spelling when it holds no percent-escapes or names an existing entry, else decoded once.
   */
  private chosenSpelling(input: string): string {
    const given = input.trim();
    if (given !== input && given !== '' && this.namesEntryAsTyped(input)) return input;
    const decoded = decodePercentOnce(given);
    return decoded === given || this.namesEntry(this.literalPath(given)) ? given : decoded;
  }

  /** True when `input`, outer whitespace kept, names an existing entry; false when it breaks the path rules (control characters, …). */
  private namesEntryAsTyped(input: string): boolean {
    try {
      return this.namesEntry(this.literalPath(input));
    } catch {
      return false;
    }
  }

  /** True when a normalized path, as given or with `.md` added, names an existing entry. */
  private namesEntry(path: string): boolean {
    if (path === '') return false;
    return findEntry(this.app.vault, path) !== null || (!/\.md$/i.test(path) && findEntry(this.app.vault, `${path}.md`) !== null);
  }
}
