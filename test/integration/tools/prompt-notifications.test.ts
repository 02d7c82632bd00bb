import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { noteUri } from '../../../src/server/content/note-resources';
import type { BootedPlugin } from '../../harness/boot-plugin';
import { simulateExternalSettingsChange } from '../../host/index';
import {
  bootTwoKeys,
  eventually,
  modernListener,
  openSession,
  ROOTED_TOKEN,
  settle,
  SKILL,
  type Heard,
  type TwoKeyVault,
} from '../../harness/env/notification-env';

/** The vault before each test. */
const FILES: Record<string, string> = {
  'Skills/good/SKILL.md': SKILL('Good'),
  'Skills/secret/SKILL.md': SKILL('Secret', 'access: private\n'),
  'Projects/Plan.md': '# Plan\n',
  'Ideas.md': '# Ideas\n',
  'Secret.md': '---\naccess: private\n---\n# Secret\n',
  'Other/tools/SKILL.md': SKILL('Tools'),
};

/**
 * docs/resources-and-prompts.md, docs/security.md ("hidden notes behave as missing everywhere"):
 * over HTTP with the SDK client, two keys, each session hears `notifications/prompts/list_changed`
 * and `notifications/resources/updated` only when what its own key sees changed. Before, any
 * change in the skills folder (a private skill's edit included) notified every session, the key
 * whose roots leave the skills folder out too, and a subscribed note deleted after it became
 * private still sent an update.
 */
