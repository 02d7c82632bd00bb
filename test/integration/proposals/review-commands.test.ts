import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { runReviewCommand, SHOW_MAX_LINES } from '../../../src/ui/review/review-commands';
import { runActivityCommand } from '../../../src/ui/activity/activity-commands';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { call } from '../../harness/edits/write-helpers';

/**
 * Issue 19's review fixes in the terminal (the standard input of `npm start`, the same
 * commands as the Obsidian CLI handlers): accept all / reject all for a note or a key, `show`
 * of a huge proposal cut with a way to see the rest (a long line shown whole over several lines), agent text
 * with control and bidi characters written out (F4 of the s22 newcomer pass), the state after accepting one of two
 * hunks, the stale reason of an expected_hash proposal, and an insertion after a last line
 * without a final newline shown as an insertion.
 */
describe('terminal review commands', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const disk = (p: string): Promise<string> => fsp.readFile(nodePath.join(dir, p), 'utf8');
  const run = (line: string): Promise<string> => runReviewCommand(booted.plugin, line);

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-review-'));
    await fsp.writeFile(nodePath.join(dir, 'A.md'), 'one\ntwo\nthree\nfour\nfive\n');
    await fsp.writeFile(nodePath.join(dir, 'B.md'), 'hello');
    await fsp.writeFile(nodePath.join(dir, 'C note.md'), 'c\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'propose', allowWrites: true, label: 'Agent One' });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  test('accepting one of two hunks says how many still await review, not "it is now pending"', async () => {
    const staged = await call(client, 'write_note', { path: 'A', body: 'ONE\ntwo\nthree\nfour\nFIVE\n' });
    const answer = await run(`accept ${staged.proposal_id} 0`);
    expect(answer).toBe(`Accepted 1 change of ${staged.proposal_id} on A.md; 1 change of it still awaits review.`);
    expect(await run(`reject ${staged.proposal_id} 1`)).toBe(`Rejected hunk 1 of ${staged.proposal_id}; it is now partly accepted.`);
    // Rejecting the whole proposal after one hunk was accepted rejects the rest; the answer says the accepted one stays.
    const three = await call(client, 'write_note', { path: 'C note', body: 'X\nc\nY\n' });
    expect(await run(`accept ${three.proposal_id} 0`)).toMatch(/^Accepted 1 change of /);
    expect(await run(`reject ${three.proposal_id}`)).toBe(
      `Rejected the rest of proposal ${three.proposal_id} (the changes accepted before stay); it is now partly accepted.`,
    );
  });

  test('two appends to one note both land with accept all, in the order staged; the user appending meanwhile keeps theirs first', async () => {
    // A newcomer's inbox: the second append went stale once the first was accepted ("can only be rejected").
    const first = await call(client, 'append_note', { path: 'A', content: '- idea one' });
    const second = await call(client, 'append_note', { path: 'A', content: '- idea two' });
    const answer = await run('accept all');
    expect(answer).toContain(`Accepted 1 change of ${first.proposal_id} on A.md; it is now accepted.`);
    expect(answer).toContain(`Accepted 1 change of ${second.proposal_id} on A.md; it is now accepted.`);
    expect(answer).not.toMatch(/stale/);
    expect(await disk('A.md')).toBe('one\ntwo\nthree\nfour\nfive\n- idea one\n- idea two\n');
    const third = await call(client, 'append_note', { path: 'A', content: '- idea three' });
    await fsp.appendFile(nodePath.join(dir, 'A.md'), 'typed by me\n');
    await booted.app.vault.syncFromDisk();
    expect(await run(`accept ${third.proposal_id}`)).toMatch(/^Accepted/);
    expect(await disk('A.md')).toBe('one\ntwo\nthree\nfour\nfive\n- idea one\n- idea two\ntyped by me\n- idea three\n');
  });

  test('a proposal staged with expected_hash that went stale names that cause', async () => {
    const { hash } = await call(client, 'read_note', { path: 'A' });
    const staged = await call(client, 'edit_note', { path: 'A', anchor: 'three', op: 'replace', content: 'THREE', expected_hash: hash });
    await fsp.appendFile(nodePath.join(dir, 'A.md'), 'six\n');
    await booted.app.vault.syncFromDisk();
    const status = (await call(client, 'proposal_status', { id: staged.proposal_id })).proposal;
    expect(status).toMatchObject({
      status: 'stale',
      stale_reason: expect.stringMatching(/^The note changed since the agent read it, and the change was proposed with expected_hash/),
    });
    expect(await run('proposals')).toMatch(/expected_hash/);
    // accept all's summary counts what happened: nothing was applied (it said only "1 proposal"; newcomer finding, session 39).
    expect((await run('accept all')).split('\n').pop()).toBe(
      'Accept all: 1 proposal, 0 accepted, 1 stale; each line above says what happened.',
    );
  });

  test('proposing "hello\\nworld" over "hello" shows an insertion of world, and accepts to exactly that text', async () => {
    const staged = await call(client, 'write_note', { path: 'B', body: 'hello\nworld' });
    expect(staged.hunks).toEqual([{ index: 0, line: 2, removed_lines: 0, added_lines: 1 }]);
    const shown = await run(`show ${staged.proposal_id}`);
    expect(shown.split('\n').slice(1)).toEqual(['  hunk 0 at line 2:', '  + world']);
    await run(`accept ${staged.proposal_id}`);
    expect(await disk('B.md')).toBe('hello\nworld');
    const eol = await call(client, 'write_note', { path: 'B', body: 'hello\nworld\n' });
    expect((await run(`show ${eol.proposal_id}`)).split('\n').slice(1)).toEqual([
      '  hunk 0 at line 2:',
      '  \\ adds the line break at the end of the note',
    ]);
  });

  test('show, proposals, accept and activity write out control and bidi characters, and show a long line whole', async () => {
    // eslint-disable-next-line no-control-regex -- what a terminal acts on: controls but the line feed, bidi controls
    const actedOn = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const hidden = 'harmless line\u001b[8m HIDDEN: rm -rf everything\u001b[0m\nlooks fine\rEVIL OVERWRITE\u001b[1A\u001b[2K\n';
    const bidi = 'total \u202E0001\u202C and \u2066x\u2069 csi\u009b2J bell\u0007 del\u007f\n';
    const long = `Nice summary line.${' '.repeat(400)}HIDDEN PAYLOAD [[evil]] rm -rf\n`;
    const staged = await call(client, 'append_note', { path: 'A', content: hidden + bidi + long });
    const shown = await run(`show ${staged.proposal_id}`);
    // Nothing a terminal acts on is printed: only line feeds and printable text.
    expect(shown).not.toMatch(actedOn);
    expect(shown).toContain('  + harmless line\\x1b[8m HIDDEN: rm -rf everything\\x1b[0m');
    // A lone CR is kept as written in a note with LF line endings: shown as \r, so it cannot move the terminal's cursor.
    expect(shown).toContain('  + looks fine\\rEVIL OVERWRITE\\x1b[1A\\x1b[2K');
    expect(shown).toContain('  + total <U+202E>0001<U+202C> and <U+2066>x<U+2069> csi<U+009B>2J bell\\x07 del\\x7f');
    // The long line is shown whole: its first 300 chars, then the rest on a `+…` line.
    const listing = shown.split('\n');
    const at = listing.findIndex((l) => l.startsWith('  + Nice summary line.'));
    expect(listing[at]).toBe(`  + Nice summary line.${' '.repeat(300 - 'Nice summary line.'.length)}`);
    expect(listing[at + 1]).toBe(`  +… ${' '.repeat(118)}HIDDEN PAYLOAD [[evil]] rm -rf`);
    expect(await run('proposals')).toContain(staged.proposal_id);
    const accepted = await run(`accept ${staged.proposal_id}`);
    expect(accepted).toMatch(/^Accepted 1 change/);
    expect(await disk('A.md')).toBe(`one\ntwo\nthree\nfour\nfive\n${hidden}${bidi}${long}`);
    const entry = booted.plugin.activity.all()[0];
    const activity = (await runActivityCommand(booted.plugin, `activity ${entry.id}`)) ?? '';
    expect(activity).not.toMatch(actedOn);
    expect(activity).toContain('+harmless line\\x1b[8m HIDDEN');
    expect(activity).toContain('HIDDEN PAYLOAD');
  });

  test('a write that changes nothing stages nothing and says so; an empty proposal staged before closes on accept', async () => {
    await fsp.writeFile(nodePath.join(dir, 'P.md'), '---\ntitle: t\n---\nbody\n');
    await booted.app.vault.syncFromDisk();
    const { hash } = await call(client, 'read_note', { path: 'P' });
    const message = "Nothing to change: 'P.md' already reads that way, so nothing was written, staged or logged.";
    for (const [tool, args] of [
      ['set_properties', { path: 'P', properties: { title: 't' } }],
      ['edit_note', { path: 'P', anchor: 'body', op: 'replace', content: 'body' }],
      ['write_note', { path: 'P', body: 'body\n' }],
    ] as const)
      expect([tool, await call(client, tool, args)]).toEqual([tool, { status: 'unchanged', path: 'P.md', hash, message }]);
    // Deleting a property the note lacks changes nothing too, and names the property (most often a misspelt name).
    expect(await call(client, 'set_properties', { path: 'P', properties: { nonexistent: null } })).toEqual({
      status: 'unchanged',
      path: 'P.md',
      hash,
      message,
      note: "The note has no property 'nonexistent' to delete (names are matched ignoring case); read_note lists its frontmatter.",
    });
    expect(booted.plugin.proposals.pending()).toEqual([]);
    expect(await run('proposals')).toBe('No pending changes.');
    // One staged by an older version (no hunks): accept closes it, saying it changed nothing.
    const empty = await booted.plugin.proposals.stage(
      {
        kind: 'properties',
        tool: 'set_properties',
        path: 'P.md',
        baseText: '---\ntitle: t\n---\nbody\n',
        baseHash: hash,
        proposedText: '---\ntitle: t\n---\nbody\n',
      },
      { id: booted.plugin.settings.keys.find((k) => k.label === 'Agent One')!.id, label: 'Agent One', roots: [] },
    );
    expect(await run(`accept ${empty.id}`)).toBe(`Proposal ${empty.id} changed nothing (P.md already read that way); it is now accepted.`);
    expect(booted.plugin.proposals.get(empty.id)?.status).toBe('accepted');
    expect(await disk('P.md')).toBe('---\ntitle: t\n---\nbody\n');
  });

  test('accept all / reject all for a note, for a key, and for everything', async () => {
    const a = await call(client, 'append_note', { path: 'A', content: 'six' });
    const c = await call(client, 'append_note', { path: 'C note', content: 'more' });
    const b = await call(client, 'append_note', { path: 'B', content: 'again' });
    const onC = await run('accept all note C note');
    expect(onC.split('\n')).toEqual([
      `Accepted 1 change of ${c.proposal_id} on C note.md; it is now accepted.`,
      'Accept all: 1 proposal on C note, 1 accepted; each line above says what happened.',
    ]);
    expect(await disk('C note.md')).toBe('c\nmore\n');
    expect(await run('reject all key Somebody Else')).toBe('No pending changes from key "Somebody Else"; list them with "proposals".');
    const byKey = await run('reject all key Agent One');
    expect(byKey).toContain(`Rejected proposal ${a.proposal_id}; it is now rejected.`);
    expect(byKey).toContain(`Rejected proposal ${b.proposal_id}; it is now rejected.`);
    expect(byKey.split('\n').pop()).toBe('Reject all: 2 proposals from "Agent One", 2 rejected; each line above says what happened.');
    expect(await run('accept all')).toBe('No pending changes.');
    expect(await run('accept all folder X')).toBe('Usage: accept all [note <path> | key <label>]');
    await call(client, 'append_note', { path: 'A', content: 'seven' });
    expect((await run('accept all')).split('\n').pop()).toBe('Accept all: 1 proposal, 1 accepted; each line above says what happened.');
    expect(await disk('A.md')).toBe('one\ntwo\nthree\nfour\nfive\nseven\n');
  });

  test('accept all / reject all note D.md takes no proposal on D.md.md (a name typed with .md is that note only)', async () => {
    await fsp.writeFile(nodePath.join(dir, 'D.md.md'), 'd\n');
    await booted.app.vault.syncFromDisk();
    const d = await call(client, 'append_note', { path: 'D.md.md', content: 'more' });
    expect(await run('accept all note D.md')).toBe(`No pending changes on 'D.md'; list them with "proposals".`);
    expect(await run('reject all note d.MD')).toBe(`No pending changes on 'd.MD'; list them with "proposals".`);
    expect(await run('reject all note "D.md')).toBe(`No pending changes on '"D.md'; list them with "proposals".`);
    expect(booted.plugin.proposals.get(d.proposal_id)?.status).toBe('pending');
    expect((await run('reject all note D.md.md')).split('\n')[0]).toBe(`Rejected proposal ${d.proposal_id}; it is now rejected.`);
  });

  test('reject all note takes the note spelt with ſ (long s) as every path lookup does: one name on macOS and Windows disks', async () => {
    await fsp.writeFile(nodePath.join(dir, 'Sleep.md'), 's\n');
    await booted.app.vault.syncFromDisk();
    const s = await call(client, 'append_note', { path: 'Sleep', content: 'more' });
    expect((await run('reject all note \u017fleep')).split('\n')[0]).toBe(`Rejected proposal ${s.proposal_id}; it is now rejected.`);
  });

  test('show of a huge proposal is cut, with the command that shows the rest; a long line goes on over several lines', async () => {
    const body = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n') + '\n' + 'x'.repeat(5000) + '\n';
    const staged = await call(client, 'create_note', { path: 'Huge', content: body });
    const first = (await run(`show ${staged.proposal_id}`)).split('\n');
    expect(first).toHaveLength(1 + SHOW_MAX_LINES + 1);
    expect(first[first.length - 1]).toBe(`  … 317 more lines: show ${staged.proposal_id} ${SHOW_MAX_LINES + 1}`);
    const last = (await run(`show ${staged.proposal_id} 401`)).split('\n');
    expect(last[1]).toBe('  + line 400');
    // The 5000-char line is shown whole over 17 listing lines: 300 chars, then `+…` lines.
    expect(last.slice(101)).toEqual([
      `  + ${'x'.repeat(300)}`,
      ...Array.from({ length: 15 }, () => `  +… ${'x'.repeat(300)}`),
      `  +… ${'x'.repeat(200)}`,
    ]);
    expect(await run(`show ${staged.proposal_id} 9999`)).toBe(`Proposal ${staged.proposal_id} shows 517 lines; give a line from 1 to 517.`);
    expect(await run(`show ${staged.proposal_id} 0`)).toBe('Usage: show <proposal id> [line to start from]');
  });

  test('show of an accepted move at a line past it says it shows no lines past its first (it said "give a line from 1 to 0")', async () => {
    const staged = await call(client, 'move_note', { path: 'B', to: 'Sub/B moved' });
    expect(await run(`accept ${staged.proposal_id}`)).toMatch(/^Accepted/);
    expect(await run(`show ${staged.proposal_id}`)).toMatch(new RegExp(`^${staged.proposal_id}`));
    expect(await run(`show ${staged.proposal_id} 99999`)).toBe(
      `Proposal ${staged.proposal_id} shows no lines past its first one; \`show ${staged.proposal_id}\` shows it whole.`,
    );
  });

  test('a later page of show that starts inside a hunk repeats its header, marked continued, so its number is on the page', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i}`);
    await fsp.writeFile(nodePath.join(dir, 'Long.md'), lines.join('\n') + '\n');
    await booted.app.vault.syncFromDisk();
    // Hunk 0: one line at the top; hunk 1: 300 lines replaced from line 51, over the page's end.
    const proposed = ['first', ...lines.slice(1, 50), ...lines.slice(50, 350).map((l) => `${l} changed`), ...lines.slice(350)];
    const staged = await call(client, 'write_note', { path: 'Long', body: proposed.join('\n') + '\n' });
    const id = staged.proposal_id as string;
    const first = (await run(`show ${id}`)).split('\n');
    expect(first[1]).toBe('  hunk 0 at line 1:');
    expect(first[4]).toBe('  hunk 1 at line 51:');
    const second = (await run(`show ${id} ${SHOW_MAX_LINES + 1}`)).split('\n');
    expect(second[1]).toBe('  hunk 1 at line 51 (continued):');
    expect(second[2]).toBe(`  - line ${SHOW_MAX_LINES - 4 + 50}`);
    // A page starting on a header or before any hunk repeats nothing.
    expect((await run(`show ${id} 4`)).split('\n')[1]).toBe('  hunk 1 at line 51:');
    expect((await run(`show ${id} 1`)).split('\n')[1]).toBe('  hunk 0 at line 1:');
    // A decided hunk's continued header keeps its verdict.
    await run(`reject ${id} 1`);
    expect((await run(`show ${id} ${SHOW_MAX_LINES + 1}`)).split('\n')[1]).toBe('  hunk 1 at line 51 (continued) (rejected):');
  });
});
