/**
 * One `note` for a tool result from the remarks of its parts, in order: the write's own (a result's
 * `note`) and the tool's, each a sentence or more; missing ones (undefined, null, not text, empty)
 * are left out.
 * @returns the remarks joined by a space ('' when there are none).
 */
export function joinRemarks(...remarks: unknown[]): string {
  return remarks.filter((remark): remark is string => typeof remark === 'string' && remark !== '').join(' ');
}
