import { parseRunOptions } from '../../scripts/run-options';

describe('npm start options', () => {
  it('has documented defaults', () => {
    expect(parseRunOptions([])).toEqual({ port: 27200, mode: 'propose', allowWrites: false, roots: [], help: false });
  });

  it('parses every flag in both spellings', () => {
    expect(
      parseRunOptions(['--vault', 'v', '--port=0', '--token', 'abcdefghijklmnop', '--mode=force', '--allow-writes', '--roots', '/Projects/, Areas ,']),
    ).toEqual({ vault: 'v', port: 0, token: 'abcdefghijklmnop', mode: 'force', allowWrites: true, roots: ['Projects', 'Areas'], help: false });
  });

  it('turns on the conformance fixtures only when asked', () => {
    expect(parseRunOptions(['--conformance-fixtures']).conformanceFixtures).toBe(true);
    expect(parseRunOptions([]).conformanceFixtures).toBeUndefined();
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
