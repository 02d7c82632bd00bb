import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import VaultMcpPlugin from '../../../src/main';
import { noteUri } from '../../../src/server/content/note-resources';
import { simulateExternalSettingsChange } from '../../host/index';
import type { BootedPlugin } from '../../harness/boot-plugin';
import {
  bootTwoKeys,
  eventually,
  modernListener,
  openSession,
  recordHeard,
  ROOTED_TOKEN,
  settle,
  SKILL,
  type Heard,
  type TwoKeyVault,
} from '../../harness/env/notification-env';
import { call, callError } from '../../harness/edits/write-helpers';

/** Frontmatter that hides a note from the key labelled `Renamed` only. */
const BARS_RENAMED = 'agent_overrides:\n  Renamed: no-access\n';

/** The vault before each test. */
const FILES: Record<string, string> = {
  'Ideas.md': '# Ideas\n',
  'Secret.md': '---\naccess: private\n---\n# Secret\n',
  'Guarded.md': `---\n${BARS_RENAMED}---\n# Guarded\n`,
  '_private/Quarantined.md': '# Quarantined\n',
  'Projects/Plan.md': '# Plan\n',
  'Skills/good/SKILL.md': SKILL('Good'),
  'Skills/guarded/SKILL.md': SKILL('Guarded', BARS_RENAMED),
  'Skills/secret/SKILL.md': SKILL('Secret', 'access: private\n'),
  'Skills/secret/run.py': 'print("hidden skill")\n',
  'Skills/secret/notes.md': '# Notes beside a private SKILL.md\n',
};

/**
 * docs/security.md, docs/resources-and-prompts.md: a key hears of a note's change, rename or
 * deletion only if it could read the note, in both protocol eras, and a change of what a key may
 * see (its label, which agent_overrides name; its roots; the client's MCP roots) re-judges its
 * subscriptions and its prompts at once. Over HTTP with the SDK clients. Before: a 2026-07-28
 * listener of a private note's URI heard its deletion; a label change or narrowed roots left
 * subscriptions judged by the old access (a note hidden from the key sent an update on its next
 * edit) and sent no prompts/list_changed; a non-Markdown file added to a skill's folder changed
 * prompts/get's list of files and notified nobody.
 */
