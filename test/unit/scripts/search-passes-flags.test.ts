import { searchPassesFlags } from '../../../scripts/bench/search-passes-flags';

describe('search-passes flags', () => {
  it('reads the endpoint, the token and the runs, five by default', () => {
    const flags = searchPassesFlags(['--url', 'http://127.0.0.1:27123/mcp', '--token', 'k'.repeat(20)]);
    expect(flags.url.href).toBe('http://127.0.0.1:27123/mcp');
    expect(flags.token).toBe('k'.repeat(20));
    expect(flags.runs).toBe(5);
    expect(searchPassesFlags(['--token', 't', '--runs', '12', '--url', 'http://localhost:1/mcp']).runs).toBe(12);
  });

  it.each([
    [[], /give the server with --url .* and a key with --token/],
    [['--url', 'http://127.0.0.1:1/mcp'], /--token/],
    [['--url', 'not a url', '--token', 't'], /is not a URL; give the endpoint the server printed/],
    [['--url', '--token', 't'], /--url needs a value/],
    [['--url', 'http://127.0.0.1:1/mcp', '--token', 't', '--runs', '0'], /--runs takes a whole number from 1 to 100/],
    [['--url', 'http://127.0.0.1:1/mcp', '--token', 't', '--runs', '2.5'], /--runs takes a whole number/],
    [['--url', 'http://127.0.0.1:1/mcp', '--token', 't', '--runs', '101'], /--runs takes a whole number/],
    [['--url', 'http://127.0.0.1:1/mcp', '--token', 't', '--port', '3'], /unknown flag --port/],
  ])('refuses %j, naming what to give', (args, message) => {
    expect(() => searchPassesFlags(args as string[])).toThrow(message);
  });
});
