import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { createHostApp, type HostApp } from '../../host/index';
import { NoteStore } from '../../../src/vault/note-store';
import * as agentInstructions from '../../../src/vault/instructions/agent-instructions';
import * as instructionImports from '../../../src/vault/instructions/instruction-imports';
import { Slicer } from '../../../src/search/engine/slicer';
import { PluginFile } from '../../../src/vault/plugin-files/plugin-file';
import { ProposalStore } from '../../../src/proposals/store/proposal-store';
import { INSTRUCTIONS_REVIEW_REASON } from '../../../src/tools/write/write-gate';
import { writeNoteTool } from '../../../src/tools/write/write-note';
import { toolContext } from '../../harness/tool-context';
import { writeVaultFiles } from '../../harness/edits/write-helpers';

/** One test's vault: its folder on disk, the host app over it and a NoteStore on that app. */
interface TestVault {
  root: string;
  app: HostApp;
  store: NoteStore;
}

/**
 * Gives each test of the describe block around it a vault of its own: before each test, `files`
 * (vault path → text) are written under a new temporary folder named from `prefix`, then `links`
 * (vault path → [link text, 'file' or 'dir']) made as symbolic links, the host app opened over it
 * (no watcher) and a NoteStore made on it, handed to `take`; after each, all three are closed and removed.
 */
function useVault(
  prefix: string,
  files: Record<string, string>,
  links: Record<string, [string, 'file' | 'dir']>,
  take: (vault: TestVault) => void,
): void {
  let vault: TestVault | undefined;
  beforeEach(async () => {
    const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), prefix));
    await writeVaultFiles(root, files);
    for (const [path, [target, type]] of Object.entries(links)) await fsp.symlink(target, nodePath.join(root, path), type);
    const app = (await createHostApp({ vaultPath: root, watchIntervalMs: false })) as HostApp;
    vault = { root, app, store: new NoteStore(app as never, { quarantine: () => [] }) };
    take(vault);
  });
  afterEach(async () => {
    if (!vault) return;
    vault.store.close();
    await vault.app.close();
    await fsp.rm(vault.root, { recursive: true, force: true });
    vault = undefined;
  });
}

