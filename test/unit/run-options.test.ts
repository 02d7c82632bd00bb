import { parseRoots, parseRunOptions, USAGE } from '../../scripts/run-options';

describe('npm start options', () => {
  it('has documented defaults', () => {
    expect(parseRunOptions([])).toEqual({ port: 27200, mode: 'propose', allowWrites: false, roots: [], help: false });
  });

  it('parses every flag in both spellings', () => {
    expect(
      parseRunOptions(['--vault', 'v', '--port=0', '--token', 'abcdefghijklmnop', '--mode=force', '--allow-writes', '--roots', 'Projects/, ./Areas ,']),
    ).toEqual({ vault: 'v', port: 0, token: 'abcdefghijklmnop', mode: 'force', allowWrites: true, roots: ['Projects', 'Areas'], help: false });
  });

  it('turns on the conformance fixtures only when asked', () => {
    expect(parseRunOptions(['--conformance-fixtures']).conformanceFixtures).toBe(true);
    expect(parseRunOptions([]).conformanceFixtures).toBeUndefined();
  });

  it('lists every flag in the usage text, --conformance-fixtures marked as for the conformance suite', () => {
    for (const flag of ['--vault', '--port', '--token', '--mode', '--allow-writes', '--roots', '--conformance-fixtures', '--help']) expect(USAGE).toContain(flag);
    expect(USAGE).toMatch(/--conformance-fixtures +for the MCP conformance suite only/);
  });

  it('keeps nested roots vault-relative and reads a backslash as a slash', () => {
    expect(parseRoots('Projects/Alpha,Areas\\Home, ,.')).toEqual(['Projects/Alpha', 'Areas/Home']);
  });

  it('refuses roots outside the vault with one sentence each, never stripping them into vault paths', () => {
    expect(() => parseRoots('../outside,Projects')).toThrow(/^--roots \.\.\/outside: give a folder inside the vault, such as Projects\.$/);
    expect(() => parseRunOptions(['--roots', '/etc'])).toThrow('--roots /etc: give a folder inside the vault, such as Projects.');
    expect(() => parseRoots('C:\\Users,Projects/../..,/etc')).toThrow(
      [
        '--roots C:\\Users: give a folder inside the vault, such as Projects.',
        '--roots Projects/../..: give a folder inside the vault, such as Projects.',
        '--roots /etc: give a folder inside the vault, such as Projects.',
      ].join('\n'),
    );
  });

  it.each([
    [['--port', '80'], /1024 to 65535/],
    [['--port', 'abc'], /1024 to 65535/],
    [['--port', '70000'], /1024 to 65535/],
    [['--token', 'short'], /at least 16/],
    [['--mode', 'yolo'], /"propose" or "force"/],
    [['--vault'], /needs a value/],
    [['--vault', '--port'], /needs a value/],
    [['--allow-writes=yes'], /takes no value/],
    [['--conformance-fixtures=1'], /takes no value/],
    [['--bogus'], /Unknown option --bogus/],
  ])('refuses %p', (argv, message) => {
    expect(() => parseRunOptions(argv)).toThrow(message);
  });
});
