import * as http from 'node:http';
import * as net from 'node:net';
import { sendWebResponse } from '../../../src/server/http/web-exchange';

/** More than loopback socket buffers hold unread, so a client that reads nothing stalls the writer. */
const TOTAL = 32 * 1024 * 1024;
const CHUNK = 64 * 1024;
/** The stall limit the server under test uses, ms (the plugin's is WRITE_STALL_MS). */
const STALL_MS = 300;

/**
 * web-exchange.ts WRITE_STALL_MS, docs/limits.md: an answer whose client stops reading is cut
 * after the stall limit, and its body (an SSE stream of a call or a listen stream) is cancelled.
 * Before, the writer waited for `drain` without bound, holding the connection and the buffered
 * answer for as long as the client kept the socket open. Real HTTP on loopback: a `node:http`
 * server answering through sendWebResponse, a raw socket client.
 */
describe('an answer whose client stops reading is cut after the stall limit', () => {
  let server: http.Server;
  let port: number;
  let cancelled = false;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= TOTAL) return controller.close();
          sent += CHUNK;
          controller.enqueue(new Uint8Array(CHUNK).fill(120));
        },
        cancel() {
          cancelled = true;
        },
      });
      void sendWebResponse(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }), res, undefined, STALL_MS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends a GET, reads nothing for `pauseMs`, then reads to the end. @returns bytes received (head included). */
  async function fetchPausing(pauseMs: number): Promise<number> {
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.on('error', () => undefined);
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    return received;
  }

  it('a client reading at once gets the whole answer', async () => {
    cancelled = false;
    expect(await fetchPausing(0)).toBeGreaterThan(TOTAL);
    expect(cancelled).toBe(false);
  }, 30_000);

  it('a client reading nothing for longer than the limit is cut off and the body cancelled', async () => {
    cancelled = false;
    const received = await fetchPausing(STALL_MS * 5);
    expect(received).toBeLessThan(TOTAL);
    expect(cancelled).toBe(true);
  }, 30_000);
});
