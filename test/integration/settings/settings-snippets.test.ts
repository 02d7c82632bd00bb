import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import VaultMcpPlugin from '../../../src/main';
import { clientSnippets, MCP_SERVER_NAME, type McpClientId } from '../../../src/ui/settings/client-snippets';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';

/** Splits a POSIX shell line into words (double quotes with backslash escapes, as the snippet uses). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      inWord = true;
      for (i++; i < line.length && line[i] !== '"'; i++) word += line[i] === '\\' ? line[++i] : line[i];
      if (i >= line.length) throw new Error('unterminated quote');
    } else if (c === ' ') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Reads the TOML subset the Codex snippet uses: `[a.b]` tables, `key = "string"` and `key = { K = "v" }`. */
function parseTomlSubset(text: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  let table: Record<string, unknown> | null = null;
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(line);
    if (header) {
      table = out[header[1]!] = {};
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!pair || !table) throw new Error(`not TOML this parser knows: ${line}`);
    const value = pair[2]!;
    if (value.startsWith('{')) {
      const inner = /^\{\s*(.*?)\s*\}$/.exec(value);
      if (!inner) throw new Error(`bad inline table: ${value}`);
      const obj: Record<string, string> = {};
      for (const m of inner[1]!.matchAll(/([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*")\s*(,|$)/g)) obj[m[1]!] = JSON.parse(m[2]!);
      table[pair[1]!] = obj;
    } else {
      table[pair[1]!] = JSON.parse(value);
    }
  }
  return out;
}

/** The URL and headers a client would send, read back out of its snippet text. */
function endpointOf(client: McpClientId, text: string): { url: string; headers: Record<string, string> } {
  switch (client) {
    case 'claude-code': {
      const words = shellWords(text);
      expect(words.slice(0, 6)).toEqual(['claude', 'mcp', 'add', '--transport', 'http', MCP_SERVER_NAME]);
      expect(words[7]).toBe('--header');
      const header = words[8]!;
      const colon = header.indexOf(':');
      return { url: words[6]!, headers: { [header.slice(0, colon)]: header.slice(colon + 1).trim() } };
    }
    case 'claude-desktop': {
      const entry = JSON.parse(text).mcpServers[MCP_SERVER_NAME];
      expect(entry.command).toBe('npx');
      const args: string[] = entry.args;
      expect(args.slice(0, 2)).toEqual(['-y', 'mcp-remote']);
      const header = args[args.indexOf('--header') + 1]!.replace('${AUTH_HEADER}', entry.env.AUTH_HEADER);
      const colon = header.indexOf(':');
      return { url: args[2]!, headers: { [header.slice(0, colon)]: header.slice(colon + 1).trim() } };
    }
    case 'cursor': {
      const entry = JSON.parse(text).mcpServers[MCP_SERVER_NAME];
      return { url: entry.url, headers: entry.headers };
    }
    case 'vscode': {
      const entry = JSON.parse(text).servers[MCP_SERVER_NAME];
      expect(entry.type).toBe('http');
      return { url: entry.url, headers: entry.headers };
    }
    case 'codex': {
      const entry = parseTomlSubset(text)[`mcp_servers.${MCP_SERVER_NAME}`]!;
      return { url: entry.url as string, headers: entry.http_headers as Record<string, string> };
    }
  }
}

describe('client snippets reach the running server', () => {
  let vaultDir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;

  beforeAll(async () => {
    vaultDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-snippets-'));
    await fs.writeFile(path.join(vaultDir, 'Note.md'), '# Note\n');
    // A token with characters a shell or TOML must escape.
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vaultDir, token: 'tok-"quoted"-$HOME-`x`-\\end' });
  });

  afterAll(async () => {
    await booted.stop();
    await fs.rm(vaultDir, { recursive: true, force: true });
  });

  it.each(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const)(
    '%s: parses, and its URL and header open an MCP session',
    async (id) => {
      const snippet = clientSnippets(booted.url, booted.token).find((s) => s.client === id)!;
      const { url, headers } = endpointOf(id, snippet.text);
      expect(url).toBe(booted.url);
      expect(headers).toEqual({ Authorization: `Bearer ${booted.token}` });
      const client = new Client({ name: `snippet-${id}`, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_note');
      } finally {
        await client.close();
      }
    },
  );

  it('a wrong token in the same shape is refused', async () => {
    const { url, headers } = endpointOf(
      'cursor',
      clientSnippets(booted.url, 'not-the-token-at-all').find((s) => s.client === 'cursor')!.text,
    );
    const client = new Client({ name: 'snippet-wrong', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))).rejects.toThrow(
      /401|Unauthorized/,
    );
  });
});
