import type { VaultSight } from '../errors';
import type { AccessScope } from '../vault/access/access';
import type { Proposal } from './types';

/**
 * The key that proposed a change, as it is now (docs/propose-mode.md): acceptance re-checks the
 * change with the key's current roots and label, not as they were when it was staged, a revoked
 * key's proposal can never be applied, and what a refusal names is worded for what the key may see.
 */
export class ProposerScope {
  /**
   * @param keyRoots the current roots of a key by id, or null when the key no longer exists
   *   (revoked): acceptance uses the key's roots as they are then, not as they were.
   * @param keySight what a key by id may be shown of the vault in messages (its tool set's
   *   AccessScope.sight; undefined: all), so a reason a proposal cannot be applied, which the
   *   proposing key reads in proposal_status, names no note and quotes no text its tools do not show.
   */
  constructor(
    private readonly keyRoots: (keyId: string) => string[] | null,
    private readonly keySight: (keyId: string) => VaultSight | undefined,
  ) {}

  /**
   * The proposing key's access scope now: its label (agent_overrides) and current roots, with
   * the proposal (and the hunks going in) and the session it was proposed in as the actor the
   * activity log records.
   * @param hunks the indexes of the hunks going in, when only those of a text proposal do.
   */
  of(p: Proposal, hunks?: number[]): AccessScope {
    const via = hunks ? { proposal: p.id, hunks } : { proposal: p.id };
    const sight = this.keySight(p.key_id);
    return {
      label: p.key_label,
      roots: this.keyRoots(p.key_id) ?? p.key_roots,
      actor: { keyId: p.key_id, session: p.session, via },
      ...(sight === undefined ? {} : { sight }),
    };
  }

  /** @returns what the key that proposed `p` may be shown of the vault (undefined: all). */
  sightOf(p: Proposal): VaultSight | undefined {
    return this.keySight(p.key_id);
  }

  /** @returns why a proposal of a revoked key cannot be applied, or null while the key exists. */
  revokedReason(p: Proposal): string | null {
    return this.keyRoots(p.key_id) === null
      ? `The key '${p.key_label}' that proposed this change was revoked, so it cannot be applied.`
      : null;
  }
}
