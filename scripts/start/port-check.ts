/**
 * `npm start`'s answer to a taken port: in the terminal the fix is `--port`, not the settings
 * tab the plugin's own message points to (that message is written for Obsidian).
 */
import { createServer } from 'node:net';
import { shownValue } from './run-options';

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

/**
 * The terminal advice for a taken `port`: the command to type, the run's other flags kept as typed
 * (`--vault`, `--token`, ...; a value with spaces or quotes quoted) and `--port` set to another port.
 * @param port the taken port. @param argv the run's arguments (after `--`), `--port N` or `--port=N` among them or not.
 */
export function portTakenAdvice(port: number, argv: readonly string[] = []): string {
  const others: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') i++;
    else if (!argv[i].startsWith('--port=')) others.push(shownValue(argv[i]));
  }
  const command = ['npm start --', ...others, '--port', String(port === 27300 ? 27301 : 27300)].join(' ');
  return (
    `Port ${port} is already in use (another npm start, Obsidian running Vault MCP, or another program). ` +
    `Start on another port with --port: ${command} (or --port 0 for any free port).`
  );
}
