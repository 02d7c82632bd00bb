import type { KeyMode, KeyRecord, KeyScope } from '../../../src/settings/key-record';
import { migrateSettings } from '../../../src/settings/migrate-settings';
import type { VaultMcpSettings } from '../../../src/settings/settings';

/** The stand-in plugin the browser page draws the tab over (the surface of SettingsTabPlugin). */
export interface DemoPlugin {
  app: {
    vault: { configDir: string; getAllFolders(includeRoot?: boolean): Array<{ path: string }> };
    secretStorage: { getSecret(id: string): string | null; setSecret(id: string, v: string): void; listSecrets(): string[] };
  };
  settings: VaultMcpSettings;
  keyRing: {
    list(): KeyRecord[];
    mint(r: { label: string; mode?: KeyMode }): Promise<{ record: KeyRecord; token: string }>;
    tokenOf(id: string): string | null;
    revoke(id: string): Promise<void>;
    setMode(id: string, mode: KeyMode): Promise<void>;
    setScope(id: string, scope: KeyScope): Promise<void>;
    setRoots(id: string, roots: string[]): Promise<void>;
  };
  server: {
    getStatus(): { state: 'listening'; port: number; url: string };
    notifyToolListChanged(): Promise<void>;
    notifyPromptListChanged(): Promise<void>;
    closeSessionsOfRevokedKeys(): Promise<void>;
    accessChanged(): Promise<void>;
  };
  ai: {
    testConnection(): Promise<{ ok: true; text: string }>;
    getUsage(): { inputTokens: number; outputTokens: number; embeddingTokens: number };
    resetUsage(): Promise<void>;
    settingsChanged(): Promise<void>;
    chatAvailability(): { ready: true; provider: 'openai-compatible'; model: string; classification: 'local' };
  };
  search: { reindex(): Promise<void> };
  /** The vault's path rules, over FOLDERS: an entry's folder in its own case, and whether one is there (NotePolicy.entryAt). */
  notes: {
    rootSpelling(root: string): string | null;
    folderAt(path: string): { path: string } | null;
    policy: { literalPath(input: string): string; entryAt(path: string): { path: string } | null };
  };
  semantic: { current: { state: 'off'; reason: string }; refresh(): Promise<void>; rebuild(): Promise<void> };
  restartServer(): Promise<void>;
  saveSettings(): Promise<void>;
  /** Number of tools/list_changed notifications the tab asked for. */
  toolListChanges: number;
}

const FOLDERS = ['Daily notes', 'Projects', 'Projects/Website', 'Reading', 'Work', 'Work/Clients'];

/**
 * A plugin stand-in with two keys (one propose, one force), a listening server on the default
 * port and a local Ollama model configured: what a user sees after a few days of use. Key-ring
 * rules are kept (unique labels, never zero local keys) so the page behaves like the plugin.
 */
