import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Notice } from '../../host';
import { AI_API_KEY_SECRET_ID } from '../../../src/ai/secret-id';
import { secretIdForKey } from '../../../src/settings/key-record';
import { MAX_REVOKED_KEYS, NEVER_CHANGED, type VaultMcpSettings } from '../../../src/settings/settings';
import { connectClient } from '../../harness/boot-plugin';
import { freePort, INITIALIZE, raw } from '../../harness/server/raw-http';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { settingRow, settle, typeInto, until } from '../../harness/env/settings-dom-env';
import { after, readNote, syncedSettingsPerTest } from '../../harness/env/settings-sync-env';

/**
 * A stale data.json synced in (Obsidian Sync, iCloud, git: Plugin.onExternalSettingsChange) never
 * undoes a revocation or an access restriction made since (docs/security.md#revoking-a-key,
 * docs/settings.md#synced-settings). This plugin is device A: what device B wrote, or an older
 * copy of A's own file, is put in data.json and announced, as Obsidian does; the user's changes
 * here go through the real settings tab, and what agents get through the real server over HTTP.
 */

const env = syncedSettingsPerTest('vault-mcp-sync-');
const { snapshot, syncIn, savedFile, client, el, toggle, chat } = env;

/** `file` as a version from before revocation lists and block and field stamps wrote it. */
function olderFormat(file: VaultMcpSettings): Record<string, unknown> {
  const { revokedKeys: _revoked, ...rest } = JSON.parse(JSON.stringify(file)) as VaultMcpSettings;
  for (const block of ['server', 'tools', 'skills', 'widgets', 'ai'] as const) delete rest[block].changed_at;
  for (const block of ['server', 'tools', 'skills', 'widgets', 'ai'] as const) delete rest[block].fieldTimes;
  for (const key of rest.keys) {
    delete key.changed_at;
    delete key.fieldTimes;
  }
  return rest;
}

