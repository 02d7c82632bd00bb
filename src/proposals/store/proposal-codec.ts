import { isRecord, parseListFile, stringFieldProblem } from '../../vault/plugin-files/list-file-codec';
import type { HunkDecision, Proposal, ProposalKind, ProposalStatus } from '../types';

/**
 * The proposals file format (`proposals.json` in the plugin folder):
 * `{"version": 1, "proposals": [Proposal, ...]}`. Parsing is strict, so a damaged file is
 * noticed (and kept aside by the store) instead of half-loaded.
 */

/** The format version written; a file with another version is not read as proposals. */
const PROPOSAL_FILE_VERSION = 1;

const KINDS: readonly ProposalKind[] = ['edit', 'create', 'delete', 'move', 'properties', 'folder'];
const STATUSES: readonly ProposalStatus[] = ['pending', 'accepted', 'partly_accepted', 'rejected', 'stale'];

/** The file's text for `proposals` (pretty-printed JSON, so a user can read it). */
export function serializeProposals(proposals: readonly Proposal[]): string {
  return `${JSON.stringify({ version: PROPOSAL_FILE_VERSION, proposals }, null, 2)}\n`;
}

/**
 * Reads a proposals file.
 * @returns the proposals it holds.
 * @throws Error naming the first problem (not JSON, wrong version, a malformed proposal and
 *   its position) when the text is not a valid proposals file.
 */
export function parseProposals(text: string): Proposal[] {
  return parseListFile<Proposal>(text, { version: PROPOSAL_FILE_VERSION, list: 'proposals', item: 'proposal', problemOf: proposalProblem });
}

/** What is wrong with a parsed proposal, or null when it has every field with the right type. */
function proposalProblem(p: unknown): string | null {
  if (!isRecord(p)) return 'not an object';
  const strings = stringFieldProblem(p, ['id', 'key_id', 'key_label', 'tool', 'path', 'created_at'], 'required');
  if (strings) return strings;
  if (!KINDS.includes(p.kind as ProposalKind)) return `unknown kind ${JSON.stringify(p.kind)}`;
  if (!STATUSES.includes(p.status as ProposalStatus)) return `unknown status ${JSON.stringify(p.status)}`;
  if (!Array.isArray(p.key_roots) || !p.key_roots.every((r) => typeof r === 'string')) return '"key_roots" must be a list of folders';
  const optional =
    stringFieldProblem(p, ['base_hash', 'base_text', 'proposed_text'], 'nullable') ??
    stringFieldProblem(p, ['staged_path', 'to', 'expected_hash', 'resolved_at', 'stale_reason', 'reason', 'session'], 'optional');
  if (optional) return optional;
  if (!isRecord(p.decisions)) return '"decisions" must be an object';
  for (const [index, decision] of Object.entries(p.decisions)) {
    if (!/^\d+$/.test(index) || !(['accepted', 'rejected'] as HunkDecision[]).includes(decision as HunkDecision))
      return `bad decision ${index}: ${JSON.stringify(decision)}`;
  }
  if (p.hunk_total !== undefined && (!Number.isInteger(p.hunk_total) || (p.hunk_total as number) < 0))
    return '"hunk_total" must be a whole number';
  const textKind = p.kind === 'edit' || p.kind === 'properties';
  const pending = p.status === 'pending';
  if (textKind && pending && (p.base_text === null || p.proposed_text === null || p.base_hash === null))
    return 'a pending edit needs base_text, base_hash and proposed_text';
  if (p.kind === 'create' && pending && p.proposed_text === null) return 'a pending create needs proposed_text';
  if (p.kind === 'move' && typeof p.to !== 'string') return 'a move needs "to"';
  return null;
}
