import { createHash } from 'node:crypto';

/**
 * The content hash agents pass back as `expected_hash`: SHA-256 (node:crypto, available in
 * Obsidian desktop's Electron) of the exact text, UTF-8 encoded.
 * @param text the whole file text as read from the vault.
 * @returns 64 lowercase hex characters.
 */
export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
