import type { TAbstractFile, TFile } from 'obsidian';
import type { NotePolicy } from './note-policy';
import type { NoteSection } from './content/sections';
import type { AccessScope } from './access/access';

/**
 * The path and access decisions the writers use: the part of {@link NotePolicy} that checks
 * targets (normalize, spell, check, what is there) and sources (resolve, read, write access).
 */
export type WritePolicy = Pick<
  NotePolicy,
  | 'normalizePath'
  | 'spelledPath'
  | 'namesFolder'
  | 'checkedPath'
  | 'entryAt'
  | 'caseTwins'
  | 'isQuarantined'
  | 'canRead'
  | 'accessOf'
  | 'rulesFrontmatter'
  | 'resolveNote'
  | 'realPathOf'
  | 'isFreeNow'
  | 'judgedPlace'
  | 'isWhereJudgedNow'
  | 'localTrashRefusal'
  | 'fileOf'
>;

/**
 * The read side of NoteStore that its writers (NoteWriter, EntryWriter, write checks) use.
 * NoteStore implements it; the writers depend on this interface so the store and its write
 * side do not import each other. Each method is documented on NoteStore, the policy's on NotePolicy.
 */
export interface NoteReader {
  readonly policy: WritePolicy;
  frontmatterOf(file: TFile): Record<string, unknown>;
  readableNotes(scope: AccessScope): TFile[];
  readRaw(file: TFile): Promise<string>;
  outline(file: TFile, text: string): NoteSection[];
  notesLinkingInto(entry: TAbstractFile): TFile[];
}
