import * as http from 'node:http';
import { postJson } from '../../src/ai/providers/http';
import { aiFailure } from '../harness/ai-failure';

describe('postJson', () => {
  let server: http.Server;
  let url: string;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    // A provider that accepts the request and never answers.
    server = http.createServer((_req, res) => void held.push(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/chat/completions`;
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives up on a provider that never answers with aiHttpError naming the wait', async () => {
    const err = await aiFailure(postJson(url, {}, { model: 'm' }, 200));
    expect(err.code).toBe('aiHttpError');
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/no answer within 200 ms/);
    expect(held.length).toBe(1);
  });
});