describe('prompt and resource notifications follow what each key sees', () => {
  let env: TwoKeyVault;
  let booted: BootedPlugin<VaultMcpPlugin>;
  const clients: Client[] = [];
  const modernClients: Array<{ close(): Promise<void> }> = [];
  let full: Heard & { client: Client };
  let rooted: Heard & { client: Client };

  /** A session of `token`, initialized (a request round trip): it follows the vault from here on. */
  async function connect(token: string): Promise<Heard & { client: Client }> {
    const session = await openSession(booted.url, token);
    clients.push(session.client);
    return session;
  }
  /** A 2026-07-28 client of `token` listening (`subscriptions/listen`) for prompt changes and to `uris`; records what it hears. */
  async function listener(token: string, uris: string[] = []): Promise<Heard> {
    const { client, heard } = await modernListener(booted.url, token, 'prompts-v2', uris.length ? uris : undefined);
    modernClients.push(client);
    return heard;
  }
  const file = (path: string) => booted.app.vault.getFileByPath(path)!;

  beforeEach(async () => {
    env = await bootTwoKeys(FILES, 'vault-mcp-prompt-notes-');
    booted = env.booted;
    full = await connect(booted.token);
    rooted = await connect(ROOTED_TOKEN);
  });

  afterEach(async () => {
    for (const client of modernClients.splice(0)) await client.close();
    for (const client of clients.splice(0)) await client.close();
    await env.done();
  });

  test('a private skill edited, or a private file created in a skill folder, notifies no session', async () => {
    await booted.app.vault.append(file('Skills/secret/SKILL.md'), '\nA hidden step.\n');
    await booted.app.vault.create('Skills/secret/notes.md', 'Hidden notes.\n');
    await booted.app.vault.create('Skills/good/private-ref.md', '---\naccess: private\n---\nHidden reference.\n');
    await settle();
    expect({ full: full.prompts, rooted: rooted.prompts }).toEqual({ full: 0, rooted: 0 });
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['good']);
  });

  test('a visible skill edited notifies the key that sees it, once per burst, and not the key rooted elsewhere', async () => {
    for (let i = 0; i < 5; i++) await booted.app.vault.append(file('Skills/good/SKILL.md'), `\nStep ${i}.\n`);
    await eventually(() => full.prompts > 0);
    await settle();
    expect({ full: full.prompts, rooted: rooted.prompts }).toEqual({ full: 1, rooted: 0 });
    const got = await full.client.getPrompt({ name: 'good' });
    expect(got.messages[0].content).toMatchObject({ text: expect.stringContaining('Step 4.') });
    // A visible file added beside SKILL.md changes what prompts/get lists: that is a change too.
    await booted.app.vault.create('Skills/good/reference.md', 'Reference.\n');
    await eventually(() => full.prompts > 1);
    await settle();
    expect(rooted.prompts).toBe(0);
  });

  test('a skill turning private or public notifies when the list changes, and its hidden edits in between do not', async () => {
    const good = file('Skills/good/SKILL.md');
    await booted.app.vault.modify(good, SKILL('Good', 'access: private\n'));
    await eventually(() => full.prompts === 1);
    expect((await full.client.listPrompts()).prompts).toEqual([]);
    await booted.app.vault.append(good, '\nStill hidden.\n');
    await settle();
    expect(full.prompts).toBe(1);
    await booted.app.vault.modify(file('Skills/secret/SKILL.md'), SKILL('Secret'));
    await eventually(() => full.prompts === 2);
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['secret']);
    await settle();
    expect({ full: full.prompts, rooted: rooted.prompts }).toEqual({ full: 2, rooted: 0 });
  });

  test('the skills folder setting changed notifies the keys whose prompts changed, not the key rooted elsewhere', async () => {
    booted.plugin.settings.skills.folder = 'Other';
    await booted.plugin.server.notifyPromptListChanged();
    await eventually(() => full.prompts > 0);
    await settle();
    expect({ full: full.prompts, rooted: rooted.prompts }).toEqual({ full: 1, rooted: 0 });
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['tools']);
    // The old folder is no longer watched as skills: its changes, private or not, notify nobody.
    await booted.app.vault.append(file('Skills/good/SKILL.md'), '\nOld folder.\n');
    await booted.app.vault.append(file('Skills/secret/SKILL.md'), '\nOld folder.\n');
    await settle();
    expect({ full: full.prompts, rooted: rooted.prompts }).toEqual({ full: 1, rooted: 0 });
  });

  test('a skills folder moved by a synced data.json notifies as the setting changed here does', async () => {
    // Another device moved the folder later than this one touched it (ui/settings/external-change.ts).
    // The port as bound, so the sync does not restart the server (which would end the sessions).
    booted.plugin.settings.server.port = booted.port;
    const synced = JSON.parse(JSON.stringify(booted.plugin.settings)) as typeof booted.plugin.settings;
    synced.skills = { folder: 'Other', changed_at: new Date(Date.now() + 1000).toISOString() };
    await booted.plugin.saveData(synced);
    await simulateExternalSettingsChange(booted.plugin);
    await eventually(() => full.prompts > 0);
    await settle();
    expect(booted.plugin.settings.skills.folder).toBe('Other');
    expect({ full: full.prompts, rooted: rooted.prompts }).toEqual({ full: 1, rooted: 0 });
    expect((await full.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['tools']);
  });

  test('a subscribed note that turns private: its hidden edits, rename and deletion send no update', async () => {
    const uri = noteUri('Ideas.md');
    await full.client.subscribeResource({ uri });
    const ideas = file('Ideas.md');
    await booted.app.vault.modify(ideas, '---\naccess: private\n---\n# Ideas\n');
    await eventually(() => full.updates.length > 0);
    await settle();
    // Turning private is the note vanishing from this key's view, as a deletion: one update.
    expect(full.updates).toEqual([uri]);
    const told = full.updates.length;
    await booted.app.vault.append(ideas, '\nHidden idea.\n');
    await booted.app.fileManager.renameFile(ideas, 'Ideas moved.md');
    await booted.app.vault.delete(file('Ideas moved.md'));
    await settle();
    expect(full.updates.length).toBe(told);
    // A note created again at the subscribed path and readable is an update again.
    await booted.app.vault.create('Ideas.md', '# Ideas again\n');
    await eventually(() => full.updates.length === told + 1);
    expect(rooted.updates).toEqual([]);
  });

  test("a subscribed note in the key's roots: moved out and back sends updates; deleted after turning private sends none", async () => {
    const uri = noteUri('Projects/Plan.md');
    await rooted.client.subscribeResource({ uri });
    await expect(rooted.client.subscribeResource({ uri: noteUri('Ideas.md') })).rejects.toMatchObject({ code: -32602 });
    await booted.app.fileManager.renameFile(file('Projects/Plan.md'), 'Plan.md');
    await eventually(() => rooted.updates.length === 1);
    await booted.app.fileManager.renameFile(file('Plan.md'), 'Projects/Plan.md');
    await eventually(() => rooted.updates.length === 2);
    // Hidden by a rule while its path stays inside the roots, then deleted: the deletion is silent.
    await booted.app.vault.modify(file('Projects/Plan.md'), '---\naccess: private\n---\n# Plan\n');
    await settle();
    const told = rooted.updates.length;
    await booted.app.vault.delete(file('Projects/Plan.md'));
    await settle();
    expect(rooted.updates.length).toBe(told);
    expect(rooted.updates).toEqual([uri, uri, uri]);
  });

  test('2026-07-28 listeners hear a prompts change only when their key sees one', async () => {
    const fullListener = await listener(booted.token);
    const rootedListener = await listener(ROOTED_TOKEN);
    await booted.app.vault.append(file('Skills/secret/SKILL.md'), '\nA hidden step.\n');
    await booted.app.vault.create('Skills/secret/notes.md', 'Hidden notes.\n');
    await settle();
    expect({ full: fullListener.prompts, rooted: rootedListener.prompts }).toEqual({ full: 0, rooted: 0 });
    await booted.app.vault.append(file('Skills/good/SKILL.md'), '\nA visible step.\n');
    await eventually(() => fullListener.prompts === 1);
    booted.plugin.settings.skills.folder = 'Other';
    await booted.plugin.server.notifyPromptListChanged();
    await eventually(() => fullListener.prompts === 2);
    await settle();
    expect({ full: fullListener.prompts, rooted: rootedListener.prompts }).toEqual({ full: 2, rooted: 0 });
  });

  test("a 2026-07-28 listener of a private note's URI hears nothing of its edits or rename", async () => {
    const secret = noteUri('Secret.md');
    const heard = await listener(booted.token, [secret, noteUri('Ideas.md')]);
    await booted.app.vault.append(file('Secret.md'), '\nMore.\n');
    await booted.app.fileManager.renameFile(file('Secret.md'), 'Archive/Secret.md');
    await booted.app.fileManager.renameFile(file('Ideas.md'), 'Archive/Ideas.md');
    await eventually(() => heard.updates.length > 0);
    await settle();
    expect(heard.updates).toEqual([noteUri('Ideas.md')]);
  });
});
