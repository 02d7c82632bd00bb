/**
 * The child process of one scaling-table row (bundled by `npm run bench` as
 * build/scaling-row.cjs, forked by scaling.ts): loads the built main.js in the host and
 * measures the vault given as JSON in its first argument (a TableVault), in the phase its
 * second argument names: `cold` sends the MeasuredRow (its warm figures NaN; its searches timed
 * from build/search-client.cjs in a process of its own) and leaves the saved index in place; `warm` boots from that index and sends its WarmFigures. One vault and
 * one boot per process, as Obsidian holds one vault at a time and a warm start follows a
 * restart: the heap starts clean and the figures are this boot's alone.
 */
import * as nodePath from 'node:path';
import { provideObsidianModule } from '../../obsidian-module';
import type { PluginClass } from '../plugin-class';
import { measureCold, measureWarm, type MeasuredRow, type TableVault, type WarmFigures } from './scaling-measure';

/** Which boot a row's process measures. */
export type RowPhase = 'cold' | 'warm';

/** Child → parent: the cold process's row, or the warm process's figures. */
export type RowMessage = { type: 'row'; measured: MeasuredRow } | { type: 'warm'; warm: WarmFigures };

async function main(spec: string | undefined, phase: string | undefined): Promise<void> {
  if (spec === undefined || (phase !== 'cold' && phase !== 'warm') || process.send === undefined)
    throw new Error(
      'scaling-row: run by the bench (fork with an IPC channel), with a TableVault as JSON in the first argument and "cold" or "warm" in the second',
    );
  const vault = JSON.parse(spec) as TableVault;
  provideObsidianModule();
  const Plugin = (require(nodePath.resolve(__dirname, '../main.js')) as { default: PluginClass }).default;
  const message: RowMessage =
    phase === 'cold'
      ? { type: 'row', measured: await measureCold(Plugin, vault, nodePath.resolve(__dirname, 'search-client.cjs')) }
      : { type: 'warm', warm: await measureWarm(Plugin, vault) };
  // Exits once the message is handed to the channel: the host's timers must not keep a measured process alive.
  process.send(message, () => process.exit(0));
}

main(process.argv[2], process.argv[3]).catch((error) => {
  console.error(error);
  process.exit(1);
});
