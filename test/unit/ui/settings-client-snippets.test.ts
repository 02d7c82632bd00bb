import {
  formatJson,
  claudeCodeCommand,
  clientSnippets,
  codexToml,
  cursorConfig,
  vscodeConfig,
  claudeDesktopConfig,
} from '../../../src/ui/settings/client-snippets';

const URL_ = 'http://127.0.0.1:27200/mcp';
const TOKEN = 'vmcp_abc123';

describe('client snippets', () => {
  it('Claude Code: one claude mcp add line over HTTP with the bearer header', () => {
    expect(claudeCodeCommand(URL_, TOKEN)).toBe(
      'claude mcp add --transport http vault-mcp "http://127.0.0.1:27200/mcp" --header "Authorization: Bearer vmcp_abc123"',
    );
    expect(claudeCodeCommand(URL_, 'a"b$c')).toContain('"Authorization: Bearer a\\"b\\$c"');
  });

  it('Claude Desktop: mcp-remote with the header from env AUTH_HEADER', () => {
    expect(claudeDesktopConfig(URL_, TOKEN)).toEqual({
      mcpServers: {
        'vault-mcp': {
          command: 'npx',
          args: ['-y', 'mcp-remote', URL_, '--header', 'Authorization:${AUTH_HEADER}'],
          env: { AUTH_HEADER: 'Bearer vmcp_abc123' },
        },
      },
    });
  });

  it('Cursor and VS Code: url + headers, VS Code with type http under servers', () => {
    expect(cursorConfig(URL_, TOKEN)).toEqual({
      mcpServers: { 'vault-mcp': { url: URL_, headers: { Authorization: 'Bearer vmcp_abc123' } } },
    });
    expect(vscodeConfig(URL_, TOKEN)).toEqual({
      servers: { 'vault-mcp': { type: 'http', url: URL_, headers: { Authorization: 'Bearer vmcp_abc123' } } },
    });
  });

  it('Codex: an mcp_servers table with url and http_headers, exact text', () => {
    expect(codexToml(URL_, TOKEN)).toBe(
      '[mcp_servers.vault-mcp]\nurl = "http://127.0.0.1:27200/mcp"\nhttp_headers = { Authorization = "Bearer vmcp_abc123" }\n',
    );
    expect(codexToml(URL_, 'a"b\\c')).toContain('"Bearer a\\"b\\\\c"');
  });

  it('formatJson keeps string arrays on one line and round-trips', () => {
    const value = claudeDesktopConfig(URL_, TOKEN);
    const text = formatJson(value);
    expect(text).toContain('"args": ["-y", "mcp-remote", "http://127.0.0.1:27200/mcp", "--header", "Authorization:${AUTH_HEADER}"]');
    expect(JSON.parse(text)).toEqual(value);
    expect(JSON.parse(formatJson({ a: [], b: {}, c: [{ d: null }] }))).toEqual({ a: [], b: {}, c: [{ d: null }] });
  });

  it('lists the five clients in order, JSON ones pretty-printed and parseable', () => {
    const all = clientSnippets(URL_, TOKEN);
    expect(all.map((s) => s.client)).toEqual(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex']);
    for (const s of all.filter((x) => x.language === 'json')) expect(() => JSON.parse(s.text)).not.toThrow();
    for (const s of all) expect(s.text).toContain(TOKEN);
  });
});
