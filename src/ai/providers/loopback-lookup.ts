import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isLocalhostName } from './classify';

/** The resolver a {@link providerLookup} asks: `dns.lookup` with `all: true`. */
export type ResolveAll = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolveAll: ResolveAll = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/**
 * Whether a resolved address is on this computer's loopback interface: IPv4 127.0.0.0/8
 * (RFC 1122 §3.2.1.3), `::1` (RFC 4291 §2.5.3) or IPv4-mapped `::ffff:127.x.y.z` (§2.5.5.2).
 * @param address an address as `dns.lookup` returns it (canonical text form)
 */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) || a === '::1' || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/**
 * The `lookup` the provider transport (http.ts) gives `node:http`: a `localhost` or
 * `*.localhost` name (classify.ts counts those as on this computer) is resolved as `localhost`
 * (RFC 6761 §6.3: such names are loopback; the system's hosts file answers, never a DNS
 * server) and only loopback answers are kept, so a "local" name cannot reach another machine
 * whatever the resolver says. Any other name is resolved by `resolveAll` unchanged (only a
 * remote provider, allowed by the privacy gate, is named so). IP literals never reach a lookup.
 * @param resolveAll the resolver (default `dns.lookup(name, {all: true})`); tests pass their own
 * @returns a `net.LookupFunction` that answers in the shape asked for (`options.all` or not)
 * @throws nothing; a localhost name with no loopback answer fails the connection with an error
 *   that names the addresses it resolved to
 */
export function providerLookup(resolveAll: ResolveAll = systemResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    const pinned = isLocalhostName(hostname);
    const asked: unknown = options.family;
    const family = asked === 'IPv4' ? 4 : asked === 'IPv6' ? 6 : typeof asked === 'number' ? asked : 0;
    resolveAll(pinned ? 'localhost' : hostname, (err, found) => {
      if (err) return callback(err, options.all ? [] : '');
      let addresses = found.filter((a) => family === 0 || a.family === family);
      if (pinned) addresses = addresses.filter((a) => isLoopbackAddress(a.address));
      if (addresses.length === 0) {
        const seen = found.map((a) => a.address).join(', ') || 'nothing';
        const error: NodeJS.ErrnoException = new Error(
          pinned ? `${hostname} resolved to ${seen}, not to this computer's loopback address` : `${hostname} has no IPv${family} address`,
        );
        error.code = 'ENOTFOUND';
        return callback(error, options.all ? [] : '');
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
