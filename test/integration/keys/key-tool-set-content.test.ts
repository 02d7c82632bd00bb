import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { noteUri, NOTE_URI_TEMPLATE } from '../../../src/server/content/note-resources';
import type { KeyToolSet } from '../../../src/settings/key-record';
import type { BootedPlugin } from '../../harness/boot-plugin';
import { eventually, modernListener, openSession, settle, SKILL, type Heard } from '../../harness/env/notification-env';
import { bootWithToolSetKeys, toolSetKeyToken } from '../../harness/server/tool-set-keys';

/** The keys beside the run's ("Writer": all tools), by label: their tool sets. */
const KEYS: Record<string, KeyToolSet> = {
  Reader: 'read',
  Capture: ['append_note'],
  Empty: [],
  Lookup: ['read_note'],
  Skills: ['skills_list', 'skill_read'],
};

const HOME = noteUri('Home.md');
const SERVED_ONLY_WITH_READ_NOTE = /Notes are resources only for a key whose tool set includes read_note, and key "\w+"'s does not/;
const SERVED_ONLY_WITH_SKILL_READ = /Skills are prompts only for a key whose tool set includes skill_read, and key "\w+"'s does not/;

/** The JSON-RPC-visible client surface both SDK clients (1.x session era, 2.x 2026-07-28) share. */
type AnyClient = Pick<Client, 'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt' | 'complete'>;

/** What one key is answered on every content route, as plain data. */
interface Surface {
  resources: string[];
  templates: string[];
  read: string;
  prompts: string[];
  prompt: string;
  promptWithNote: string;
  pathCompletion: string[];
  noteCompletion: string[];
}

/** A resolved answer as `ok`, a refusal as `code message` (the 1.x client's "MCP error …: " prefix taken out). */
const outcome = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'ok',
    (e: { code?: number; message: string }) => `${e.code} ${e.message.replace(/^MCP error -?\d+: /, '')}`,
  );

async function surfaceOf(client: AnyClient): Promise<Surface> {
  return {
    resources: (await client.listResources()).resources.map((r) => r.name),
    templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
    read: await outcome(client.readResource({ uri: HOME })),
    prompts: (await client.listPrompts()).prompts.map((p) => p.name),
    prompt: await outcome(client.getPrompt({ name: 'good' })),
    promptWithNote: await outcome(client.getPrompt({ name: 'good', arguments: { note: 'Home' } })),
    pathCompletion: (
      await client.complete({ ref: { type: 'ref/resource', uri: NOTE_URI_TEMPLATE }, argument: { name: 'path', value: '' } })
    ).completion.values,
    noteCompletion: (await client.complete({ ref: { type: 'ref/prompt', name: 'good' }, argument: { name: 'note', value: 'H' } }))
      .completion.values,
  };
}

const NOTES = ['Home.md', 'Projects/Plan.md', 'Skills/good/SKILL.md'];
const EVERYTHING: Surface = {
  resources: NOTES,
  templates: [NOTE_URI_TEMPLATE],
  read: 'ok',
  prompts: ['good'],
  prompt: 'ok',
  promptWithNote: 'ok',
  pathCompletion: NOTES,
  noteCompletion: ['Home.md'],
};
/** A key whose tool set holds neither read_note, list_notes, skills_list nor skill_read. */
const NOTHING = (label: string): Surface => ({
  resources: [],
  templates: [],
  read: expect.stringMatching(new RegExp(`^-32602 ${SERVED_ONLY_WITH_READ_NOTE.source}`.replace('\\w+', label))),
  prompts: [],
  prompt: expect.stringMatching(new RegExp(`^-32602 ${SERVED_ONLY_WITH_SKILL_READ.source}`.replace('\\w+', label))),
  promptWithNote: expect.stringMatching(/^-32602 Skills are prompts only/),
  pathCompletion: [],
  noteCompletion: [],
});

/**
 * docs/resources-and-prompts.md#tool-sets, docs/security.md: a key's tool set reaches resources,
 * prompts and completion by one rule (src/server/content/tool-set-routes.ts), in both protocol
 * eras, over real HTTP with the official SDK clients. Before: a key given only `append_note` (or
 * no tool at all) saw just that in tools/list, yet resources/list listed every note,
 * resources/read returned any note's whole text, prompts/get gave the skills (and attached any
 * note), completion listed the note paths, and its subscriptions heard every edit.
 */