describe('a stale synced data.json never brings a revoked key back', () => {
  it('revoked on device B: the record goes here and the token minted here is blanked; a stale file holding the key revives neither', async () => {
    const { keyRing } = env.booted.plugin;
    await keyRing.mint({ label: 'Backup' });
    // A copy of data.json from before the revocation, still holding the key (a device offline since, a backup).
    const stale = snapshot();
    const session = await client();
    expect((await session.listTools()).tools.length).toBeGreaterThan(0);

    // Device B revoked it: B's data.json lacks the record and lists the revocation.
    const fromB = snapshot();
    fromB.keys = fromB.keys.filter((k) => k.id !== env.booted.key.id);
    fromB.revokedKeys = [{ id: env.booted.key.id, revoked_at: new Date().toISOString() }];
    await syncIn(fromB);
    expect(keyRing.list().map((k) => k.label)).toEqual(['Backup']);
    expect(env.booted.app.secretStorage.getSecret(secretIdForKey(env.booted.key.id))).toBe('');
    expect(keyRing.authenticate(env.booted.token)).toBeNull();
    await expect(session.listTools()).rejects.toThrow();

    // The stale copy synced in later, in this version's format and in an older one's: the key stays gone.
    for (const file of [stale, olderFormat(stale)]) {
      await syncIn(file);
      expect(keyRing.list().map((k) => k.label)).toEqual(['Backup']);
      expect(keyRing.authenticate(env.booted.token)).toBeNull();
      expect(env.booted.app.secretStorage.getSecret(secretIdForKey(env.booted.key.id))).toBe('');
      await expect(connectClient(env.booted.url, env.booted.token)).rejects.toThrow();
      // Written back with the revocation, so the stale copy does not spread without it.
      expect((await savedFile()).revokedKeys.map((r) => r.id)).toEqual([env.booted.key.id]);
    }
  });

  it('a revocation is applied whole: more than the stored bound of revocations, or dated from the future, never spares the key (break-it B1)', async () => {
    const { keyRing } = env.booted.plugin;
    const backup = await keyRing.mint({ label: 'Backup' });
    // B's file revokes Backup among 200 more revocations dated ten years ahead (a clock far ahead, or a crafted file).
    const fromB = snapshot();
    fromB.keys = fromB.keys.filter((k) => k.id !== backup.record.id);
    const ahead = Array.from({ length: MAX_REVOKED_KEYS }, (_, i) => ({
      id: `gone-${i}`,
      revoked_at: new Date(Date.now() + 3650 * 86_400_000 + i).toISOString(),
    }));
    fromB.revokedKeys = [{ id: backup.record.id, revoked_at: new Date().toISOString() }, ...ahead];
    await syncIn(fromB);
    expect(keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
    expect(env.booted.app.secretStorage.getSecret(secretIdForKey(backup.record.id))).toBe('');
    expect(keyRing.authenticate(backup.token)).toBeNull();
    await expect(connectClient(env.booted.url, backup.token)).rejects.toThrow();
    // A key revoked here afterwards is kept in the stored list, not dropped at once by those dated ahead.
    const another = await keyRing.mint({ label: 'Another' });
    await keyRing.revoke(another.record.id);
    expect(env.booted.plugin.settings.revokedKeys.map((r) => r.id)).toContain(another.record.id);
    expect(env.booted.plugin.settings.revokedKeys).toHaveLength(MAX_REVOKED_KEYS);
  });

  it('a revocation made here survives an older data.json synced over this one while Obsidian was closed (break-it B4)', async () => {
    // This device's localStorage and the token outlive a restart, as in Obsidian; data.json is what a sync replaced.
    const local = new Map<string, string>();
    await env.reboot({ label: 'Claude Code', localStorage: local });
    const phone = await env.booted.plugin.keyRing.mint({ label: 'Phone' });
    const older = snapshot();
    await env.booted.plugin.keyRing.revoke(phone.record.id);
    await env.reboot({
      label: 'Claude Code',
      localStorage: local,
      // The token as a device that still held it would (a revocation never reached it there).
      secrets: { [secretIdForKey(phone.record.id)]: phone.token },
      configure: (settings) => Object.assign(settings, JSON.parse(JSON.stringify(older)), { server: { ...settings.server, port: 0 } }),
    });
    expect(env.booted.plugin.keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
    expect(env.booted.plugin.settings.revokedKeys.map((r) => r.id)).toEqual([phone.record.id]);
    expect(env.booted.plugin.keyRing.authenticate(phone.token)).toBeNull();
    await expect(connectClient(env.booted.url, phone.token)).rejects.toThrow();
    // Saved back at load, so the revocation reaches the other devices again.
    expect((await savedFile()).revokedKeys.map((r) => r.id)).toEqual([phone.record.id]);
    expect((await savedFile()).keys.map((k) => k.label)).toEqual(['Claude Code']);
  });

  it('a key revoked here is listed in data.json; the device holding its token blanks it even when the file arrived while Obsidian was closed', async () => {
    const { keyRing } = env.booted.plugin;
    const backup = await keyRing.mint({ label: 'Backup' });
    await keyRing.revoke(backup.record.id);
    const file = await savedFile();
    expect(file.revokedKeys).toEqual([{ id: backup.record.id, revoked_at: expect.any(String) }]);
    // The device that minted it, started on that file (with the record merged back in beside the revocation, as a sync tool might).
    await env.reboot({
      label: 'Claude Code',
      configure: (s) => {
        s.revokedKeys = file.revokedKeys;
        s.keys.push(backup.record);
      },
      secrets: { [secretIdForKey(backup.record.id)]: backup.token },
    });
    expect(env.booted.plugin.keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
    expect(env.booted.app.secretStorage.getSecret(secretIdForKey(backup.record.id))).toBe('');
    expect(env.booted.plugin.keyRing.authenticate(backup.token)).toBeNull();
  });
});

describe('a key minted here after the synced file was written', () => {
  it('survives a sync of a file that lists revocations (saved back); a file of an older version, with no such list, still drops it', async () => {
    const { keyRing } = env.booted.plugin;
    const synced = snapshot();
    const minted = await keyRing.mint({ label: 'New client' });
    await syncIn(synced);
    expect(keyRing.list().map((k) => k.label)).toEqual(['Claude Code', 'New client']);
    expect(keyRing.authenticate(minted.token)?.id).toBe(minted.record.id);
    expect(await readNote(await client(minted.token), 'Plan.md')).toContain('# Plan');
    expect((await savedFile()).keys.map((k) => k.label)).toEqual(['Claude Code', 'New client']);

    // An older version cannot tell a key minted here since from one it revoked: the synced list decides, as before.
    await syncIn(olderFormat(synced));
    expect(keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
    expect(keyRing.authenticate(minted.token)).toBeNull();
  });
});

describe('access and tool settings changed here later than the synced file are kept', () => {
  it('a folder quarantined here stays quarantined when a stale file without it syncs in; agents still cannot read it', async () => {
    const stale = snapshot();
    const agent = await client();
    expect(await readNote(agent, 'Journal/Today.md')).toContain('Dear diary');
    const add = settingRow(el(), 'Quarantine a folder');
    typeInto(add.querySelector('input')!, 'Journal');
    (Array.from(add.querySelectorAll('button')).find((b) => b.textContent === 'Add') as HTMLButtonElement).click();
    await settle();
    expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');

    await syncIn(stale);
    expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
    expect((await savedFile()).access.quarantine).toEqual(['Journal']);
    // The settings tab timed the add: that is what beat the stale list. The block itself carries no stamp (it would decide nothing).
    expect(env.booted.plugin.settings.access.entryTimes!.quarantine.Journal.added).toBeDefined();
    expect(Object.hasOwn((await savedFile()).access, 'changed_at')).toBe(false);

    // Released on another device after that: its removal (a tombstone later than the add here) arrives.
    const newer = snapshot();
    newer.access.quarantine = [];
    const addedHere = env.booted.plugin.settings.access.entryTimes!.quarantine.Journal.added!;
    newer.access.entryTimes = { quarantine: { Journal: { added: addedHere, removed: after(addedHere, 1000) } }, trustedSymlinks: {} };
    // As a version that still stamped the block wrote it: the stamp is read past, the entry times decide.
    Object.assign(newer.access, { changed_at: after(addedHere, -60_000) });
    await syncIn(newer);
    expect(env.booted.plugin.settings.access.quarantine).toEqual([]);
    expect(await readNote(agent, 'Journal/Today.md')).toContain('Dear diary');

    // A synced file of a version from before the entry times carries no removal: it cannot lift a quarantine (docs/settings.md#synced-settings).
    env.booted.plugin.settings.access = { quarantine: ['Journal'], trustedSymlinks: [] };
    await syncIn(olderFormat(stale));
    expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
  });

  it('"Allow writes" and a tool turned off here stay off against a stale file; a newer synced file turns writes on', async () => {
    const stale = snapshot();
    const agent = await client();
    const names = async (): Promise<string[]> => (await agent.listTools()).tools.map((t) => t.name);
    expect(await names()).toEqual(expect.arrayContaining(['create_note', 'list_tags']));
    toggle('Allow writes');
    await settle();
    const tagsRow = Array.from(el().querySelectorAll<HTMLElement>('.vault-mcp-tool')).find(
      (r) => r.querySelector('code')?.textContent === 'list_tags',
    )!;
    tagsRow.querySelector<HTMLElement>('.checkbox-container')!.click();
    await settle();
    expect(env.booted.plugin.settings.tools).toMatchObject({ allowWrites: false, enabled: { list_tags: false } });

    await syncIn(stale);
    expect(env.booted.plugin.settings.tools).toMatchObject({ allowWrites: false, enabled: { list_tags: false } });
    expect(await names()).not.toContain('create_note');
    expect(await names()).not.toContain('list_tags');
    expect((await savedFile()).tools.allowWrites).toBe(false);

    const newer = snapshot();
    newer.tools.allowWrites = true;
    newer.tools.changed_at = new Date(Date.parse(env.booted.plugin.settings.tools.changed_at!) + 1000).toISOString();
    newer.tools.fieldTimes = { ...newer.tools.fieldTimes, allowWrites: newer.tools.changed_at };
    await syncIn(newer);
    expect(env.booted.plugin.settings.tools.allowWrites).toBe(true);
    expect(await names()).toContain('create_note');
  });
});

describe('a malformed revocation list in a synced file', () => {
  it('is read leniently: no throw, the rest of the file applies, this device keeps its own revocations', async () => {
    const { keyRing } = env.booted.plugin;
    const gone = await keyRing.mint({ label: 'Gone' });
    await keyRing.revoke(gone.record.id);
    const victim = await keyRing.mint({ label: 'Victim' });
    for (const revokedKeys of ['not a list', { id: 'x' }, null, 7]) {
      const file = snapshot() as unknown as Record<string, unknown>;
      file.revokedKeys = revokedKeys;
      (file.access as VaultMcpSettings['access']).quarantine = ['Journal'];
      (file.access as Record<string, unknown>).changed_at = new Date(Date.now() + 60_000).toISOString();
      await syncIn(file);
      expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
      expect(env.booted.plugin.settings.revokedKeys.map((r) => r.id)).toEqual([gone.record.id]);
      expect(keyRing.list().map((k) => k.label)).toEqual(['Claude Code', 'Victim']);
    }
    // Entries without an id, or not objects, are left out; one with an id but no readable date still revokes.
    const file = snapshot() as unknown as Record<string, unknown>;
    file.revokedKeys = [
      null,
      'x',
      {},
      { id: 5 },
      { id: '' },
      { id: 'Not a secret id!' },
      { id: victim.record.id, revoked_at: 7 },
      { revoked_at: 'yesterday' },
    ];
    await syncIn(file);
    expect(keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
    expect(keyRing.authenticate(victim.token)).toBeNull();
    expect(env.booted.plugin.settings.revokedKeys).toEqual([
      { id: 'Not a secret id!', revoked_at: NEVER_CHANGED },
      { id: victim.record.id, revoked_at: NEVER_CHANGED },
      { id: gone.record.id, revoked_at: expect.any(String) },
    ]);
  });
});

describe('AI and server settings changed here later than the synced file are kept', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ models: { 'tiny-model': { reply: () => 'OK' } } });
  });
  afterEach(async () => {
    await fake.close();
  });

  /** AI on, pointed at a remote provider (allowed) or at the fake on 127.0.0.1 (local). */
  async function aiOn(remote: boolean): Promise<void> {
    Object.assign(env.booted.plugin.settings.ai, {
      enabled: true,
      allowRemote: remote,
      baseUrl: remote ? 'https://llm.example.com/v1' : fake.baseUrl,
      model: 'tiny-model',
    });
    // A remote provider is used only with an API key (ai/gates.ts); the fake asks for none.
    if (remote) env.booted.app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, 'sk-test');
    await env.booted.plugin.saveSettings();
    env.booted.plugin.settingTab.display();
  }

  it('"Allow remote providers" turned off here stays off against a stale file: a call that would go remote is refused', async () => {
    await aiOn(true);
    // Remote and allowed: a call would go out (the provider is out of this sandbox's reach, so the gates' verdict is read).
    expect(env.booted.plugin.ai.chatAvailability()).toMatchObject({ ready: true, classification: 'remote' });
    const stale = snapshot();
    toggle('Allow remote providers');
    await settle();
    expect(env.booted.plugin.settings.ai.allowRemote).toBe(false);
    expect(await chat()).toBe('aiRemoteNotAllowed');

    // The stale copy, in this version's format, and one that also points AI elsewhere and turns the semantic index on.
    const elsewhere = snapshot();
    elsewhere.ai = { ...stale.ai, baseUrl: 'https://api.example.com/v1', semanticIndex: true };
    for (const file of [stale, elsewhere]) {
      await syncIn(file);
      expect(env.booted.plugin.settings.ai).toMatchObject({ enabled: true, allowRemote: false });
      expect(await chat()).toBe('aiRemoteNotAllowed');
      expect(env.booted.plugin.ai.embeddingAvailability()).toMatchObject({ ready: false });
      expect((await savedFile()).ai.allowRemote).toBe(false);
    }
    // Fields never changed here (the base URL and semantic index were set outside the tab) take the file's values...
    expect(env.booted.plugin.settings.ai).toMatchObject({ baseUrl: 'https://api.example.com/v1', semanticIndex: true });
    // ...but a base URL set here in the tab stays against a file that did not change it since.
    typeInto(settingRow(el(), 'Base URL').querySelector('input')!, stale.ai.baseUrl);
    await settle();
    await syncIn(elsewhere);
    expect(env.booted.plugin.settings.ai.baseUrl).toBe(stale.ai.baseUrl);
    expect((await savedFile()).ai.baseUrl).toBe(stale.ai.baseUrl);

    // Allowed again on another device after that: the newer field wins.
    const newer = snapshot();
    newer.ai.allowRemote = true;
    newer.ai.changed_at = after(env.booted.plugin.settings.ai.changed_at, 1000);
    newer.ai.fieldTimes = { ...newer.ai.fieldTimes, allowRemote: newer.ai.changed_at };
    await syncIn(newer);
    expect(env.booted.plugin.settings.ai.allowRemote).toBe(true);
    expect(env.booted.plugin.ai.chatAvailability()).toMatchObject({ ready: true, classification: 'remote' });

    // A synced block with no stamp (a version from before it) still wins, as before (docs/settings.md#synced-settings).
    env.booted.plugin.settings.ai.allowRemote = false;
    env.booted.plugin.settings.ai.changed_at = after(new Date().toISOString(), 60_000);
    await syncIn(olderFormat(stale));
    expect(env.booted.plugin.settings.ai.allowRemote).toBe(true);
  });

  it('the server switched off here stays off against a stale file (403); a newer file that moves the port restarts it there', async () => {
    const auth = { Authorization: `Bearer ${env.booted.token}` };
    const stale = snapshot();
    expect((await raw(env.booted.port, { body: INITIALIZE, headers: auth })).status).toBe(200);
    toggle('Enable server');
    await settle();
    expect(env.booted.plugin.settings.server.enabled).toBe(false);
    expect((await raw(env.booted.port, { body: INITIALIZE, headers: auth })).status).toBe(403);

    await syncIn(stale);
    expect(env.booted.plugin.settings.server.enabled).toBe(false);
    expect((await raw(env.booted.port, { body: INITIALIZE, headers: auth })).status).toBe(403);
    expect((await savedFile()).server.enabled).toBe(false);

    // Switched on and moved on another device after that: that block wins, and the server moves to its port.
    const port = await freePort();
    const newer = snapshot();
    const later = after(env.booted.plugin.settings.server.changed_at, 1000);
    Object.assign(newer.server, { enabled: true, port, changed_at: later, fieldTimes: { enabled: later, port: later } });
    await syncIn(newer);
    expect(env.booted.plugin.server.getStatus()).toMatchObject({ state: 'listening', port });
    expect(env.booted.plugin.settings.server).toMatchObject({ enabled: true, port });
    expect((await raw(port, { body: INITIALIZE, headers: auth })).status).toBe(200);
    env.booted.port = port;

    // An unstamped synced block (an older version's file) wins too.
    toggle('Enable server');
    await settle();
    const old = olderFormat(snapshot()) as { server: { enabled: boolean } };
    old.server.enabled = true;
    await syncIn(old);
    expect(env.booted.plugin.settings.server.enabled).toBe(true);
    expect((await raw(port, { body: INITIALIZE, headers: auth })).status).toBe(200);
  });

  it("the plugin's own token counting never stamps the AI block: a change made on another device after the user's last change here wins", async () => {
    await aiOn(false);
    const model = settingRow(el(), 'Model').querySelector('input')!;
    typeInto(model, 'tiny-model ');
    await settle();
    const userChange = env.booted.plugin.settings.ai.changed_at;
    expect(typeof userChange).toBe('string');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Tokens counted after the user's change: the usage is saved (data.json rewritten), the stamp stays.
    expect(await chat()).toBe('OK');
    const counted = env.booted.plugin.ai.getUsage();
    expect(counted.inputTokens).toBeGreaterThan(0);
    expect(env.booted.plugin.settings.ai.changed_at).toBe(userChange);
    expect((await savedFile()).ai).toMatchObject({ changed_at: userChange, usage: { inputTokens: counted.inputTokens } });
    // Reset is the user's, but of counters: no stamp either.
    await env.booted.plugin.ai.resetUsage();
    expect(env.booted.plugin.settings.ai.changed_at).toBe(userChange);
    expect(await chat()).toBe('OK');
    const mine = { ...env.booted.plugin.settings.ai.usage };

    // AI switched off on device B after the user's change here but before these counts: B's change wins.
    const fromB = snapshot();
    Object.assign(fromB.ai, {
      enabled: false,
      changed_at: after(userChange, 1),
      fieldTimes: { ...fromB.ai.fieldTimes, enabled: after(userChange, 1) },
      usage: { inputTokens: 999, outputTokens: 999, embeddingTokens: 9 },
    });
    await syncIn(fromB);
    expect(env.booted.plugin.settings.ai.enabled).toBe(false);
    expect(await chat()).toBe('aiDisabled');
    // The counters are this device's figures: B's never replace them.
    expect(env.booted.plugin.settings.ai.usage).toEqual(mine);
    expect(env.booted.plugin.ai.getUsage().inputTokens).toBe(mine.inputTokens);
  });

  it('stamps of the wrong type on the server and ai blocks of a synced file: no throw, the block counts as changed at the epoch (B5)', async () => {
    toggle('Enable server');
    await settle();
    for (const stamp of [5, null, true, { at: 1 }, ['2030-01-01'], 'yesterday']) {
      const file = snapshot() as unknown as Record<string, Record<string, unknown>>;
      Object.assign(file.server, { enabled: true, changed_at: stamp });
      delete file.server.fieldTimes;
      Object.assign(file.ai, { enabled: true, changed_at: stamp });
      await syncIn(file);
      // A stamp, if no readable one: the oldest, so the server switched off here stays off...
      expect(env.booted.plugin.settings.server.enabled).toBe(false);
      // ...and AI, never changed here, takes the file's value (a field neither side changed goes to the file).
      expect(env.booted.plugin.settings.ai.enabled).toBe(true);
      env.booted.plugin.settings.ai.enabled = false;
    }
    // Not objects at all: the defaults, no throw; no stamp of the defaults undoes the switch made here.
    await syncIn({ ...snapshot(), server: 'on', ai: 7 });
    expect(env.booted.plugin.settings.ai.enabled).toBe(false);
    expect(env.booted.plugin.settings.server.enabled).toBe(false);
    expect(env.booted.plugin.settings.server.port).toBeGreaterThan(0);
  });
});

