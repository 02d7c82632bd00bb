import type * as z from 'zod';
import { checkSettingsData, SETTINGS_FILE_SCHEMA } from '../../../src/settings/check-settings';
import { defaultSettings, NEVER_CHANGED, type VaultMcpSettings } from '../../../src/settings/settings';
import { ALL_TOOLS } from '../../../src/tools/registry';

/** Every key of T required, all the way down (arrays and records stepped into). */
type DeepRequired<T> =
  T extends ReadonlyArray<infer U> ? Array<DeepRequired<U>> : T extends object ? { [K in keyof T]-?: DeepRequired<T[K]> } : T;
/** true when A and B are assignable to each other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const toolNames = ALL_TOOLS.map((t) => t.name);

describe('checkSettingsData: the settings format, read strictly', () => {
  it('describes exactly VaultMcpSettings (a setting added to one but not the other fails tsc here)', () => {
    const same: Same<DeepRequired<z.infer<typeof SETTINGS_FILE_SCHEMA>>, DeepRequired<VaultMcpSettings>> = true;
    expect(same).toBe(true);
  });

  it('accepts what the plugin writes (the defaults, a full data.json) unchanged', () => {
    const saved: VaultMcpSettings = {
      ...defaultSettings(),
      keys: [
        {
          id: 'a1b2c3',
          label: 'Claude Code',
          mode: 'force',
          scope: 'both',
          roots: ['Projects'],
          tools: 'read',
          created_at: '2026-01-01T00:00:00.000Z',
          last_used_at: null,
          changed_at: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    saved.tools.enabled = { create_note: true, search: false };
    saved.ai.usage = { inputTokens: 3, outputTokens: 4, embeddingTokens: 5, scope: 'openai-compatible http://localhost:11434/v1' };
    saved.widgetWriters = { board: { key_id: 'a1b2c3', key_label: 'Claude Code', written_at: '2026-12-06T05:00:00.000Z' } };
    // Every block the settings tab stamps (a run reads the vault's own data.json with this check).
    for (const block of ['server', 'tools', 'skills', 'widgets', 'ai'] as const) saved[block].changed_at = '2026-12-06T17:00:00.000Z';
    expect(checkSettingsData(JSON.parse(JSON.stringify(saved)), { toolNames })).toEqual({ ok: true, settings: saved });
  });

  it("accepts an older version's access.changed_at (it decides nothing) and drops it", () => {
    const older = { access: { quarantine: ['Journal'], changed_at: '2026-12-06T17:00:00.000Z' } };
    const verdict = checkSettingsData(older);
    expect(verdict).toMatchObject({ ok: true, settings: { access: { quarantine: ['Journal'], trustedSymlinks: [] } } });
    expect(verdict.ok && Object.hasOwn(verdict.settings.access, 'changed_at')).toBe(false);
    expect(checkSettingsData({ access: { quarantine: ['Journal'], changedAt: 'x' } })).toMatchObject({
      ok: false,
      key: 'access.changedAt',
    });
  });

  it('names a widget writer entry that is not {key_id, key_label, written_at}', () => {
    const verdict = checkSettingsData({ widgetWriters: { board: { key_id: 'a1' } } });
    expect(verdict).toMatchObject({ ok: false, key: expect.stringMatching(/^widgetWriters\.board/) });
  });

  it("normalizes a key's roots and refuses one that breaks the roots rule, naming the key and the root", () => {
    const verdict = checkSettingsData({ keys: [{ label: 'A', roots: ['Projects/', './Journal', 'Journal'] }] });
    expect(verdict.ok && verdict.settings.keys[0].roots).toEqual(['Projects', 'Journal']);
    for (const [root, reason] of [
      ['', 'is empty'],
      ['.', 'names the vault itself'],
      ['/etc', 'is an absolute path'],
      ['../etc', 'climbs out of the vault'],
    ]) {
      expect(checkSettingsData({ keys: [{ label: 'A' }, { label: 'B', roots: ['Projects', root] }] })).toEqual({
        ok: false,
        key: 'keys[1].roots[1]',
        message: expect.stringMatching(
          new RegExp(`^keys\\[1\\]\\.roots\\[1\\] ${JSON.stringify(root).replace(/[./]/g, '\\$&')} ${reason}`),
        ),
      });
    }
  });

  it('accepts per-entry times of the access lists and keeps them', () => {
    const entryTimes = { quarantine: { Journal: { added: NEVER_CHANGED, removed: '2026-12-06T10:00:00.000Z' } }, trustedSymlinks: {} };
    const verdict = checkSettingsData({ access: { quarantine: [], entryTimes } });
    if (!verdict.ok) throw new Error(verdict.message);
    expect(verdict.settings.access.entryTimes).toEqual(entryTimes);
  });

  it('accepts the field stamps of blocks and keys and keeps them', () => {
    const at = '2026-12-06T10:00:00.000Z';
    const verdict = checkSettingsData(
      {
        tools: { fieldTimes: { allowWrites: at, 'enabled.write_note': at } },
        ai: { fieldTimes: { endpoint: at, allowRemote: at } },
        keys: [{ label: 'A', fieldTimes: { roots: at, label: at } }],
      },
      { toolNames },
    );
    if (!verdict.ok) throw new Error(verdict.message);
    expect(verdict.settings.tools.fieldTimes).toEqual({ allowWrites: at, 'enabled.write_note': at });
    expect(verdict.settings.ai.fieldTimes).toEqual({ endpoint: at, allowRemote: at });
    expect(verdict.settings.keys[0].fieldTimes).toEqual({ roots: at, label: at });
  });

  it('fills what a partial file leaves out with defaults and gives keys without an id one', () => {
    const verdict = checkSettingsData({
      access: { quarantine: ['Secret'] },
      keys: [{ label: 'A' }, { label: 'B', id: 'key-1' }, { label: 'C' }],
    });
    if (!verdict.ok) throw new Error(verdict.message);
    expect(verdict.settings.access).toEqual({ quarantine: ['Secret'], trustedSymlinks: [] });
    expect(verdict.settings.server).toEqual(defaultSettings().server);
    expect(verdict.settings.keys.map((k) => [k.id, k.label, k.mode])).toEqual([
      ['key-2', 'A', 'propose'],
      ['key-1', 'B', 'propose'],
      ['key-3', 'C', 'propose'],
    ]);
  });

  it.each([
    [[], '', 'The file holds a list, not settings; write a settings object in braces, such as {"access": {"quarantine": ["Private"]}}.'],
    ['x', '', /^The file holds "x", not settings;/],
    [
      { quarantine: ['a'] },
      'quarantine',
      /^quarantine is not a setting; correct its spelling or remove it \(settings of the top level: schemaVersion, server, keys, revokedKeys, tools, access,/,
    ],
    [
      { ai: { embedModel: 'x' } },
      'ai.embedModel',
      /^ai\.embedModel is not a setting; .*\(settings of ai: enabled, allowRemote, provider, baseUrl, model, embeddingModel, semanticIndex, usage\)\.$/,
    ],
    [
      { keys: [{ label: 'a', token: 'x' }] },
      'keys[0].token',
      /^keys\[0\]\.token is not a setting \(tokens and API keys never go in settings: they live in Obsidian's secret storage\);/,
    ],
    // One folder's text where a list goes: refused with the list to write (the lenient load reads it as one quarantined
    // folder, but as no trusted link: a run must not start on a file whose meaning differs by setting).
    [
      { access: { quarantine: 'Private' } },
      'access.quarantine',
      'access.quarantine must be a list of vault folders in brackets, not one folder\'s text (found "Private"); write it as ["Private"].',
    ],
    [
      { access: { trustedSymlinks: 'Shared/Team' } },
      'access.trustedSymlinks',
      'access.trustedSymlinks must be a list of vault folders in brackets, not one folder\'s text (found "Shared/Team"); write it as ["Shared/Team"].',
    ],
    [{ keys: [{ label: 'a', roots: 'Projects' }] }, 'keys[0].roots', /^keys\[0\]\.roots must be .*; write it as \["Projects"\]\.$/],
    [
      { access: { trustedSymlinks: 5 } },
      'access.trustedSymlinks',
      'access.trustedSymlinks must be a list of vault folders in quotes, such as ["Private"] (found 5); correct it, or remove it to use the default.',
    ],
    [{ ai: { changed_at: 5 } }, 'ai.changed_at', /^ai\.changed_at must be text in quotes \(found 5\);/],
    [{ server: { changed_at: null } }, 'server.changed_at', /^server\.changed_at must be text in quotes \(found null\);/],
    [
      { access: { quarantine: ['a', 3] } },
      'access.quarantine[1]',
      'access.quarantine[1] must be text in quotes (found 3); correct it, or remove it to use the default.',
    ],
    // Per-entry times of the access lists (settings/access-entries.ts): a time that does not read as one is refused.
    [
      { access: { entryTimes: 'x' } },
      'access.entryTimes',
      /^access\.entryTimes must be an object of quarantine and trustedSymlinks times in braces \(found "x"\);/,
    ],
    [
      { access: { entryTimes: { quarantine: { Journal: { removed: 'yesterday' } } } } },
      'access.entryTimes.quarantine.Journal.removed',
      /^access\.entryTimes\.quarantine\.Journal\.removed must be a date and time in quotes, such as "2026-01-31T09:00:00\.000Z" \(found "yesterday"\);/,
    ],
    [
      { access: { entryTimes: { trustedSymlinks: { Shared: { added: 5 } } } } },
      'access.entryTimes.trustedSymlinks.Shared.added',
      /must be a date and time in quotes, such as "2026-01-31T09:00:00\.000Z" \(found 5\);/,
    ],
    [
      { access: { entryTimes: { quarantine: { Journal: 'removed' } } } },
      'access.entryTimes.quarantine.Journal',
      /must be an object of "added" and "removed" times in braces/,
    ],
    [
      { access: { entryTimes: { quarantine: { Journal: { gone: NEVER_CHANGED } } } } },
      'access.entryTimes.quarantine.Journal.gone',
      /is not a setting/,
    ],
    [{ server: { port: 80 } }, 'server.port', /^server\.port must be a whole number from 1024 to 65535 \(found 80\);/],
    // A limit under the smallest request refused every request, initialize too, as "larger than 1 bytes" (a newcomer s35).
    [
      { server: { maxBodyBytes: 1 } },
      'server.maxBodyBytes',
      /^server\.maxBodyBytes must be a whole number of bytes from 65536 up .*\(found 1\);/,
    ],
    [{ server: { port: '27200' } }, 'server.port', /\(found "27200"\)/],
    [{ server: { enabled: 'yes' } }, 'server.enabled', /^server\.enabled must be true or false \(found "yes"\);/],
    [{ tools: [] }, 'tools', /^tools must be an object of tool settings in braces \(found a list\);/],
    [{ tools: { enabled: { search: 1 } } }, 'tools.enabled.search', /must be true or false \(found 1\)/],
    [
      { tools: { enabled: { serch: true } } },
      'tools.enabled.serch',
      /^tools\.enabled\.serch is not a tool of Vault MCP; correct the name or remove it \(tools: search, /,
    ],
    [{ keys: {} }, 'keys', /^keys must be a list of key objects in brackets \(found an object\);/],
    [
      { keys: [{ label: 'a', mode: 'forse' }] },
      'keys[0].mode',
      'keys[0].mode must be "propose" or "force" (found "forse"); correct it, or remove it to use the default.',
    ],
    [{ keys: [{ label: 'a', id: 'Upper' }] }, 'keys[0].id', /^keys\[0\]\.id must be lowercase letters, digits and dashes/],
    [{ keys: [{ mode: 'force' }] }, 'keys[0].label', /^keys\[0\]\.label is missing; give every key a label/],
    [{ keys: [{ label: ' ' }] }, 'keys[0].label', /^keys\[0\]\.label is empty;/],
    [
      { keys: [{ label: 'a' }, { label: 'a' }] },
      'keys[1].label',
      'keys[1].label "a" is also the label of keys[0]; give each key its own label.',
    ],
    [
      {
        keys: [
          { label: 'a', id: 'x' },
          { label: 'b', id: 'x' },
        ],
      },
      'keys[1].id',
      /^keys\[1\]\.id "x" is also the id of keys\[0\];/,
    ],
    [{ ai: { provider: 'ollama' } }, 'ai.provider', /^ai\.provider must be "openai-compatible" or "anthropic" \(found "ollama"\);/],
    [{ ai: { semanticIndex: 1 } }, 'ai.semanticIndex', /must be true or false/],
    [
      { keys: [{ label: 'a', tools: 'none' }] },
      'keys[0].tools',
      /^keys\[0\]\.tools must be "all", "read" or a list of tool names in quotes \(found "none"\);/,
    ],
    [
      { keys: [{ label: 'a', tools: ['search', 'serch'] }] },
      'keys[0].tools',
      /^keys\[0\]\.tools names "serch", which is not a tool of Vault MCP;/,
    ],
    [
      { tools: { fieldTimes: { allowWrites: 0 } } },
      'tools.fieldTimes.allowWrites',
      /^tools\.fieldTimes\.allowWrites must be a date and time in quotes, such as "2026-01-31T09:00:00\.000Z" \(found 0\);/,
    ],
    [{ server: { fieldTimes: { enabled: 'yesterday' } } }, 'server.fieldTimes.enabled', /must be a date and time in quotes/],
    [
      { ai: { fieldTimes: [] } },
      'ai.fieldTimes',
      /^ai\.fieldTimes must be an object of field names to the times they last changed in braces/,
    ],
    [
      { server: { fieldTimes: { enable: NEVER_CHANGED } } },
      'server.fieldTimes.enable',
      'server.fieldTimes.enable is not a field of server; write one of enabled, port, maxBodyBytes, or remove it.',
    ],
    [
      { ai: { fieldTimes: { baseUrl: NEVER_CHANGED } } },
      'ai.fieldTimes.baseUrl',
      'ai.fieldTimes.baseUrl is not a field of ai; write one of enabled, allowRemote, endpoint, embeddingModel, semanticIndex, or remove it.',
    ],
    [
      { tools: { fieldTimes: { write_note: NEVER_CHANGED } } },
      'tools.fieldTimes.write_note',
      'tools.fieldTimes.write_note is not a field of tools; write one of allowWrites, enabled.<tool name>, or remove it.',
    ],
    [
      { tools: { fieldTimes: { 'enabled.serch': NEVER_CHANGED } } },
      'tools.fieldTimes.enabled.serch',
      /^tools\.fieldTimes\.enabled\.serch names "serch", which is not a tool of Vault MCP; correct the name or remove it \(tools: search, /,
    ],
    [
      { keys: [{ label: 'a', fieldTimes: { changed_at: NEVER_CHANGED } }] },
      'keys[0].fieldTimes.changed_at',
      'keys[0].fieldTimes.changed_at is not a field of keys[0]; write one of label, mode, scope, roots, tools, or remove it.',
    ],
    [
      { schemaVersion: 99 },
      'schemaVersion',
      /^schemaVersion 99 was written by a newer Vault MCP \(this one reads up to 1\); update Vault MCP,/,
    ],
  ])('refuses %j, naming %s', (data, key, message) => {
    const verdict = checkSettingsData(data, { toolNames });
    expect(verdict).toMatchObject({ ok: false, key });
    if (verdict.ok) return;
    expect(verdict.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    // One sentence: a single full stop, at the end.
    expect(verdict.message.replace(/\.\.\.|\d\.\d|"[^"]*"/g, '').match(/\.(\s|$)/g)).toHaveLength(1);
  });

  it('quotes a long wrong value only in part', () => {
    const verdict = checkSettingsData({ skills: { folder: 12 }, widgets: { folder: 'x'.repeat(500) } });
    expect(verdict).toMatchObject({ ok: false, key: 'skills.folder' });
    const long = checkSettingsData({ server: { port: 'x'.repeat(500) } });
    expect(long.ok ? '' : long.message.length).toBeLessThan(200);
  });
});