export function createDemoPlugin(): DemoPlugin {
  const secrets = new Map<string, string>();
  const settings = migrateSettings({
    keys: [
      {
        id: 'k1',
        label: 'Claude Code',
        mode: 'propose',
        scope: 'local',
        roots: [],
        created_at: '2026-03-02T09:14:00Z',
        last_used_at: '2026-03-09T16:41:00Z',
      },
      {
        id: 'k2',
        label: 'Cursor',
        mode: 'force',
        scope: 'both',
        roots: ['Projects/Website'],
        created_at: '2026-03-04T11:02:00Z',
        last_used_at: null,
      },
    ],
    tools: { allowWrites: false, enabled: {} },
    access: { quarantine: ['Work/Clients'] },
    ai: {
      enabled: true,
      allowRemote: false,
      provider: 'openai-compatible',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.2',
      usage: { inputTokens: 18250, outputTokens: 2411 },
    },
  });
  secrets.set('vault-mcp-key-k1', randomToken());
  secrets.set('vault-mcp-key-k2', randomToken());
  let counter = 2;
  const keys = (): KeyRecord[] => settings.keys;
  const local = (k: KeyRecord): boolean => k.scope !== 'cloud';
  const plugin: DemoPlugin = {
    app: {
      vault: { configDir: '.obsidian', getAllFolders: () => FOLDERS.map((path) => ({ path })) },
      secretStorage: {
        getSecret: (id) => secrets.get(id) ?? null,
        setSecret: (id, v) => void secrets.set(id, v),
        listSecrets: () => [...secrets.keys()],
      },
    },
    settings,
    keyRing: {
      list: () => keys().map((k) => ({ ...k })),
      async mint({ label, mode }) {
        const clean = label.trim();
        if (!clean) throw new Error('A key needs a label: name the client that will use it, e.g. "Claude Code".');
        if (keys().some((k) => k.label === clean)) throw new Error(`A key labelled "${clean}" already exists; pick another label.`);
        const record: KeyRecord = {
          id: `k${++counter}`,
          label: clean,
          mode: mode ?? 'propose',
          scope: 'local',
          roots: [],
          created_at: new Date().toISOString(),
          last_used_at: null,
        };
        const token = `vmcp_demo${counter}xxxxxxxxxxxxxxxxxxxxxxxx`;
        secrets.set(`vault-mcp-key-${record.id}`, token);
        settings.keys = [...keys(), record];
        return { record, token };
      },
      tokenOf: (id) => secrets.get(`vault-mcp-key-${id}`) || null,
      async revoke(id) {
        const rest = keys().filter((k) => k.id !== id);
        if (!rest.some(local)) throw new Error('This is the last key local clients can use; mint another key before revoking it.');
        settings.keys = rest;
      },
      async setMode(id, mode) {
        settings.keys = keys().map((k) => (k.id === id ? { ...k, mode } : k));
      },
      async setScope(id, scope) {
        if (scope === 'cloud' && !keys().some((k) => k.id !== id && local(k))) {
          throw new Error('Local clients would have no usable key left; keep this key "local" or "both", or mint another first.');
        }
        settings.keys = keys().map((k) => (k.id === id ? { ...k, scope } : k));
      },
      async setRoots(id, roots) {
        settings.keys = keys().map((k) => (k.id === id ? { ...k, roots } : k));
      },
    },
    server: {
      getStatus: () => ({ state: 'listening', port: settings.server.port, url: `http://127.0.0.1:${settings.server.port}/mcp` }),
      notifyToolListChanged: async () => void plugin.toolListChanges++,
      notifyPromptListChanged: async () => undefined,
      closeSessionsOfRevokedKeys: async () => undefined,
      accessChanged: async () => undefined,
    },
    ai: {
      testConnection: async () => ({ ok: true, text: 'OK' }),
      getUsage: () => ({ embeddingTokens: 0, ...settings.ai.usage }),
      resetUsage: async () => void (settings.ai.usage = { inputTokens: 0, outputTokens: 0, embeddingTokens: 0 }),
      settingsChanged: async () => undefined,
      chatAvailability: () => ({ ready: true, provider: 'openai-compatible', model: settings.ai.model, classification: 'local' }),
    },
    search: { reindex: async () => undefined },
    notes: {
      rootSpelling: (root) => folderAt(root)?.path ?? null,
      folderAt,
      policy: { literalPath: (input) => input.trim().replace(/^\/+|\/+$/g, ''), entryAt: folderAt },
    },
    semantic: {
      current: {
        state: 'off',
        reason: 'semantic search is off; turn on "Index for semantic search" in Settings → Vault MCP → AI provider',
      },
      refresh: async () => undefined,
      rebuild: async () => undefined,
    },
    restartServer: async () => undefined,
    saveSettings: async () => undefined,
    toolListChanges: 0,
  };
  return plugin;
}

/** The demo folder at `path` in any case, as the vault's lookup finds it, or null. */
function folderAt(path: string): { path: string } | null {
  const found = FOLDERS.find((folder) => folder.toLowerCase() === path.toLowerCase());
  return found === undefined ? null : { path: found };
}

/** A token shaped like the key ring's (`vmcp_` + 43 base64url chars), generated per run. */
function randomToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bytes = crypto.getRandomValues(new Uint8Array(43));
  return `vmcp_${Array.from(bytes, (b) => alphabet[b % 64]).join('')}`;
}
