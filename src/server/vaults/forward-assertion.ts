import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { KeyMode } from '../../settings/key-record';
import { hostPathRules, isRootPath, MAX_CLIENT_ROOTS, MAX_ROOT_URI_CHARS } from '../roots/client-roots';

/** Bearer tokens of forwarded calls start with this; no key token does (theirs are `vmcp_…` or user-chosen). */
export const FORWARD_TOKEN_PREFIX = 'vmcpfwd.';
/**
 * Response header by which the receiving vault proves it holds the private key the registry
 * publishes for it: its signature over the exact bearer token it accepted (see {@link ForwardIdentity.receipt}).
 */
export const RECEIPT_HEADER = 'Vault-Mcp-Receipt';
/** How long an assertion is valid after it is made, ms. */
const LIFETIME_MS = 30_000;
/** Longest token read, chars (claims are small; the roots list is capped). */
const MAX_TOKEN_CHARS = 64 * 1024;

/** What a forwarding vault asserts to the vault it forwards to. */
export interface ForwardClaims {
  /** Registry id of the forwarding vault. */
  iss: string;
  /** Registry id of the vault the call is for. */
  aud: string;
  /** Label of the caller's key in the forwarding vault: the receiving vault uses its own key with this label. */
  label: string;
  /**
   * The caller's key's mode in the forwarding vault: the receiving vault's key runs in the stricter of
   * its own mode and this one, so a propose key's edits wait for review in every vault (README: a key
   * in propose mode never writes). A token without it (a peer of an older version) reads as `propose`.
   */
  mode: KeyMode;
  /** The client's MCP roots (absolute paths), or null when it shared none; the receiving vault applies them too. */
  roots: string[] | null;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** Random id; each assertion is accepted once. */
  jti: string;
}

/**
 * This plugin run's signing identity for forwarded calls: an Ed25519 key pair made at start,
 * whose private half never leaves memory and whose public half goes in the vault registry.
 * A forwarded HTTP request carries `Authorization: Bearer vmcpfwd.<claims>.<signature>`; no key
 * token of either vault is ever sent to the other (docs/several-vaults.md).
 */
export class ForwardIdentity {
  /** SPKI DER of the public key, base64: what the registry publishes. */
  readonly publicKey: string;
  private readonly privateKey: KeyObject;

  constructor() {
    const pair = generateKeyPairSync('ed25519');
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  }

  /**
   * A fresh bearer token for one HTTP request to vault `aud`, valid {@link LIFETIME_MS} ms.
   * @param now ms since the epoch.
   */
  token(claims: Omit<ForwardClaims, 'exp' | 'jti'>, now = Date.now()): string {
    const full: ForwardClaims = { ...claims, exp: now + LIFETIME_MS, jti: randomBytes(12).toString('base64url') };
    const payload = Buffer.from(JSON.stringify(full), 'utf8').toString('base64url');
    const signature = sign(null, Buffer.from(payload, 'utf8'), this.privateKey).toString('base64url');
    return `${FORWARD_TOKEN_PREFIX}${payload}.${signature}`;
  }

  /**
   * The {@link RECEIPT_HEADER} value a receiving vault sends back for a forwarded `token` it
   * accepted: base64url Ed25519 signature over `receipt:` + the token.
   */
  receipt(token: string): string {
    return sign(null, receiptMessage(token), this.privateKey).toString('base64url');
  }
}

/**
 * True when `receipt` is the signature of the vault whose registry `publicKey` (SPKI DER,
 * base64) is given over `token` (see {@link ForwardIdentity.receipt}): the forwarding vault's
 * check that it reached the registered vault and not some other program on that port, made on
 * the answer to `initialize` before any tool call is sent.
 */
export function verifyReceipt(publicKey: string, token: string, receipt: string | null): boolean {
  if (!receipt) return false;
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return verify(null, receiptMessage(token), key, Buffer.from(receipt, 'base64url'));
  } catch {
    return false;
  }
}

/** What a receipt signs: a fixed prefix (so no receipt is ever a valid assertion signature) and the token. */
function receiptMessage(token: string): Buffer {
  return Buffer.from(`receipt:${token}`, 'utf8');
}

/** Why a forwarded token was refused (the message names no secret). */
export type ForwardVerdict = { ok: true; claims: ForwardClaims } | { ok: false; message: string };

/**
 * Checks forwarded tokens for one vault: the signature against the issuer's public key from
 * the registry, the audience, the expiry, and that each assertion is used once.
 */
export class ForwardVerifier {
  private readonly seen = new Map<string, number>();

  /**
   * @param selfId this vault's registry id (the required audience).
   * @param publicKeyOf the registry's public key for a vault id (live entries only), or null.
   */
  constructor(
    private readonly selfId: string,
    private readonly publicKeyOf: (vaultId: string) => Promise<string | null>,
  ) {}

  /** Verifies `token` (which starts with {@link FORWARD_TOKEN_PREFIX}). @param now ms since the epoch. */
  async verify(token: string, now = Date.now()): Promise<ForwardVerdict> {
    const refused = (message: string): ForwardVerdict => ({ ok: false, message });
    if (token.length > MAX_TOKEN_CHARS) return refused('The forwarded call is too large.');
    const [payload, signature, extra] = token.slice(FORWARD_TOKEN_PREFIX.length).split('.');
    if (!payload || !signature || extra !== undefined) return refused('The forwarded call is malformed.');
    const claims = parseClaims(payload);
    if (!claims) return refused('The forwarded call is malformed.');
    if (claims.aud !== this.selfId) return refused('The forwarded call is meant for another vault.');
    if (claims.exp < now) return refused('The forwarded call has expired; retry it.');
    if (claims.exp > now + 2 * LIFETIME_MS)
      return refused(`The forwarded call is not valid: its lifetime exceeds ${LIFETIME_MS / 1000} s.`);
    const publicKey = await this.publicKeyOf(claims.iss);
    if (!publicKey) return refused('The forwarding vault is not open (not in the vault registry).');
    let valid = false;
    try {
      const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
      valid = verify(null, Buffer.from(payload, 'utf8'), key, Buffer.from(signature, 'base64url'));
    } catch {
      valid = false;
    }
    if (!valid) return refused('The forwarded call is not signed by the vault it names.');
    for (const [jti, exp] of this.seen) if (exp < now) this.seen.delete(jti);
    if (this.seen.has(claims.jti)) return refused('The forwarded call was already used.');
    this.seen.set(claims.jti, claims.exp);
    return { ok: true, claims };
  }
}

/** The claims in a token's payload, or null when they are not well-formed. */
function parseClaims(payload: string): ForwardClaims | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  const roots = c.roots;
  // Each root must be an absolute normalized path, as client-roots.ts parses them: an empty or relative one is refused here, never read as the vault.
  const rootsOk =
    roots === null ||
    (Array.isArray(roots) &&
      roots.length <= MAX_CLIENT_ROOTS &&
      roots.every((r) => typeof r === 'string' && r.length <= MAX_ROOT_URI_CHARS && isRootPath(r, hostPathRules())));
  if (typeof c.iss !== 'string' || typeof c.aud !== 'string' || typeof c.label !== 'string' || c.label.length > 200) return null;
  if (typeof c.exp !== 'number' || typeof c.jti !== 'string' || c.jti.length > 64 || !rootsOk) return null;
  if (c.mode !== undefined && c.mode !== 'propose' && c.mode !== 'force') return null;
  const mode: KeyMode = c.mode === 'force' ? 'force' : 'propose';
  return { iss: c.iss, aud: c.aud, label: c.label, mode, roots: roots as string[] | null, exp: c.exp, jti: c.jti };
}
