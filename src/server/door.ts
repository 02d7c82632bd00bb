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
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
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
 * The checks made before any body is read, in DESIGN.md's order: Host is loopback,
 * then Origin. Returns a refusal or null when the request may proceed.
 */
export function checkHostAndOrigin(req: IncomingMessage): DoorRefusal | null {
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
