import { FORWARD_TOKEN_PREFIX, ForwardIdentity, ForwardVerifier, verifyReceipt } from '../../../src/server/vaults/forward-assertion';

describe('forwarding assertions', () => {
  const issuer = new ForwardIdentity();
  const keys = new Map([['aaaaaaaaaaaaaaaa', issuer.publicKey]]);
  const verifier = (self = 'bbbbbbbbbbbbbbbb'): ForwardVerifier => new ForwardVerifier(self, async (id) => keys.get(id) ?? null);
  const claims = { iss: 'aaaaaaaaaaaaaaaa', aud: 'bbbbbbbbbbbbbbbb', label: 'Agent', mode: 'force' as const, roots: ['/v/A'] };

  it('a token verifies once for its audience, with the claims it was made with', async () => {
    const check = verifier();
    const token = issuer.token(claims);
    expect(token.startsWith(FORWARD_TOKEN_PREFIX)).toBe(true);
    const verdict = await check.verify(token);
    expect(verdict).toMatchObject({ ok: true, claims });
    expect(await check.verify(token)).toEqual({ ok: false, message: 'The forwarded call was already used.' });
  });

  it('refuses another audience, an expired token, a changed payload, an unknown issuer and junk', async () => {
    const check = verifier();
    expect(await verifier('cccccccccccccccc').verify(issuer.token(claims))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/another vault/),
    });
    expect(await check.verify(issuer.token(claims, Date.now() - 60_000))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/expired/),
    });
    // A far-future exp is not "expired": it claims a lifetime longer than any real assertion has.
    expect(await check.verify(issuer.token(claims, Date.now() + 86_400_000))).toEqual({
      ok: false,
      message: 'The forwarded call is not valid: its lifetime exceeds 30 s.',
    });
    const [payload, signature] = issuer.token(claims).slice(FORWARD_TOKEN_PREFIX.length).split('.');
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), roots: null })).toString(
      'base64url',
    );
    expect(await check.verify(`${FORWARD_TOKEN_PREFIX}${widened}.${signature}`)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not signed/),
    });
    expect(await check.verify(new ForwardIdentity().token({ ...claims, iss: 'dddddddddddddddd' }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not open/),
    });
    for (const junk of [
      `${FORWARD_TOKEN_PREFIX}`,
      `${FORWARD_TOKEN_PREFIX}a.b.c`,
      `${FORWARD_TOKEN_PREFIX}${Buffer.from('[1]').toString('base64url')}.x`,
    ]) {
      expect(await check.verify(junk)).toMatchObject({ ok: false, message: expect.stringMatching(/malformed/) });
    }
  });

  it('refuses signed claims whose roots are not absolute normalized paths (an empty or relative root is never read as the vault)', async () => {
    const check = verifier();
    for (const roots of [[''], ['A'], ['/v/../etc'], ['/v/A/'], ['/v/A', '.']]) {
      expect(await check.verify(issuer.token({ ...claims, roots }))).toEqual({ ok: false, message: 'The forwarded call is malformed.' });
    }
    expect(await check.verify(issuer.token({ ...claims, roots: ['/'] }))).toMatchObject({ ok: true });
  });

  it("carries the caller's key mode: a token without one (an older peer) reads as propose, another value is malformed", async () => {
    const check = verifier();
    expect(await check.verify(issuer.token({ ...claims, mode: 'propose' }))).toMatchObject({ ok: true, claims: { mode: 'propose' } });
    const older = { ...claims, mode: undefined } as unknown as typeof claims;
    expect(await check.verify(issuer.token(older))).toMatchObject({ ok: true, claims: { mode: 'propose' } });
    const odd = { ...claims, mode: 'admin' } as unknown as typeof claims;
    expect(await check.verify(issuer.token(odd))).toEqual({ ok: false, message: 'The forwarded call is malformed.' });
  });

  it('a receipt proves the receiving vault holds its registered key, for that exact token only', () => {
    const receiver = new ForwardIdentity();
    const token = issuer.token(claims);
    const receipt = receiver.receipt(token);
    expect(verifyReceipt(receiver.publicKey, token, receipt)).toBe(true);
    // Another program on the port has no such key; a receipt for one token proves nothing for the next.
    expect(verifyReceipt(receiver.publicKey, token, new ForwardIdentity().receipt(token))).toBe(false);
    expect(verifyReceipt(receiver.publicKey, issuer.token(claims), receipt)).toBe(false);
    for (const junk of [null, '', 'x', receipt.slice(1)]) expect(verifyReceipt(receiver.publicKey, token, junk)).toBe(false);
    expect(verifyReceipt('not a key', token, receipt)).toBe(false);
    // A receipt is never an assertion signature: signed over a different message.
    const [, payload] = token.split('.');
    expect(`${FORWARD_TOKEN_PREFIX}${payload}.${issuer.receipt(token)}`).not.toBe(token);
  });
});
