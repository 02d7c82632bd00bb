import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import VaultMcpPlugin from '../../../src/main';
import { NOTE_URI_TEMPLATE, RESOURCE_PAGE_SIZE, noteUri } from '../../../src/server/content/note-resources';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

type Json = Record<string, any>;

/** Notes written into the demo vault copy before the plugin starts. */
const EXTRA_FILES: Record<string, string> = {
  'Projects/Alpha/AGENT.md': '# Alpha rules\n\nAlpha notes are in English.\n',
  'Areas/AGENTS.md': '---\naccess: private\n---\n# Hidden rules\n',
  'Journal/AGENTS.md': `# Journal rules\n\n${'x'.repeat(9000)}\n`,
  'Skills/summarize/SKILL.md':
    '---\nname: Summarize\ndescription: Summarize a note in three bullet points.\n---\n# Summarize\n\nRead the note, then write three bullets.\n',
  'Skills/summarize/template.md': '- one\n- two\n- three\n',
  'Skills/broken/SKILL.md': '---\nname: [unclosed\ndescription: broken\n---\nBody\n',
  'Skills/nodesc/SKILL.md': '---\nname: No description\n---\nBody\n',
  'Skills/plain/SKILL.md': 'No frontmatter at all.\n',
  'Skills/secret/SKILL.md': '---\nname: Secret\ndescription: Hidden.\naccess: private\n---\nBody\n',
};

/** Calls a tool and returns its structured result; fails the test on isError. */
async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Json;
}

/** The JSON-RPC error a request is answered with. */
async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

/** Resolves when `predicate` holds, polling every 20 ms for up to 5 s. */
async function eventually(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(predicate()).toBe(true);
}