describe('notifications of hidden notes, and re-judging when what a key sees changes', () => {
  let env: TwoKeyVault;
  let booted: BootedPlugin<VaultMcpPlugin>;
  const clients: Array<{ close(): Promise<void> }> = [];

  const file = (path: string) => booted.app.vault.getFileByPath(path)!;

  /** A session of `token`, initialized (a round trip), subscribed to `paths`. */
  async function session(token: string, paths: string[] = []): Promise<Heard & { client: Client }> {
    const heard = await openSession(booted.url, token, paths);
    clients.push(heard.client);
    return heard;
  }

  /** A 2026-07-28 client of `token` listening for prompt changes and to the URIs of `paths`. */
  async function listener(token: string, paths: string[]): Promise<Heard> {
    const { client, heard } = await modernListener(booted.url, token, 'hidden-v2', paths.map(noteUri));
    clients.push(client);
    return heard;
  }

  /**
   * After what a session sees narrowed to Projects (its key's roots, or its client's MCP roots), with
   * Ideas.md subscribed: one prompts/list_changed and no prompt left; Ideas.md's leaving told once,
   * as a deletion would be; nothing of its later edit or deletion.
   */
  async function expectIdeasLeftOnce(heard: Heard, client: Client): Promise<void> {
    await eventually(() => heard.prompts === 1);
    expect((await client.listPrompts()).prompts).toEqual([]);
    await settle();
    const told = [...heard.updates];
    expect(told).toEqual([noteUri('Ideas.md')]);
    await booted.app.vault.append(file('Ideas.md'), '\nOutside the roots now.\n');
    await booted.app.vault.delete(file('Ideas.md'));
    await settle();
    expect(heard.updates).toEqual(told);
  }

  /** The run's key relabelled as a data.json synced from another device would (Obsidian calls onExternalSettingsChange). */
  async function relabel(label: string): Promise<void> {
    // The port as bound (the seeded 0 would move the server, closing every session).
    booted.plugin.settings.server.port = booted.port;
    const synced = JSON.parse(JSON.stringify(booted.plugin.settings));
    synced.keys[0].label = label;
    await booted.plugin.saveData(synced);
    await simulateExternalSettingsChange(booted.plugin);
    expect(booted.plugin.keyRing.list()[0]!.label).toBe(label);
  }

  beforeEach(async () => {
    env = await bootTwoKeys(FILES, 'vault-mcp-hidden-notes-');
    booted = env.booted;
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    await env.done();
  });

  test('a 2026-07-28 listener hears no deletion of a note its key could not read: private, quarantined, outside its roots', async () => {
    const full = await listener(booted.token, ['Secret.md', '_private/Quarantined.md', 'Ideas.md']);
    const rooted = await listener(ROOTED_TOKEN, ['Ideas.md', 'Secret.md']);
    await booted.app.vault.delete(file('Secret.md'));
    await booted.app.vault.delete(file('_private/Quarantined.md'));
    await booted.app.vault.delete(file('Ideas.md'));
    await eventually(() => full.updates.length > 0);
    await settle();
    expect({ full: full.updates, rooted: rooted.updates }).toEqual({ full: [noteUri('Ideas.md')], rooted: [] });
  });

  test('a 2026-07-28 listener of a note that turns private hears that once, then nothing of its rename or deletion', async () => {
    const rooted = await listener(ROOTED_TOKEN, ['Projects/Plan.md', 'Projects/Moved.md']);
    await booted.app.vault.modify(file('Projects/Plan.md'), '---\naccess: private\n---\n# Plan\n');
    await eventually(() => rooted.updates.length > 0);
    await settle();
    const told = [...rooted.updates];
    await booted.app.vault.append(file('Projects/Plan.md'), '\nHidden.\n');
    await booted.app.fileManager.renameFile(file('Projects/Plan.md'), 'Projects/Moved.md');
    await booted.app.vault.delete(file('Projects/Moved.md'));
    await settle();
    expect(rooted.updates).toEqual(told);
    expect(told).toEqual([noteUri('Projects/Plan.md')]);
  });

  test('2025-11-25 subscriptions: a hidden note renamed onto another subscribed path, then deleted, sends nothing (old and new path)', async () => {
    const full = await session(booted.token, ['Ideas.md', 'Projects/Plan.md']);
    await booted.app.vault.modify(file('Ideas.md'), '---\naccess: private\n---\n# Ideas\n');
    await booted.app.vault.delete(file('Projects/Plan.md'));
    await eventually(() => full.updates.length === 2);
    await booted.app.fileManager.renameFile(file('Ideas.md'), 'Projects/Plan.md');
    await booted.app.vault.append(file('Projects/Plan.md'), '\nHidden.\n');
    await booted.app.vault.delete(file('Projects/Plan.md'));
    await settle();
    expect(full.updates.sort()).toEqual([noteUri('Ideas.md'), noteUri('Projects/Plan.md')].sort());
  });

  test("a key's label changed (agent_overrides name it) re-judges its subscriptions and prompts in both eras", async () => {
    const full = await session(booted.token, ['Guarded.md', 'Ideas.md']);
    const modern = await listener(booted.token, ['Guarded.md']);
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['good', 'guarded']);
    await relabel('Renamed');
    await eventually(() => full.prompts === 1 && modern.prompts === 1);
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['good']);
    await eventually(() => full.updates.length > 0 && modern.updates.length > 0);
    await settle();
    const told = { session: [...full.updates], modern: [...modern.updates] };
    // Leaving the key's view is told once, as a deletion would be.
    expect(told).toEqual({ session: [noteUri('Guarded.md')], modern: [noteUri('Guarded.md')] });
    await booted.app.vault.append(file('Guarded.md'), '\nNot for Renamed.\n');
    await booted.app.fileManager.renameFile(file('Guarded.md'), 'Guarded moved.md');
    await booted.app.vault.delete(file('Guarded moved.md'));
    await settle();
    expect({ session: full.updates, modern: modern.updates }).toEqual(told);
    // The other subscription still hears its note.
    await booted.app.vault.append(file('Ideas.md'), '\nMore.\n');
    await eventually(() => full.updates.includes(noteUri('Ideas.md')));
  });

  test('a no-access agent_overrides removed from a subscribed note is told once in both eras, not once per event of that edit', async () => {
    const full = await session(booted.token, ['Guarded.md']);
    const modern = await listener(booted.token, ['Guarded.md']);
    await relabel('Renamed');
    await eventually(() => full.updates.length === 1 && modern.updates.length === 1);
    await settle();
    await booted.app.vault.modify(file('Guarded.md'), '# Guarded\n');
    await eventually(() => full.updates.length > 1 && modern.updates.length > 1);
    await settle();
    expect({ session: full.updates, modern: modern.updates }).toEqual({
      session: [noteUri('Guarded.md'), noteUri('Guarded.md')],
      modern: [noteUri('Guarded.md'), noteUri('Guarded.md')],
    });
    // Its next edit is told again.
    await booted.app.vault.append(file('Guarded.md'), '\nMore.\n');
    await eventually(() => full.updates.length === 3 && modern.updates.length === 3);
  });

  test("a key's roots narrowed in the settings re-judge its subscriptions and prompts", async () => {
    const full = await session(booted.token, ['Ideas.md']);
    await booted.plugin.keyRing.setRoots(booted.key.id, ['Projects']);
    await expectIdeasLeftOnce(full, full.client);
  });

  test("the client's MCP roots narrowed (roots/list_changed) re-judge the session's subscriptions and prompts", async () => {
    let roots = [{ uri: pathToFileURL(env.dir).href }];
    const client = new Client({ name: 'roots-client', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    clients.push(client);
    const heard = recordHeard(client);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['good', 'guarded']);
    await client.subscribeResource({ uri: noteUri('Ideas.md') });
    roots = [{ uri: pathToFileURL(nodePath.join(env.dir, 'Projects')).href }];
    await client.sendRootsListChanged();
    await expectIdeasLeftOnce(heard, client);
  });

  // Session 43's newcomer: resources/subscribe of vault-mcp://note/IDEAS.md was accepted, but its updates came as vault-mcp://note/Ideas.md.
  test('a note URI spelled otherwise (case, a raw space) hears its updates under that spelling, in both eras', async () => {
    await booted.app.vault.create('My plan.md', '# Plan\n');
    const spelled = ['vault-mcp://note/IDEAS.md', 'vault-mcp://note/My plan.md'];
    const old = await session(booted.token);
    for (const uri of spelled) await old.client.subscribeResource({ uri });
    await old.client.subscribeResource({ uri: noteUri('Ideas.md') });
    const { client, heard: modern } = await modernListener(booted.url, booted.token, 'spelled-v2', spelled);
    clients.push(client);
    await booted.app.vault.append(file('Ideas.md'), '\nMore.\n');
    await booted.app.vault.append(file('My plan.md'), '\nMore.\n');
    await eventually(() => old.updates.length === 3 && modern.updates.length === 2);
    await settle();
    expect([...old.updates].sort()).toEqual([...spelled, noteUri('Ideas.md')].sort());
    expect([...modern.updates].sort()).toEqual([...spelled].sort());
    // Unsubscribing the spelling stops its updates; the note's own URI, still subscribed, goes on.
    await old.client.unsubscribeResource({ uri: spelled[0] });
    old.updates.length = 0;
    await booted.app.vault.append(file('Ideas.md'), '\nAgain.\n');
    await eventually(() => old.updates.length === 1);
    await settle();
    expect(old.updates).toEqual([noteUri('Ideas.md')]);
  });

  test("a revoked key's 2026-07-28 listen stream is closed: it hears no tool, prompt or note change after the revoke", async () => {
    const client = new ModernClient({ name: 'revoked-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new ModernTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${ROOTED_TOKEN}` } } }),
    );
    clients.push(client);
    const heard: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
    client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
    await client.listTools();
    await client.listen({ toolsListChanged: true, resourceSubscriptions: [noteUri('Projects/Plan.md')] });
    await booted.app.vault.append(file('Projects/Plan.md'), '\nBefore the revoke.\n');
    await eventually(() => heard.length === 1);
    await booted.plugin.keyRing.revoke('rooted');
    await booted.plugin.server.closeSessionsOfRevokedKeys();
    await booted.plugin.server.notifyToolListChanged();
    await booted.app.vault.append(file('Projects/Plan.md'), '\nAfter the revoke.\n');
    await settle();
    expect(heard).toEqual([noteUri('Projects/Plan.md')]);
  });

  test("a non-Markdown file added, renamed or removed in a skill's folder notifies the keys that see that skill", async () => {
    const full = await session(booted.token);
    const rooted = await session(ROOTED_TOKEN);
    const modern = await listener(booted.token, []);
    await booted.app.vault.create('Skills/good/tool.py', 'print("tool")\n');
    await eventually(() => full.prompts === 1 && modern.prompts === 1);
    const got = await full.client.getPrompt({ name: 'good' });
    expect(got.messages[0].content).toMatchObject({ text: expect.stringContaining('Skills/good/tool.py') });
    await booted.app.vault.rename(file('Skills/good/tool.py'), 'Skills/good/tool2.py');
    await eventually(() => full.prompts === 2 && modern.prompts === 2);
    await booted.app.vault.delete(file('Skills/good/tool2.py'));
    await eventually(() => full.prompts === 3 && modern.prompts === 3);
    // A private skill's folder: what its key sees is unchanged, so nothing is sent.
    await booted.app.vault.create('Skills/secret/more.py', 'print("hidden")\n');
    await booted.app.vault.delete(file('Skills/secret/run.py'));
    await settle();
    expect({ full: full.prompts, modern: modern.prompts, rooted: rooted.prompts }).toEqual({ full: 3, modern: 3, rooted: 0 });
  });

  test("a private SKILL.md's folder: no route serves it as a skill; each other file follows its own rules", async () => {
    const { client } = await session(booted.token);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['good', 'guarded']);
    await expect(client.getPrompt({ name: 'secret' })).rejects.toMatchObject({ code: -32602 });
    expect(await callError(client, 'skill_read', { id: 'secret' })).toMatch(/^No skill 'secret'/);
    expect(((await call(client, 'skills_list')).skills as Array<{ id: string }>).map((s) => s.id)).toEqual(['good', 'guarded']);
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'secret' }, argument: { name: 'note', value: 'Skills/' } });
    expect(completion.completion.values).toEqual([]);
    // Files that are no notes are served by no route at all.
    await expect(client.readResource({ uri: noteUri('Skills/secret/run.py') })).rejects.toMatchObject({ code: -32602 });
    expect(await callError(client, 'read_note', { path: 'Skills/secret/run.py' })).toMatch(/is not a Markdown note/);
    // A note beside the private SKILL.md is a note like any other: readable by its own rules.
    expect((await call(client, 'read_note', { path: 'Skills/secret/notes.md' })).body).toContain('Notes beside a private SKILL.md');
  });
});
