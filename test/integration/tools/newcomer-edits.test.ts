import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { CachedMetadata, TFile } from 'obsidian';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { writeEnvPerBlock } from '../../harness/edits/write-helpers';

// A newcomer's break-it pass (session 22, edits round): edits by heading, fences, the
// preamble, expected_hash where it has no meaning, numbers YAML would lose, symlinked notes.
describe('edit faults from the newcomer’s pass, through the tools over MCP', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);
  const { call, callError } = env;
  /** Creates `path` with `content` through create_note (so the host has indexed it). */
  async function note(path: string, content: string): Promise<void> {
    await call('create_note', { path, content });
    await env.booted.app.metadataCache.whenResolved();
  }
  const disk = (path: string): string => fs.readFileSync(nodePath.join(env.dir, path), 'utf8');

  describe('F2: headings inside callouts, blockquotes and list items', () => {
    it('are not in the outline, and the note’s own headings can be edited', async () => {
      await note(
        'E/callout.md',
        '# Top\ntext\n\n> [!note] Callout\n> ## Inside callout\n> more\n\n> ## Quoted\n\n- ## In list\n\n# Bottom\nb\n',
      );
      const outline = (await call('read_note', { path: 'E/callout', outline: true })).outline as string;
      expect(outline).not.toMatch(/Inside|Quoted|In list/);
      await call('edit_note', { path: 'E/callout', heading: 'Bottom', op: 'append_within', content: 'x' });
      expect(disk('E/callout.md')).toMatch(/# Bottom\nb\nx\n$/);
      expect(await callError('edit_note', { path: 'E/callout', heading: 'Inside callout', op: 'append_within', content: 'y' })).toMatch(
        /not found/,
      );
    });

    it('a cache that disagrees with a note that has settled is refused with advice to use an anchor, not "retry"', async () => {
      await note('E/stale.md', '# Top\ntext\n> ## Quoted\n');
      const cache = env.booted.app.metadataCache;
      const file = env.booted.app.vault.getFileByPath('E/stale.md') as TFile;
      const real = cache.getFileCache.bind(cache);
      // A heading the cache lists where the text has none (a parser that disagrees with ours).
      const wrong = (f: TFile): CachedMetadata | null => {
        const c = real(f);
        if (f.path !== file.path || !c) return c;
        const offset = '# Top\ntext\n> '.length;
        const position = { start: { line: 2, col: 2, offset }, end: { line: 2, col: 11, offset: offset + 9 } };
        return { ...c, headings: [...(c.headings ?? []), { heading: 'Quoted', level: 2, position }] };
      };
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(nodePath.join(env.dir, 'E/stale.md'), old, old);
      await env.booted.app.vault.syncFromDisk();
      await cache.whenResolved();
      (file.stat as { mtime: number }).mtime = old.getTime();
      cache.getFileCache = wrong;
      try {
        const message = await callError('edit_note', { path: 'E/stale', heading: 'Top', op: 'append_within', content: 'y' });
        expect(message).toMatch(/does not match its text.*anchor/);
        expect(message).not.toMatch(/retry/);
      } finally {
        cache.getFileCache = real;
      }
    }, 15_000);
  });

  describe('F3: an indented heading (1–3 spaces)', () => {
    it('insert_before goes before the heading’s line, which keeps its indentation', async () => {
      await note('E/ind.md', 'intro\n   ## Sub\nbody\n');
      await call('edit_note', { path: 'E/ind', heading: 'Sub', op: 'insert_before', content: 'NEW LINE' });
      expect(disk('E/ind.md')).toBe('intro\nNEW LINE\n   ## Sub\nbody\n');
      const section = await call('read_note', { path: 'E/ind', section: 'Sub' });
      expect(JSON.stringify(section)).toContain('   ## Sub');
    });
  });

  describe('F8: anchor edits at the frontmatter’s fences', () => {
    it('text before or glued onto the opening ---, or a broken fence, is refused and nothing is written', async () => {
      await note('E/fmj.md', '---\nk: v\n---\nbody\n');
      await note('E/fmb.md', '\ufeff---\nk: v\n---\nbody\n');
      for (const [path, anchor, op, content] of [
        ['E/fmj', '---\nk', 'insert_before', 'x'],
        ['E/fmj', '---\nk', 'insert_before', 'x\n'],
        ['E/fmj', '---\nk', 'replace', 'k'],
        ['E/fmj', 'v\n---', 'replace', 'v\n--'],
        ['E/fmb', '---\nk', 'insert_before', 'x'],
      ]) {
        expect(await callError('edit_note', { path, anchor, op, content })).toMatch(/frontmatter's --- fence.*set_properties/);
      }
      expect(disk('E/fmj.md')).toBe('---\nk: v\n---\nbody\n');
      expect(disk('E/fmb.md')).toBe('\ufeff---\nk: v\n---\nbody\n');
      await call('edit_note', { path: 'E/fmj', anchor: '---\nk: v', op: 'replace', content: '---\nk: w' });
      expect(disk('E/fmj.md')).toBe('---\nk: w\n---\nbody\n');
    });
  });

  describe('F19: the preamble (section 0) by heading', () => {
    it('replace, append_within and insert_after reach the text before the first heading, after the frontmatter', async () => {
      await note('E/pre.md', '---\nk: v\n---\npre text\n\n# H\nh\n');
      await call('edit_note', { path: 'E/pre', heading: '(preamble)', op: 'append_within', content: 'AW' });
      expect(disk('E/pre.md')).toBe('---\nk: v\n---\npre text\nAW\n\n# H\nh\n');
      await call('edit_note', { path: 'E/pre', heading: '0', op: 'insert_after', content: 'FIRST' });
      expect(disk('E/pre.md')).toBe('---\nk: v\n---\nFIRST\npre text\nAW\n\n# H\nh\n');
      await call('edit_note', { path: 'E/pre', heading: '(preamble)', op: 'replace', content: 'REPL' });
      expect(disk('E/pre.md')).toBe('---\nk: v\n---\nREPL\n\n# H\nh\n');
      expect(await callError('edit_note', { path: 'E/pre', heading: '0', op: 'insert_before', content: 'x' })).toMatch(
        /no heading line.*insert_after/,
      );
    });

    it('a note with nothing before its first heading takes text there through (preamble)', async () => {
      await note('E/nopre.md', '---\nk: v\n---\n# H\nh\n');
      await call('edit_note', { path: 'E/nopre', heading: '(preamble)', op: 'append_within', content: 'intro' });
      expect(disk('E/nopre.md')).toBe('---\nk: v\n---\nintro\n# H\nh\n');
      await note('E/fence-end.md', '---\nk: v\n---');
      await call('edit_note', { path: 'E/fence-end', heading: '(preamble)', op: 'replace', content: 'body' });
      expect(disk('E/fence-end.md')).toBe('---\nk: v\n---\nbody\n');
    });
  });

  describe('F14: expected_hash where there is no note version', () => {
    const hash = '0'.repeat(64);
    it('create_note, create_folder and a folder move refuse it, naming the tools it applies to, and change nothing', async () => {
      expect(await callError('create_note', { path: 'E/ceh', content: 'x', expected_hash: hash })).toMatch(
        /expected_hash does not apply to a new note.*write_note/,
      );
      expect(fs.existsSync(nodePath.join(env.dir, 'E/ceh.md'))).toBe(false);
      expect(await callError('create_folder', { path: 'E/cf', expected_hash: hash })).toMatch(/does not apply to a folder/);
      expect(fs.existsSync(nodePath.join(env.dir, 'E/cf'))).toBe(false);
      await call('create_folder', { path: 'E/Q3' });
      expect(await callError('move_note', { path: 'E/Q3', to: 'E/Q4', expected_hash: hash })).toMatch(/does not apply to a folder move/);
      expect(fs.existsSync(nodePath.join(env.dir, 'E/Q3'))).toBe(true);
    });
  });

  describe('F10: a note that is a symbolic link inside the vault', () => {
    it('every write route writes through the link, as append does, and the link stays', async () => {
      await note('E/target.md', '# T\nold\n');
      await fs.promises.symlink('target.md', nodePath.join(env.dir, 'E/inlink.md'), 'file');
      await env.booted.app.vault.syncFromDisk();
      await env.booted.app.metadataCache.whenResolved();
      const isLink = (): boolean => fs.lstatSync(nodePath.join(env.dir, 'E/inlink.md')).isSymbolicLink();
      await call('write_note', { path: 'E/inlink', body: '# replaced via link\n' });
      expect(isLink()).toBe(true);
      expect(disk('E/target.md')).toBe('# replaced via link\n');
      await call('set_properties', { path: 'E/inlink', properties: { k: 'v' } });
      await call('append_note', { path: 'E/inlink', content: 'appended' });
      await env.booted.app.metadataCache.whenResolved();
      await call('edit_note', { path: 'E/inlink', anchor: 'appended', op: 'replace', content: 'edited' });
      expect(isLink()).toBe(true);
      expect(disk('E/target.md')).toBe('---\nk: v\n---\n# replaced via link\nedited\n');
    });
  });

  describe('F13: append_within on a heading with subsections', () => {
    it('appends after the last subsection, as the tool description says, and insert_before a subsection stays above it', async () => {
      const { tools } = await env.client.listTools();
      expect(tools.find((t) => t.name === 'edit_note')?.description).toMatch(/append_within.*at the end, after subsections/);
      await note('E/a.md', '# P\nx\n## Child\ny\n');
      await call('edit_note', { path: 'E/a', heading: 'P', op: 'append_within', content: 'A' });
      expect(disk('E/a.md')).toBe('# P\nx\n## Child\ny\nA\n');
      await call('edit_note', { path: 'E/a', heading: 'Child', op: 'insert_before', content: 'own' });
      expect(disk('E/a.md')).toBe('# P\nx\nown\n## Child\ny\nA\n');
    });
  });

  describe("session 37: a path starting with '~'", () => {
    it("is refused on writes and reads (it made a folder named '~' in the vault), and nothing is created", async () => {
      expect(await callError('create_note', { path: '~/x', content: 'a' })).toMatch(/^Path '~\/x' starts with '~', a shell's home folder/);
      expect(await callError('read_note', { path: '~/Ideas' })).toMatch(/starts with '~'/);
      expect(fs.existsSync(nodePath.join(env.dir, '~'))).toBe(false);
      await call('create_note', { path: 'E/~draft', content: 'a' });
      expect(disk('E/~draft.md')).toBe('a');
    });
  });
});
