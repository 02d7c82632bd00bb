/**
 * The child process of one scaling-table row (bundled by `npm run bench` as
 * build/scaling-row.cjs, forked by scaling.ts): loads the built main.js in the host, measures
 * the vault given as JSON in its first argument (a TableVault) and sends the MeasuredRow to
 * the parent over IPC. One vault per process, as Obsidian holds one vault at a time: the heap
 * starts clean and the memory figures are this vault's alone.
 */
import * as nodePath from 'node:path';
import { provideObsidianModule } from '../obsidian-module';
import type { PluginClass } from './plugin-class';
import { measureVault, type MeasuredRow, type TableVault } from './scaling-measure';

/** Child → parent: the row. */
export interface RowMessage {
  type: 'row';
  measured: MeasuredRow;
}

async function main(spec: string | undefined): Promise<void> {
  if (spec === undefined || process.send === undefined)
    throw new Error('scaling-row: run by the bench (fork with an IPC channel), with a TableVault as JSON in the first argument');
  const vault = JSON.parse(spec) as TableVault;
  provideObsidianModule();
  const Plugin = (require(nodePath.resolve(__dirname, '../main.js')) as { default: PluginClass }).default;
  const measured = await measureVault(Plugin, vault);
  const message: RowMessage = { type: 'row', measured };
  // Exits once the message is handed to the channel: the host's timers must not keep a measured process alive.
  process.send(message, () => process.exit(0));
}

main(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