describe('agent context over MCP: AGENTS.md, skills, prompts, resources, completion', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let cleanup: () => Promise<void>;
  const setRoots = (roots: string[]): void => {
    booted.plugin.settings.keys[0].roots = roots;
  };

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanup = copy.cleanup;
    const bulk = Object.fromEntries(
      Array.from({ length: RESOURCE_PAGE_SIZE + 10 }, (_, i) => [`Bulk/n${String(i).padStart(3, '0')}.md`, `Note ${i}\n`]),
    );
    for (const [path, text] of Object.entries({ ...EXTRA_FILES, ...bulk })) {
      await fsp.mkdir(nodePath.dirname(nodePath.join(copy.dir, path)), { recursive: true });
      await fsp.writeFile(nodePath.join(copy.dir, path), text);
    }
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, label: 'Claude Code' });
    client = await connectClient(booted.url, booted.token);
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await cleanup?.();
  });
  afterEach(() => setRoots([]));

  it('declares resources (subscribe), prompts (listChanged) and completions', () => {
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  describe('AGENTS.md governance', () => {
    it('the nearest AGENTS.md or AGENT.md wins, walking up to the vault root', async () => {
      expect((await call(client, 'read_note', { path: 'Projects/Alpha/Budget' })).agent_md).toEqual({
        path: 'Projects/Alpha/AGENT.md',
        content: expect.stringContaining('Alpha rules'),
      });
      expect((await call(client, 'read_note', { path: 'Projects/Beta/Beta overview' })).agent_md.path).toBe('Projects/AGENTS.md');
      const many = await call(client, 'read_notes', { paths: ['Projects/Alpha/Budget', 'Projects/Beta/Beta overview', 'Home'] });
      expect(many.notes.map((n: Json) => n.agent_md_path ?? null)).toEqual(['Projects/Alpha/AGENT.md', 'Projects/AGENTS.md', null]);
      expect(many.agent_md.map((a: Json) => a.path)).toEqual(['Projects/Alpha/AGENT.md', 'Projects/AGENTS.md']);
    });

    it('a private AGENTS.md is never shown; a long one is capped like a body', async () => {
      const areas = await call(client, 'read_note', { path: 'Areas/Übersicht' });
      expect(areas.agent_md).toBeUndefined();
      const journal = await call(client, 'list_notes', { folder: 'Journal/2026', limit: 1 });
      const note = await call(client, 'read_note', { path: journal.notes[0].path });
      expect(note.agent_md).toMatchObject({
        path: 'Journal/AGENTS.md',
        has_more: true,
        content_length: EXTRA_FILES['Journal/AGENTS.md'].length,
      });
      expect(note.agent_md.content).toHaveLength(8000);
    });

    it("an AGENTS.md above the key's roots still governs the notes inside them", async () => {
      setRoots(['Projects/Beta']);
      const beta = await call(client, 'read_note', { path: 'Projects/Beta/Beta overview' });
      expect(beta.agent_md).toMatchObject({ path: 'Projects/AGENTS.md', content: expect.stringContaining('append-only') });
      const outside = await client.callTool({ name: 'read_note', arguments: { path: 'Projects/AGENTS.md' } });
      expect(outside.isError).toBe(true);
    });
  });

  describe('skills', () => {
    it('skills_list shows good skills and broken ones with their error; private ones are hidden', async () => {
      const { folder, skills } = await call(client, 'skills_list');
      expect(folder).toBe('Skills');
      expect(skills.map((s: Json) => s.id)).toEqual(['broken', 'nodesc', 'plain', 'summarize']);
      const byId = Object.fromEntries(skills.map((s: Json) => [s.id, s]));
      expect(byId.summarize).toEqual({
        id: 'summarize',
        name: 'Summarize',
        description: 'Summarize a note in three bullet points.',
        path: 'Skills/summarize/SKILL.md',
        error: null,
      });
      expect(byId.broken.error).toMatch(/does not parse/);
      expect(byId.nodesc).toMatchObject({ name: 'No description', description: null, error: expect.stringMatching(/description/) });
      expect(byId.plain.error).toMatch(/no frontmatter/);
    });

    it('skill_read returns the whole skill and its files; an unknown id is a tool error', async () => {
      const skill = await call(client, 'skill_read', { id: 'summarize' });
      expect(skill).toMatchObject({ id: 'summarize', name: 'Summarize', files: ['Skills/summarize/template.md'] });
      expect(skill.body).toContain('write three bullets');
      const missing = await client.callTool({ name: 'skill_read', arguments: { id: 'secret' } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toMatch(/skills_list/);
      const huge = await client.callTool({ name: 'skill_read', arguments: { id: 'x'.repeat(100_000) } });
      expect(huge.isError).toBe(true);
      expect(JSON.stringify(huge.content).length).toBeLessThan(400);
    });

    it('prompts mirror the well-formed skills; prompts/get attaches a note; bad names and arguments are -32602', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        expect.objectContaining({
          name: 'summarize',
          title: 'Summarize',
          description: 'Summarize a note in three bullet points.',
          arguments: [expect.objectContaining({ name: 'note', required: false })],
        }),
      ]);
      const got = await client.getPrompt({ name: 'summarize', arguments: { note: 'Projects/Alpha/Budget' } });
      expect(got.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('write three bullets') });
      expect(got.messages[1].content).toMatchObject({
        type: 'resource',
        resource: { uri: noteUri('Projects/Alpha/Budget.md'), mimeType: 'text/markdown' },
      });
      expect((await rpcError(client.getPrompt({ name: 'nope' }))).code).toBe(-32602);
      expect((await rpcError(client.getPrompt({ name: 'nope' }))).message).toMatch(/Unknown prompt "nope".*prompts\/list/);
      expect((await rpcError(client.getPrompt({ name: 'broken' }))).message).toMatch(/unusable/);
      expect((await rpcError(client.getPrompt({ name: 'summarize', arguments: { other: 'x' } }))).message).toMatch(
        /only the optional argument "note"/,
      );
      expect((await rpcError(client.getPrompt({ name: 'summarize', arguments: { note: 'Personal/Therapy notes' } }))).code).toBe(-32602);
    });

    it('notifications/prompts/list_changed fires when a skill is added, and prompts/list shows it', async () => {
      let changes = 0;
      client.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
        changes++;
      });
      await booted.app.vault.createFolder('Skills/outline');
      await booted.app.vault.create(
        'Skills/outline/SKILL.md',
        '---\nname: Outline\ndescription: Outline a note.\n---\nList the headings.\n',
      );
      await eventually(() => changes > 0);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['outline', 'summarize']);
    });

    it('a key confined to other roots is told the skills folder is closed to it (no invitation to create skills) and sees no prompts', async () => {
      setRoots(['Projects']);
      const closed =
        "The skills folder 'Skills' is outside the folders this key may use (Projects); skills need a key whose roots include it.";
      for (const [name, args] of [
        ['skills_list', {}],
        ['skill_read', { id: 'summarize' }],
        ['skill_read', { id: 'no-such-skill' }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError, content: result.content }).toEqual({
          name,
          isError: true,
          content: [{ type: 'text', text: closed }],
        });
      }
      expect((await client.listPrompts()).prompts).toEqual([]);
      // A root inside the skills folder opens the skills below it.
      setRoots(['Skills/summarize']);
      expect((await call(client, 'skills_list')).skills.map((s: Json) => s.id)).toEqual(['summarize']);
      setRoots([]);
    });

    it('a quarantined skills folder is closed with one sentence, whatever is inside', async () => {
      const before = booted.plugin.settings.skills.folder;
      booted.plugin.settings.skills.folder = '_private/Skills';
      try {
        const result = await client.callTool({ name: 'skills_list', arguments: {} });
        expect(result).toMatchObject({
          isError: true,
          content: [
            {
              type: 'text',
              text: "The skills folder '_private/Skills' is in a folder agents may not access; the user can choose another skills folder in the settings.",
            },
          ],
        });
      } finally {
        booted.plugin.settings.skills.folder = before;
      }
    });
  });

  describe('resources', () => {
    it('resources/list pages through every readable note, in path order, with no private or quarantined one', async () => {
      const uris: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        uris.push(...page.resources.map((r) => r.uri));
        for (const r of page.resources) expect(r).toMatchObject({ name: expect.any(String), mimeType: 'text/markdown' });
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(new Set(uris).size).toBe(uris.length);
      expect(uris).toContain(noteUri('Areas/Übersicht.md'));
      expect(uris).toContain(noteUri('Bulk/n209.md'));
      expect(uris.some((u) => /Therapy|_private|Secret|Hidden/.test(decodeURIComponent(u)))).toBe(false);
      expect(uris.filter((u) => u.includes('/Skills/secret'))).toEqual([]);
    });

    it('templates/list gives the note template; resources/read returns the Markdown', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: NOTE_URI_TEMPLATE, mimeType: 'text/markdown' })]);
      const uri = noteUri('Areas/Übersicht.md');
      const read = await client.readResource({ uri });
      const spelledOtherwise = await client.readResource({ uri: 'vault-mcp://note/areas/./%C3%9Cbersicht.md' });
      expect(spelledOtherwise.contents[0].uri).toBe(uri);
      const onDisk = await booted.app.vault.read(booted.app.vault.getFileByPath('Areas/Übersicht.md')!);
      expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: onDisk }]);
    });

    it('unreadable notes are not found (-32602 "Resource not found", as the SDK v2 answers on every revision); bad URIs and cursors are -32602 with a clear message', async () => {
      for (const uri of [
        noteUri('Personal/Therapy notes.md'),
        noteUri('_private/Passwords hint.md'),
        noteUri('Nope.md'),
        noteUri('../outside.md'),
        'vault-mcp://note/Projects/..%2F..%2Fetc%2Fpasswd',
        'vault-mcp://note/Personal%5CTherapy%20notes.md',
      ]) {
        expect(await rpcError(client.readResource({ uri }))).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/Resource not found: no note/),
        });
      }
      const otherScheme = await rpcError(client.readResource({ uri: 'file:///etc/passwd' }));
      expect(otherScheme.code).toBe(-32602);
      expect(otherScheme.message).toMatch(/vault-mcp:\/\/note\//);
      expect((await rpcError(client.readResource({ uri: 'vault-mcp://note/%E0%A4%A' }))).message).toMatch(/percent-escape/);
      const badCursor = await rpcError(client.listResources({ cursor: 'not-a-cursor' }));
      expect(badCursor.code).toBe(-32602);
      expect(badCursor.message).toMatch(/nextCursor/);
      expect((await rpcError(client.listPrompts({ cursor: 'bogus' }))).message).toMatch(/single page/);
      const long = await rpcError(client.readResource({ uri: `vault-mcp://note/${'a/'.repeat(3000)}x.md%` }));
      expect(long.message.length).toBeLessThan(400);
    });

    it("a key's roots narrow list and read", async () => {
      setRoots(['Projects/Alpha']);
      const { resources, nextCursor } = await client.listResources();
      expect(nextCursor).toBeUndefined();
      expect(resources.map((r) => r.name).sort()).toEqual([
        'Projects/Alpha/AGENT.md',
        'Projects/Alpha/Alpha overview.md',
        'Projects/Alpha/Budget.md',
        'Projects/Alpha/Design decisions.md',
        'Projects/Alpha/Meeting notes.md',
        'Projects/Alpha/Risks.md',
      ]);
      expect(await rpcError(client.readResource({ uri: noteUri('Home.md') }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Resource not found: no note/),
      });
    });

    it('resources/subscribe sends updates for a changed note until unsubscribe', async () => {
      const uri = noteUri('Ideas.md');
      const updates: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
        updates.push(n.params.uri);
      });
      await client.subscribeResource({ uri });
      const file = booted.app.vault.getFileByPath('Ideas.md')!;
      await booted.app.vault.append(file, '\nOne more idea.\n');
      await eventually(() => updates.includes(uri));
      expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: expect.stringContaining('One more idea.') });
      await client.unsubscribeResource({ uri });
      const before = updates.length;
      await booted.app.vault.append(file, '\nAnd another.\n');
      await booted.app.vault.append(booted.app.vault.getFileByPath('Home.md')!, '\nUnwatched.\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(updates.length).toBe(before);
      expect(await rpcError(client.subscribeResource({ uri: noteUri('Personal/Therapy notes.md') }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Resource not found: no note/),
      });
      expect((await rpcError(client.subscribeResource({ uri: 'https://example.com/x' }))).code).toBe(-32602);
    });
    it('a subscribed note that is renamed away or deleted sends an update for its old URI', async () => {
      const updates: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
        updates.push(n.params.uri);
      });
      const moved = noteUri('Reading list.md');
      const gone = noteUri('Inbox.md');
      await client.subscribeResource({ uri: moved });
      await client.subscribeResource({ uri: gone });
      await booted.app.fileManager.renameFile(booted.app.vault.getFileByPath('Reading list.md')!, 'Archive/Reading list.md');
      await eventually(() => updates.includes(moved));
      await booted.app.vault.delete(booted.app.vault.getFileByPath('Inbox.md')!);
      await eventually(() => updates.includes(gone));
      expect(await rpcError(client.readResource({ uri: gone }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Resource not found: no note/),
      });
    });
  });

  describe('completion/complete', () => {
    it('completes note paths for the template and the prompt argument, honouring access', async () => {
      const byTemplate = await client.complete({
        ref: { type: 'ref/resource', uri: NOTE_URI_TEMPLATE },
        argument: { name: 'path', value: 'projects/al' },
      });
      expect(byTemplate.completion.values.length).toBeGreaterThan(3);
      for (const value of byTemplate.completion.values) expect(value.startsWith('Projects/Alpha/')).toBe(true);
      const bulk = await client.complete({
        ref: { type: 'ref/resource', uri: NOTE_URI_TEMPLATE },
        argument: { name: 'path', value: 'Bulk/' },
      });
      expect(bulk.completion).toMatchObject({ total: RESOURCE_PAGE_SIZE + 10, hasMore: true });
      expect(bulk.completion.values).toHaveLength(100);
      const privateOnes = await client.complete({
        ref: { type: 'ref/resource', uri: NOTE_URI_TEMPLATE },
        argument: { name: 'path', value: 'Personal/' },
      });
      expect(privateOnes.completion.values).toEqual([]);
      const byPrompt = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'note', value: 'Ho' } });
      expect(byPrompt.completion.values).toEqual(['Home.md']);
    });

    it('an unknown prompt completes to nothing; an unknown template or argument is -32602', async () => {
      expect(
        (await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'x' } }))
          .completion.values,
      ).toEqual([]);
      expect(
        (await rpcError(client.complete({ ref: { type: 'ref/resource', uri: 'file:///{x}' }, argument: { name: 'x', value: '' } })))
          .message,
      ).toMatch(/resources\/templates\/list/);
      expect(
        (await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'topic', value: '' } })))
          .message,
      ).toMatch(/only argument is "note"/);
    });
  });
});
