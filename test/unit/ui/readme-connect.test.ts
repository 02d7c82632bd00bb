/**
 * The README's "Connect a client" section gives every client the settings tab offers
 * (src/ui/settings/client-snippets.ts, whose shapes settings-snippets.test.ts checks against
 * a live server) its complete setup, verbatim, for the default URL with `<token>` as the
 * token, plus the step to get a token. A failure names the client whose block to update.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { clientSnippets, type ClientSnippet } from '../../../src/ui/settings/client-snippets';
import { DEFAULT_PORT } from '../../../src/settings/settings';

const README = readFileSync(nodePath.resolve(__dirname, '../../../README.md'), 'utf8').replace(/\r\n/g, '\n');

/** The text of the README section headed `## <title>`, up to the next `## ` heading. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The fenced code block the README shows for `snippet` (fence language: sh, json or toml). */
function fenced(snippet: ClientSnippet): string {
  const language = snippet.language === 'shell' ? 'sh' : snippet.language;
  return `\`\`\`${language}\n${snippet.text.trimEnd()}\n\`\`\``;
}

describe('README "Connect a client"', () => {
  const connect = section(README, 'Connect a client');
  const snippets = clientSnippets(`http://127.0.0.1:${DEFAULT_PORT}/mcp`, '<token>');

  it('covers the five clients of the settings tab', () => {
    expect(snippets.map((s) => s.title)).toEqual(['Claude Code', 'Claude Desktop', 'Cursor', 'VS Code', 'Codex']);
  });

  it.each(snippets.map((s) => [s.title, s] as const))(
    "shows the settings tab's complete %s setup verbatim, under its name",
    (title, snippet) => {
      expect(connect).toContain(`**${title}**`);
      if (!connect.includes(fenced(snippet))) {
        throw new Error(
          `README.md "Connect a client" lacks the ${title} setup as the settings tab gives it; paste this block:\n${fenced(snippet)}`,
        );
      }
    },
  );

  it('says where each setup goes, as the settings tab does', () => {
    for (const path of ['claude_desktop_config.json', '~/.cursor/mcp.json', '.vscode/mcp.json', '~/.codex/config.toml'])
      expect(connect).toContain(path);
  });

  it('gives the one step to get a token, in Obsidian and with npm start', () => {
    expect(connect).toMatch(/Settings → Vault MCP → Keys → "Mint a key"/);
    expect(connect).toContain('Token (shown once)');
  });
});
