import { ToolError } from '../../../src/errors';

/** The ToolError `fn` throws; fails the test when it throws something else or nothing. */
export function errorOf(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ToolError) return err;
    throw err;
  }
  throw new Error('expected a ToolError');
}

/** The code of the ToolError `fn` throws (see {@link errorOf}). */
export function codeOf(fn: () => unknown): string {
  return errorOf(fn).code;
}

/** The ToolError `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ToolError) return err;
    throw err;
  }
  throw new Error('expected a ToolError');
}
