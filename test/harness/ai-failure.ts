import { AiError } from '../../src/ai/ai-error';

/** The AiError `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function aiFailure(promise: Promise<unknown>): Promise<AiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AiError);
  return err as AiError;
}
