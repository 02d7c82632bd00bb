import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHostApp, type HostApp } from '../../host/index';

let dir: string;
let app: HostApp | undefined;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'host-backslash-'));
  await fsp.writeFile(path.join(dir, 'Kept.md'), '# Kept\n');
  // A name only a POSIX disk can hold; Obsidian's normalizePath reads the backslash as a folder separator.
  await fsp.writeFile(path.join(dir, 'back\\slash.md'), '# Back\n');
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('host vault with a backslash in a name on disk', () => {
  test('leaves that file out with one warning line instead of an indexing error', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      app = await createHostApp({ vaultPath: dir, watchIntervalMs: false });
      await app.vault.syncFromDisk();
      expect(errors).not.toHaveBeenCalled();
      const lines = warnings.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('back\\slash.md'));
      expect(lines).toEqual([expect.stringContaining('cannot hold a backslash')]);
    } finally {
      errors.mockRestore();
      warnings.mockRestore();
    }
    expect(app.vault.getMarkdownFiles().map((f) => f.path)).toEqual(['Kept.md']);
    expect(app.vault.getFileByPath('back/slash.md')).toBeNull();
  });
});
