import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import VaultMcpPlugin from '../../../src/main';
import { noteUri } from '../../../src/server/content/note-resources';
import { secretIdForKey, type KeyRecord } from '../../../src/settings/key-record';
import { bootPlugin, connectClient, type BootedPlugin } from '../boot-plugin';
import { writeVaultFiles } from '../edits/write-helpers';

/** The bearer token of the second key {@link bootTwoKeys} adds ("Rooted": propose mode, confined to `Projects`). */
export const ROOTED_TOKEN = 'rooted-token-0123456789abcdef';

/** A SKILL.md's text: frontmatter with `name`, a description and any `extra` frontmatter lines, then one step. */
export const SKILL = (name: string, extra = ''): string =>
  `---\nname: ${name}\ndescription: Does ${name}.\n${extra}---\nSteps of ${name}.\n`;

/** What one client heard: how many `notifications/prompts/list_changed`, and the URIs of `notifications/resources/updated` in order. */
export interface Heard {
  prompts: number;
  updates: string[];
}

/** A booted plugin over a temp vault with two keys (see {@link bootTwoKeys}). */
export interface TwoKeyVault {
  /** The vault folder (under os.tmpdir()). */
  dir: string;
  /** The run's key (label "Claude", propose, the whole vault) is `booted.key` / `booted.token`. */
  booted: BootedPlugin<VaultMcpPlugin>;
  /** Stops the plugin and removes the folder (close the test's clients first). */
  done(): Promise<void>;
}

/**
 * Writes `files` (vault path → text) into a new temp folder named with `prefix`, boots the
 * plugin there with the run's key labelled "Claude" (propose, whole vault), and adds a second
 * key "Rooted" (propose, roots `Projects`, token {@link ROOTED_TOKEN}) to the settings and the
 * host's SecretStorage, as the settings tab's "Add key" does.
 */
export async function bootTwoKeys(files: Record<string, string>, prefix: string): Promise<TwoKeyVault> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), prefix));
  await writeVaultFiles(dir, files);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, label: 'Claude' });
  const rootedKey: KeyRecord = {
    id: 'rooted',
    label: 'Rooted',
    mode: 'propose',
    scope: 'local',
    roots: ['Projects'],
    created_at: new Date().toISOString(),
    last_used_at: null,
  };
  booted.plugin.settings.keys.push(rootedKey);
  booted.app.secretStorage.setSecret(secretIdForKey(rootedKey.id), ROOTED_TOKEN);
  return {
    dir,
    booted,
    done: async () => {
      await booted.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Records what a session-era (SDK) `client` hears from now on: prompt-list changes and resource updates. */
export function recordHeard(client: Client): Heard {
  const heard: Heard = { prompts: 0, updates: [] };
  client.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
    heard.prompts++;
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
    heard.updates.push(n.params.uri);
  });
  return heard;
}

/**
 * Connects a session-era (SDK) client of bearer `token` to the server at `url`, records what it
 * hears ({@link recordHeard}), sends one request (the session is initialized and follows the vault
 * from then on) and subscribes to the notes at `paths`.
 * @returns what it hears, with the client (the caller closes it).
 */
export async function openSession(url: string, token: string, paths: string[] = []): Promise<Heard & { client: Client }> {
  const client = await connectClient(url, token);
  const heard = Object.assign(recordHeard(client), { client });
  await client.listPrompts();
  for (const path of paths) await client.subscribeResource({ uri: noteUri(path) });
  return heard;
}

/**
 * Connects a 2026-07-28 client (named `name`) of bearer `token` to the server at `url`, sends
 * one request, then listens (`subscriptions/listen`) for prompt changes and, when `uris` is
 * given (even empty), to those resources.
 * @returns the client (the caller closes it), what it hears from then on, and the listen
 *   subscription (its `closed` settles with why the stream ended: `graceful` when the server ended it).
 */
export async function modernListener(
  url: string,
  token: string,
  name: string,
  uris?: string[],
): Promise<{ client: ModernClient; heard: Heard; subscription: Awaited<ReturnType<ModernClient['listen']>> }> {
  const client = new ModernClient({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new ModernTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const heard: Heard = { prompts: 0, updates: [] };
  client.setNotificationHandler('notifications/prompts/list_changed', () => {
    heard.prompts++;
  });
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    heard.updates.push(n.params.uri);
  });
  await client.listPrompts();
  const subscription = await client.listen(uris ? { promptsListChanged: true, resourceSubscriptions: uris } : { promptsListChanged: true });
  return { client, heard, subscription };
}

/** Waits 400 ms, longer than the server's 50 ms notification debounce plus a check: a notification that was coming has come. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400));

/** Polls `predicate` every 20 ms for up to 5 s, then asserts it holds. */
export async function eventually(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(predicate()).toBe(true);
}
