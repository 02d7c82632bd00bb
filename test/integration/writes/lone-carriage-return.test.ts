import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { diffText } from '../../../src/activity/activity-diff';
import { bootWriteEnvIn, call, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A lone carriage return (`\r` not followed by `\n`) in text an agent writes is part of the text
 * and lands as written, on every route that puts agent text into a note (docs/tool-reference.md,
 * Write tools: line endings): only `\n` and `\r\n` take the note's line-ending style. It used to land as the
 * note's line break (a `\n`), so `a\rb` became two lines. A propose key's change is accepted
 * (as the user would) before the note is read.
 */
describe.each(['force', 'propose'] as const)('a lone \\r in written text lands as written (%s key)', (mode) => {
  let env: WriteEnv;
  /** The same note in each line-ending style: LF, CRLF and `\r` alone. */
  const LINES = ['# Title', '', 'line one', '', '## Part', '', 'under part', ''];
  const STYLES = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;
  /** The note text in one style. */
  const noteIn = (eol: string): string => LINES.join(eol);

  beforeEach(async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-lone-cr-'));
    await writeVaultFiles(dir, Object.fromEntries(Object.entries(STYLES).map(([name, eol]) => [`${name}.md`, noteIn(eol)])));
    env = await bootWriteEnvIn(dir, { mode }, () => fsp.rm(dir, { recursive: true, force: true }));
  });
  afterEach(async () => env?.done());

  const read = (path: string): Promise<string> => fsp.readFile(nodePath.join(env.dir, path), 'utf8');
  /** Calls a write tool and sees its change applied: at once (force), or accepted as the user would (propose). */
  async function write(tool: string, args: Json): Promise<void> {
    const out = await call(env.client, tool, args);
    if (mode === 'propose') {
      expect([tool, out.status]).toEqual([tool, 'pending']);
      expect(await runReviewCommand(env.booted.plugin, `accept ${out.proposal_id as string}`)).toMatch(/^Accepted/);
    } else expect([tool, out.status]).toEqual([tool, 'applied']);
  }
  const hashOf = async (path: string): Promise<string> => (await call(env.client, 'read_note', { path })).hash as string;

  /** Each route that writes agent text into an existing note: [tool name and how it is called, its arguments for note `path` and text `content`]. */
  const ROUTES: Array<[string, (path: string, content: string) => Promise<Json>]> = [
    ['write_note body', (path, content) => Promise.resolve({ path, body: content })],
    ['append_note (append-mode)', (path, content) => Promise.resolve({ path, content })],
    ['append_note with expected_hash', async (path, content) => ({ path, content, expected_hash: await hashOf(path) })],
    ['append_note ensure_newline false', (path, content) => Promise.resolve({ path, content, ensure_newline: false })],
    ['edit_note anchor replace', (path, content) => Promise.resolve({ path, anchor: 'line one', op: 'replace', content })],
    ['edit_note anchor insert_after', (path, content) => Promise.resolve({ path, anchor: 'line one', op: 'insert_after', content })],
    ['edit_note anchor insert_before', (path, content) => Promise.resolve({ path, anchor: 'line one', op: 'insert_before', content })],
    ['edit_note heading replace', (path, content) => Promise.resolve({ path, heading: 'Part', op: 'replace', content })],
    ['edit_note heading append_within', (path, content) => Promise.resolve({ path, heading: 'Part', op: 'append_within', content })],
    ['edit_note heading insert_before', (path, content) => Promise.resolve({ path, heading: 'Part', op: 'insert_before', content })],
    ['edit_note heading insert_after', (path, content) => Promise.resolve({ path, heading: 'Part', op: 'insert_after', content })],
  ];

  test.each(ROUTES)('%s keeps a lone \\r in LF, CRLF and CR notes; \\n takes the note style', async (route, args) => {
    for (const [name, eol] of Object.entries(STYLES)) {
      const path = `${name}.md`;
      await write(route.split(' ')[0], await args(path, 'keep\rthis\nnext line\n'));
      const text = await read(path);
      expect([route, name, text.includes('keep\rthis')]).toEqual([route, name, true]);
      // The text's own line break takes the note's style; CR notes have no \n at all.
      expect([route, name, text.includes(`this${eol}next line`)]).toEqual([route, name, true]);
      if (name === 'cr') expect(text.includes('\n')).toBe(false);
    }
  });

  it('create_note writes a lone \\r as given', async () => {
    await write('create_note', { path: 'New.md', content: '# New\n\nkeep\rthis\n' });
    expect(await read('New.md')).toBe('# New\n\nkeep\rthis\n');
  });
});

/**
 * A note whose lines end in `\r` alone is shown and diffed by those lines, as the write tools
 * edit it (docs/tool-reference.md, Write tools: line endings): `show`, the activity diff and
 * the hunks a proposal is accepted by. They showed the whole note as one line (`- a\rb`) and
 * made any change one hunk.
 */
describe('a note whose lines end in \\r alone is diffed and shown by its lines', () => {
  let env: WriteEnv;
  const NOTE = ['# Title', '', 'line one', '', '## Part', '', 'under part', ''].join('\r');
  const BODY = '# Title\n\nLINE ONE\n\n## Part\n\nUNDER PART\n';

  beforeEach(async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-cr-diff-'));
    await writeVaultFiles(dir, { 'cr.md': NOTE });
    env = await bootWriteEnvIn(dir, { mode: 'propose' }, () => fsp.rm(dir, { recursive: true, force: true }));
  });
  afterEach(async () => env?.done());
  const read = (path: string): Promise<string> => fsp.readFile(nodePath.join(env.dir, path), 'utf8');

  it('show lists each changed line as a hunk of its own, and one hunk is accepted alone', async () => {
    const out = await call(env.client, 'write_note', { path: 'cr.md', body: BODY });
    const id = out.proposal_id as string;
    const shown = (await runReviewCommand(env.booted.plugin, `show ${id}`)) ?? '';
    expect(shown.split('\n').slice(1)).toEqual([
      '  hunk 0 at line 3:',
      '  - line one',
      '  + LINE ONE',
      '  hunk 1 at line 7:',
      '  - under part',
      '  + UNDER PART',
    ]);
    expect(await runReviewCommand(env.booted.plugin, `accept ${id} 1`)).toMatch(
      /^Accepted 1 change of p_\w+ on cr\.md; 1 change of it still awaits review\.$/,
    );
    expect(await read('cr.md')).toBe(NOTE.replace('under part', 'UNDER PART'));
  });

  it('the activity diff of a change shows its lines, at their line numbers', async () => {
    await env.booted.plugin.keyRing.setMode(env.booted.key.id, 'force');
    await call(env.client, 'write_note', { path: 'cr.md', body: BODY });
    const entry = env.booted.plugin.activity.all()[0];
    expect(diffText(entry, 80)).toBe(['@@ Line 3', '-line one', '+LINE ONE', '@@ Line 7', '-under part', '+UNDER PART'].join('\n'));
    // The note's text stays in `\r` line endings.
    expect(await read('cr.md')).toBe(BODY.replace(/\n/g, '\r'));
  });
});
