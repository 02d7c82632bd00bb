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

/** How many times header `name` (lower case) appears in the request (Node keeps only the first Host). */
function headerCount(req: IncomingMessage, name: string): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === name) count++;
  return count;
}

/**
 * The checks made before any body is read, in the order of docs/architecture.md#request-path: one Host header (a
 * missing or repeated one is 400, RFC 9112 §3.2; Node would keep the first) naming loopback, at most one
 * Origin and at most one Authorization header (Node keeps the first Authorization too, so a
 * second one, a different key's or a wrong token, would be passed over unseen: which key was
 * meant cannot be told), then an allowed Origin. Returns a refusal or null when the request may proceed.
 */
export function checkDoorHeaders(req: IncomingMessage): DoorRefusal | null {
  if (headerCount(req, 'host') !== 1 || headerCount(req, 'origin') > 1 || headerCount(req, 'authorization') > 1) {
    return {
      status: 400,
      code: -32000,
      message: 'Bad request: send exactly one Host header, at most one Origin header and at most one Authorization header (RFC 9112 §3.2).',
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
