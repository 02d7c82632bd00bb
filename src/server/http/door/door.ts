import type { IncomingMessage } from 'node:http';

/** A refusal at the door: HTTP status plus a JSON body that says what to fix. */
export interface DoorRefusal {
  status: number;
  /** JSON-RPC error code carried in the body (the SDK's convention for transport errors). */
  code: number;
  message: string;
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Splits `host[:port]` (IPv6 in brackets allowed) and returns the lowercased host name. */
function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return value;
    const rest = value.slice(end + 1);
    return rest === '' || /^:\d{1,5}$/.test(rest) ? value.slice(0, end + 1) : value;
  }
  const colon = value.lastIndexOf(':');
  if (colon === -1) return value;
  // A port is digits only: `127.0.0.1:80@evil.com` is not a loopback host.
  return /^\d{1,5}$/.test(value.slice(colon + 1)) ? value.slice(0, colon) : value;
}

/**
 * True when a `Host` header names the loopback interface (`localhost`, `127.0.0.1`, `[::1]`,
 * any port). Anything else is refused to stop DNS rebinding (MCP spec 2025-06-18,
 * "Transports" → Streamable HTTP → Security Warning).
 */
export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  return LOOPBACK_HOSTNAMES.has(hostnameOf(hostHeader));
}

/**
 * True when an `Origin` header is acceptable: loopback http(s) origins, or Obsidian's own
 * `app://obsidian.md`. An absent Origin (non-browser clients) is acceptable.
 */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  if (origin === 'app://obsidian.md') return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return LOOPBACK_HOSTNAMES.has(url.hostname.toLowerCase());
}

/** Reads the bearer token from `Authorization: Bearer <token>`, or null when absent/malformed. */
export function bearerTokenOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * How many times each header appears in the request (by lower-case name), counted in one pass over
 * `rawHeaders` (Node's parsed `headers` keep only the first Host or Authorization and join
 * repeats of most others into `a, b`, so repeats are counted on the raw list). Every door check
 * reads it.
 */
function headerCounts(req: IncomingMessage): (name: string) => number {
  const counts = new Map<string, number>();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return (name) => counts.get(name) ?? 0;
}

/**
 * The MCP headers that carry one value (MCP spec "Transports": Session Management, Protocol
 * Version Header; SSE's `Last-Event-ID` on resumption; 2026-07-28's `Mcp-Method` and `Mcp-Name`),
 * with whether a comma in the value means a list: Node joins a repeated one as `a, b`, and
 * neither a session id this server issues (a UUID), a protocol revision (a date) nor a method
 * name has a comma, while an SSE event id or a name (a resource URI) may.
 */
const SINGLE_VALUED_MCP_HEADERS: ReadonlyArray<{ name: string; lower: string; commaIsList: boolean }> = [
  { name: 'Mcp-Session-Id', lower: 'mcp-session-id', commaIsList: true },
  { name: 'MCP-Protocol-Version', lower: 'mcp-protocol-version', commaIsList: true },
  { name: 'Last-Event-ID', lower: 'last-event-id', commaIsList: false },
  { name: 'Mcp-Method', lower: 'mcp-method', commaIsList: true },
  { name: 'Mcp-Name', lower: 'mcp-name', commaIsList: false },
];

/**
 * The single-valued MCP header that `req` repeats or gives a comma-joined list in, or null.
 * @param count the request's {@link headerCounts}.
 * @returns the header's spelling for the message, or null when each appears at most once with one value.
 */
function repeatedMcpHeader(req: IncomingMessage, count: (name: string) => number): string | null {
  for (const header of SINGLE_VALUED_MCP_HEADERS) {
    if (count(header.lower) > 1) return header.name;
    const value = req.headers[header.lower];
    if (header.commaIsList && typeof value === 'string' && value.includes(',')) return header.name;
  }
  return null;
}

/**
 * The checks made before any body is read, in the order of docs/architecture.md#request-path: one Host header (a
 * missing or repeated one is 400, RFC 9112 §3.2; Node would keep the first) naming loopback, at most one
 * Origin and at most one Authorization header (Node keeps the first Authorization too, so a
 * second one, a different key's or a wrong token, would be passed over unseen: which key was
 * meant cannot be told), at most one value of each single-valued MCP header (`Mcp-Session-Id`,
 * `MCP-Protocol-Version`, `Last-Event-ID`, `Mcp-Method`, `Mcp-Name`: Node joins repeats into `a, b`, which named no session
 * and was answered 404 "Session not found"), then an allowed Origin. Returns a refusal (400 or
 * 403) or null when the request may proceed. Header repeats are counted in one pass over the
 * request's raw headers ({@link headerCounts}) that every check reads.
 */
export function checkDoorHeaders(req: IncomingMessage): DoorRefusal | null {
  const count = headerCounts(req);
  if (count('host') !== 1 || count('origin') > 1 || count('authorization') > 1) {
    return {
      status: 400,
      code: -32000,
      message: 'Bad request: send exactly one Host header, at most one Origin header and at most one Authorization header (RFC 9112 §3.2).',
    };
  }
  const repeated = repeatedMcpHeader(req, count);
  if (repeated) {
    return {
      status: 400,
      code: -32000,
      message: `Bad request: send at most one ${repeated} header, with one value (this request repeats it or lists several, comma-joined); which was meant cannot be told.`,
    };
  }
  if (!isLoopbackHost(req.headers.host)) {
    return {
      status: 403,
      code: -32000,
      message: 'Forbidden: the Host header must be localhost, 127.0.0.1 or [::1]; connect to http://127.0.0.1:<port>/mcp.',
    };
  }
  const origin = req.headers.origin;
  if (!isAllowedOrigin(typeof origin === 'string' ? origin : undefined)) {
    return {
      status: 403,
      code: -32000,
      message: 'Forbidden: requests from web pages are refused; only loopback origins and Obsidian may call this server.',
    };
  }
  return null;
}