describe('skills and widgets folders changed here later than the synced file are kept', () => {
  it('a stale file does not move either folder back', async () => {
    const stale = snapshot();
    typeInto(settingRow(el(), 'Skills folder').querySelector('input')!, 'Team/Skills');
    typeInto(settingRow(el(), 'Widgets folder').querySelector('input')!, 'Team/Widgets');
    await settle();
    expect(env.booted.plugin.settings.skills.folder).toBe('Team/Skills');
    expect(env.booted.plugin.settings.widgets.folder).toBe('Team/Widgets');
    await syncIn(stale);
    expect(env.booted.plugin.settings.skills.folder).toBe('Team/Skills');
    expect(env.booted.plugin.settings.widgets.folder).toBe('Team/Widgets');
    expect((await savedFile()).widgets.folder).toBe('Team/Widgets');
  });
});

/** Quarantines `folder` through the settings tab, as the user does. */
async function quarantineInTab(folder: string): Promise<void> {
  const add = settingRow(el(), 'Quarantine a folder');
  typeInto(add.querySelector('input')!, folder);
  (Array.from(add.querySelectorAll('button')).find((b) => b.textContent === 'Add') as HTMLButtonElement).click();
  await settle();
}

/**
 * A symbolic link `LinkedDir` in the vault to a folder outside it holding `Shared.md`, once the
 * vault lists `LinkedDir/Shared.md` (the host's watcher reports it a moment later, later still on a
 * loaded machine: a read before then finds no note); returns that folder.
 */
