import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { SearchIndex } from '../../../src/search/search-index';
import { TermIndex } from '../../../src/search/engine/term-index';
import { bootPlugin, connectClient } from '../../harness/boot-plugin';
import { waitUntil } from '../../harness/wait-until';

/**
 * Scores never depend on notes the caller cannot see (docs/architecture.md#tool-contract, search): for each way
 * a note can be hidden from a key, the key's search over the vault with the hidden note gives
 * exactly the results (paths and scores) it gives over the same vault without that note.
 */

type Hit = { path: string; score: number };

/** Notes every case shares: some hold the query words, in different amounts. */
const BASE: Record<string, string> = {
  'Baking/Sourdough.md': '# Sourdough\n\nA sourdough starter needs flour and water. Feed the starter daily.\n',
  'Baking/Bread.md': '# Bread\n\nBread with a starter or with yeast. Sourdough bread bakes slowly.\n',
  'Baking/Flour.md': '---\naliases: [Meal]\n---\nFlour types: rye, spelt, wheat. Rye flour suits a starter.\n',
  'Notes/Kitchen.md': 'The kitchen has flour, a starter jar and scales.\n',
};

/** The hidden note's body: every query word, many times, in a long text (it would move idf and average lengths). */
const HIDDEN_BODY = `${'sourdough starter flour yeast bread '.repeat(40)}\nand a great many other words to lengthen the body.\n`;

const QUERIES = [
  'sourdough',
  'sourdough starter flour',
  'starter yeast rye',
  'starter -yeast',
  '"sourdough starter"',
  'flour OR bread',
  'meal',
];

async function writeVault(notes: Record<string, string>): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-side-'));
  for (const [path, text] of Object.entries(notes)) {
    await fsp.mkdir(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, path), text);
  }
  return { dir, cleanup: () => fsp.rm(dir, { recursive: true, force: true }) };
}

/** Every query's hits (path and score), as the client's key sees them. */
async function queryAll(client: Client): Promise<Record<string, Hit[]>> {
  const out: Record<string, Hit[]> = {};
  for (const query of QUERIES) {
    const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical', fields: 'metadata', limit: 50 } });
    if (result.isError) throw new Error(`search ${query} failed: ${JSON.stringify(result.content)}`);
    out[query] = (result.structuredContent as { results: Hit[] }).results.map((h) => ({ path: h.path, score: h.score }));
  }
  return out;
}

/** Every query's hits (path and score), as the key with `roots` sees them over `notes`. */
async function searchAll(notes: Record<string, string>, roots?: string[]): Promise<Record<string, Hit[]>> {
  const vault = await writeVault(notes);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.dir, roots });
  let client: Client | null = null;
  try {
    client = await connectClient(booted.url, booted.token);
    return await queryAll(client);
  } finally {
    await client?.close();
    await booted.stop();
    await vault.cleanup();
  }
}

