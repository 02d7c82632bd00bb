import type { RootsReport } from '../../tools/read/vaults-view';
import { intersectRoots, rootsInVault, type PathRules } from './client-roots';
import type { ClientRootsState } from './session-roots';

/** The folders one call of a session may touch, or why it may touch nothing. */
export interface SessionAccess {
  /** The scope's roots (vault folders; empty = the whole vault). Meaningless when `blocked`. */
  roots: string[];
  /** Set when the client's roots and the key's folders have nothing in common: every note tool refuses with it. */
  blocked: string | null;
  report: RootsReport;
}

/**
 * Combines a key's roots with the client's MCP roots for one vault (docs/clients.md#mcp-roots):
 * roots inside the vault narrow the session to those folders, intersected with the key's own;
 * a root that is the vault or contains it means the whole vault (the key's folders); roots
 * elsewhere are ignored, and when no root is usable, or the client has no roots capability,
 * answered -32601 or did not answer, the key's folders apply. Client roots can only narrow.
 * @param keyRoots the key's folders (empty = whole vault).
 * @param vaultFolders the vault's absolute folder in each spelling (see {@link rootsInVault}); empty
 *   when the vault has no disk path (then client roots cannot be placed and the key's folders apply).
 * @param spell the vault's real spelling of a vault-relative folder or note (case, Unicode form), or
 *   null when none exists or it is quarantined (the root then matches nothing, and the note says so).
 */
export function sessionAccess(
  keyRoots: readonly string[],
  client: ClientRootsState,
  vaultFolders: readonly string[],
  rules: PathRules,
  spell: (folder: string) => string | null,
): SessionAccess {
  const key = [...keyRoots];
  const paths = client.status === 'listed' ? client.paths : [];
  const base = { key_roots: key, client_roots: paths, ignored: client.status === 'listed' ? client.ignored : [] };
  const keep = (note: string): SessionAccess => ({ roots: key, blocked: null, report: { source: 'key', effective: key, ...base, note } });
  if (client.status === 'unsupported') return keep("The client shares no MCP roots; this key's folders apply.");
  if (client.status === 'unanswered') return keep(`The client declared MCP roots but ${client.reason}; this key's folders apply.`);
  if (paths.length === 0) return keep("The client shared no usable MCP roots; this key's folders apply.");
  const placed = vaultFolders.length ? rootsInVault(paths, vaultFolders, rules) : { kind: 'elsewhere' as const };
  if (placed.kind === 'whole') return keep("A client root contains this vault; this key's folders apply.");
  if (placed.kind === 'elsewhere')
    return keep("None of the client's MCP roots lie in this vault; they are ignored and this key's folders apply.");
  const spelled = placed.folders.map((folder) => ({ folder, spelling: spell(folder) }));
  const folders = spelled.map(({ folder, spelling }) => spelling ?? folder);
  const unusable = spelled.filter(({ spelling }) => spelling === null).map(({ folder }) => folder);
  const effective = intersectRoots(key, folders, rules.caseInsensitive);
  if (effective.length === 0) {
    const blocked =
      `The client's MCP roots in this vault (${folders.join(', ')}) lie outside this key's folders (${key.join(', ')}), ` +
      "so this session may touch no note; change the client's roots or the key's folders in Vault MCP settings.";
    return { roots: effective, blocked, report: { source: 'client', effective, ...base, note: blocked } };
  }
  const which = client.previous
    ? "Narrowed to the client's previous MCP roots in this vault: it has not yet answered roots/list after notifications/roots/list_changed."
    : "Narrowed to the client's MCP roots in this vault.";
  const missing = unusable.length
    ? ` These name no folder or note this session can use (missing or quarantined), so they match nothing: ${unusable.join(', ')}.`
    : '';
  return { roots: effective, blocked: null, report: { source: 'client', effective, ...base, note: which + missing } };
}
