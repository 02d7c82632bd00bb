import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  API_KEY_ENV,
  npmKeptFlags,
  parseConfigDir,
  parseEmbedUrl,
  parseRoots,
  parseRootsFlag,
  parseRunOptions,
  runCwd,
  shownValue,
  USAGE,
} from '../../../scripts/start/run-options';

const DEFAULTS = { mode: 'propose', allowWrites: false, roots: [], help: false, configDir: '.obsidian', allowRemote: false };

describe('npm start options', () => {
  it("has documented defaults (no port: the settings' server.port, 27200 without a file)", () => {
    expect(parseRunOptions([])).toEqual(DEFAULTS);
  });

  it('parses every flag in both spellings', () => {
    expect(
      parseRunOptions([
        '--vault',
        'v',
        '--port=0',
        '--token',
        'abcdefghijklmnop',
        '--mode=force',
        '--allow-writes',
        '--roots',
        'Projects/, ./Areas ,',
      ]),
    ).toEqual({
      ...DEFAULTS,
      vault: 'v',
      port: 0,
      token: 'abcdefghijklmnop',
      mode: 'force',
      allowWrites: true,
      roots: ['Projects', 'Areas'],
      // ` ./Areas ` spelt with its spaces: a folder ` .` holding `Areas `, weighed on disk against `Areas` (run-vault.ts resolveRoots).
      exactRoots: [null, ' ./Areas '],
      // As typed between the commas, for a refusal to quote.
      typedRoots: ['Projects/', ' ./Areas '],
    });
    expect(
      parseRunOptions([
        '--settings',
        'run.json',
        '--config-dir=.config',
        '--embed-url',
        'http://127.0.0.1:11434/v1/',
        '--embed-model=nomic-embed-text',
        '--allow-remote',
      ]),
    ).toEqual({
      ...DEFAULTS,
      settings: 'run.json',
      configDir: '.config',
      embedUrl: 'http://127.0.0.1:11434/v1',
      embedModel: 'nomic-embed-text',
      allowRemote: true,
    });
  });

  it('normalizes an embedding base URL and refuses one that is not http(s), carries credentials or lacks /v1', () => {
    expect(parseEmbedUrl(' https://api.openai.com/v1/chat/completions ')).toBe('https://api.openai.com/v1');
    expect(parseEmbedUrl('https://openrouter.ai/api/v1')).toBe('https://openrouter.ai/api/v1');
    expect(() => parseEmbedUrl('127.0.0.1:11434/v1')).toThrow(
      '--embed-url 127.0.0.1:11434/v1: give an http:// or https:// base URL ending in /v1, such as http://127.0.0.1:11434/v1 for Ollama.',
    );
    expect(() => parseEmbedUrl('http://127.0.0.1:11434')).toThrow(
      '--embed-url http://127.0.0.1:11434: an OpenAI-compatible base URL ends in /v1 (Vault MCP adds /embeddings), such as http://127.0.0.1:11434/v1.',
    );
    expect(() => parseEmbedUrl('https://me:secret@example.com/v1')).toThrow(
      `--embed-url: remove the user name and password from the URL; put an API key in the environment variable ${API_KEY_ENV} instead.`,
    );
  });

  it('takes a config folder name with its leading dot, as Obsidian requires', () => {
    expect(parseConfigDir('.obsidian-work/')).toBe('.obsidian-work');
    for (const bad of ['obsidian', '.a/b', '..', '/abs/.obsidian', '.'])
      expect(() => parseConfigDir(bad)).toThrow(`--config-dir ${bad}: give the name of the vault's config folder, such as .obsidian.`);
  });

  it('turns on the conformance fixtures only when asked', () => {
    expect(parseRunOptions(['--conformance-fixtures']).conformanceFixtures).toBe(true);
    expect(parseRunOptions([]).conformanceFixtures).toBeUndefined();
  });

  it('lists every flag in the usage text, --conformance-fixtures marked as for the conformance suite', () => {
    for (const flag of [
      '--vault',
      '--port',
      '--token',
      '--mode',
      '--allow-writes',
      '--roots',
      '--settings',
      '--config-dir',
      '--embed-url',
      '--embed-model',
      '--allow-remote',
      '--conformance-fixtures',
      '--help',
    ]) {
      expect(USAGE).toContain(flag);
    }
    expect(USAGE).toContain(API_KEY_ENV);
    expect(USAGE).toMatch(/--conformance-fixtures +for the MCP conformance suite only/);
  });

  it('keeps nested roots vault-relative and reads a backslash as a slash', () => {
    expect(parseRoots('Projects/Alpha,Areas\\Home, ,./Journal/')).toEqual(['Projects/Alpha', 'Areas/Home', 'Journal']);
  });

  it('keeps the spelling of an entry with outer spaces beside its trimmed root, for the run to weigh on disk', () => {
    expect(parseRootsFlag('Projects, Sp ,Journal')).toEqual({
      roots: ['Projects', 'Sp', 'Journal'],
      exact: [null, ' Sp ', null],
      typed: ['Projects', ' Sp ', 'Journal'],
    });
    // The same entry in both spellings twice is one; ` Sp ` and `Sp` are two entries until the disk says which folder each names.
    expect(parseRootsFlag(' Sp , Sp ,Sp')).toEqual({ roots: ['Sp', 'Sp'], exact: [' Sp ', null], typed: [' Sp ', 'Sp'] });
    expect(parseRunOptions(['--roots', ' Sp ']).exactRoots).toEqual([' Sp ']);
    expect(parseRunOptions(['--roots', 'Projects,Journal']).exactRoots).toBeUndefined();
    // Bad entries are refused as before, spaces or not, and give no second spelling to fall back on.
    expect(() => parseRootsFlag(' /etc , . ')).toThrow(
      [
        "--roots /etc: give a folder inside the vault, relative to it (as a key's roots in the settings are), such as Projects.",
        '--roots .: that is the whole vault; leave --roots out to let the key see all of it.',
      ].join('\n'),
    );
  });

  it('refuses a wildcard root (`Skills/*`) as no pattern, naming the folder to give instead', () => {
    const pattern = 'that root holds a wildcard (* or ?), but roots are folder paths, not patterns (a root takes every folder below it)';
    expect(() => parseRoots('Skills/*')).toThrow(`--roots Skills/*: ${pattern}; use --roots Skills.`);
    expect(() => parseRoots('Work/**/Plans')).toThrow(`--roots Work/**/Plans: ${pattern}; use --roots Work.`);
    expect(() => parseRoots('Projects,*')).toThrow(
      `--roots *: ${pattern}; give a folder inside the vault, relative to it, such as Projects.`,
    );
  });

  it('refuses a root that names the vault itself (`.`, `a/..`): it would quietly be the whole vault', () => {
    const whole = 'that is the whole vault; leave --roots out to let the key see all of it.';
    expect(() => parseRoots('Projects,.')).toThrow(`--roots .: ${whole}`);
    expect(() => parseRunOptions(['--roots', 'Projects/..'])).toThrow(`--roots Projects/..: ${whole}`);
  });

  it('refuses roots outside the vault with one sentence each, never stripping them into vault paths', () => {
    const outside = "give a folder inside the vault, relative to it (as a key's roots in the settings are), such as Projects.";
    expect(() => parseRoots('../outside,Projects')).toThrow(`--roots ../outside: ${outside}`);
    expect(() => parseRunOptions(['--roots', '/etc'])).toThrow(`--roots /etc: ${outside}`);
    expect(() => parseRoots('C:\\Users,Projects/../..,/etc')).toThrow(
      [`--roots C:\\Users: ${outside}`, `--roots Projects/../..: ${outside}`, `--roots /etc: ${outside}`].join('\n'),
    );
  });

  it('refuses blanks and commas alone, which would leave the key the whole vault', () => {
    for (const value of [' ', ',', ' , ,'])
      expect(() => parseRunOptions(['--roots', value])).toThrow(
        `--roots ${JSON.stringify(value)} names no folder; give folders relative to the vault`,
      );
    expect(parseRoots('Projects, ,Areas')).toEqual(['Projects', 'Areas']);
  });

  it('answers an absolute root inside --vault with the vault-relative spelling to type, wherever --vault comes', () => {
    const vault = nodePath.resolve('some-vault');
    expect(() => parseRunOptions(['--roots', `${vault}/Projects/Alpha/`, '--vault', 'some-vault'])).toThrow(
      `--roots ${vault}/Projects/Alpha/: roots are folders relative to the vault; use --roots Projects/Alpha.`,
    );
    expect(() => parseRoots(vault, vault)).toThrow(
      `--roots ${vault}: that is the whole vault; leave --roots out to let the key see all of it.`,
    );
    expect(() => parseRoots(`${vault}-other/Projects`, vault)).toThrow(/: give a folder inside the vault, relative to it/);
    // The file:// URI of a folder in the vault (as an MCP client names roots) gets the same answer.
    const uri = pathToFileURL(nodePath.join(vault, 'Projects', 'Alpha')).href;
    expect(() => parseRoots(uri, vault)).toThrow(`--roots ${uri}: roots are folders relative to the vault; use --roots Projects/Alpha.`);
  });

  it('gives the vault-relative spelling for a root spelt through the real path when --vault is a symbolic link, and the other way round', () => {
    const base = mkdtempSync(nodePath.join(os.tmpdir(), 'vault-mcp-roots-link-'));
    try {
      const real = nodePath.join(base, 'real vault');
      mkdirSync(nodePath.join(real, 'sub'), { recursive: true });
      const link = nodePath.join(base, 'link');
      symlinkSync(real, link, 'dir');
      const advice = '--roots sub.';
      expect(() => parseRoots(nodePath.join(real, 'sub'), link)).toThrow(`roots are folders relative to the vault; use ${advice}`);
      expect(() => parseRoots(nodePath.join(link, 'sub'), link)).toThrow(`roots are folders relative to the vault; use ${advice}`);
      expect(() => parseRoots(nodePath.join(link, 'sub'), real)).toThrow(`roots are folders relative to the vault; use ${advice}`);
      expect(() => parseRoots(real, link)).toThrow(/that is the whole vault/);
      expect(() => parseRoots(nodePath.join(base, 'elsewhere'), link)).toThrow(/: give a folder inside the vault, relative to it/);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('says to put -- before the flags for a bare word, as npm leaves one behind', () => {
    expect(() => parseRunOptions(['27310'])).toThrow(
      'Unknown option 27310: the run takes --flags only; through npm, put -- before them (npm start -- --port 27310).',
    );
  });

  describe('flags npm kept for itself (npm start --flag without --)', () => {
    const npm = { npm_lifecycle_event: 'start' };
    it('gives the exact command for one kept flag and the word npm passed on, keeping the flags that did arrive', () => {
      expect(npmKeptFlags(['27310', '--mode', 'force'], { ...npm, npm_config_port: 'true' })).toBe(
        'npm kept --port for itself (flags after "npm start" need -- before them), so this run would go without it; run: npm start -- --port 27310 --mode force',
      );
      expect(npmKeptFlags([], { ...npm, npm_config_port: '27310' })).toMatch(/run: npm start -- --port 27310$/);
    });

    it('names switches, which leave no word behind, and several kept flags with their values to put back', () => {
      expect(npmKeptFlags([], { ...npm, npm_config_allow_writes: 'true' })).toMatch(
        /^npm kept --allow-writes for itself .*; run: npm start -- --allow-writes$/,
      );
      expect(npmKeptFlags(['/v', 'force'], { ...npm, npm_config_vault: 'true', npm_config_mode: 'true' })).toBe(
        'npm kept --vault, --mode for itself (flags after "npm start" need -- before them), so this run would go without them; run: npm start -- --vault ... --mode ... (putting /v force back after their flags)',
      );
    });

    it("is silent when npm kept none of the run's flags, or the runner was not started by npm", () => {
      expect(npmKeptFlags(['--port', '0'], { ...npm, npm_config_cache: '/c' })).toBeNull();
      expect(npmKeptFlags(['27310'], { npm_config_port: 'true' })).toBeNull();
    });
  });

  it.each([
    [['--port', '80'], /1024 to 65535/],
    [['--port', 'abc'], /1024 to 65535/],
    [['--port', '70000'], /1024 to 65535/],
    [['--token', 'short'], /at least 16/],
    [['--token', '日本語日本語日本語日本語日本語日本語'], /printable ASCII/],
    [['--token', 'éééééééééééééééééé'], /printable ASCII/],
    [['--token', 'abcdefgh\tijklmnop'], /printable ASCII/],
    [['--token', 'abcdefgh\u0001ijklmnop'], /printable ASCII/],
    [['--mode', 'yolo'], /"propose" or "force"/],
    [['--vault'], /needs a value/],
    [['--vault', '--port'], /needs a value/],
    [['--allow-writes=yes'], /takes no value/],
    [['--conformance-fixtures=1'], /takes no value/],
    [['--allow-remote=yes'], /--allow-remote takes no value/],
    [['--settings'], /--settings needs a value/],
    [['--embed-url', 'ftp://x/v1'], /--embed-url ftp:\/\/x\/v1: give an http/],
    [['--embed-model', ' '], /--embed-model " ": give the model's name without spaces/],
    [['--embed-model', 'nomic embed'], /without spaces/],
    [['--bogus'], /Unknown option --bogus/],
  ])('refuses %p', (argv, message) => {
    expect(() => parseRunOptions(argv)).toThrow(message);
  });
});

describe('docs/npm-start.md: the npm start commands it shows', () => {
  const page = readFileSync(nodePath.resolve(__dirname, '../../../docs/npm-start.md'), 'utf8');
  const start = page.indexOf('\n## Semantic and hybrid search from the terminal\n');
  const section = page.slice(start, page.indexOf('\n## ', start + 1));

  it('gives the two Ollama commands, whose npm start flags parse to an Ollama embedding endpoint', () => {
    expect(start).toBeGreaterThan(0);
    expect(section).toContain('\nollama pull nomic-embed-text\n');
    const line = /^npm start -- (.*--embed-url http:\/\/127\.0\.0\.1:11434\/v1.*)$/m.exec(section);
    expect(line).not.toBeNull();
    const options = parseRunOptions(line![1].split(/\s+/));
    expect(options).toMatchObject({ embedUrl: 'http://127.0.0.1:11434/v1', embedModel: 'nomic-embed-text' });
  });

  it("lists in its options table exactly the flags of the runner's usage text", () => {
    const tableFlags = [...page.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]!).sort();
    const usageFlags = [...USAGE.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]!).sort();
    expect(usageFlags.length).toBeGreaterThan(5);
    expect(tableFlags).toEqual(usageFlags);
  });

  it('documents, here and in the README, the first line the runner prints (scripts/start/run-banner.ts startupLines)', () => {
    const readme = readFileSync(nodePath.resolve(__dirname, '../../../README.md'), 'utf8');
    for (const text of [page, readme]) expect(text).toContain('\nMCP server listening on http://127.0.0.1:27200/mcp\n');
  });

  it('shows the API key read from the environment variable the runner reads, never as a flag', () => {
    expect(section).toContain(API_KEY_ENV);
    for (const [, args] of section.matchAll(/^npm start -- (.*)$/gm)) expect(() => parseRunOptions(args.split(/\s+/))).not.toThrow();
  });
});

describe('npm start: relative paths are the folder npm start was typed in', () => {
  const typedIn = nodePath.resolve('/somewhere/docs');
  it("resolves from npm's INIT_CWD when npm runs the script (npm runs it from the repository), else from the working directory", () => {
    expect(runCwd({ npm_lifecycle_event: 'start', INIT_CWD: typedIn }, '/repo')).toBe(typedIn);
    // Not started by npm (node scripts/start.mjs): an INIT_CWD left over from an outer npm is not ours.
    expect(runCwd({ INIT_CWD: typedIn }, '/repo')).toBe('/repo');
    expect(runCwd({ npm_lifecycle_event: 'start', INIT_CWD: 'docs' }, '/repo')).toBe('/repo');
    expect(runCwd({ npm_lifecycle_event: 'start' }, '/repo')).toBe('/repo');
  });

  it('checks an absolute --roots against --vault resolved from that folder', () => {
    const vault = nodePath.join(typedIn, 'Notes');
    expect(() => parseRunOptions(['--vault', 'Notes', '--roots', nodePath.join(vault, 'Projects')], typedIn)).toThrow(
      'roots are folders relative to the vault; use --roots Projects.',
    );
  });
});

describe('npm start: a flag given twice', () => {
  it.each([
    [['--port', '27810', '--port', '27811'], '--port is given twice; give each flag once.'],
    [['--vault=a', '--vault', 'b'], '--vault is given twice; give each flag once.'],
    [['--allow-writes', '--allow-writes'], '--allow-writes is given twice; give each flag once.'],
    [['--token', 'abcdefghijklmnop', '--mode', 'force', '--token=abcdefghijklmnopq'], '--token is given twice; give each flag once.'],
    [
      ['--roots', 'Projects', '--roots', 'Journal'],
      '--roots is given twice; give each flag once (several roots go in one, with commas: --roots Projects,Journal).',
    ],
  ])('refuses %j instead of letting the last one win', (argv, message) => {
    expect(() => parseRunOptions(argv)).toThrow(message);
  });

  it('still takes --help twice, and each flag once', () => {
    expect(parseRunOptions(['--help', '-h', '--help']).help).toBe(true);
    expect(parseRunOptions(['--port', '27810', '--mode', 'force']).port).toBe(27810);
  });
});

describe('npm start: a refused value is quoted as typed when spaces or quotes are part of it', () => {
  it('quotes empty values and ones with spaces, quotes or control characters, and leaves a plain word as it is', () => {
    expect(shownValue('Projects')).toBe('Projects');
    expect(shownValue('C:\\Users')).toBe('C:\\Users');
    expect(shownValue(' Sp ')).toBe('" Sp "');
    expect(shownValue('')).toBe('""');
    expect(shownValue('a\u202eb')).toBe('"a\u202eb"');
    expect(shownValue("it's")).toBe('"it\'s"');
  });

  it('shows the spaces of a refused value', () => {
    expect(() => parseRunOptions(['--mode', 'force '])).toThrow('--mode "force ": use "propose" or "force".');
    expect(() => parseRunOptions(['--port', ' 27300'])).toThrow('--port " 27300": use a number');
    expect(() => parseRunOptions(['--roots', 'My notes/../..'])).toThrow('--roots "My notes/../..": give a folder inside the vault');
  });
});
