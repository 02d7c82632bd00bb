import type { IncomingMessage } from 'node:http';
import type { KeyRing } from '../../../keys/key-ring';
import { keyRootsRefusal } from '../../../settings/key-roots';
import { isLocallyUsable, type KeyRecord } from '../../../settings/key-record';
import { bearerTokenOf } from './door';
import type { SessionOrigin } from '../../session/mcp-session';
import { FORWARD_TOKEN_PREFIX, RECEIPT_HEADER } from '../../vaults/forward-assertion';
import type { VaultPeers } from '../../vaults/vault-peers';

/** An authenticated request: the key it runs as, and for a forwarded call the client roots passed along. */
export interface Caller {
  key: KeyRecord;
  origin: SessionOrigin;
}

/** The verdict on a request's credentials: a caller (and headers to add to the answer), or a refusal with its HTTP status. */
export type AuthVerdict =
  | { ok: true; caller: Caller; headers: Record<string, string> }
  | { ok: false; status: number; code: number; message: string; headers: Record<string, string> };

/** Decides who a request's bearer token is (docs/architecture.md#request-path: the key check). */
export interface CallerVerifier {
  /** @returns the verdict; never throws for bad credentials. */
  verify(req: IncomingMessage): Promise<AuthVerdict>;
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="vault-mcp"' };

/** The 401 answer to missing or unknown credentials (the same whether or not a key exists). */
function unauthorized(message: string): AuthVerdict {
  return { ok: false, status: 401, code: -32000, message, headers: CHALLENGE };
}

/** One kind of credential the door accepts, given the request's bearer token (null when it sent none). */
export interface CredentialVerifier {
  /** @returns the verdict; never throws for bad credentials. */
  verify(token: string | null): Promise<AuthVerdict>;
}

/**
 * The 403 -32004 answer to a key whose saved roots break the roots rule (settings/key-roots.ts:
 * an empty root, `.`, absolute, climbing out): it runs as nothing rather than as the whole vault; null when its roots pass.
 */
function badRoots(key: KeyRecord): AuthVerdict | null {
  const message = keyRootsRefusal(key);
  return message === null ? null : { ok: false, status: 403, code: -32004, message, headers: {} };
}

/**
 * A local key's token, compared in constant time across the key set by the {@link KeyRing}
 * (docs/architecture.md#keys): unknown or missing → 401 (the same answer whether a key exists or not), a
 * cloud-only key or one whose saved roots break the roots rule → 403 -32004.
 */
export class LocalKeyVerifier implements CredentialVerifier {
  /** @param keys the key ring. */
  constructor(private readonly keys: KeyRing) {}

  async verify(token: string | null): Promise<AuthVerdict> {
    const key = token ? this.keys.authenticate(token) : null;
    if (!key) return unauthorized('Unauthorized: send "Authorization: Bearer <token>" with a key from Vault MCP settings → Keys.');
    if (!isLocallyUsable(key)) {
      return {
        ok: false,
        status: 403,
        code: -32004,
        message: `Key "${key.label}" is a cloud-only key; set its scope to "local" or "both" in Vault MCP settings.`,
        headers: {},
      };
    }
    return badRoots(key) ?? { ok: true, caller: { key, origin: {} }, headers: {} };
  }
}

/**
 * A call another open vault forwarded (README "Several vaults"): its signed assertion must verify
 * (forward-assertion.ts) — else 401 — and this vault must have a local key with the caller's
 * label whose saved roots pass the roots rule — else 403 -32004; it then runs as that key, in propose mode when the
 * caller's key in the forwarding vault is a propose key, with the client roots passed along, and the
 * answer carries this vault's receipt for the token ({@link RECEIPT_HEADER}).
 */
export class ForwardedCallVerifier implements CredentialVerifier {
  /** @param keys the key ring. @param peers this vault among the others (its assertion verifier and receipts). */
  constructor(
    private readonly keys: KeyRing,
    private readonly peers: VaultPeers,
  ) {}

  async verify(token: string | null): Promise<AuthVerdict> {
    const verifier = this.peers.verifier;
    if (token === null) return unauthorized('Unauthorized: a forwarded call needs its signed assertion as the bearer token.');
    const verdict = verifier
      ? await verifier.verify(token)
      : { ok: false as const, message: 'This vault accepts no forwarded calls (it has no folder on disk).' };
    if (!verdict.ok) return unauthorized(`Unauthorized: ${verdict.message}`);
    const { label, mode, roots } = verdict.claims;
    const vaultName = this.peers.location.name;
    const key = this.keys.list().find((k) => k.label === label);
    if (!key || !isLocallyUsable(key)) {
      const why = key ? 'its key with that label is cloud-only' : 'it has no key with that label';
      return {
        ok: false,
        status: 403,
        code: -32004,
        message: `Vault '${vaultName}' does not accept calls from key "${label}": ${why}; mint a local key labelled "${label}" in that vault's Vault MCP settings → Keys.`,
        headers: {},
      };
    }
    return (
      badRoots(key) ?? {
        ok: true,
        // The session runs in the stricter mode of the two keys (SessionOrigin.forwardedMode).
        caller: { key, origin: { forwardedRoots: roots, forwardedMode: mode } },
        headers: { [RECEIPT_HEADER]: this.peers.receipt(token) },
      }
    );
  }
}

/**
 * The verifier of this vault's door: a bearer token with the forwarding prefix
 * ({@link FORWARD_TOKEN_PREFIX}) goes to the {@link ForwardedCallVerifier}, any other (or none)
 * to the {@link LocalKeyVerifier}.
 */
export class VaultCallerVerifier implements CallerVerifier {
  private readonly local: CredentialVerifier;
  private readonly forwarded: CredentialVerifier;

  /** @param keys the key ring. @param peers this vault among the others (forwarded calls). */
  constructor(keys: KeyRing, peers: VaultPeers) {
    this.local = new LocalKeyVerifier(keys);
    this.forwarded = new ForwardedCallVerifier(keys, peers);
  }

  verify(req: IncomingMessage): Promise<AuthVerdict> {
    const token = bearerTokenOf(req);
    return token?.startsWith(FORWARD_TOKEN_PREFIX) ? this.forwarded.verify(token) : this.local.verify(token);
  }
}
