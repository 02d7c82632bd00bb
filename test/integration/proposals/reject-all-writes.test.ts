/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { EditorView } from '@codemirror/view';
import type { MarkdownView, TFile } from '../../host/index';
import { rejectAll } from '../../../src/editor/review-actions';
import { reviewHunksOf } from '../../../src/editor/review-state';
import { bootFilesEnv, call, type WriteEnv } from '../../harness/edits/write-helpers';
import { waitUntil } from '../../harness/wait-until';

const LINES = Array.from({ length: 60 }, (_, i) => `line ${i}`);

/**
 * The editor's "Reject all" records every hunk of the note in one decision (ProposalReview.rejectHunks,
 * ProposalStore.rejectHunks): one write of proposals.json, all or nothing. Before, it rejected hunk by
 * hunk, each waiting for its own write of the file: 30 hunks, 30 writes.
 */
describe('Reject all in the editor', () => {
  let env: WriteEnv | null = null;
  afterEach(async () => {
    jest.restoreAllMocks();
    await env?.done();
    env = null;
  });

  test('30 hunks of two proposals: one write of proposals.json, every hunk rejected in it', async () => {
    env = await bootFilesEnv('vault-mcp-reject-all-', { 'N.md': `${LINES.join('\n')}\n` }, { mode: 'propose', allowWrites: true });
    // Two proposals on the note: every fourth line changed by one, the lines between by the other: 30 hunks in all.
    const first = LINES.map((l, i) => (i % 4 === 0 ? `${l} FIRST` : l)).join('\n');
    const second = LINES.map((l, i) => (i % 4 === 2 ? `${l} SECOND` : l)).join('\n');
    const a = await call(env.client, 'write_note', { path: 'N', body: `${first}\n` });
    const b = await call(env.client, 'write_note', { path: 'N', body: `${second}\n` });
    const view = (await env.booted.app.workspace.openNote(env.booted.app.vault.getFileByPath('N.md') as TFile)) as unknown as MarkdownView;
    const cm = (view.editor as unknown as { cm: EditorView }).cm;
    await waitUntil(() => reviewHunksOf(cm.state).length === 30, 'the 30 hunks shown inline');
    await env.booted.plugin.proposals.flush();

    const writeFile = fsp.writeFile.bind(fsp);
    let writes = 0;
    jest.spyOn(fsp, 'writeFile').mockImplementation(async (file, data, options) => {
      if (typeof file === 'string' && file.includes('proposals.json')) writes++;
      return writeFile(file, data, options);
    });
    expect(await rejectAll(cm)).toBe(30);
    await env.booted.plugin.proposals.flush();
    expect(writes).toBe(1);
    for (const id of [a.proposal_id, b.proposal_id]) expect(env.booted.plugin.proposals.get(String(id))?.status).toBe('rejected');
    const onDisk = JSON.parse(
      await fsp.readFile(nodePath.join(env.dir, '.obsidian', 'plugins', 'vault-mcp', 'proposals.json'), 'utf8'),
    ) as { proposals: Array<{ status: string }> };
    expect(onDisk.proposals.map((p) => p.status)).toEqual(['rejected', 'rejected']);
    expect(cm.state.doc.toString()).toBe(`${LINES.join('\n')}\n`);
  });
});
