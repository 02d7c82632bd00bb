import VaultMcpPlugin from '../../../src/main';
import { noteUri } from '../../../src/server/content/note-resources';
import { MAX_LISTEN_STREAMS } from '../../../src/server/http/mcp-http-server';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { eventually, modernListener, settle } from '../../harness/env/notification-env';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

type Listener = Awaited<ReturnType<typeof modernListener>>;

/** Settles to how `listener`'s stream ended, or 'open' when it has not ended within `ms`. */
async function stateOf(listener: Listener, ms = 0): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('open'), ms)));
  const state = await Promise.race([listener.subscription.closed, open]);
  clearTimeout(timer);
  return state;
}

/**
 * docs/limits.md: at most MAX_LISTEN_STREAMS open 2026-07-28 `subscriptions/listen` streams, all
 * keys together; past that the oldest stream of the key holding the most is ended with the
 * listen result (MCP 2026-07-28 `SubscriptionsListenResult`, the client sees `graceful`), so a key
 * opening many ends its own, never another client's. Before, one key opened 150 streams and none
 * was refused or closed (verifier s29, F5).
 */
describe('subscriptions/listen streams are capped per server, the busiest key ending its own oldest', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let cleanup: () => Promise<void>;
  const listeners: Listener[] = [];

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanup = copy.cleanup;
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
  });
  afterAll(async () => {
    for (const { client } of listeners) await client.close().catch(() => undefined);
    await booted?.stop();
    await cleanup?.();
  });

  it("with another key's stream open, a key opening cap+2 streams ends its own three oldest, gracefully; the other key keeps its stream and hears", async () => {
    const { token: flood } = await booted.plugin.keyRing.mint({ label: 'Listener flood', mode: 'propose' });
    const other = await modernListener(booted.url, booted.token, 'other', [noteUri('Inbox.md')]);
    listeners.push(other);
    const own: Listener[] = [];
    for (let i = 0; i < MAX_LISTEN_STREAMS + 2; i++) {
      const listener = await modernListener(booted.url, flood, `flood-${i}`, []);
      listeners.push(listener);
      own.push(listener);
    }
    expect(await Promise.all(own.slice(0, 3).map((listener) => stateOf(listener, 5000)))).toEqual(['graceful', 'graceful', 'graceful']);
    await settle();
    expect(await Promise.all(own.slice(3).map(stateOf))).toEqual(Array(MAX_LISTEN_STREAMS - 1).fill('open'));
    expect(await stateOf(other)).toBe('open');
    expect(booted.plugin.server.listenStreamCount).toBe(MAX_LISTEN_STREAMS);

    // The other key's stream is still served: an edit of the note it names reaches it.
    const inbox = booted.app.vault.getFileByPath('Inbox.md');
    if (!inbox) throw new Error('the demo vault has Inbox.md');
    await booted.app.vault.modify(inbox, '# Inbox\n\nchanged\n');
    await eventually(() => other.heard.updates.includes(noteUri('Inbox.md')));

    // The ended client listens again: that ends the flood key's next oldest, still not the other key's.
    const again = await modernListener(booted.url, flood, 'flood-again', []);
    listeners.push(again);
    expect(await stateOf(own[3], 5000)).toBe('graceful');
    expect(await stateOf(other)).toBe('open');
    expect(booted.plugin.server.listenStreamCount).toBe(MAX_LISTEN_STREAMS);
  }, 120_000);

  it('streams that end are no longer counted; a refused listen is never counted', async () => {
    const before = booted.plugin.server.listenStreamCount;
    const listener = await modernListener(booted.url, booted.token, 'short', []);
    await eventually(() => booted.plugin.server.listenStreamCount === Math.min(before + 1, MAX_LISTEN_STREAMS));
    await listener.subscription.close();
    await listener.client.close();
    await eventually(() => booted.plugin.server.listenStreamCount === Math.min(before + 1, MAX_LISTEN_STREAMS) - 1);
    const counted = booted.plugin.server.listenStreamCount;
    // A listen without `notifications` (required) is answered with an error, not a stream.
    const refused = await fetch(booted.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${booted.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'bad',
        method: 'subscriptions/listen',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(refused.headers.get('content-type')).not.toMatch(/event-stream/);
    expect(JSON.stringify(await refused.json())).toMatch(/"error"/);
    await settle();
    expect(booted.plugin.server.listenStreamCount).toBe(counted);
  }, 60_000);
});
