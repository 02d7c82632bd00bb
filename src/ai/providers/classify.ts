import { parseHttpUrl } from './base-url';
import type { ProviderClassification } from '../types';

/**
 * Classifies a provider base URL as `local` (this computer) or `remote` (text leaves it).
 * Only loopback counts as local: `localhost`, any `*.localhost` name (RFC 6761 §6.3 reserves
 * them for loopback), IPv4 127.0.0.0/8 (RFC 1122 §3.2.1.3), IPv6 `::1` (RFC 4291 §2.5.3) and
 * IPv4-mapped loopback `::ffff:127.x.y.z` (RFC 4291 §2.5.5.2). Private networks (10/8,
 * 192.168/16, fc00::/7), mDNS `.local`, `.internal` and public hosts are remote: another
 * machine sees the text. The WHATWG URL parser already canonicalizes `127.1`, `0x7f.0.0.1`,
 * `[0:0:0:0:0:0:0:1]` and `[::ffff:127.0.0.1]`, so only canonical forms are checked here.
 * @param url a base URL as typed in settings
 * @returns `local` or `remote`; anything that is not an http(s) URL is `remote`
 */
export function classifyBaseUrl(url: string): ProviderClassification {
  const parsed = parseHttpUrl(url);
  if (!parsed) return 'remote';
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'local';
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return 'local';
  if (host === '[::1]') return 'local';
  // IPv4-mapped 127.0.0.0/8 serializes as [::ffff:7fXX:XXXX].
  if (/^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)) return 'local';
  return 'remote';
}
