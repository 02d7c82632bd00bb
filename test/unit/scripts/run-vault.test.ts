import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { prepareVault, resolveQuarantine, resolveRoots, stopRun, trustedLinkStates } from '../../../scripts/start/run-vault';
import {
  inputEndedLine,
  proposalLine,
  semanticStatusLine,
  startupLines,
  writesOffLine,
  type RunDetails,
} from '../../../scripts/start/run-banner';
import type { Proposal } from '../../../src/proposals/types';
import { defaultSettings } from '../../../src/settings/settings';
import { parseRunOptions } from '../../../scripts/start/run-options';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

describe('npm start: the vault folder', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
  });
  afterEach(() => copy.cleanup());

  it('says a file passed as --vault is a file, not a folder, and a missing one is no such folder', async () => {
    const file = nodePath.join(copy.dir, 'Home.md');
    await expect(prepareVault(file, DEMO_VAULT)).rejects.toThrow(
      `--vault ${file}: that is a file, not a folder; pass the folder that holds your notes.`,
    );
    await expect(prepareVault(nodePath.join(copy.dir, 'Nope'), DEMO_VAULT)).rejects.toThrow(/: no such folder; pass the folder/);
    await expect(prepareVault(copy.dir, DEMO_VAULT)).resolves.toMatchObject({ dir: copy.dir, temporary: false });
  });

  it('resolves a relative --vault from the folder given (where npm start was typed), and names the absolute folder it looked at', async () => {
    const docs = nodePath.join(copy.dir, 'Projects');
    await expect(prepareVault('..', DEMO_VAULT, '.obsidian', os.homedir(), docs)).resolves.toMatchObject({
      dir: copy.dir,
      temporary: false,
    });
    await expect(prepareVault('.', DEMO_VAULT, '.obsidian', os.homedir(), docs)).resolves.toMatchObject({ dir: docs, temporary: false });
    await expect(prepareVault('../Nope', DEMO_VAULT, '.obsidian', os.homedir(), docs)).rejects.toThrow(
      `--vault ../Nope (${nodePath.join(copy.dir, 'Nope')}): no such folder; pass the folder that holds your notes.`,
    );
    await expect(prepareVault('../Home.md', DEMO_VAULT, '.obsidian', os.homedir(), docs)).rejects.toThrow(
      `--vault ../Home.md (${nodePath.join(copy.dir, 'Home.md')}): that is a file, not a folder;`,
    );
    // The home folder named relatively: the path looked at shows which folder that was.
    await expect(prepareVault('..', DEMO_VAULT, '.no-such-config', copy.dir, docs)).rejects.toThrow(
      `--vault .. (${copy.dir}): that is your home folder, not a vault`,
    );
  });

  it('refuses the whole disk and the home folder unless they hold the config folder, as a vault does', async () => {
    const root = nodePath.parse(copy.dir).root;
    await expect(prepareVault(root, DEMO_VAULT, '.vault-mcp-no-such-config')).rejects.toThrow(
      `--vault ${root}: that is the whole disk, not a vault, and agents would see every file in it; pass the folder that holds your notes (an Obsidian vault has a .vault-mcp-no-such-config folder).`,
    );
    const home = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-home-'));
    try {
      await fsp.mkdir(nodePath.join(home, 'Notes'));
      await expect(prepareVault(home, DEMO_VAULT, '.obsidian', home)).rejects.toThrow(
        /: that is your home folder, not a vault, and agents would see every file in it; .*has a \.obsidian folder\)\.$/,
      );
      await expect(prepareVault(nodePath.join(home, 'Notes'), DEMO_VAULT, '.obsidian', home)).resolves.toMatchObject({ temporary: false });
      await fsp.mkdir(nodePath.join(home, '.obsidian'));
      await expect(prepareVault(home, DEMO_VAULT, '.obsidian', home)).resolves.toMatchObject({ dir: home, temporary: false });
    } finally {
      await fsp.rm(home, { recursive: true, force: true });
    }
  });

  it('makes a temporary copy of the demo vault when no --vault is given', async () => {
    const vault = await prepareVault(undefined, DEMO_VAULT);
    try {
      expect(vault.temporary).toBe(true);
      expect(await fsp.readFile(nodePath.join(vault.dir, 'Home.md'), 'utf8')).toBe(
        await fsp.readFile(nodePath.join(DEMO_VAULT, 'Home.md'), 'utf8'),
      );
    } finally {
      await fsp.rm(vault.dir, { recursive: true, force: true });
    }
  });

  it('accepts existing, visible folders as roots', async () => {
    expect(await resolveRoots(copy.dir, ['Projects', 'Projects/Alpha', 'Areas'])).toEqual({
      roots: ['Projects', 'Projects/Alpha', 'Areas'],
      problems: [],
    });
  });

  it('takes the folder a root names in another case on every disk, as client roots do; a root naming nothing or case twins is refused saying what to do', async () => {
    // Spelt in other cases (and with the long s, which case-insensitive disks fold to s): the folders' own spelling comes back.
    expect(await resolveRoots(copy.dir, ['projects', 'PROJECTS/alpha', 'areas', 'Projects'])).toEqual({
      roots: ['Projects', 'Projects/Alpha', 'Areas'],
      problems: [],
    });
    expect(await resolveRoots(copy.dir, ['Project\u017f'])).toEqual({ roots: ['Projects'], problems: [] });
    expect((await resolveRoots(copy.dir, ['projects/Gamma', 'Projcts'])).problems).toEqual([
      "--roots projects/Gamma: 'Projects' has no folder named 'Gamma' (in any case); give a folder that exists, relative to the vault, such as Projects, or create it first.",
      "--roots Projcts: the vault has no folder named 'Projcts' (in any case); give a folder that exists, relative to the vault, such as Projects, or create it first.",
    ]);
    // A settings key's root follows the same rule, named as the file's key.
    expect(await resolveRoots(copy.dir, ['people'], '.obsidian', [], (root, j) => `s.json: keys[0].roots[${j}] "${root}"`)).toEqual({
      roots: ['People'],
      problems: [],
    });
    // Case twins (a case-sensitive disk can hold both): the exact spelling names one, another spelling neither.
    const twins = await fsp.mkdir(nodePath.join(copy.dir, 'people'), { recursive: true }).then(
      () => true,
      () => false,
    );
    if (twins && (await fsp.readdir(copy.dir)).includes('people')) {
      expect(await resolveRoots(copy.dir, ['people', 'People'])).toEqual({ roots: ['people', 'People'], problems: [] });
      expect((await resolveRoots(copy.dir, ['PEOPLE'])).problems).toEqual([
        '--roots PEOPLE: that names 2 folders that differ only in case (People, people); give the one you mean as it is spelt.',
      ]);
    }
  });

  it('reads a --roots entry with outer spaces as the folder of that exact name when the trimmed name names none; both there: refused', async () => {
    await fsp.mkdir(nodePath.join(copy.dir, ' Sp '));
    await fsp.mkdir(nodePath.join(copy.dir, 'Areas', 'Nest '), { recursive: true });
    const resolve = (flag: string) => {
      const options = parseRunOptions(['--roots', flag]);
      return resolveRoots(copy.dir, options.roots, '.obsidian', [], undefined, options.exactRoots);
    };
    // Only ` Sp ` is there: it used to be refused as "no folder named 'Sp'" (and, with `Sp` there too, to confine the key to `Sp`).
    expect(await resolve('Projects, Sp ,Areas/Nest ')).toEqual({ roots: ['Projects', ' Sp ', 'Areas/Nest '], problems: [] });
    // The list still trims for convenience; spelt with its spaces kept, a root names the same folders.
    expect(await resolve(' projects , Journal ,./ Sp /')).toEqual({ roots: ['Projects', 'Journal', ' Sp '], problems: [] });
    // Neither spelling there: refused for the trimmed one, as any missing root.
    expect((await resolve(' Nope ')).problems).toEqual([
      "--roots Nope: the vault has no folder named 'Nope' (in any case); give a folder that exists, relative to the vault, such as Projects, or create it first.",
    ]);
    // A note of the exact name is no folder: the trimmed folder is meant.
    await fsp.writeFile(nodePath.join(copy.dir, ' Projects'), 'a file\n');
    expect(await resolve('Journal, Projects')).toEqual({ roots: ['Journal', 'Projects'], problems: [] });
    // Both there: the entry names no one folder, and the run stops saying how to write each.
    await fsp.mkdir(nodePath.join(copy.dir, 'Sp'));
    expect(await resolve('Projects, Sp ')).toEqual({
      roots: ['Projects'],
      problems: [
        '--roots Sp: that root names two folders, "Sp" with its outer spaces trimmed and " Sp " as typed; write "Sp" with no space before or after it ' +
          'for the first, or "./ Sp /" for the second ("./" before it and "/" after it keep its spaces).',
      ],
    });
    expect(await resolve('Sp,./ Sp /')).toEqual({ roots: ['Sp', ' Sp '], problems: [] });
    // The exact folder is checked as any root: a quarantined one is refused, never swapped for the trimmed one.
    await fsp.rm(nodePath.join(copy.dir, 'Sp'), { recursive: true });
    expect((await resolveRoots(copy.dir, ['Sp'], '.obsidian', [' Sp '], undefined, [' Sp '])).problems).toEqual([
      expect.stringMatching(/^--roots Sp: that folder is quarantined/),
    ]);
  });

  it('refuses a root the settings quarantine, and a root in a config folder of another name', async () => {
    await fsp.mkdir(nodePath.join(copy.dir, '.config'));
    expect((await resolveRoots(copy.dir, ['Projects/Alpha', 'Areas'], '.obsidian', ['Projects'])).problems).toEqual([
      expect.stringMatching(/^--roots Projects\/Alpha: that folder is quarantined \(.*the settings' quarantined folders\)/),
    ]);
    expect((await resolveRoots(copy.dir, ['.config'], '.config')).problems).toEqual([
      expect.stringMatching(/^--roots \.config: that folder is quarantined/),
    ]);
  });

  it('refuses missing, file, quarantined and linked-out roots with one sentence each', async () => {
    const outside = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-outside-'));
    try {
      await fsp.symlink(outside, nodePath.join(copy.dir, 'Elsewhere'), 'dir');
      const { problems } = await resolveRoots(copy.dir, [
        'Nope',
        'Home.md',
        '_private',
        '.obsidian',
        'Projects/.hidden',
        'Elsewhere',
        'Projects',
      ]);
      expect(problems).toEqual([
        "--roots Nope: the vault has no folder named 'Nope' (in any case); give a folder that exists, relative to the vault, such as Projects, or create it first.",
        '--roots Home.md: that is a note or file, not a folder; give a folder of the vault, such as Projects.',
        expect.stringMatching(/^--roots _private: that folder is quarantined/),
        expect.stringMatching(/^--roots \.obsidian: that folder is quarantined/),
        expect.stringMatching(/^--roots Projects\/\.hidden: that folder is quarantined/),
        '--roots Elsewhere: that folder links outside the vault; give a folder inside the vault, such as Projects.',
      ]);
    } finally {
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });
});

describe('npm start: the quarantine entries of the settings, as the plugin applies them', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
  });
  afterEach(() => copy.cleanup());
  const name = (entry: string, i: number): string => `q.json: access.quarantine[${i}] ${JSON.stringify(entry)}`;

  it('gives every spelling of a vault folder the folder as it is on disk; a folder not there yet is kept and marked', async () => {
    const entries = [
      nodePath.join(copy.dir, 'Journal'),
      'journal',
      'Journal/',
      './Journal',
      'Journal/../Journal',
      ' Journal',
      pathToFileURL(nodePath.join(copy.dir, 'projects', 'alpha')).href,
      'JOURNAL/2026',
      'Journ',
    ];
    expect(await resolveQuarantine(copy.dir, entries, name)).toEqual({
      folders: [
        { folder: 'Journal', exists: true },
        // A space at an end is part of the name, as in every vault path: no folder ' Journal' is there (it was taken for Journal).
        { folder: ' Journal', exists: false },
        { folder: 'Projects/Alpha', exists: true },
        { folder: 'Journal/2026', exists: true },
        { folder: 'Journ', exists: false },
      ],
      problems: [],
    });
  });

  it('reads a list of thousands in one listing per folder, duplicates dropped in order (100,000 entries took 32 s to start)', async () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => (i % 2 === 0 ? `Journal/f${i % 100}` : `Missing/f${i}`));
    const readdir = jest.spyOn(fsp, 'readdir');
    try {
      const found = await resolveQuarantine(copy.dir, entries, name);
      expect(found.problems).toEqual([]);
      expect(found.folders).toHaveLength(50 + 10_000);
      expect(found.folders.slice(0, 3)).toEqual([
        { folder: 'Journal/f0', exists: false },
        { folder: 'Missing/f1', exists: false },
        { folder: 'Journal/f2', exists: false },
      ]);
      // The vault's top and Journal: Missing is not there, so nothing below it is listed.
      expect(readdir).toHaveBeenCalledTimes(2);
    } finally {
      readdir.mockRestore();
    }
  });

  it('closes the folder an entry with spaces at its ends names, never the trimmed one; a path through a folder link Obsidian ignores names no folder', async () => {
    await fsp.mkdir(nodePath.join(copy.dir, ' Sp '));
    await fsp.mkdir(nodePath.join(copy.dir, 'Sp'));
    await fsp.symlink('../Journal', nodePath.join(copy.dir, 'Projects', 'JLink'));
    await fsp.symlink('..', nodePath.join(copy.dir, 'Up'));
    const found = await resolveQuarantine(copy.dir, [' Sp ', 'Projects/JLink/2026', `Up/${nodePath.basename(copy.dir)}/Journal`], name);
    expect(found).toEqual({
      folders: [
        { folder: ' Sp ', exists: true },
        { folder: 'Projects/JLink/2026', exists: false },
        { folder: `Up/${nodePath.basename(copy.dir)}/Journal`, exists: false },
      ],
      problems: [],
    });
  });

  it('refuses an entry naming a note or file: quarantine takes folders, and the start lines would call it a folder', async () => {
    await fsp.writeFile(nodePath.join(copy.dir, 'Projects', 'Alpha', 'Budget.pdf'), 'pdf');
    const found = await resolveQuarantine(copy.dir, ['Journal', 'home.md', `${copy.dir}/Projects/Alpha/Budget.pdf`, 'Budget.pdf'], name);
    expect(found).toEqual({
      folders: [
        { folder: 'Journal', exists: true },
        // Not there: may be a folder to come, as any missing entry.
        { folder: 'Budget.pdf', exists: false },
      ],
      problems: [
        'q.json: access.quarantine[1] "home.md" names the note "Home.md", not a folder; quarantine takes folders: move the note into a quarantined folder, ' +
          'or add "access: private" to the note\'s frontmatter to hide that note alone.',
        `q.json: access.quarantine[2] ${JSON.stringify(`${copy.dir}/Projects/Alpha/Budget.pdf`)} names the file "Projects/Alpha/Budget.pdf", not a folder; ` +
          'quarantine takes folders: give its folder "Projects/Alpha" (which closes everything in it), or move the file into a quarantined folder.',
      ],
    });
  });

  it('refuses, one sentence each, every entry that can never name a vault folder', async () => {
    const outside = nodePath.join(nodePath.dirname(copy.dir), 'Elsewhere');
    const advice = 'give a folder of the vault, relative to it, such as "Journal" or "Work/HR".';
    expect(await resolveQuarantine(copy.dir, ['Journal', '', '/', '.', '..', 'Jour*', copy.dir, outside], name)).toEqual({
      folders: [{ folder: 'Journal', exists: true }],
      problems: [
        `q.json: access.quarantine[1] "" is empty, so it names no folder; ${advice}`,
        `q.json: access.quarantine[2] "/" names the vault itself, not a folder in it; ${advice}`,
        `q.json: access.quarantine[3] "." names the vault itself, not a folder in it; ${advice}`,
        `q.json: access.quarantine[4] ".." climbs out of the vault with ".."; ${advice}`,
        `q.json: access.quarantine[5] "Jour*" holds a wildcard (* or ?), but entries are folder paths, not patterns; ${advice}`,
        `q.json: access.quarantine[6] ${JSON.stringify(copy.dir)} names the vault itself, not a folder in it; ${advice}`,
        `q.json: access.quarantine[7] ${JSON.stringify(outside)} is an absolute path or URL outside the vault; ${advice}`,
      ],
    });
  });
});

