import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { countNotes, formatCount, LARGE_VAULT_NOTES, reportLoading } from '../../../scripts/start/run-progress';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

describe('npm start: progress while a vault loads', () => {
  it('counts the notes the vault loads, skipping dot-folders, node_modules, the config folder and other files', async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-count-'));
    try {
      for (const folder of ['A/B', '.git', 'node_modules/x', '.config', 'C'])
        await fsp.mkdir(nodePath.join(dir, folder), { recursive: true });
      for (const file of [
        'one.md',
        'A/two.md',
        'A/B/three.md',
        'C/four.md',
        'C/image.png',
        'C/.hidden.md',
        '.git/x.md',
        'node_modules/x/y.md',
        '.config/z.md',
        'C/canvas.canvas',
      ]) {
        await fsp.writeFile(nodePath.join(dir, file), '');
      }
      const progress: number[] = [];
      expect(await countNotes(dir, '.config', (n) => progress.push(n))).toBe(4);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  it('counts the demo vault as Obsidian would list its notes, and an unreadable folder as empty', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    try {
      const { execFileSync } = await import('node:child_process');
      const expected = execFileSync('find', [copy.dir, '-name', '*.md', '-not', '-path', '*/.*'], { encoding: 'utf8' })
        .trim()
        .split('\n').length;
      expect(await countNotes(copy.dir, '.obsidian', () => undefined)).toBe(expected);
      expect(await countNotes(nodePath.join(copy.dir, 'no-such-folder'), '.obsidian', () => undefined)).toBe(0);
    } finally {
      await copy.cleanup();
    }
  });

  it("prints a loading line for a large vault only, and passes the load's result or failure through", async () => {
    const lines: string[] = [];
    await expect(reportLoading(LARGE_VAULT_NOTES - 1, '/v', (l) => lines.push(l), Promise.resolve('small'))).resolves.toBe('small');
    expect(lines).toEqual([]);
    await expect(reportLoading(14142, '/v', (l) => lines.push(l), Promise.resolve('large'))).resolves.toBe('large');
    expect(lines).toEqual(['Loading 14,142 notes from /v; a large vault takes a while (a line every 5 s until the server listens).']);
    await expect(reportLoading(14142, '/v', () => undefined, Promise.reject(new Error('port taken')))).rejects.toThrow('port taken');
    expect(formatCount(100000)).toBe('100,000');
  });
});
