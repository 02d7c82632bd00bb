import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient } from '../../harness/boot-plugin';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { attempt } from '../../harness/edits/write-helpers';
import { seededRandom } from '../../harness/seeded-random';

/** Path pieces that broke other vault servers: climbing, encodings, separators, quarantine, Unicode forms. */
const PIECES = [
  '..',
  '.',
  '',
  'Projects',
  'projects',
  'Alpha',
  'ALPHA',
  'Beta',
  '_private',
  '_Private',
  '.obsidian',
  '.trash',
  '.git',
  '%2e%2e',
  '%2E%2E%2F',
  '%2F',
  '%5C',
  '%252e%252e',
  '..%2F..',
  'Cafe\u0301',
  'Café',
  'Über',
  '日本語',
  ' ',
  '~',
  'C:',
  'a%',
  'note',
  'Note.md',
  'x.MD',
  'con',
  '\u00a0pad',
  'sub dir',
  '...',
  '.hidden',
  'file:',
  'D:\\',
  '\\\\server',
];
const SEPARATORS = ['/', '/', '/', '\\', '//', '/./', '/../'];
/** Spellings of the key's root, so many paths start inside it before the random tail. */
const ROOT_SPELLINGS = [
  'Projects/Alpha/',
  'projects/alpha/',
  'Projects\\Alpha\\',
  './Projects/Beta/../Alpha/',
  '/Projects//Alpha/',
  'Projects%2FAlpha%2F',
];

/** A random path from the pieces, with random separators and an optional leading or trailing one. */
function randomPath(random: () => number): string {
  const count = 1 + Math.floor(random() * 5);
  let out =
    random() < 0.7
      ? ROOT_SPELLINGS[Math.floor(random() * ROOT_SPELLINGS.length)]
      : random() < 0.3
        ? SEPARATORS[Math.floor(random() * SEPARATORS.length)]
        : '';
  for (let i = 0; i < count; i++) {
    if (i > 0) out += SEPARATORS[Math.floor(random() * SEPARATORS.length)];
    out += PIECES[Math.floor(random() * PIECES.length)];
  }
  if (random() < 0.15) out += '/';
  return out;
}

/** Every file below `dir`, relative, with `/` separators. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

describe('path resolver fuzz over MCP: no generated path escapes the vault, its quarantine or the key roots', () => {
  it('create_note, create_folder and move_note on 300 seeded random paths', async () => {
    const sandbox = await fsp.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-fuzz-'));
    const vaultDir = path.join(sandbox, 'vault');
    await fsp.cp(DEMO_VAULT, vaultDir, { recursive: true });
    const before = new Set(await listFiles(vaultDir));
    const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vaultDir, mode: 'force', allowWrites: true, roots: ['Projects/Alpha'] });
    const client = await connectClient(booted.url, booted.token);
    const random = seededRandom(20260201);
    const applied: string[] = [];
    try {
      for (let i = 0; i < 300; i++) {
        const target = randomPath(random);
        const kind = i % 3;
        const result =
          kind === 0
            ? await attempt(client, 'create_note', { path: target, content: `fuzz ${i}\n` })
            : kind === 1
              ? await attempt(client, 'create_folder', { path: target })
              : await attempt(client, 'move_note', { path: 'Projects/Alpha/Risks.md', to: target });
        if (!result.ok) {
          expect(result.message).toMatch(/^[A-Z'`"a-z].*[.)]$/s);
          continue;
        }
        const landed = result.value.path as string;
        applied.push(`${kind}:${target} -> ${landed}`);
        expect(landed === 'Projects/Alpha' || landed.startsWith('Projects/Alpha/')).toBe(true);
        expect(landed.split('/').some((s) => s.startsWith('.') || s.toLowerCase() === '_private' || s === '..')).toBe(false);
        const full = path.resolve(vaultDir, landed);
        expect(full.startsWith(vaultDir + path.sep)).toBe(true);
        if (kind === 2) {
          await attempt(client, 'move_note', { path: landed, to: 'Projects/Alpha/Risks.md' });
        }
      }
      expect(applied.length).toBeGreaterThan(10);
      expect(await fsp.readdir(sandbox)).toEqual(['vault']);
      const after = await listFiles(vaultDir);
      for (const file of after) {
        // The plugin's own files (the agent activity log, the writer lock) are the plugin's, not an agent's write.
        if (before.has(file) || file.startsWith('.trash/') || file.startsWith('.obsidian/plugins/vault-mcp/')) continue;
        expect([file, file.startsWith('Projects/Alpha/')]).toEqual([file, true]);
      }
      expect(await fsp.readFile(path.join(vaultDir, '_private/Passwords hint.md'), 'utf8')).toBe(
        await fsp.readFile(path.join(DEMO_VAULT, '_private/Passwords hint.md'), 'utf8'),
      );
    } finally {
      await client.close();
      await booted.stop();
      await fsp.rm(sandbox, { recursive: true, force: true });
    }
  });
});
