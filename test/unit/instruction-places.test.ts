import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { createHostApp, type HostApp } from '../host';
import { NoteStore } from '../../src/vault/note-store';

/**
 * InstructionPlaces (agent instructions are the user's to write, write-gate.ts): the places a
 * symbolic link by an instruction name or inside the skills folder makes instructions of, found
 * by one pass over the vault and kept until a change that may move them, so an ordinary force
 * write does not scan the vault; and a dangling link's would-be target.
 */
describe('InstructionPlaces', () => {
  let root: string;
  let app: HostApp;
  let store: NoteStore;

  beforeEach(async () => {
    root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-instr-'));
    const files: Record<string, string> = {
      'Areas/rules.md': '# Rules\n',
      'Areas/Plan.md': '# Plan\n',
      'Reference/Tools/SKILL.md': '---\nname: Tools\ndescription: Tools.\n---\n',
      'Reference/Other.md': 'x\n',
      'Skills/summarize/SKILL.md': '---\nname: S\ndescription: S.\n---\n',
    };
    for (const [path, text] of Object.entries(files)) {
      await fsp.mkdir(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
      await fsp.writeFile(nodePath.join(root, path), text);
    }
    await fsp.symlink('rules.md', nodePath.join(root, 'Areas/AGENTS.md'), 'file');
    await fsp.symlink('../Reference/Tools', nodePath.join(root, 'Skills/tools'), 'dir');
    app = (await createHostApp({ vaultPath: root, watchIntervalMs: false })) as HostApp;
    store = new NoteStore(app as never, { quarantine: () => [] });
  });

  afterEach(async () => {
    store.close();
    await app.close();
    await fsp.rm(root, { recursive: true, force: true });
  });

  it("holds a link's target (a file, or a folder and all below it) and the paths named by rule, and nothing else", () => {
    const hold = store.instructions.ruleFor('Skills');
    for (const path of [
      'Areas/rules.md',
      'areas/RULES.md',
      'Reference/Tools',
      'Reference/Tools/SKILL.md',
      'Reference/Tools/new.md',
      'Areas/AGENTS.md',
      'x/GEMINI.md',
      'Skills/new',
    ])
      expect([path, hold(path)]).toEqual([path, true]);
    for (const path of ['Areas/Plan.md', 'Areas', 'Reference', 'Reference/Other.md', 'Reference/Tools2/x.md', ''])
      expect([path, hold(path)]).toEqual([path, false]);
  });

  it('finds the places once; an ordinary note created or renamed keeps them, an instruction name or a change at a target finds them again', async () => {
    const scans = jest.spyOn(app.vault, 'getAllLoadedFiles');
    const hold = store.instructions.ruleFor('Skills');
    for (let i = 0; i < 50; i++) hold(`Areas/n${i}.md`);
    expect(scans).toHaveBeenCalledTimes(1);
    const note = await app.vault.create('Areas/n1.md', 'x\n');
    await app.vault.rename(note, 'Areas/n2.md');
    hold('Areas/n3.md');
    expect(scans).toHaveBeenCalledTimes(1);
    await app.vault.create('Areas/CLAUDE.md', 'x\n');
    hold('Areas/n3.md');
    expect(scans).toHaveBeenCalledTimes(2);
    await app.vault.rename(app.vault.getAbstractFileByPath('Areas/rules.md')!, 'Areas/rules2.md');
    expect(hold('Areas/rules.md')).toBe(true);
    expect(scans).toHaveBeenCalledTimes(3);
    // Another skills folder setting: found again for it.
    expect(store.instructions.holds('Reference/Tools/SKILL.md', 'Agent skills')).toBe(false);
    expect(scans).toHaveBeenCalledTimes(4);
  });

  it('a link Obsidian still lists whose target is gone names where the target would be recreated', async () => {
    // The target moves on disk while the vault still lists the link (no watcher here); a fresh store has nothing cached.
    await fsp.rename(nodePath.join(root, 'Areas/rules.md'), nodePath.join(root, 'Areas/old-rules.md'));
    const fresh = new NoteStore(app as never, { quarantine: () => [] });
    try {
      expect(fresh.policy.realPathOf('Areas/AGENTS.md')).toBeNull();
      expect(fresh.instructions.holds('Areas/rules.md', 'Skills')).toBe(true);
      expect(fresh.instructions.holds('Areas/old-rules.md', 'Skills')).toBe(false);
    } finally {
      fresh.close();
    }
  });

  it('a note sharing its disk file with an instruction file (a hard link) is held; one with another second name is not', async () => {
    await fsp.link(nodePath.join(root, 'Skills/summarize/SKILL.md'), nodePath.join(root, 'Reference/copy.md'));
    await fsp.link(nodePath.join(root, 'Reference/Other.md'), nodePath.join(root, 'Areas/other twin.md'));
    const reload = (await createHostApp({ vaultPath: root, watchIntervalMs: false })) as HostApp;
    const own = new NoteStore(reload as never, { quarantine: () => [] });
    try {
      expect(own.instructions.holds('Reference/copy.md', 'Skills')).toBe(true);
      expect(own.instructions.holds('Reference/Other.md', 'Skills')).toBe(false);
      expect(own.instructions.holds('Areas/other twin.md', 'Skills')).toBe(false);
    } finally {
      own.close();
      await reload.close();
    }
  });
});