describe('npm start: stopping', () => {
  it('removes the plugin folders a run over a folder without .obsidian made for its writer.lock, only those and only while empty', async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-bare-'));
    try {
      await fsp.writeFile(nodePath.join(dir, 'Note.md'), 'x');
      const vault = await prepareVault(dir, DEMO_VAULT);
      const plugin = nodePath.join(dir, '.obsidian', 'plugins', 'vault-mcp');
      // What the run does: writer.lock makes the folders, and the unload removes the lock.
      await fsp.mkdir(plugin, { recursive: true });
      await fsp.writeFile(nodePath.join(plugin, 'writer.lock'), '{}');
      const unload = async (): Promise<void> => fsp.rm(nodePath.join(plugin, 'writer.lock'));
      expect(await stopRun({ stopServer: async () => undefined, unload }, vault, () => undefined)).toBe(true);
      expect(await fsp.readdir(dir)).toEqual(['Note.md']);

      // A run that left something of its own there (proposals): that folder and those above it stay.
      const again = await prepareVault(dir, DEMO_VAULT);
      await fsp.mkdir(plugin, { recursive: true });
      await fsp.writeFile(nodePath.join(plugin, 'proposals.json'), '[]');
      await stopRun({ stopServer: async () => undefined, unload: async () => undefined }, again, () => undefined);
      expect(await fsp.readdir(plugin)).toEqual(['proposals.json']);
      await fsp.rm(nodePath.join(dir, '.obsidian'), { recursive: true });

      // A vault's own .obsidian stays even when the run leaves it empty; the folders below it that the run made go.
      await fsp.mkdir(nodePath.join(dir, '.obsidian'));
      const own = await prepareVault(dir, DEMO_VAULT);
      await fsp.mkdir(plugin, { recursive: true });
      await stopRun({ stopServer: async () => undefined, unload: async () => undefined }, own, () => undefined);
      expect(await fsp.readdir(nodePath.join(dir, '.obsidian'))).toEqual([]);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  it('stops the server, then unloads, then removes the temporary copy', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    const order: string[] = [];
    const ok = await stopRun(
      {
        stopServer: async () => {
          order.push('server');
        },
        unload: async () => {
          order.push(`unload (copy there: ${await fsp.stat(copy.dir).then(() => true)})`);
        },
      },
      { dir: copy.dir, temporary: true },
      (m) => order.push(m),
    );
    expect(ok).toBe(true);
    expect(order).toEqual(['server', 'unload (copy there: true)']);
    await expect(fsp.stat(copy.dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never throws: a failing step is reported and the rest still runs; a --vault folder is left alone', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    try {
      const reported: string[] = [];
      const ok = await stopRun(
        { stopServer: () => Promise.reject(new Error('boom')), unload: () => Promise.reject(new Error('bang')) },
        { dir: copy.dir, temporary: false },
        (m) => reported.push(m),
      );
      expect(ok).toBe(false);
      expect(reported).toEqual(['Stopping the server failed: boom', 'Unloading the plugin failed: bang']);
      expect((await fsp.stat(copy.dir)).isDirectory()).toBe(true);
    } finally {
      await copy.cleanup();
    }
  });

  it('removes the copy even while files keep appearing in it, retrying instead of failing with ENOTEMPTY', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    const folder = nodePath.join(copy.dir, 'Projects', 'Alpha');
    let writing = true;
    let n = 0;
    // A late writer (as a cut-off tool call finishing its write) adds notes for a while.
    const writer = (async () => {
      while (writing && n < 40) {
        await fsp.writeFile(nodePath.join(folder, `late-${n++}.md`), 'x').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    setTimeout(() => (writing = false), 150);
    const reported: string[] = [];
    const ok = await stopRun(
      { stopServer: async () => undefined, unload: async () => undefined },
      { dir: copy.dir, temporary: true },
      (m) => reported.push(m),
    );
    await writer;
    await fsp.rm(copy.dir, { recursive: true, force: true });
    expect(n).toBeGreaterThan(0);
    expect(reported.filter((m) => /ENOTEMPTY/.test(m))).toEqual([]);
    expect(ok).toBe(reported.length === 0);
  });
});

describe('npm start: startup lines', () => {
  const vault = { dir: '/vaults/demo', temporary: true };
  const plain: RunDetails = { settings: defaultSettings(), source: null, tokens: new Map() };
  it('prints the quarantine as applied: vault folders, a missing one said to be missing', () => {
    const run: RunDetails = {
      ...plain,
      quarantine: [
        { folder: 'Journal', exists: true },
        { folder: 'Journ', exists: false },
        { folder: ' Sp ', exists: true },
        { folder: 'Later ', exists: false },
      ],
    };
    expect(startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, run)).toContain(
      'Quarantined: Journal, Journ (no such folder yet), " Sp ", "Later " (no such folder yet) (besides the config folder, dot-folders and _private)',
    );
  });
  it('lists at most 20 folders and cuts a long folder or label, saying how many more there are', () => {
    const settings = defaultSettings();
    settings.keys = [
      {
        id: 'k1',
        label: 'L'.repeat(300_000),
        mode: 'propose',
        scope: 'local',
        roots: [],
        created_at: '2026-12-06T00:00:00Z',
        last_used_at: null,
      },
    ];
    const folders = [
      { folder: 'F'.repeat(300_000), exists: false },
      ...Array.from({ length: 99_999 }, (_, i) => ({ folder: `Q/f${i}`, exists: true })),
    ];
    const lines = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, {
      ...plain,
      settings,
      quarantine: folders,
    });
    const listed = Array.from({ length: 19 }, (_, i) => `Q/f${i}`).join(', ');
    expect(lines).toContain(
      `Quarantined: ${'F'.repeat(80)}… (no such folder yet), ${listed}, … and 99,980 more (besides the config folder, dot-folders and _private)`,
    );
    expect(lines.some((line) => line.startsWith(`Key "${'L'.repeat(80)}…": mode propose`))).toBe(true);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(2000);
  });
  it('writes out control characters and line feeds of labels and folders instead of printing them to the terminal', () => {
    const settings = defaultSettings();
    settings.keys = [
      {
        id: 'k1',
        label: '\u001b[2J\u001b[31mred\rKey',
        mode: 'propose',
        scope: 'local',
        roots: [],
        created_at: '2026-12-06T00:00:00Z',
        last_used_at: null,
      },
      {
        id: 'k2',
        label: 'two\nlines\u202e',
        mode: 'propose',
        scope: 'local',
        roots: [],
        created_at: '2026-12-06T00:00:00Z',
        last_used_at: null,
      },
    ];
    const run: RunDetails = { ...plain, settings, quarantine: [{ folder: 'Jour\u001bnal', exists: true }] };
    const lines = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, run);
    expect(lines.some((line) => line.startsWith('Key "\\x1b[2J\\x1b[31mred\\rKey": mode propose'))).toBe(true);
    expect(lines.some((line) => line.startsWith('Key "two\\nlines<U+202E>": mode propose'))).toBe(true);
    expect(lines).toContain('Quarantined: Jour\\x1bnal (besides the config folder, dot-folders and _private)');
    // eslint-disable-next-line no-control-regex -- no line may hold a character the terminal acts on
    expect(lines.filter((line) => /[\u0000-\u0008\u000a-\u001f\u007f\u202e]/.test(line))).toEqual([]);
  });
  it('marks a root where the key may read no note, for the run key and a settings key alike', () => {
    const settings = defaultSettings();
    settings.keys = [
      {
        id: 'k1',
        label: 'Cursor',
        mode: 'propose',
        scope: 'local',
        roots: ['Personal', 'Projects'],
        created_at: '2026-12-06T00:00:00Z',
        last_used_at: null,
      },
    ];
    const asked: string[] = [];
    const run: RunDetails = {
      ...plain,
      settings,
      tokens: new Map([['k1', 'tok1']]),
      readable: (label, root) => (asked.push(`${label}:${root}`), root !== 'Personal'),
    };
    const lines = startupLines(parseRunOptions(['--roots', 'Personal,Projects']), 'http://127.0.0.1:27200/mcp', 'tok', vault, run);
    expect(lines).toContain('Key "npm start": mode propose, writes off, roots Personal (no note readable there), Projects');
    expect(lines.find((l) => l.startsWith('Key "Cursor"'))).toContain(', roots Personal (no note readable there), Projects;');
    expect(asked).toEqual(['npm start:Personal', 'npm start:Projects', 'Cursor:Personal', 'Cursor:Projects']);
  });

  it('says what lies at each trusted link: a link, nothing yet, or no link (a misspelt entry trusted nothing silently)', async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-trusted-'));
    try {
      const outside = nodePath.join(dir, 'outside');
      await fsp.mkdir(nodePath.join(dir, 'vault', 'Notes'), { recursive: true });
      await fsp.mkdir(outside);
      await fsp.symlink(outside, nodePath.join(dir, 'vault', 'Shared'));
      await fsp.symlink(outside, nodePath.join(dir, 'vault', ' Spaced'));
      const states = await trustedLinkStates(nodePath.join(dir, 'vault'), ['Shared', 'Shraed', 'Notes', ' Spaced', 'Shared ']);
      expect(states).toEqual([
        { link: 'Shared', state: 'link' },
        { link: 'Shraed', state: 'missing' },
        { link: 'Notes', state: 'not-a-link' },
        { link: ' Spaced', state: 'link' },
        { link: 'Shared ', state: 'missing' },
      ]);
      const lines = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, { ...plain, trustedLinks: states });
      expect(lines).toContain(
        'Trusted links out of the vault: Shared, Shraed (no such link yet), Notes (not a symbolic link: trusts nothing), " Spaced", "Shared " (no such link yet)',
      );
      expect(
        startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, plain).some((l) => l.startsWith('Trusted')),
      ).toBe(false);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
  it("shows a root with outer spaces as --roots takes it back, for the run's key and a settings key", () => {
    const options = { ...parseRunOptions([]), roots: ['Projects', ' Sp '] };
    const key = {
      id: 'k',
      label: 'Cursor',
      mode: 'propose',
      scope: 'local',
      roots: ['Sp ', 'Journal'],
      created_at: '',
      last_used_at: null,
    } as const;
    const run: RunDetails = { ...plain, settings: { ...plain.settings, keys: [{ ...key, roots: [...key.roots] }] } };
    const lines = startupLines(options, 'http://127.0.0.1:27200/mcp', 'tok', vault, run);
    // `roots Projects,  Sp ` used to hide which folder the key has.
    expect(lines).toContain('Key "npm start": mode propose, writes off, roots Projects, ./ Sp /');
    expect(lines).toContainEqual(expect.stringMatching(/^Key "Cursor": mode propose, scope local, roots \.\/Sp \/, Journal; token/));
  });
  it('keeps the listening line first and prints the review hint only for propose mode with writes on', () => {
    const writes: RunDetails = { ...plain, settings: { ...plain.settings, tools: { ...plain.settings.tools, allowWrites: true } } };
    const propose = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, writes);
    expect(propose[0]).toBe('MCP server listening on http://127.0.0.1:27200/mcp');
    expect(propose.some((l) => l.startsWith('Review proposals here (propose mode).'))).toBe(true);
    expect(propose.some((l) => l.startsWith('Writes are off'))).toBe(false);
    const off = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, plain);
    expect(off.some((l) => /Review proposals/.test(l))).toBe(false);
    expect(off).toContain(writesOffLine('propose'));
    const force = startupLines(
      parseRunOptions(['--mode', 'force', '--roots', 'Projects']),
      'http://127.0.0.1:27200/mcp',
      'tok',
      vault,
      plain,
    );
    expect(force[0]).toBe('MCP server listening on http://127.0.0.1:27200/mcp');
    expect(force.some((l) => /Review proposals/.test(l))).toBe(false);
    expect(force).toContain(writesOffLine('force'));
    expect(force).toContain('Key "npm start": mode force, writes off, roots Projects');
    expect(force).toContain(
      'Agent activity: activity (list what agents changed), activity <id> [line] (one change with its diff), revert <id>, revert key "<label>", revert session <session>.',
    );
    expect(force[force.length - 1]).toBe('Press Ctrl-C to stop.');
  });

  it('says when writes are allowed but every write tool is off (a settings file with tools.allowWrites alone), and what to do', () => {
    const settings = defaultSettings();
    settings.tools.allowWrites = true;
    const details = { settings, source: null, tokens: new Map<string, string>() };
    const lines = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, details);
    expect(lines).toContain(
      'Key "npm start": mode propose, writes allowed, but every write tool is off (name them true under tools.enabled in the settings, or run with --allow-writes)',
    );
    settings.tools.enabled = { delete_note: true };
    expect(startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, details)).toContain(
      'Key "npm start": mode propose, writes allowed',
    );
  });

  it("says when a settings key's tool set names only tools that are off, so it has no tool", () => {
    const settings = defaultSettings();
    const key = {
      id: 'k',
      label: 'Capture',
      mode: 'force' as const,
      scope: 'local' as const,
      roots: [],
      created_at: '',
      last_used_at: null,
    };
    settings.keys = [
      { ...key, tools: ['append_note'] },
      { ...key, id: 'r', label: 'Reader', tools: 'read' },
    ];
    const details = { settings, source: null, tokens: new Map([['k', 'vmcp_k']]) };
    const lines = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, details);
    expect(lines).toContain(
      'Key "Capture": mode force, scope local, no tool (every tool its tool set names is off); token (shown once): vmcp_k',
    );
    expect(lines).toContain('Key "Reader": mode force, scope local; token (shown once): (none)');
    settings.tools = { allowWrites: true, enabled: { append_note: true } };
    expect(startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, details)).toContain(
      'Key "Capture": mode force, scope local; token (shown once): vmcp_k',
    );
    // An empty tool set names no tool at all: said so, not "every tool it names is off".
    settings.keys = [{ ...key, tools: [] }];
    expect(startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, details)).toContain(
      'Key "Capture": mode force, scope local, no tool (its tool set names none: list the tools it may call, or give it "read" or "all"); token (shown once): vmcp_k',
    );
  });

  it('says where the settings came from, lists every key with the token made for it, and how semantic search stands', () => {
    const settings = defaultSettings();
    settings.keys = [
      { id: 'a', label: 'Claude Code', mode: 'force', scope: 'local', roots: ['Projects'], created_at: '', last_used_at: null },
      { id: 'b', label: 'Phone', mode: 'propose', scope: 'cloud', roots: [], created_at: '', last_used_at: null },
    ];
    settings.access.quarantine = ['Secret', 'Work/HR'];
    settings.tools.allowWrites = true;
    settings.tools.enabled = { append_note: true };
    const fromVault = startupLines(parseRunOptions([]), 'http://127.0.0.1:27200/mcp', 'tok', vault, {
      settings,
      source: { kind: 'vault', path: '/v/.obsidian/plugins/vault-mcp/data.json' },
      tokens: new Map([
        ['a', 'vmcp_a'],
        ['b', 'vmcp_b'],
      ]),
    });
    expect(fromVault[0]).toBe('MCP server listening on http://127.0.0.1:27200/mcp');
    // The run key's token comes right under its own line, before any other key's (session 43's newcomer took the first token printed).
    const own = fromVault.indexOf('Key "npm start": mode propose, writes allowed');
    expect(fromVault[own + 1]).toBe('Token (shown once): tok');
    expect(fromVault.findIndex((l) => l.includes('vmcp_'))).toBeGreaterThan(own + 1);
    expect(fromVault).toEqual(
      expect.arrayContaining([
        "Settings: /v/.obsidian/plugins/vault-mcp/data.json (the vault's own, read as Obsidian reads it; this run never writes it)",
        'Key "npm start": mode propose, writes allowed',
        'Key "Claude Code": mode force, scope local, roots Projects; token (shown once): vmcp_a',
        'Key "Phone": mode propose, scope cloud (this loopback server refuses it); token (shown once): vmcp_b',
        'Token (shown once): tok',
        'Quarantined: Secret, Work/HR (besides the config folder, dot-folders and _private)',
        'Semantic search: off (hybrid search is lexical); turn it on with --embed-url URL --embed-model NAME.',
      ]),
    );
    settings.ai = {
      ...settings.ai,
      enabled: true,
      semanticIndex: true,
      baseUrl: 'http://127.0.0.1:11434/v1',
      embeddingModel: 'nomic-embed-text',
    };
    settings.server.enabled = false;
    const fromFile = startupLines(
      parseRunOptions(['--token', 'abcdefghijklmnop']),
      'http://127.0.0.1:27200/mcp',
      'abcdefghijklmnop',
      vault,
      {
        settings,
        source: { kind: 'file', path: '/tmp/run.json' },
        ignored: '/v/.obsidian/plugins/vault-mcp/data.json',
        tokens: new Map(),
      },
    );
    expect(fromFile).toEqual(
      expect.arrayContaining([
        "Settings: /tmp/run.json (--settings; the vault's own /v/.obsidian/plugins/vault-mcp/data.json is not read)",
        'Warning: server.enabled is false in the settings, so every request gets 403; set it to true to serve clients.',
        'Semantic index: nomic-embed-text at http://127.0.0.1:11434/v1; semantic and hybrid search use it once it is built (a line says when).',
      ]),
    );
    expect(fromFile.some((l) => l.startsWith('Token (shown once)'))).toBe(false);
  });

  it('once standard input has ended, says so once and no longer offers the commands on each proposal (a run under nohup reviewed nothing, silently)', () => {
    const base = { id: 'p1', key_label: 'Claude Code', path: 'Notes/A.md', kind: 'edit' } as Proposal;
    expect(proposalLine(base, false)).toBe(
      '[proposal] "Claude Code" proposes changes to Notes/A.md (id p1). Standard input has ended, so it cannot be reviewed in this run (see the line above).',
    );
    expect(inputEndedLine({ dir: '/tmp/vault-mcp-demo-x', temporary: true })).toBe(
      'Standard input has ended, so review and activity commands are no longer read here; this run serves a temporary copy of the demo vault, removed with its proposals when the run stops: start it from a terminal to review them.',
    );
    expect(inputEndedLine({ dir: '/home/me/My Vault', temporary: false })).toBe(
      `Standard input has ended, so review and activity commands are no longer read here; proposals wait in the vault's proposals.json: review them in Obsidian, or in a run started from a terminal (npm start -- --vault "/home/me/My Vault").`,
    );
  });

  it('tells a proposal by what it changes, with the commands that review it in the terminal', () => {
    const base = { id: 'p1', key_label: 'Claude Code', path: 'Notes/A.md' } as Proposal;
    const review = 'Review it here: show p1, then accept p1 or reject p1; proposals lists every pending one.';
    expect(proposalLine({ ...base, kind: 'edit' })).toBe(`[proposal] "Claude Code" proposes changes to Notes/A.md (id p1). ${review}`);
    expect(proposalLine({ ...base, kind: 'properties' })).toBe(
      `[proposal] "Claude Code" proposes property changes to Notes/A.md (id p1). ${review}`,
    );
    expect(proposalLine({ ...base, kind: 'move', to: 'Archive/A.md' })).toContain('proposes moving Notes/A.md to Archive/A.md (id p1).');
    expect(proposalLine({ ...base, kind: 'delete' })).toContain('proposes deleting Notes/A.md');
    expect(proposalLine({ ...base, kind: 'folder', path: 'Notes/New' })).toContain('proposes a new folder Notes/New');
    // A force key's write held for review says why (Proposal.reason), before the commands.
    expect(proposalLine({ ...base, kind: 'move', to: 'B', reason: 'Agent instructions guide every agent.' })).toBe(
      `[proposal] "Claude Code" proposes moving Notes/A.md to B (id p1). Held for review: Agent instructions guide every agent. ${review}`,
    );
    for (const kind of ['edit', 'create', 'delete', 'move', 'properties', 'folder'] as const)
      expect(proposalLine({ ...base, kind })).not.toMatch(/editor|Pending changes/);
    // A key label from a settings file reaches the terminal written out, not acted on.
    expect(proposalLine({ ...base, kind: 'edit', key_label: 'Bot\u001b[2K\u202e' })).toContain('"Bot\\x1b[2K<U+202E>" proposes');
  });

  it("says how to turn writes on in the run key's mode", () => {
    expect(writesOffLine('propose')).toMatch(
      /Restart with --allow-writes \(npm start -- --allow-writes\) to let them propose changes you review here .*or add --mode force/,
    );
    expect(writesOffLine('force')).toMatch(
      /to let them write at once \(mode force; activity lists what they changed, revert undoes it\)\.$/,
    );
  });

  it('reports the semantic index when it is built, paused or off, and stays quiet while it builds', () => {
    expect(semanticStatusLine({ state: 'ready', notes: 12, chunks: 40 })).toBe('Semantic index ready: 12 notes, 40 chunks.');
    expect(semanticStatusLine({ state: 'paused', reason: 'the provider is busy.', indexed: 3, total: 12 })).toBe(
      'Semantic index paused at 3/12 notes: the provider is busy.',
    );
    expect(semanticStatusLine({ state: 'off', reason: 'AI is turned off' })).toBe(
      'Semantic index off: AI is turned off (from the terminal: --embed-url URL --embed-model NAME).',
    );
    expect(semanticStatusLine({ state: 'building', indexed: 3, total: 12 })).toBeNull();
  });
});
