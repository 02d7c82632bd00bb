import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { call, writeVaultFiles } from '../../harness/edits/write-helpers';

/** An fs error as Node raises it. */
function fsError(code: string, path: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = { ENOSPC: 'no space left on device', EACCES: 'permission denied' };
  return Object.assign(new Error(`${code}: ${messages[code]}, write '${path}'`), { code, syscall: 'write', path });
}

const FILES = { 'A.md': 'alpha\n', 'B.md': 'beta\n', 'C.md': 'gamma\n' };

/**
 * Accepting or rejecting a proposal is all or nothing (ProposalDecisions.decideAll, docs/reliability.md):
 * the decision is saved to proposals.json before the note is changed, put back in memory when that
 * write fails, and taken back (in memory and in the file) when the note's change then fails. Before,
 * the decision stayed in memory when the file could not be written: the views showed the proposal
 * decided (and an accept had changed the note) while the file still held it pending, so after a
 * restart it came back, its change already in the note.
 */
describe('a decision the proposals file or the note refuses changes nothing', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin> | null = null;

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-decision-faults-'));
    await writeVaultFiles(dir, FILES);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await booted?.stop();
    booted = null;
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const disk = (path: string): Promise<string | null> => fsp.readFile(nodePath.join(dir, path), 'utf8').catch(() => null);
  const boot = async (): Promise<BootedPlugin<VaultMcpPlugin>> =>
    (booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'propose', allowWrites: true }));
  const restart = async (): Promise<BootedPlugin<VaultMcpPlugin>> => {
    await booted!.plugin.proposals.flush();
    await booted!.stop();
    return boot();
  };

  /** Makes every write of a file whose path holds `part` fail with `code` (a plugin file's temp copy after half its bytes). */
  function failWritesTo(part: string, code: string): void {
    const writeFile = fsp.writeFile.bind(fsp);
    jest.spyOn(fsp, 'writeFile').mockImplementation(async (file, data, options) => {
      if (typeof file === 'string' && file.includes(part)) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data as Uint8Array);
        if (file.includes('.partial') || file.includes('.tmp')) await writeFile(file, bytes.subarray(0, bytes.length >> 1));
        throw fsError(code, file);
      }
      return writeFile(file, data, options);
    });
  }

  /** Stages an edit of A, a delete of B and an edit of C; @returns their proposal ids. */
  async function stage(): Promise<{ edit: string; del: string; other: string }> {
    const client = await connectClient(booted!.url, booted!.token);
    try {
      const edit = await call(client, 'edit_note', { path: 'A', anchor: 'alpha', op: 'replace', content: 'ALPHA' });
      const del = await call(client, 'delete_note', { path: 'B', confirm: true });
      const other = await call(client, 'edit_note', { path: 'C', anchor: 'gamma', op: 'replace', content: 'GAMMA' });
      return { edit: String(edit.proposal_id), del: String(del.proposal_id), other: String(other.proposal_id) };
    } finally {
      await client.close();
    }
  }

  test('the proposals file full: accept and reject refused with the reason, the notes and the proposals as they were, also after a restart', async () => {
    await boot();
    const ids = await stage();
    failWritesTo('proposals.json', 'ENOSPC');
    const review = booted!.plugin.review;
    const errors = [
      await review.accept(ids.edit).catch((e: Error) => e),
      await review.accept(ids.del).catch((e: Error) => e),
      await review.reject(ids.other).catch((e: Error) => e),
      await review.reject(ids.edit, 0).catch((e: Error) => e),
    ];
    // What the views show is what the file holds: every proposal pending, no note changed.
    expect({ A: await disk('A.md'), B: await disk('B.md'), C: await disk('C.md') }).toEqual({ A: 'alpha\n', B: 'beta\n', C: 'gamma\n' });
    for (const id of Object.values(ids)) expect(booted!.plugin.proposals.get(id)).toMatchObject({ status: 'pending', decisions: {} });
    expect(booted!.plugin.proposals.get(ids.edit)?.proposed_text).toBe('ALPHA\n');
    expect(booted!.plugin.activity.all()).toEqual([]);
    for (const error of errors)
      expect(String((error as Error).message)).toMatch(
        /^Cannot write the proposals file: the disk is full \(ENOSPC\); nothing was decided\./,
      );
    jest.restoreAllMocks();

    await restart();
    for (const id of Object.values(ids)) expect(booted!.plugin.proposals.get(id)).toMatchObject({ status: 'pending', decisions: {} });

    // The note refusing the accepted change: the decision, saved first, is taken back in memory and in the file.
    failWritesTo(nodePath.join(dir, 'A.md'), 'EACCES');
    const refused = await booted!.plugin.review.accept(ids.edit);
    expect(refused).toMatchObject({ applied: 0, proposal: { status: 'stale', stale_reason: expect.stringMatching(/not writable/) } });
    expect(booted!.plugin.proposals.get(ids.edit)).toMatchObject({ status: 'pending', decisions: {}, proposed_text: 'ALPHA\n' });
    jest.restoreAllMocks();
    expect(await disk('A.md')).toBe('alpha\n');
    await restart();
    expect(booted!.plugin.proposals.get(ids.edit)).toMatchObject({ status: 'pending', decisions: {} });

    // Once the disk has room and the note may be written, the same accept goes through.
    expect(await booted!.plugin.review.accept(ids.edit)).toMatchObject({ applied: 1 });
    expect(await disk('A.md')).toBe('ALPHA\n');
    expect(booted!.plugin.proposals.get(ids.edit)).toMatchObject({ status: 'accepted' });
  });
});
