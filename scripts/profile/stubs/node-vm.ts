/**
 * `node:vm` in the runtime probe's page bundle (profile-chromium.ts): regex-guard.ts runs regex
 * queries in a vm context, which a page lacks and the probe's queries never reach. Making a script
 * (regex-guard.ts makes its two as it loads) works; running one, or making a context, throws.
 */
function unavailable(): never {
  throw new Error('node:vm is not available in the runtime probe page (its queries run no regex)');
}

/** Stands for vm.Script: running it throws. */
export class Script {
  runInContext(): never {
    return unavailable();
  }
}

/** Stands for vm.createContext: throws. */
export function createContext(): never {
  return unavailable();
}
