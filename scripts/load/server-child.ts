/**
 * Starts and talks to the server child of `npm run test:load` (load-server.ts, bundled next to
 * the runner as build/load-server.cjs) under `node --expose-gc`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as nodePath from 'node:path';
import type { ParentMessage, ServerMessage } from './ipc';

/** A running server child: where it listens, its token and note paths, memory sampling and stop. */
export interface ServerChild {
  port: number;
  token: string;
  paths: string[];
  /** Heap in use and RSS of the server process after two full GCs, bytes. */
  memory(): Promise<{ heapUsed: number; rss: number }>;
  /** Stops the plugin (port freed) and waits for the child to exit. */
  stop(): Promise<void>;
}

/**
 * Forks the server child on `vault` (a folder it may read; it boots the plugin in place).
 * @throws Error with the child's stderr when it exits before it listens.
 */
export async function startServerChild(vault: string): Promise<ServerChild> {
  const child = fork(nodePath.join(__dirname, 'load-server.cjs'), [vault], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const ready = await new Promise<Extract<ServerMessage, { type: 'ready' }>>((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`the load server exited (${code}) before listening: ${stderr.trim()}`));
    child.once('exit', onExit);
    child.on('message', (message: ServerMessage) => {
      if (message.type !== 'ready') return;
      child.off('exit', onExit);
      resolve(message);
    });
  });
  return {
    port: ready.port,
    token: ready.token,
    paths: ready.paths,
    memory: () => request(child, { type: 'memory' }),
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'stop' } satisfies ParentMessage);
      await exited;
    },
  };
}

/** Sends `message` and resolves with the child's next memory answer. */
function request(child: ChildProcess, message: ParentMessage): Promise<{ heapUsed: number; rss: number }> {
  return new Promise((resolve) => {
    const onMessage = (answer: ServerMessage): void => {
      if (answer.type !== 'memory') return;
      child.off('message', onMessage);
      resolve({ heapUsed: answer.heapUsed, rss: answer.rss });
    };
    child.on('message', onMessage);
    child.send(message);
  });
}
