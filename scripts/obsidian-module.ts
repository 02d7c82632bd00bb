import Module from 'node:module';
import * as host from '../test/host';

type ModuleWithLoad = typeof Module & { _load(request: string, parent: unknown, isMain: boolean): unknown };

/**
 * Makes `require('obsidian')` return the host module (test/host), as Obsidian provides its
 * API to plugins, so the built main.js runs unchanged in Node.
 */
export function provideObsidianModule(): void {
  const mod = Module as ModuleWithLoad;
  const load = mod._load;
  mod._load = function (request: string, parent: unknown, isMain: boolean) {
    return request === 'obsidian' ? host : load.call(this, request, parent, isMain);
  };
}