async function linkOutside(): Promise<string> {
  const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-sync-outside-'));
  await fs.writeFile(path.join(outside, 'Shared.md'), 'outside words\n');
  await fs.symlink(outside, path.join(env.vaultDir, 'LinkedDir'), 'dir');
  await until(() => env.booted.app.vault.getAbstractFileByPath('LinkedDir/Shared.md'), 'the vault never listed LinkedDir/Shared.md');
  return outside;
}

describe('the quarantine and trusted-link lists merge entry by entry', () => {
  it('break-it B3: a device that never saw the quarantine trusts a link later; its file keeps the quarantine and brings the link', async () => {
    const outside = await linkOutside();
    try {
      const stale = snapshot();
      const agent = await client();
      await quarantineInTab('Journal');
      expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
      expect(await readNote(agent, 'LinkedDir/Shared.md')).toBe('refused');

      // Device B, offline, trusted LinkedDir after the quarantine here; its access block is stamped later.
      const trustedAt = after(new Date().toISOString(), 1000);
      stale.access.trustedSymlinks = ['LinkedDir'];
      stale.access.entryTimes = { quarantine: {}, trustedSymlinks: { LinkedDir: { added: trustedAt } } };
      Object.assign(stale.access, { changed_at: trustedAt });
      await syncIn(stale);
      expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
      expect(env.booted.plugin.settings.access.trustedSymlinks).toEqual(['LinkedDir']);
      expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
      expect(await readNote(agent, 'LinkedDir/Shared.md')).toContain('outside words');
      // Saved again, with both sides' times, so the quarantine reaches device B.
      const saved = await savedFile();
      expect(saved.access.quarantine).toEqual(['Journal']);
      expect(saved.access.entryTimes!.quarantine.Journal.added).toBeDefined();
      expect(saved.access.entryTimes!.trustedSymlinks.LinkedDir).toEqual({ added: trustedAt });
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('break-it B2: a device whose clock runs a day ahead and whose file lacks the quarantine does not lift it', async () => {
    const agent = await client();
    const stale = snapshot();
    await quarantineInTab('Journal');
    Object.assign(stale.access, { changed_at: after(new Date().toISOString(), 86_400_000) });
    await syncIn(stale);
    expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
    expect((await savedFile()).access.quarantine).toEqual(['Journal']);
  });

  it('a removal made on another device after the add here arrives, even when this device changed its lists later', async () => {
    const outside = await linkOutside();
    try {
      const agent = await client();
      await quarantineInTab('Journal');
      const addedHere = env.booted.plugin.settings.access.entryTimes!.quarantine.Journal.added!;
      const theirs = snapshot();
      // Device B removed Journal 5 ms after the add here; this device trusted a link later still (its block is the later one).
      const removedThere = after(addedHere, 5);
      theirs.access.quarantine = [];
      theirs.access.entryTimes = { quarantine: { Journal: { added: addedHere, removed: removedThere } }, trustedSymlinks: {} };
      Object.assign(theirs.access, { changed_at: removedThere });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const trust = settingRow(el(), 'Trust a symbolic link');
      typeInto(trust.querySelector('input')!, 'LinkedDir');
      (Array.from(trust.querySelectorAll('button')).find((b) => b.textContent === 'Trust') as HTMLButtonElement).click();
      await settle();
      expect(env.booted.plugin.settings.access.trustedSymlinks).toEqual(['LinkedDir']);
      expect(Date.parse(env.booted.plugin.settings.access.entryTimes!.trustedSymlinks.LinkedDir.added!)).toBeGreaterThan(
        Date.parse(removedThere),
      );
      await syncIn(theirs);
      expect(env.booted.plugin.settings.access.quarantine).toEqual([]);
      expect(env.booted.plugin.settings.access.trustedSymlinks).toEqual(['LinkedDir']);
      expect(await readNote(agent, 'Journal/Today.md')).toContain('Dear diary');
      expect(await readNote(agent, 'LinkedDir/Shared.md')).toContain('outside words');
      expect(env.booted.plugin.settings.access.entryTimes!.quarantine.Journal).toEqual({ added: addedHere, removed: removedThere });
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('a folder quarantined again here after another device removed it wins over that older removal', async () => {
    const agent = await client();
    const removedThere = new Date(Date.now() - 60_000).toISOString();
    const theirs = snapshot();
    theirs.access.quarantine = [];
    theirs.access.entryTimes = {
      quarantine: { Journal: { added: after(removedThere, -60_000), removed: removedThere } },
      trustedSymlinks: {},
    };
    // Device B changed its access block again later (or its clock runs ahead): its stamp is later than anything here.
    Object.assign(theirs.access, { changed_at: after(new Date().toISOString(), 86_400_000) });
    // The user had removed it here too, then quarantines it again (an add later than both removals).
    await quarantineInTab('Journal');
    settingRow(el(), 'Journal/').querySelector<HTMLElement>('.clickable-icon')!.click();
    await settle();
    expect(env.booted.plugin.settings.access.quarantine).toEqual([]);
    // A later millisecond than the removal, so the add is the later of the two here.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await quarantineInTab('Journal');
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
    await syncIn(theirs);
    expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
    const times = env.booted.plugin.settings.access.entryTimes!.quarantine.Journal;
    expect(Date.parse(times.added!)).toBeGreaterThan(Date.parse(times.removed!));
  });

  it('malformed entry times in a synced file: no throw, the lists are still read, and no bad time lifts a quarantine', async () => {
    const agent = await client();
    await quarantineInTab('Journal');
    const ahead = after(new Date().toISOString(), 86_400_000);
    for (const entryTimes of [
      'yesterday',
      42,
      [],
      { quarantine: 5, trustedSymlinks: 'x' },
      { quarantine: { Journal: { added: 'not a date', removed: 12 } } },
      { quarantine: { Journal: 'removed' } },
      { quarantine: { Journal: { removed: 'yesterday' } } },
      { quarantine: { Journal: { removed: 1e15 } } },
    ]) {
      const file = snapshot() as unknown as { access: Record<string, unknown> };
      // The file lacks Journal, lists Plan.md's folder-to-be, and is stamped a day ahead.
      Object.assign(file.access, { quarantine: ['Later'], entryTimes, changed_at: ahead });
      await expect(syncIn(file)).resolves.toBeUndefined();
      expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal', 'Later']);
      expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');
      env.booted.plugin.settings.access.quarantine = ['Journal'];
    }
    // Bad times are dropped, the good one kept.
    expect(env.booted.plugin.settings.access.entryTimes!.quarantine.Journal.removed).toBeUndefined();
  });
});

describe('access lists written in the wrong shape', () => {
  it('a quarantine written as one folder quarantines that folder, at load and from a sync', async () => {
    const agent = await client();
    expect(await readNote(agent, 'Journal/Today.md')).toContain('Dear diary');
    const file = snapshot() as unknown as { access: Record<string, unknown> };
    Object.assign(file.access, { quarantine: 'Journal', changed_at: after(new Date().toISOString(), 1000) });
    await syncIn(file);
    expect(env.booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    expect(await readNote(agent, 'Journal/Today.md')).toBe('refused');

    await env.reboot({
      label: 'Claude Code',
      configure: (s) => void ((s.access as { quarantine: unknown }).quarantine = 'Journal'),
    });
    expect(await readNote(await client(), 'Journal/Today.md')).toBe('refused');
    expect(await readNote(await client(), 'Plan.md')).toContain('# Plan');
  });

  it('trusted links written as one text trust nothing, and the user is told at load and at a sync', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-sync-outside-'));
    try {
      await fs.writeFile(path.join(outside, 'Shared.md'), 'outside words\n');
      await fs.symlink(outside, path.join(env.vaultDir, 'LinkedDir'), 'dir');
      const boot = async (trusted: unknown): Promise<void> => {
        Notice.clear();
        await env.reboot({
          label: 'Claude Code',
          configure: (s) => void ((s.access as { trustedSymlinks: unknown }).trustedSymlinks = trusted),
        });
      };
      // As a list the link is trusted (the setup works).
      await boot(['LinkedDir']);
      expect(await readNote(await client(), 'LinkedDir/Shared.md')).toContain('outside words');
      expect(Notice.messages().filter((m) => m.includes('trustedSymlinks'))).toEqual([]);

      await boot('LinkedDir');
      expect(env.booted.plugin.settings.access.trustedSymlinks).toEqual([]);
      expect(await readNote(await client(), 'LinkedDir/Shared.md')).toBe('refused');
      expect(Notice.messages()).toContain(
        'Vault MCP: access.trustedSymlinks is "LinkedDir", not a list, so no symbolic link is trusted; write it as ["LinkedDir"] or trust the link again in Vault MCP settings → Access.',
      );

      Notice.clear();
      const file = snapshot() as unknown as { access: Record<string, unknown> };
      Object.assign(file.access, { trustedSymlinks: 'LinkedDir', changed_at: after(new Date().toISOString(), 1000) });
      await syncIn(file);
      expect(await readNote(await client(), 'LinkedDir/Shared.md')).toBe('refused');
      expect(Notice.messages().some((m) => m.startsWith('Vault MCP: access.trustedSymlinks is "LinkedDir", not a list'))).toBe(true);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});
