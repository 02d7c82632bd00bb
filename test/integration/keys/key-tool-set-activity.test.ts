import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import type { KeyToolSet } from '../../../src/settings/key-record';
import { connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { bootWithToolSetKeys, toolSetKeyToken } from '../../harness/server/tool-set-keys';
import type { Json } from '../../harness/edits/write-helpers';

const WRITES = ['write_note', 'edit_note', 'delete_note', 'move_note', 'proposal_status'];

/** The keys beside the run's (all tools, force), by label: mode and tool set. */
const KEYS: Record<string, { mode: 'force' | 'propose'; tools: KeyToolSet }> = {
  // Neither reads nor lists notes.
  Blind: { mode: 'force', tools: WRITES },
  BlindProposer: { mode: 'propose', tools: WRITES },
  // Reads the notes it names, lists none.
  Reader: { mode: 'force', tools: ['read_note', ...WRITES] },
};

/** Each key's notes: `<label>-<n>.md`, every line a marker a key that cannot read notes never sent. */
function filesOf(label: string): Record<string, string> {
  return {
    [`${label}-body.md`]: `ZQBODY ${label} first\nZQBODY second\n`,
    [`${label}-line.md`]: `ZQHEAD before ANCHOR${label} ZQTAIL after\nZQOTHER line\n`,
    [`${label}-gone.md`]: `ZQGONE ${label} secret\nZQGONE more\n`,
    [`${label}-target.md`]: 'target\n',
    [`${label}-ZQLINKER.md`]: `see [[${label}-target]]\n`,
  };
}

/**
 * What proposal_status's `activity` shows a key of its own changes follows its tool set, as its
 * refusals do (docs/security.md#keys, tool-set-routes.ts toolSetSight): the text of notes (the lines a
 * change removed, the whole line an anchor stood in, a deleted note's text) only to a key that reads
 * notes, the notes whose links a move rewrote only to a key that lists notes. Before, a key given only
 * write tools and proposal_status read up to 12 lines of every note it overwrote or deleted there, and
 * the names of the notes linking to one it moved.
 */
describe("proposal_status's activity shows note text and names only as the key's tool set does", () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let done: () => Promise<void>;
  const clients = new Map<string, Client>();

  beforeAll(async () => {
    ({ booted, done } = await bootWithToolSetKeys(
      'vault-mcp-toolset-activity-',
      Object.assign({}, ...Object.keys(KEYS).map(filesOf)),
      KEYS,
    ));
    for (const label of Object.keys(KEYS)) clients.set(label, await connectClient(booted.url, toolSetKeyToken(label)));
  });
  afterAll(async () => {
    for (const client of clients.values()) await client.close();
    await done();
  });

  /** Calls `tool` as `label`; for a propose key the user accepts what it staged. */
  async function write(label: string, tool: string, args: Json): Promise<void> {
    const result = await clients.get(label)!.callTool({ name: tool, arguments: args });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as Json;
    if (out.status === 'pending') expect(await booted.plugin.review.accept(String(out.proposal_id))).toMatchObject({ applied: 1 });
  }

  /** Every change of the key's notes, then its activity as proposal_status answers it (JSON). */
  async function activityAfterWrites(label: string): Promise<{ text: string; entries: Json[] }> {
    await write(label, 'write_note', { path: `${label}-body`, body: 'AGENT BODY\n' });
    await write(label, 'edit_note', { path: `${label}-line`, anchor: `ANCHOR${label}`, op: 'replace', content: 'AGENT WORD' });
    await write(label, 'delete_note', { path: `${label}-gone`, confirm: true });
    await write(label, 'move_note', { path: `${label}-target`, to: `Moved/${label}-renamed` });
    const result = await clients.get(label)!.callTool({ name: 'proposal_status', arguments: { activity: true } });
    expect(result.isError).toBeFalsy();
    const entries = (result.structuredContent as Json).activity as Json[];
    expect(entries).toHaveLength(4);
    return { text: JSON.stringify(result.structuredContent), entries };
  }

  test.each(['Blind', 'BlindProposer'])('%s (write tools only): no note text, no linking note, in any mode', async (label) => {
    const { text, entries } = await activityAfterWrites(label);
    for (const marker of ['ZQBODY', 'ZQHEAD', 'ZQTAIL', 'ZQOTHER', 'ZQGONE', 'ZQLINKER']) expect(text).not.toContain(marker);
    // What the key knows stays: the paths it named, the hashes, where each change went and how many lines it touched.
    const byTool = Object.fromEntries(entries.map((e) => [e.tool, e]));
    expect(byTool.write_note).toMatchObject({ path: `${label}-body.md`, hash_before: expect.any(String), hash_after: expect.any(String) });
    expect(byTool.write_note.diff).toMatch(/^@@ Line 1\n2 lines removed, 1 added \(this key cannot read notes: ask the user\)\.$/);
    expect(byTool.delete_note.diff).toMatch(/^@@ Line 1\n2 lines removed, 0 added /);
    expect(byTool.move_note.diff).toBe(
      `${label}-target.md → Moved/${label}-renamed.md\nLinks to it updated in 1 note (this key cannot list notes: ask the user).`,
    );
  });

  test('a key that reads notes sees the lines its change removed; the linking note only with a listing tool', async () => {
    const { text, entries } = await activityAfterWrites('Reader');
    expect(text).toContain('ZQBODY Reader first');
    expect(text).toContain('ZQHEAD before AGENT WORD ZQTAIL after');
    expect(text).toContain('ZQGONE Reader secret');
    expect(text).not.toContain('ZQLINKER');
    expect(entries.find((e) => e.tool === 'move_note')?.diff).toContain('Links to it updated in 1 note (this key cannot list notes');
  });
});