describe('search scores do not depend on notes the caller cannot see', () => {
  let without: Record<string, Hit[]>;
  beforeAll(async () => {
    without = await searchAll(BASE);
  });

  it('the hidden note would change the scores if the caller could see it (the comparison is sensitive)', async () => {
    const seen = await searchAll({ ...BASE, 'Notes/Secret.md': HIDDEN_BODY });
    expect(seen.sourdough.map((h) => h.path)).toContain('Notes/Secret.md');
    const visibleScores = (hits: Hit[]): Hit[] => hits.filter((h) => h.path !== 'Notes/Secret.md');
    expect(visibleScores(seen['sourdough starter flour'])).not.toEqual(without['sourdough starter flour']);
    expect(without.sourdough.length).toBeGreaterThan(1);
    expect(without.meal.map((h) => h.path)).toEqual(['Baking/Flour.md']);
  });

  it.each([
    ['access: private', 'Notes/Secret.md', `---\naccess: private\n---\n${HIDDEN_BODY}`],
    ['agent_overrides no-access for this key', 'Notes/Secret.md', `---\nagent_overrides:\n  Test client: no-access\n---\n${HIDDEN_BODY}`],
    ['a quarantined folder (_private/)', '_private/Secret.md', HIDDEN_BODY],
    ['a quarantined dot-folder', '.hidden/Secret.md', HIDDEN_BODY],
  ])('%s: every visible score is exactly the same as without the note', async (_how, path, text) => {
    expect(await searchAll({ ...BASE, [path]: text })).toEqual(without);
  });

  it('a note outside the key roots: every visible score is exactly the same as without the note', async () => {
    const inRoots = await searchAll(BASE, ['Baking']);
    expect(inRoots.sourdough.every((h) => h.path.startsWith('Baking/'))).toBe(true);
    expect(await searchAll({ ...BASE, 'Notes/Secret.md': HIDDEN_BODY }, ['Baking'])).toEqual(inRoots);
    // Notes/Kitchen.md, outside the roots too, does not count either: the roots' own scores differ from the whole vault's.
    expect(inRoots['sourdough starter flour']).not.toEqual(without['sourdough starter flour'].filter((h) => h.path.startsWith('Baking/')));
  });

  it('a note hidden, shown again and moved out of the roots between searches: each time the scores of a vault with or without it', async () => {
    // The index keeps each caller's view between searches and patches it with the notes that change (corpus-views.ts).
    const seen = await searchAll({ ...BASE, 'Notes/Secret.md': HIDDEN_BODY });
    const vault = await writeVault({ ...BASE, 'Notes/Secret.md': HIDDEN_BODY });
    const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.dir, roots: ['Baking', 'Notes'] });
    let client: Client | null = null;
    try {
      client = await connectClient(booted.url, booted.token);
      const { vault: host, metadataCache, fileManager } = booted.app;
      const rewrite = async (path: string, text: string): Promise<void> => {
        await host.modify(host.getFileByPath(path)!, text);
        await metadataCache.whenResolved();
      };
      expect(await queryAll(client)).toEqual(seen);
      await rewrite('Notes/Secret.md', `---\naccess: private\n---\n${HIDDEN_BODY}`);
      expect(await queryAll(client)).toEqual(without);
      await rewrite('Notes/Secret.md', HIDDEN_BODY);
      expect(await queryAll(client)).toEqual(seen);
      await rewrite('Notes/Secret.md', `---\nagent_overrides:\n  Test client: no-access\n---\n${HIDDEN_BODY}`);
      expect(await queryAll(client)).toEqual(without);
      await rewrite('Notes/Secret.md', HIDDEN_BODY);
      expect(await queryAll(client)).toEqual(seen);
      await fileManager.renameFile(host.getFileByPath('Notes/Secret.md')!, 'Elsewhere/Secret.md');
      await metadataCache.whenResolved();
      expect(await queryAll(client)).toEqual(without);
    } finally {
      await client?.close();
      await booted.stop();
      await vault.cleanup();
    }
  });

  describe("a key's first search after the build, its view derived from the build scan's (the base view)", () => {
    /**
     * Boots the plugin over `notes` and waits until the steps after its build (the base view's among them) have ended;
     * `during` runs while the index builds.
     */
    async function bootAfterSteps(notes: Record<string, string>, roots?: string[], during?: (url: string, token: string) => Promise<void>) {
      const proto = SearchIndex.prototype as unknown as { rankAhead(...args: unknown[]): Promise<void> };
      const original = proto.rankAhead;
      const steps: Promise<void>[] = [];
      const spy = jest.spyOn(proto, 'rankAhead').mockImplementation(function (this: unknown, ...args: unknown[]) {
        const running = original.apply(this, args);
        steps.push(running);
        return running;
      });
      const vault = await writeVault(notes);
      try {
        const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.dir, roots, waitForIndex: during === undefined });
        await during?.(booted.url, booted.token);
        await waitUntil(() => steps.length > 0, 'the ranking steps after the build');
        await Promise.all(steps);
        return { booted, vault };
      } finally {
        spy.mockRestore();
      }
    }

    /** The key's searches, with a check that no view was made over every note (each was derived from the base view). */
    async function firstSearches(
      notes: Record<string, string>,
      roots: string[] | undefined,
      before?: (booted: Awaited<ReturnType<typeof bootPlugin>>) => Promise<void>,
      during?: (url: string, token: string) => Promise<void>,
    ): Promise<Record<string, Hit[]>> {
      const { booted, vault } = await bootAfterSteps(notes, roots, during);
      let client: Client | null = null;
      const made = jest.spyOn(TermIndex.prototype, 'view');
      try {
        await before?.(booted);
        client = await connectClient(booted.url, booted.token);
        const hits = await queryAll(client);
        expect(made).not.toHaveBeenCalled();
        return hits;
      } finally {
        made.mockRestore();
        await client?.close();
        await booted.stop();
        await vault.cleanup();
      }
    }

    const rewrite = (path: string, text: string) => async (booted: Awaited<ReturnType<typeof bootPlugin>>) => {
      const { vault: host, metadataCache } = booted.app;
      await host.modify(host.getFileByPath(path)!, text);
      await metadataCache.whenResolved();
    };

    it('a note with agent_overrides no-access for the key: the scores of a vault without it', async () => {
      const secret = `---\nagent_overrides:\n  Test client: no-access\n---\n${HIDDEN_BODY}`;
      expect(await firstSearches({ ...BASE, 'Notes/Secret.md': secret }, undefined)).toEqual(without);
    });

    it('a key with roots and a note outside them: the scores of the roots without it', async () => {
      const inRoots = await searchAll(BASE, ['Baking']);
      expect(await firstSearches({ ...BASE, 'Notes/Secret.md': HIDDEN_BODY }, ['Baking'])).toEqual(inRoots);
    });

    it('a note made private, or made readable, between the build and the first search', async () => {
      const seen = await searchAll({ ...BASE, 'Notes/Secret.md': HIDDEN_BODY });
      const hidden = `---\naccess: private\n---\n${HIDDEN_BODY}`;
      const visible = { ...BASE, 'Notes/Secret.md': HIDDEN_BODY };
      expect(await firstSearches(visible, undefined, rewrite('Notes/Secret.md', hidden))).toEqual(without);
      expect(await firstSearches({ ...BASE, 'Notes/Secret.md': hidden }, undefined, rewrite('Notes/Secret.md', HIDDEN_BODY))).toEqual(seen);
    });

    it('a key first searched during the build: after it, its view is derived too, with the same scores', async () => {
      // Enough notes that the build is still running when the first search comes.
      const filler = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`Filler/n${i}.md`, `filler ${i}\n`]));
      const secret = `---\nagent_overrides:\n  Test client: no-access\n---\n${HIDDEN_BODY}`;
      let incomplete = false;
      const during = async (url: string, token: string): Promise<void> => {
        const early = await connectClient(url, token);
        const page = await early.callTool({ name: 'search', arguments: { query: 'sourdough', mode: 'lexical' } });
        incomplete = (page.structuredContent as { index?: { complete: boolean } }).index?.complete === false;
        await early.close();
      };
      const withFiller = await searchAll({ ...BASE, ...filler });
      expect(await firstSearches({ ...BASE, ...filler, 'Notes/Secret.md': secret }, undefined, undefined, during)).toEqual(withFiller);
      expect(incomplete).toBe(true);
    });
  });
});
