/**
 * `npm start`'s answer to a taken port: in the terminal the fix is `--port`, not the settings
 * tab the plugin's own message points to (that message is written for Obsidian).
 */
import { createServer } from 'node:net';

/**
 * Whether 127.0.0.1:`port` is taken: listening there briefly fails with EADDRINUSE.
 * Other listen errors (EACCES, ...) count as not taken, so the plugin reports them itself.
 */
export async function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/** The terminal advice for a taken `port`: which flag to pass, with an example. */
export function portTakenAdvice(port: number): string {
  return (
    `Port ${port} is already in use (another npm start, Obsidian running Vault MCP, or another program). ` +
    `Start on another port with --port: npm start -- --port ${port === 27300 ? 27301 : 27300} (or --port 0 for any free port).`
  );
}
