import { isAllowedOrigin, isLoopbackHost } from '../../src/server/http/door/door';

describe('door: Host and Origin', () => {
  it.each([
    ['127.0.0.1:27200', true],
    ['localhost:1', true],
    ['LOCALHOST', true],
    ['[::1]:27200', true],
    ['evil.com', false],
    ['127.0.0.1.evil.com:27200', false],
    ['localhost.evil.com', false],
    ['192.168.1.2:27200', false],
    ['', false],
  ])('Host %p → %p', (host, ok) => {
    expect(isLoopbackHost(host)).toBe(ok);
  });

  it.each([
    [undefined, true],
    ['app://obsidian.md', true],
    ['http://localhost:5173', true],
    ['http://127.0.0.1', true],
    ['https://evil.com', false],
    ['http://localhost.evil.com', false],
    ['null', false],
    ['file://', false],
  ])('Origin %p → %p', (origin, ok) => {
    expect(isAllowedOrigin(origin)).toBe(ok);
  });
});
