import type { TAbstractFile, TFile } from 'obsidian';
import type { AccessScope } from './access';
import type { NoteAccess } from './access-rules';
import type { NoteSection } from './sections';

/**
 * The read side of NoteStore that its writers (NoteWriter, EntryWriter, write checks) use.
 * NoteStore implements it; the writers depend on this interface so the store and its write
 * side do not import each other. Each method is documented on NoteStore.
 */
export interface NoteReader {
  normalizePath(input: string, scope: AccessScope): string;
  spelledPath(input: string): string;
  checkedPath(input: string, scope: AccessScope): string;
  entryAt(path: string): TAbstractFile | null;
  isQuarantined(path: string): boolean;
  canRead(file: TFile, scope: AccessScope): boolean;
  accessOf(file: TFile, scope: AccessScope): NoteAccess;
  resolveNote(ref: { path?: string; id?: string }, scope: AccessScope): TFile;
  frontmatterOf(file: TFile): Record<string, unknown>;
  read(file: TFile): Promise<string>;
  outline(file: TFile, text: string): NoteSection[];
  notesLinkingInto(entry: TAbstractFile): TFile[];
}