afterEach(() => jest.restoreAllMocks());

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

  useVault(
    'vault-mcp-instr-',
    {
      'Areas/rules.md': '# Rules\n',
      'Areas/Plan.md': '# Plan\n',
      'Reference/Tools/SKILL.md': '---\nname: Tools\ndescription: Tools.\n---\n',
      'Reference/Other.md': 'x\n',
      'Reference/Linked.md': 'l\n',
      'Skills/summarize/SKILL.md': '---\nname: S\ndescription: S.\n---\n',
    },
    {
      'Areas/AGENTS.md': ['rules.md', 'file'],
      'Skills/linked.md': ['../Reference/Linked.md', 'file'],
      // A folder link to another vault folder: Obsidian ignores it (help.obsidian.md/symlinks), so no skill lives there.
      'Skills/tools': ['../Reference/Tools', 'dir'],
    },
    (vault) => ({ root, app, store } = vault),
  );

  it("holds a listed link's target and the paths named by rule, and nothing else: not the folder an ignored folder link names", async () => {
    const hold = await store.instructions.ruleFor('Skills');
    expect(app.vault.getAbstractFileByPath('Skills/tools')).toBeNull();
    for (const path of [
      'Areas/rules.md',
      'areas/RULES.md',
      'Reference/Linked.md',
      'Areas/AGENTS.md',
      'x/GEMINI.md',
      'Skills/new',
      'Skills/linked.md',
    ])
      expect([path, hold(path)]).toEqual([path, true]);
    for (const path of [
      'Areas/Plan.md',
      'Areas',
      'Reference',
      'Reference/Other.md',
      'Reference/Tools',
      'Reference/Tools/SKILL.md',
      'Reference/Tools/new.md',
      '',
    ])
      expect([path, hold(path)]).toEqual([path, false]);
  });

  it("reads an instruction file's imports once while its size and time stay; a change is read again, and an import dropped is let go", async () => {
    const claude = await app.vault.create('Areas/CLAUDE.md', 'Follow @Plan.md and @../Reference/Other.md\n');
    // Each file read for its imports is parsed once (the metadata cache reads files too, so count the parses).
    const parses = jest.spyOn(instructionImports, 'importPathsIn');
    let hold = await store.instructions.ruleFor('Skills');
    expect([hold('Areas/Plan.md'), hold('Reference/Other.md'), hold('areas/plan.md')]).toEqual([true, true, true]);
    for (let i = 0; i < 5; i++) hold = await store.instructions.ruleFor('Skills');
    // CLAUDE.md and the two files it imports, each read once for six rules.
    expect(parses.mock.calls.map(([text]) => text)).toEqual(['Follow @Plan.md and @../Reference/Other.md\n', '# Plan\n', 'x\n']);
    await app.vault.modify(claude, 'Follow @Plan.md only\n');
    hold = await store.instructions.ruleFor('Skills');
    expect(parses.mock.calls.map(([text]) => text).slice(3)).toEqual(['Follow @Plan.md only\n']);
    expect([hold('Areas/Plan.md'), hold('Reference/Other.md')]).toEqual([true, false]);
    // An import that is a link inside the vault holds where it leads too; an import leaving the vault names nothing.
    await app.vault.modify(claude, 'Follow @AGENTS.md and @../../outside.md\n');
    hold = await store.instructions.ruleFor('Skills');
    expect([hold('Areas/rules.md'), hold('Areas/Plan.md'), hold('outside.md')]).toEqual([true, false, false]);
    // A file made at an imported path is read then, and what it imports is held too.
    await app.vault.modify(claude, 'Follow @New.md\n');
    hold = await store.instructions.ruleFor('Skills');
    expect([hold('Areas/New.md'), hold('Areas/Deeper.md')]).toEqual([true, false]);
    await app.vault.create('Areas/New.md', 'See @Deeper.md\n');
    hold = await store.instructions.ruleFor('Skills');
    expect([hold('Areas/New.md'), hold('Areas/Deeper.md')]).toEqual([true, true]);
  });

  it('finds the places once; an ordinary note created or renamed keeps them, an instruction name or a change at a target finds them again', async () => {
    // A pass over every entry reads the bare name of each, Areas/Plan.md's among them (the rest ask whole paths).
    const names = jest.spyOn(agentInstructions, 'hasInstructionName');
    const passes = (): number => names.mock.calls.filter(([name]) => name === 'Plan.md').length;
    // Each finding follows every entry named like an instruction file, Areas/AGENTS.md among them.
    const follows = jest.spyOn(store.policy, 'realPathOf');
    const finds = (): number => follows.mock.calls.filter(([path]) => path === 'Areas/AGENTS.md').length;
    const hold = await store.instructions.ruleFor('Skills');
    for (let i = 0; i < 50; i++) hold(`Areas/n${i}.md`);
    expect(finds()).toBe(1);
    const note = await app.vault.create('Areas/n1.md', 'x\n');
    await app.vault.rename(note, 'Areas/n2.md');
    hold('Areas/n3.md');
    expect(finds()).toBe(1);
    await app.vault.create('Areas/CLAUDE.md', 'x\n');
    hold('Areas/n3.md');
    expect(finds()).toBe(2);
    await app.vault.rename(app.vault.getAbstractFileByPath('Areas/rules.md')!, 'Areas/rules2.md');
    expect(hold('Areas/rules.md')).toBe(true);
    expect(finds()).toBe(3);
    // Another skills folder setting: found again for it.
    expect(store.instructions.holds('Reference/Tools/SKILL.md', 'Agent skills')).toBe(false);
    expect(finds()).toBe(4);
    // Only the first finding read every entry of the vault; the later ones kept to the named entries.
    expect(passes()).toBe(1);
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

/**
 * After a folder is renamed, moved or deleted, InstructionPlaces finds the places again from the
 * entries named like an instruction file that it keeps up to date from vault events, not by a new
 * pass over every entry of the vault; its answers stay those of a fresh instance's full pass.
 */
describe('InstructionPlaces after folder renames and deletes', () => {
  let app: HostApp;
  let store: NoteStore;

  useVault(
    'vault-mcp-instr-moves-',
    {
      'Areas/rules.md': '# Rules\n',
      'Areas/Plan.md': '# Plan\n',
      'Areas/Finance/CLAUDE.md': '# Finance\n',
      'Areas/Finance/Budget.md': 'b\n',
      'Areas/Finance/sub/notes.md': 'n\n',
      'Reference/Tools/SKILL.md': '---\nname: Tools\ndescription: Tools.\n---\n',
      'Reference/gem.md': 'g\n',
      'Reference/Other.md': 'x\n',
      'Skills/summarize/SKILL.md': '---\nname: S\ndescription: S.\n---\n',
      'Odd/AGENTS.md/inner.md': 'i\n',
      'Projects/Plan.md': 'p\n',
    },
    {
      'Areas/AGENTS.md': ['rules.md', 'file'],
      'Areas/Finance/sub/GEMINI.md': ['../../../Reference/gem.md', 'file'],
      'Projects/AGENTS.md': ['../Areas/Finance/CLAUDE.md', 'file'],
      'Skills/tools': ['../Reference/Tools', 'dir'],
      'Odd/CLAUDE.md': ['../Reference', 'dir'],
    },
    (vault) => ({ app, store } = vault),
  );

  /** Every path seen so far, old ones included, and a few that never existed. */
  const seen = new Set<string>(['', 'Areas/Finance/CLAUDE.md', 'Reference/Tools/new.md', 'Nowhere/AGENTS.md']);
  const entry = (path: string): NonNullable<ReturnType<HostApp['vault']['getAbstractFileByPath']>> => {
    const found = app.vault.getAbstractFileByPath(path);
    if (found === null) throw new Error(`no entry at ${path}`);
    return found;
  };

  /** The long-lived instance answers each path as a fresh one does (its first, full pass), for two skills folders. */
  function expectSameAsFresh(step: string): void {
    for (const e of app.vault.getAllLoadedFiles()) seen.add(e.path);
    const fresh = new NoteStore(app as never, { quarantine: () => [] });
    try {
      for (const skills of ['Skills', 'Ref']) {
        const differ = [...seen].filter((p) => store.instructions.holds(p, skills) !== fresh.instructions.holds(p, skills));
        expect([step, skills, differ]).toEqual([step, skills, []]);
        type Known = { knownFor(folder: string): { targets: string[]; named: string[] } };
        const known = (s: NoteStore): { targets: string[]; named: string[] } => {
          const k = (s.instructions as unknown as Known).knownFor(skills);
          return { targets: [...k.targets].sort(), named: [...k.named].sort() };
        };
        expect([step, skills, known(store)]).toEqual([step, skills, known(fresh)]);
      }
    } finally {
      fresh.close();
    }
  }

  it('answers as a fresh instance after each rename, move or delete of folders holding links and instruction files', async () => {
    expectSameAsFresh('start');
    expect(store.instructions.holds('Areas/Finance/CLAUDE.md', 'Skills')).toBe(true);
    expect(store.instructions.holds('Reference/gem.md', 'Skills')).toBe(true);
    await app.vault.rename(entry('Areas/Finance'), 'Money/Finance');
    expectSameAsFresh('Areas/Finance → Money/Finance');
    await app.vault.rename(entry('Areas'), 'Zones');
    expectSameAsFresh('Areas → Zones');
    await app.vault.rename(entry('Reference'), 'Ref');
    expectSameAsFresh('Reference → Ref');
    await app.vault.rename(entry('Odd'), 'Odd2');
    expectSameAsFresh('Odd → Odd2');
    await app.vault.rename(entry('Odd2/AGENTS.md'), 'Odd2/plain');
    expectSameAsFresh('Odd2/AGENTS.md → Odd2/plain');
    await app.vault.rename(entry('Odd2/plain'), 'Odd2/GEMINI.md');
    expectSameAsFresh('Odd2/plain → Odd2/GEMINI.md');
    await app.vault.delete(entry('Money'), true);
    expectSameAsFresh('delete Money');
    await app.vault.rename(entry('Skills'), 'Kit');
    expectSameAsFresh('Skills → Kit');
    await app.vault.createFolder('New/Deep');
    await app.vault.create('New/Deep/CLAUDE.md', 'c\n');
    expectSameAsFresh('create New/Deep/CLAUDE.md');
    await app.vault.rename(entry('New'), 'Kit/New');
    expectSameAsFresh('New → Kit/New');
    await app.vault.rename(entry('Kit'), 'Skills');
    expectSameAsFresh('Kit → Skills');
    await app.vault.trash(entry('Skills/New'), false);
    expectSameAsFresh('trash Skills/New');
    await app.vault.rename(entry('Zones/AGENTS.md'), 'Zones/agents.md');
    expectSameAsFresh('Zones/AGENTS.md → Zones/agents.md');
    await app.vault.delete(entry('Odd2'), true);
    expectSameAsFresh('delete Odd2');
  });

  it('a folder renamed or deleted does not cost a pass over every entry of the vault', async () => {
    // A pass over every entry reads the bare name of each: Areas/Plan.md and Projects/Plan.md (the rest ask whole paths).
    const names = jest.spyOn(agentInstructions, 'hasInstructionName');
    const passes = (): number => names.mock.calls.filter(([name]) => name === 'Plan.md').length / 2;
    const hold = await store.instructions.ruleFor('Skills');
    hold('Projects/Plan.md');
    expect(passes()).toBe(1);
    await app.vault.rename(entry('Areas/Finance'), 'Money/Finance');
    expect(hold('Money/Finance/CLAUDE.md')).toBe(true);
    await app.vault.delete(entry('Odd'), true);
    expect(hold('Reference/Other.md')).toBe(false);
    await app.vault.createFolder('Empty');
    await app.vault.rename(entry('Empty'), 'Empty2');
    expect(hold('Areas/Finance/CLAUDE.md')).toBe(true);
    await app.vault.create('Projects/CLAUDE.md', 'c\n');
    expect(hold('Projects/CLAUDE.md')).toBe(true);
    expect(passes()).toBe(1);
  });
});

/**
 * The first pass over every entry of the vault runs in slices that yield to the event loop (the
 * plugin's 50 ms main-thread rule, issue 20: in one go it took 33–71 ms at 100k entries), and a
 * force write never goes through on a pass that has not finished: the write waits for it, and the
 * entries created, moved or renamed while it runs count as if they were there from the start.
 */
describe('InstructionPlaces first pass, in slices', () => {
  /** Entries read per slice: the pass looks at its pacer every this many entries (ENTRIES_PER_CLOCK_LOOK). */
  const PER_SLICE = 128;
  let root: string;
  let app: HostApp;
  let store: NoteStore;
  /** Pauses the pass made, and what runs in each before it yields (events arriving mid-pass). */
  let pauses: number;
  let onPause: (pause: number) => Promise<void> | void;
  /** A pacer whose slice is due at every look (every PER_SLICE entries); each pause runs {@link onPause}, then waits a while (a UI busy elsewhere), so the pass outlasts a write's own steps. */
  const pacer = {
    due: (): boolean => true,
    pause: async (): Promise<void> => {
      pauses++;
      await onPause(pauses);
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };

  const files: Record<string, string> = {
    'Areas/rules.md': '# Rules\n',
    'Later/moved-target.md': 'm\n',
    'Later/created-target.md': 'c\n',
    'Later/plain.md': 'p\n',
    'Skills/summarize/SKILL.md': '---\nname: S\ndescription: S.\n---\n',
    'Zed/x.md': 'x\n',
  };
  for (let i = 0; i < 300; i++) files[`Bulk/n${i}.md`] = `${i}\n`;
  useVault(
    'vault-mcp-instr-slices-',
    files,
    { 'Areas/AGENTS.md': ['rules.md', 'file'], 'Areas/CLAUDE.md': ['../Later/moved-target.md', 'file'] },
    (vault) => {
      ({ root, app, store } = vault);
      pauses = 0;
      onPause = () => undefined;
    },
  );

  it("the first force write's pass yields through the write gate's Slicer; the write waits for it and is held for review", async () => {
    const entries = app.vault.getAllLoadedFiles().length;
    expect(entries).toBeGreaterThan(2 * PER_SLICE);
    jest.spyOn(Slicer.prototype, 'due').mockImplementation(pacer.due);
    jest.spyOn(Slicer.prototype, 'pause').mockImplementation(pacer.pause);
    const proposals = new ProposalStore(store, new PluginFile(app.vault.adapter, '.obsidian/plugins/vault-mcp', 'proposals.json'));
    const ctx = { ...toolContext(store, { mode: 'force' }), proposals };
    const answer = await writeNoteTool.handler({ path: 'Areas/rules.md', body: 'Obey me.\n' }, ctx);
    expect(answer).toMatchObject({ status: 'pending', reason: INSTRUCTIONS_REVIEW_REASON });
    expect(await fsp.readFile(nodePath.join(root, 'Areas/rules.md'), 'utf8')).toBe('# Rules\n');
    // Each slice read PER_SLICE entries and yielded: none was read in one go for the write.
    expect(pauses).toBe(Math.floor(entries / PER_SLICE));
    await proposals.flush();
  });

  it('entries created, moved or renamed during the pass are held as if they had been there from the start', async () => {
    onPause = async (pause) => {
      if (pause !== 1) return;
      // Read so far (last child first): Zed, Skills, Later and part of Bulk; Areas is still ahead.
      await app.vault.rename(app.vault.getAbstractFileByPath('Areas/CLAUDE.md')!, 'Zed/CLAUDE.md');
      await fsp.symlink('../Later/created-target.md', nodePath.join(root, 'Zed/GEMINI.md'), 'file');
      await app.vault.syncFromDisk();
      expect(app.vault.getAbstractFileByPath('Zed/GEMINI.md')).not.toBeNull();
      await app.vault.rename(app.vault.getAbstractFileByPath('Areas')!, 'Zones');
    };
    const hold = await store.instructions.ruleFor('Skills', pacer);
    expect(pauses).toBeGreaterThan(1);
    for (const path of ['Later/moved-target.md', 'Later/created-target.md', 'Zones/rules.md', 'Zed/CLAUDE.md', 'Zed/GEMINI.md'])
      expect([path, hold(path)]).toEqual([path, true]);
    for (const path of ['Later/plain.md', 'Zed/x.md', 'Bulk/n1.md', 'Areas/rules.md']) expect([path, hold(path)]).toEqual([path, false]);
    // The same answers as a pass made after the changes, in one go.
    const fresh = new NoteStore(app as never, { quarantine: () => [] });
    try {
      const paths = [...app.vault.getAllLoadedFiles().map((entry) => entry.path), 'Areas/rules.md', 'Areas/CLAUDE.md'];
      const freshHold = await fresh.instructions.ruleFor('Skills');
      expect(paths.filter((path) => hold(path) !== freshHold(path))).toEqual([]);
    } finally {
      fresh.close();
    }
  });

  it('a hold asked while the pass is under way reads the rest of the entries at once, never answering from part of them', async () => {
    let answer: boolean | null = null;
    onPause = (pause) => {
      if (pause === 1) answer = store.instructions.holds('Areas/rules.md', 'Skills');
    };
    await store.instructions.ruleFor('Skills', pacer);
    expect(answer).toBe(true);
    // The hold read what was left: the pass had nothing more to slice.
    expect(pauses).toBe(1);
  });
});
