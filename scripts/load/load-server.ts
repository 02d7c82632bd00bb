/**
 * The server side of `npm run test:load`, run as a child process (`node --expose-gc`): boots
 * the built main.js in the Obsidian host over the vault folder given as its argument, sends
 * `{type: 'ready', port, token, paths}` to the parent over IPC, then answers
 * `{type: 'memory'}` with `{type: 'memory', heapUsed, rss}` (bytes, after two full GCs) and
 * stops on `{type: 'stop'}`. Keeping the server apart from the load generator keeps their
 * CPU and memory apart: the figures are the server's own.
 */
import * as nodePath from 'node:path';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin } from '../../test/harness/boot-plugin';
import type { PluginClass } from '../bench/plugin-class';
import type { ServerMessage, ParentMessage } from './ipc';

/** Sends one message to the parent. */
function send(message: ServerMessage): void {
  process.send?.(message);
}

async function main(vault: string | undefined): Promise<void> {
  if (!vault) throw new Error('load-server: pass the vault folder as the first argument');
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('load-server: run with node --expose-gc so memory is sampled after a full GC');
  provideObsidianModule();
  const Plugin = (require(nodePath.resolve(__dirname, '../main.js')) as { default: PluginClass }).default;
  const booted = await bootPlugin(Plugin, { vaultPath: vault });
  const paths = booted.app.vault.getMarkdownFiles().map((f) => f.path);
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'memory') {
      gc();
      gc();
      const { heapUsed, rss } = process.memoryUsage();
      send({ type: 'memory', heapUsed, rss });
    } else if (message.type === 'stop') {
      void booted.stop().then(() => process.exit(0));
    }
  });
  send({ type: 'ready', port: booted.port, token: booted.token, paths });
}

main(process.argv[2]).catch((error) => {
  console.error(`load-server: ${(error as Error).message}`);
  process.exit(1);
});
