// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server mode)
// against `npm start`'s runner, twice:
//  1. the plain plugin, for the scenarios that need nothing but Vault MCP itself
//     (REAL_PLUGIN_SCENARIOS: resources, prompts and completion as the vault serves them);
//  2. the plugin with the suite's fixture tools, resources and prompts, which only the test
//     host registers (`--conformance-fixtures`, test/conformance-fixtures.ts), for each protocol
//     revision's requirement set (`--requirements <revision>`: exactly the scenarios that revision
//     requires, run at its own wire: REQUIREMENT_SETS below); scenarios still expected to fail are
//     listed in test/conformance-baseline.yml.
// The suite needs Node 22 (it calls fs.globSync, which Node 20 lacks): the running Node when it is 22 or newer, else the npm package
// node-<platform>-<arch>@22 installed on demand into build/node22/ (scripts/node-release.mjs). The suite sends no
// Authorization header, so it talks to a test-only loopback proxy that adds the run's bearer token.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { nodeBinary } from './node-release.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node22 = nodeBinary(22, 'conformance: the suite', { orNewer: true });
const suite = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const token = `conf_${randomBytes(24).toString('base64url')}`;

/** The protocol revisions whose requirement sets must pass: the session era's newest and 2026-07-28. */
const REQUIREMENT_SETS = ['2025-11-25', '2026-07-28'];

/** Scenarios that must pass against the plugin alone, without any fixture. */
const REAL_PLUGIN_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'resources-list',
  'prompts-list',
  'completion-complete',
];

const build = spawnSync(process.execPath, ['esbuild.config.mjs', 'production'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

/** Starts `npm start`'s runner and a proxy adding the bearer token. @returns the proxy URL and a stopper. */
async function startServer(extraArgs) {
  const server = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--token', token, ...extraArgs], {
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
  return {
    url: `http://127.0.0.1:${proxy.address().port}/mcp`,
    stop: () => {
      server.kill('SIGTERM');
      proxy.close();
    },
  };
}

/** Runs the suite with `args` against `url`. @returns its exit code. */
async function runSuite(url, args) {
  const run = spawn(node22, [suite, 'server', '--url', url, ...args], { cwd: path.join(root, 'build'), stdio: 'inherit' });
  return (await new Promise((resolve) => run.once('exit', resolve))) ?? 1;
}

let failed = false;
const plain = await startServer([]);
for (const scenario of REAL_PLUGIN_SCENARIOS) {
  if ((await runSuite(plain.url, ['--scenario', scenario])) !== 0) failed = true;
}
plain.stop();

const withFixtures = await startServer(['--conformance-fixtures']);
for (const revision of REQUIREMENT_SETS) {
  console.log(`conformance: requirement set ${revision}`);
  if (
    (await runSuite(withFixtures.url, [
      '--requirements',
      revision,
      '--expected-failures',
      path.join(root, 'test', 'conformance-baseline.yml'),
    ])) !== 0
  )
    failed = true;
}
withFixtures.stop();
process.exit(failed ? 1 : 0);
