import { clientSnippets } from '../src/ui/settings/client-snippets';
import { REVIEW_COMMANDS_HELP } from '../src/ui/review/review-commands';
import { ACTIVITY_COMMANDS_HELP } from '../src/ui/activity/activity-commands';
import type { RunOptions } from './run-options';
import type { RunVault } from './run-vault';

/**
 * The lines `npm start` prints once the server listens. The first,
 * `MCP server listening on <url>`, is read by scripts and outside checks: keep it stable.
 * The review hint is printed only for a propose key (a force key writes at once, so there is
 * nothing to review); the activity hint always (accepted proposals are logged too); the token
 * only when it was generated for this run.
 * @param options the parsed run options. @param url the MCP endpoint. @param token the key's bearer token.
 * @param vault the folder served. @returns the lines, without newlines.
 */
export function startupLines(options: RunOptions, url: string, token: string, vault: RunVault): string[] {
  const lines = [
    `MCP server listening on ${url}`,
    `Vault: ${vault.dir}${vault.temporary ? ' (a temporary copy of the demo vault)' : ''}`,
    `Key "npm start": mode ${options.mode}, writes ${options.allowWrites ? 'allowed' : 'off'}${options.roots.length ? `, roots ${options.roots.join(', ')}` : ''}`,
  ];
  if (!options.token) lines.push(`Token (shown once): ${token}`);
  for (const snippet of clientSnippets(url, token)) {
    lines.push(`${snippet.title}: ${snippet.where}`, ...snippet.text.split('\n').map((line) => `  ${line}`));
  }
  if (options.mode === 'propose') lines.push(`Review proposals here (propose mode). ${REVIEW_COMMANDS_HELP}`);
  lines.push(ACTIVITY_COMMANDS_HELP);
  lines.push('Press Ctrl-C to stop.');
  return lines;
}
