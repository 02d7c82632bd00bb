/**
 * Tells an accept's errors from the vault (a note write or check refused, a note changed: the
 * proposal stays as it was and reads stale with the reason) apart from the proposals file's (it
 * could not be saved: nothing was decided, the error goes to the user as it is). Functions wrapped
 * with {@link of} remember what they throw.
 */
export class VaultSide {
  private readonly thrown = new Set<unknown>();

  /** `fn`, remembering what it throws. */
  of<T>(fn: () => Promise<T>): () => Promise<T> {
    return async () => {
      try {
        return await fn();
      } catch (err) {
        throw this.refused(err);
      }
    };
  }

  /** Remembers `err` as the vault's. @returns `err`. */
  refused<E>(err: E): E {
    this.thrown.add(err);
    return err;
  }

  /** Whether `err` came from the vault side. */
  threw(err: unknown): boolean {
    return this.thrown.has(err);
  }
}
