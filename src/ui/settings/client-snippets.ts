/**
 * Ready-to-copy setup for MCP clients, as pure functions of the server URL and a key's
 * bearer token (the settings tab's "Connect a client" section, tests and the headless runner
 * use them). Each shape follows the client's own documentation:
 * - Claude Code: `claude mcp add --transport http <name> <url> --header "Authorization: Bearer …"`.
 * - Claude Desktop: a stdio `mcpServers` entry running `npx mcp-remote <url> --header
 *   "Authorization:${AUTH_HEADER}"` with the header value in `env.AUTH_HEADER` (mcp-remote's
 *   README: no space inside the argument, so Windows argument quoting cannot split it).
 * - Cursor: `~/.cursor/mcp.json`, `mcpServers.<name>` with `url` and `headers`.
 * - VS Code: `.vscode/mcp.json`, `servers.<name>` with `type: "http"`, `url`, `headers`.
 * - Codex: `~/.codex/config.toml`, `[mcp_servers.<name>]` with `url` and `http_headers`.
 */

import type { KeyRecord } from '../../settings/key-record';

/** The server name every snippet registers. */
export const MCP_SERVER_NAME = 'vault-mcp';

/** The MCP clients the settings tab has a snippet for. */
export type McpClientId = 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode' | 'codex';

/** One client's setup: where it goes and the text to copy. */
export interface ClientSnippet {
  client: McpClientId;
  /** Display name, e.g. "Claude Code". */
  title: string;
  /** Where the text goes, in one sentence. */
  where: string;
  /** Syntax of `text`: a shell command, JSON or TOML. */
  language: 'shell' | 'json' | 'toml';
  /** The text to copy. */
  text: string;
}

/**
 * What a client connected with `key` gets, in one sentence above the snippets: the key's tool
 * set and the tools its tools/list will hold (`visible`, registry.ts toolsForKey).
 */
export function keyToolsSummary(key: Pick<KeyRecord, 'label' | 'tools'>, visible: readonly string[]): string {
  const set = key.tools === 'read' ? 'read tools only' : Array.isArray(key.tools) ? 'chosen tools' : 'all enabled tools';
  if (visible.length === 0)
    return `A client using "${key.label}" sees no tools (${set}, none of them enabled); change its tool set under Keys or switch tools on under Tools.`;
  return `A client using "${key.label}" sees ${visible.length} tool${visible.length === 1 ? '' : 's'} (${set}; change under Keys → Tools): ${visible.join(', ')}.`;
}

/** `Authorization` header value for `token`. */
export function bearerHeader(token: string): string {
  return `Bearer ${token}`;
}

/** Double-quotes `value` for a POSIX shell (`"`, `\`, `$` and backquote escaped). */
function shellQuote(value: string): string {
  return `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** A TOML basic string (JSON string escapes are valid TOML basic-string escapes). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** `claude mcp add --transport http vault-mcp <url> --header "Authorization: Bearer <token>"`. */
export function claudeCodeCommand(url: string, token: string): string {
  return `claude mcp add --transport http ${MCP_SERVER_NAME} ${shellQuote(url)} --header ${shellQuote(`Authorization: ${bearerHeader(token)}`)}`;
}

/** Claude Desktop's `claude_desktop_config.json` object with one `mcpServers` entry over mcp-remote. */
export function claudeDesktopConfig(
  url: string,
  token: string,
): { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> } {
  return {
    mcpServers: {
      [MCP_SERVER_NAME]: {
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}'],
        env: { AUTH_HEADER: bearerHeader(token) },
      },
    },
  };
}

/** Cursor's `mcp.json` object: `mcpServers.vault-mcp = {url, headers}`. */
export function cursorConfig(url: string, token: string): { mcpServers: Record<string, { url: string; headers: Record<string, string> }> } {
  return { mcpServers: { [MCP_SERVER_NAME]: { url, headers: { Authorization: bearerHeader(token) } } } };
}

/** VS Code's `.vscode/mcp.json` object: `servers.vault-mcp = {type: 'http', url, headers}`. */
export function vscodeConfig(
  url: string,
  token: string,
): { servers: Record<string, { type: 'http'; url: string; headers: Record<string, string> }> } {
  return { servers: { [MCP_SERVER_NAME]: { type: 'http', url, headers: { Authorization: bearerHeader(token) } } } };
}

/** Codex's `config.toml` table: `[mcp_servers.vault-mcp]` with `url` and `http_headers`. */
export function codexToml(url: string, token: string): string {
  return [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `url = ${tomlString(url)}`,
    `http_headers = { Authorization = ${tomlString(bearerHeader(token))} }`,
    '',
  ].join('\n');
}

/**
 * JSON with two-space indentation where arrays of strings stay on one line (`["-y", "mcp-remote", …]`),
 * as client docs print them; parses to the same value as `JSON.stringify(value)`.
 */
export function formatJson(value: unknown, indent = ''): string {
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
    return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = indent + '  ';
  const entries = Array.isArray(value)
    ? value.map((v) => inner + formatJson(v, inner))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return entries.length === 0 ? open + close : `${open}\n${entries.join(',\n')}\n${indent}${close}`;
}

/**
 * Every client's snippet for one server URL and token.
 * @param url the MCP endpoint, e.g. `http://127.0.0.1:27200/mcp`
 * @param token the key's bearer token
 * @returns one snippet per client, in the order the settings tab lists them
 */
export function clientSnippets(url: string, token: string): ClientSnippet[] {
  const json = (value: unknown): string => formatJson(value);
  return [
    { client: 'claude-code', title: 'Claude Code', where: 'Run in a terminal.', language: 'shell', text: claudeCodeCommand(url, token) },
    {
      client: 'claude-desktop',
      title: 'Claude Desktop',
      where: 'Merge into claude_desktop_config.json (Settings → Developer → Edit config); needs Node.js for npx.',
      language: 'json',
      text: json(claudeDesktopConfig(url, token)),
    },
    {
      client: 'cursor',
      title: 'Cursor',
      where: 'Merge into ~/.cursor/mcp.json (or .cursor/mcp.json in a project).',
      language: 'json',
      text: json(cursorConfig(url, token)),
    },
    {
      client: 'vscode',
      title: 'VS Code',
      where: 'Merge into .vscode/mcp.json in your workspace.',
      language: 'json',
      text: json(vscodeConfig(url, token)),
    },
    { client: 'codex', title: 'Codex', where: 'Append to ~/.codex/config.toml.', language: 'toml', text: codexToml(url, token) },
  ];
}