describe('a key tool set limits resources, prompts and completion too', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let done: () => Promise<void>;
  const clients: Array<{ close(): Promise<void> }> = [];

  beforeEach(async () => {
    const files = { 'Home.md': '# Home\nThe whole note.\n', 'Projects/Plan.md': '# Plan\n', 'Skills/good/SKILL.md': SKILL('Good') };
    const keys = Object.fromEntries(Object.entries(KEYS).map(([label, tools]) => [label, { tools }]));
    ({ booted, done } = await bootWithToolSetKeys('vault-mcp-toolset-content-', files, keys));
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    await done();
  });

  const tokenFor = (label: string): string => (label === 'Writer' ? booted.token : toolSetKeyToken(label));

  async function session(label: string, paths: string[] = []): Promise<Heard & { client: Client }> {
    const heard = await openSession(booted.url, tokenFor(label), paths);
    clients.push(heard.client);
    return heard;
  }

  async function modern(label: string): Promise<ModernClient> {
    const client = new ModernClient({ name: `toolsets-${label}`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new ModernTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${tokenFor(label)}` } } }),
    );
    clients.push(client);
    return client;
  }

  async function listener(label: string, paths: string[]): Promise<Heard> {
    const { client, heard } = await modernListener(booted.url, tokenFor(label), `toolsets-listen-${label}`, paths.map(noteUri));
    clients.push(client);
    return heard;
  }

  test.each([
    ['Writer', 'all tools', () => EVERYTHING],
    ['Reader', 'read tools only', () => EVERYTHING],
    ['Capture', '["append_note"]', () => NOTHING('Capture')],
    ['Empty', '[]', () => NOTHING('Empty')],
    [
      'Lookup',
      '["read_note"]: notes read by URI, never listed; no prompts',
      (): Surface => ({
        ...NOTHING('Lookup'),
        templates: [NOTE_URI_TEMPLATE],
        read: 'ok',
        prompt: expect.stringMatching(SERVED_ONLY_WITH_SKILL_READ),
      }),
    ],
    [
      'Skills',
      '["skills_list", "skill_read"]: prompts without notes',
      (): Surface => ({
        ...NOTHING('Skills'),
        prompts: ['good'],
        prompt: 'ok',
        promptWithNote: expect.stringMatching(new RegExp(`^-32602 Argument "note" of prompt "good": ${SERVED_ONLY_WITH_READ_NOTE.source}`)),
      }),
    ],
  ])('%s (%s): every content route, the same in both eras', async (label, _set, expected) => {
    const legacy = (await session(label)).client;
    expect(await surfaceOf(legacy)).toEqual(expected());
    expect(await surfaceOf(await modern(label))).toEqual(expected());
  });

  test('a key without read_note cannot subscribe, and its 2026-07-28 listener hears no edit', async () => {
    const { client } = await session('Capture');
    expect(await outcome(client.subscribeResource({ uri: HOME }))).toMatch(SERVED_ONLY_WITH_READ_NOTE);
    const capture = await listener('Capture', ['Home.md']);
    const writer = await listener('Writer', ['Home.md']);
    await booted.app.vault.append(booted.app.vault.getFileByPath('Home.md')!, '\nMore.\n');
    await eventually(() => writer.updates.length === 1);
    await settle();
    expect(capture.updates).toEqual([]);
  });

  test("a key's tool set changed mid-session: told once in both eras, then served by the new set", async () => {
    const legacy = await session('Reader', ['Home.md']);
    const listening = await listener('Reader', ['Home.md']);
    const home = () => booted.app.vault.getFileByPath('Home.md')!;
    await booted.plugin.keyRing.setTools('reader', ['append_note']);
    // Its prompts went (prompts/list_changed) and its subscribed note left its view (one update, as a deletion would be).
    await eventually(() => legacy.prompts === 1 && listening.prompts === 1);
    await eventually(() => legacy.updates.length === 1 && listening.updates.length === 1);
    expect(await surfaceOf(legacy.client)).toEqual(NOTHING('Reader'));
    await booted.app.vault.append(home(), '\nNot for Reader now.\n');
    await settle();
    expect({ legacy: legacy.updates, modern: listening.updates }).toEqual({ legacy: [HOME], modern: [HOME] });
    await booted.plugin.keyRing.setTools('reader', 'read');
    await eventually(() => legacy.prompts === 2 && listening.prompts === 2);
    await eventually(() => legacy.updates.length === 2 && listening.updates.length === 2);
    expect(await surfaceOf(legacy.client)).toEqual(EVERYTHING);
    await booted.app.vault.append(home(), '\nFor Reader again.\n');
    await eventually(() => legacy.updates.length === 3 && listening.updates.length === 3);
  });
});
