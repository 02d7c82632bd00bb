import type { KeyMode, KeyRecord } from '../../src/settings/key-record';
import { defaultSettings } from '../../src/settings/settings';
import type { ToolContext } from '../../src/tools/tool';
import type { NoteStore } from '../../src/vault/note-store';

/** Who calls in {@link toolContext}: a key's label, mode and roots (defaults: "Test agent", propose, the whole vault). */
export interface TestCaller {
  label?: string;
  mode?: KeyMode;
  roots?: string[];
  /** The key's id (default "k1"). */
  id?: string;
}

/**
 * A ToolContext for calling a tool handler directly, as the server would for a key with this
 * label, mode and roots, over `notes`, with default settings. Search, proposals and review are
 * absent (a tool that reaches them fails loudly): for read and force-write tools only.
 * @returns the context; `scope` is the caller's label and roots, as the server derives it
 */
export function toolContext(
  notes: NoteStore,
  { label = 'Test agent', mode = 'propose', roots = [], id = 'k1' }: TestCaller = {},
): ToolContext {
  const caller: KeyRecord = { id, label, mode, scope: 'local', roots, created_at: '2026-01-01T00:00:00.000Z', last_used_at: null };
  return {
    notes,
    search: undefined as never,
    proposals: undefined as never,
    review: undefined as never,
    caller,
    scope: { label, roots },
    settings: defaultSettings(),
  };
}
