/**
 * `node:util` in the runtime probe's page bundle (profile-chromium.ts): the test host's frontmatter
 * editing compares values with it, which the probe (parsing metadata only) never does. Calling it throws.
 */
export function isDeepStrictEqual(): never {
  throw new Error('node:util is not available in the runtime probe page (it edits no frontmatter)');
}
