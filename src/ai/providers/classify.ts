import { parseHttpUrl } from './base-url';
import type { ProviderClassification } from '../types';

/**
 * Whether a URL host name is one of the loopback names RFC 6761 §6.3 reserves: `localhost`
 * or a name ending in `.localhost`, without a trailing dot. A trailing-dot name (`localhost.`)
 * is a fully qualified DNS name that resolvers send to DNS (it failed with ENOTFOUND where
 * `localhost` answered 127.0.0.1), so it is not one. The provider transport (http.ts) never asks
 * DNS for these names: it resolves them to this computer's loopback addresses only.
 * @param hostname a WHATWG `URL.hostname` (already lower-cased and IDNA-mapped)
 * @returns true for `localhost` and `*.localhost`
 */
export function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || (host.endsWith('.localhost') && !host.startsWith('.'));
}

/**
 * Classifies a provider base URL as `local` (this computer) or `remote` (text leaves it).
 * Only loopback counts as local: `localhost` and `*.localhost` names ({@link isLocalhostName};
 * RFC 6761 §6.3, and the transport pins them to loopback), IPv4 127.0.0.0/8 (RFC 1122
 * §3.2.1.3), IPv6 `::1` (RFC 4291 §2.5.3) and IPv4-mapped loopback `::ffff:127.x.y.z` (RFC 4291
 * §2.5.5.2). A name with a trailing dot (`localhost.`) is looked up in DNS, so it is remote, as
 * are private networks (10/8, 192.168/16, fc00::/7), mDNS `.local`, `.internal` and public
 * hosts: another machine may see the text. The WHATWG URL parser already canonicalizes `127.1`,
 * `0x7f.0.0.1`, `[0:0:0:0:0:0:0:1]` and `[::ffff:127.0.0.1]`, so only canonical forms are
 * checked here. This decides the first request only: the transport follows no redirect.
 * @param url a base URL as typed in settings
 * @returns `local` or `remote`; anything that is not an http(s) URL is `remote`
 */
export function classifyBaseUrl(url: string): ProviderClassification {
  const parsed = parseHttpUrl(url);
  if (!parsed) return 'remote';
  const host = parsed.hostname.toLowerCase();
  if (isLocalhostName(host)) return 'local';
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return 'local';
  if (host === '[::1]') return 'local';
  // IPv4-mapped 127.0.0.0/8 serializes as [::ffff:7fXX:XXXX].
  if (/^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)) return 'local';
  return 'remote';
}
