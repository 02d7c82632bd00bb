import type { WriteRequest } from '../../../src/vault/writes/write-types';

/** An edit_note request. */
type EditRequest = Extract<WriteRequest, { kind: 'edit' }>;

/** The demo vault's Inbox task line that {@link inboxTaskEdit} replaces (test/fixtures/demo-vault/Inbox.md). */
const INBOX_TASK = 'Renew the library card';

/**
 * An edit_note request on the demo vault's Inbox note replacing the line anchored at
 * {@link INBOX_TASK} by `content` (default "Renew the card"), for staging or applying in tests.
 * @param extra fields added to the request, e.g. `{ expectedHash }`
 */
export function inboxTaskEdit(content = 'Renew the card', extra: Partial<EditRequest> = {}): EditRequest {
  return { tool: 'edit_note', kind: 'edit', path: 'Inbox', target: { anchor: INBOX_TASK }, op: 'replace', content, ...extra };
}
