/** npm start's taken-port check and advice (scripts/start/port-check.ts). */
import { createServer, type Server } from 'node:net';
import { portTaken, portTakenAdvice } from '../../../scripts/start/port-check';

async function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('portTaken', () => {
  it('is true while another listener holds the port and false once it is closed', async () => {
    const { server, port } = await listen();
    try {
      expect(await portTaken(port)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await portTaken(port)).toBe(false);
  });
});

describe('portTakenAdvice', () => {
  it('names the port and the --port flag with an example, not the settings tab', () => {
    const advice = portTakenAdvice(27200);
    expect(advice).toMatch(/^Port 27200 is already in use/);
    expect(advice).toContain('npm start -- --port 27300');
    expect(advice).toContain('--port 0');
    expect(advice).not.toMatch(/settings/i);
    expect(portTakenAdvice(27300)).toContain('--port 27301');
  });

  it("keeps the run's other flags in the command to type (the hint dropped --vault and --token), quoting a value with spaces", () => {
    const argv = ['--vault', '/tmp/My Notes', '--port', '27200', '--token', 'abcdefghijklmnop', '--allow-writes'];
    expect(portTakenAdvice(27200, argv)).toContain(
      'npm start -- --vault "/tmp/My Notes" --token abcdefghijklmnop --allow-writes --port 27300 (or --port 0',
    );
    expect(portTakenAdvice(27300, ['--port=27300', '--mode', 'propose'])).toContain('npm start -- --mode propose --port 27301');
  });
});
