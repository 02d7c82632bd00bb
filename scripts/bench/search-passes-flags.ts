/** The command line of `node scripts/search-passes.mjs` (search-passes.ts), read strictly. */

/** What search-passes runs against and how often. */
export interface SearchPassesFlags {
  /** The server's MCP endpoint. */
  url: URL;
  /** A key's bearer token. */
  token: string;
  /** Times each query runs in a pass. */
  runs: number;
}

/**
 * Reads search-passes' flags: `--url` (the MCP endpoint), `--token` (a key's bearer token), `--runs`
 * (times each query runs in a pass, 1–100, default 5).
 * @param args the command line after the script
 * @returns the flags, checked
 * @throws Error naming the flag and what to give when one is unknown, missing or malformed
 */
export function searchPassesFlags(args: string[]): SearchPassesFlags {
  const value = (name: string): string | undefined => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const v = args[at + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
  const unknown = args.filter((a) => a.startsWith('--') && !['--url', '--token', '--runs'].includes(a));
  if (unknown.length > 0) throw new Error(`unknown flag ${unknown[0]}`);
  const url = value('--url');
  const token = value('--token');
  if (url === undefined || token === undefined) throw new Error('give the server with --url (its MCP endpoint) and a key with --token');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--url ${JSON.stringify(url)} is not a URL; give the endpoint the server printed, e.g. http://127.0.0.1:27123/mcp`);
  }
  const runs = Number(value('--runs') ?? 5);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error('--runs takes a whole number from 1 to 100');
  return { url: parsed, token, runs };
}
