import type { KeyRing } from '../../../src/keys/key-ring';
import type { KeyRecord } from '../../../src/settings/key-record';
import { ForwardedCallVerifier, LocalKeyVerifier } from '../../../src/server/http/door/caller-auth';
import type { VaultPeers } from '../../../src/server/vaults/vault-peers';

const key = (label: string, scope: KeyRecord['scope']): KeyRecord =>
  ({ id: label.toLowerCase(), label, mode: 'propose', scope, roots: [] }) as unknown as KeyRecord;
const keys: KeyRecord[] = [key('Agent', 'local'), key('Cloudy', 'cloud'), { ...key('Widened', 'local'), roots: ['Projects', ''] }];
const ring = {
  authenticate: (token: string) => ({ 'tok-agent': keys[0], 'tok-cloud': keys[1], 'tok-widened': keys[2] })[token] ?? null,
  list: () => keys,
} as unknown as KeyRing;

/** The two credential kinds behind the door's CallerVerifier, each refusing what it must with the status docs/architecture.md#keys names. */
describe('LocalKeyVerifier', () => {
  const verifier = new LocalKeyVerifier(ring);
  it('accepts a local key as its caller, with no roots passed along', async () => {
    expect(await verifier.verify('tok-agent')).toEqual({ ok: true, caller: { key: keys[0], origin: {} }, headers: {} });
  });
  it('answers a missing and an unknown token alike (401 with a challenge), and a cloud-only key 403 -32004', async () => {
    const missing = await verifier.verify(null);
    expect(missing).toMatchObject({ ok: false, status: 401, headers: { 'WWW-Authenticate': expect.stringContaining('Bearer') } });
    expect(await verifier.verify('tok-nobody')).toEqual(missing);
    expect(await verifier.verify('tok-cloud')).toMatchObject({
      ok: false,
      status: 403,
      code: -32004,
      message: expect.stringMatching(/cloud-only key; set its scope/),
    });
  });
  it('refuses a key whose saved roots break the roots rule (a hand-edited data.json), 403 -32004 naming the root, never running it as the whole vault', async () => {
    expect(await verifier.verify('tok-widened')).toEqual({
      ok: false,
      status: 403,
      code: -32004,
      message: expect.stringMatching(
        /^Key "Widened" may touch no note: its root "" is empty, which would be the whole vault; fix its roots in Vault MCP settings/,
      ),
      headers: {},
    });
  });
});

describe('ForwardedCallVerifier', () => {
  /** Peers whose assertion verifier answers `claims` (or refuses when null). */
  const peers = (claims: { label: string; roots: string[] | null } | null, withVerifier = true): VaultPeers =>
    ({
      verifier: withVerifier
        ? {
            verify: async () =>
              claims ? { ok: true, claims } : { ok: false, message: 'the assertion is not signed by the vault it names.' },
          }
        : null,
      location: { name: 'Home' },
      receipt: (token: string) => `receipt-of-${token}`,
    }) as unknown as VaultPeers;

  it('runs a verified call as the local key with its label, passing the roots on and adding the receipt', async () => {
    const verdict = await new ForwardedCallVerifier(ring, peers({ label: 'Agent', roots: ['/x'] })).verify('vmcpfwd.a.b');
    expect(verdict).toEqual({
      ok: true,
      caller: { key: keys[0], origin: { forwardedRoots: ['/x'] } },
      headers: { 'Vault-Mcp-Receipt': 'receipt-of-vmcpfwd.a.b' },
    });
  });
  it('refuses an assertion that does not verify (401), and any assertion in a vault without a folder (401)', async () => {
    expect(await new ForwardedCallVerifier(ring, peers(null)).verify('vmcpfwd.a.b')).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringMatching(/not signed by the vault it names/),
    });
    expect(await new ForwardedCallVerifier(ring, peers(null, false)).verify('vmcpfwd.a.b')).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringMatching(/accepts no forwarded calls/),
    });
    expect(await new ForwardedCallVerifier(ring, peers(null)).verify(null)).toMatchObject({ ok: false, status: 401 });
  });
  it('refuses a label with no local key, or only a cloud-only one, 403 -32004 naming the fix', async () => {
    expect(await new ForwardedCallVerifier(ring, peers({ label: 'Nobody', roots: null })).verify('vmcpfwd.a.b')).toMatchObject({
      ok: false,
      status: 403,
      code: -32004,
      message: expect.stringMatching(/has no key with that label; mint a local key labelled "Nobody"/),
    });
    expect(await new ForwardedCallVerifier(ring, peers({ label: 'Cloudy', roots: null })).verify('vmcpfwd.a.b')).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringMatching(/cloud-only/),
    });
    expect(await new ForwardedCallVerifier(ring, peers({ label: 'Widened', roots: null })).verify('vmcpfwd.a.b')).toMatchObject({
      ok: false,
      status: 403,
      code: -32004,
      message: expect.stringMatching(/^Key "Widened" may touch no note: its root ""/),
    });
  });
});
