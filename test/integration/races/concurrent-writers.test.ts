/** @jest-environment ./test/harness/env/jsdom-node-env.js */
// Issue 12, "Load": 8 agents write to the same notes, 4 in force mode and 4 in propose mode,
// while the user types into the same notes in open editors and accepts proposals as they come.
// Afterwards every change that was reported applied or accepted, and every character the user
// typed, is in the file. Asserts on content only, never on time.
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { StateEffect, Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import type { MarkdownView, TFile } from '../../host/index';
import { seededRandom } from '../../harness/seeded-random';
import { AGENT_WRITE_USER_EVENT } from '../../../src/ui/review/workspace-editors';
import { ACCEPT_USER_EVENT } from '../../../src/editor/review-actions';

const NOTES = ['Inbox.md', 'Ideas.md'];
const AGENTS = 8;
const WRITES_PER_AGENT = 6;
/** How often a force agent reads again and retries after a conflict before giving up on one write. */
const RETRIES = 60;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('8 agents and the user on the same notes', () => {
  let copy: Awaited<ReturnType<typeof copyToTemp>>;
  let env: BootedPlugin<VaultMcpPlugin>;
  const clients: Client[] = [];

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    env = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode: 'force', label: 'agent-0', allowWrites: true });
    (env.app.workspace as unknown as { saveDelayMs: number }).saveDelayMs = 40;
    clients.push(await connectClient(env.url, env.token, 'agent-0'));
    for (let i = 1; i < AGENTS; i++) {
      const { token } = await env.plugin.keyRing.mint({ label: `agent-${i}`, mode: i < AGENTS / 2 ? 'force' : 'propose' });
      clients.push(await connectClient(env.url, token, `agent-${i}`));
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await env.plugin.proposals.flush();
    await env.stop();
    await copy.cleanup();
  });

  /** read_note's hash, then append_note with expected_hash, again on conflict; @returns whether the write was applied. */
  async function forceAppend(client: Client, path: string, line: string): Promise<boolean> {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const read = await client.callTool({ name: 'read_note', arguments: { path } });
      const hash = (read.structuredContent as { hash: string }).hash;
      const result = await client.callTool({ name: 'append_note', arguments: { path, content: line, expected_hash: hash } });
      if (!result.isError) return (result.structuredContent as { status: string }).status === 'applied';
      const text = (result.content as Array<{ text: string }>)[0].text;
      if (!/changed since you read it|kept changing/.test(text)) throw new Error(`append_note failed: ${text}`);
      await pause(2 + attempt);
    }
    return false;
  }

  /** The user types `word` one character at a time at the cursor of `cm` (the cursor follows others' changes). */
  async function typeWord(cm: EditorView, word: string, random: () => number): Promise<void> {
    for (const ch of word) {
      cm.dispatch({ ...cm.state.replaceSelection(ch), userEvent: 'input.type' });
      await pause(Math.floor(random() * 4));
    }
  }

  it('every applied write, every accepted proposal and every keystroke ends up in the file', async () => {
    const random = seededRandom(12);
    const views = new Map<string, MarkdownView>();
    for (const path of NOTES) {
      const file = env.app.vault.getFileByPath(path) as unknown as TFile;
      const view = (await env.app.workspace.openNote(file, { newLeaf: 'tab' })) as unknown as MarkdownView;
      const cm = (view.editor as unknown as { cm: EditorView }).cm;
      // The cursor at the end of the title line (`# ...`): the user types there.
      const text = cm.state.doc.toString();
      cm.dispatch({ selection: { anchor: text.indexOf('\n', text.search(/^# /m)) } });
      views.set(path, view);
    }
    const applied: Array<{ path: string; line: string }> = [];
    const proposed: Array<{ id: string; path: string; line: string }> = [];
    let agentsDone = false;

    const agents = clients.map(async (client, i) => {
      const force = i < AGENTS / 2;
      for (let k = 0; k < WRITES_PER_AGENT; k++) {
        const path = NOTES[(i + k) % NOTES.length];
        const line = `- agent ${i} write ${k} ${force ? 'forced' : 'proposed'}`;
        if (force) {
          if (await forceAppend(client, path, line)) applied.push({ path, line });
        } else {
          const result = await client.callTool({ name: 'append_note', arguments: { path, content: line } });
          expect(result.isError).toBeFalsy();
          proposed.push({ id: (result.structuredContent as { proposal_id: string }).proposal_id, path, line });
        }
        await pause(Math.floor(random() * 10));
      }
    });
    const typed: Array<{ path: string; word: string }> = [];
    const user = (async () => {
      for (let j = 0; j < 12; j++) {
        const path = NOTES[j % NOTES.length];
        const word = ` user${j}typed`;
        await typeWord((views.get(path)!.editor as unknown as { cm: EditorView }).cm, word, random);
        typed.push({ path, word });
      }
    })();
    const reviewer = (async () => {
      while (!agentsDone || env.plugin.proposals.pending().length > 0) {
        const next = env.plugin.proposals.pending()[0];
        if (!next) {
          await pause(5);
          continue;
        }
        // A note that kept changing through every try of the accept applies nothing and says to
        // try again: the reviewer does, as a person would.
        const outcome = await env.plugin.review.accept(next.id).catch((err: Error) => {
          if (/kept changing .* try again/.test(err.message)) return null;
          throw err;
        });
        if (outcome === null) continue;
        // A hunk that no longer applies stays for the user to reject: they do.
        if (outcome.proposal.status === 'pending') await env.plugin.review.reject(next.id);
      }
    })();
    await Promise.all([...agents, user]);
    agentsDone = true;
    await reviewer;
    for (const view of views.values()) await (view as unknown as { save(): Promise<void> }).save();
    await env.plugin.proposals.flush();

    const files = new Map<string, string>();
    for (const path of NOTES) files.set(path, await fsp.readFile(nodePath.join(copy.dir, path), 'utf8'));
    const accepted = proposed.filter(({ id }) => env.plugin.proposals.get(id)!.status === 'accepted');
    expect(applied.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    const missing = [
      ...applied.filter(({ path, line }) => !files.get(path)!.includes(line)).map((w) => `applied: ${w.line} in ${w.path}`),
      ...typed.filter(({ path, word }) => !files.get(path)!.includes(word)).map((w) => `typed: ${w.word} in ${w.path}`),
    ];
    for (const { path, line } of accepted) if (!files.get(path)!.includes(line)) missing.push(`accepted: ${line} in ${path}`);
    expect(missing).toEqual([]);
  });

  it('a force write to a note with unsaved typing goes into the editor, which is saved at once: both are in the file, Ctrl+Z takes the write back', async () => {
    const file = env.app.vault.getFileByPath('Reading list.md') as unknown as TFile;
    const view = (await env.app.workspace.openNote(file, { newLeaf: 'tab' })) as unknown as MarkdownView;
    (env.app.workspace as unknown as { saveDelayMs: number }).saveDelayMs = 60_000;
    const cm = (view.editor as unknown as { cm: EditorView }).cm;
    cm.dispatch({ changes: { from: 0, insert: 'UNSAVED TYPING\n' }, userEvent: 'input.type' });
    const events: string[] = [];
    cm.dispatch({
      effects: StateEffect.appendConfig.of(
        EditorView.updateListener.of((u) => u.transactions.forEach((tr) => events.push(String(tr.annotation(Transaction.userEvent))))),
      ),
    });
    const result = await clients[0].callTool({ name: 'append_note', arguments: { path: 'Reading list', content: 'forced line' } });
    expect(result.structuredContent).toMatchObject({ status: 'applied' });
    expect(events).toContain(AGENT_WRITE_USER_EVENT);
    expect(events).not.toContain(ACCEPT_USER_EVENT);
    expect(cm.state.doc.toString()).toMatch(/^UNSAVED TYPING\n[\s\S]*forced line\n$/);
    // Saved with the answer (judged on the disk right before), not left for Obsidian's own save (here 60 s away).
    expect(await fsp.readFile(nodePath.join(copy.dir, 'Reading list.md'), 'utf8')).toBe(cm.state.doc.toString());
    view.editor.undo();
    expect(cm.state.doc.toString()).toMatch(/^UNSAVED TYPING\n/);
    expect(cm.state.doc.toString()).not.toContain('forced line');
  });
});
