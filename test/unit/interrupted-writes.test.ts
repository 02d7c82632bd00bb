import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { createTempVault, type TempVault } from '../host';
import { PluginFile } from '../../src/vault/plugin-file';

/** True when `path` (vault-relative) exists on disk in `tv`. */
async function onDisk(tv: TempVault, path: string): Promise<boolean> {
  return fsp.stat(nodePath.join(tv.dir, path)).then(
    () => true,
    () => false,
  );
}

// Issue 12, item 11: a kill -9 mid-write must not leave temp files behind for good.
describe('writes interrupted by a crash are cleaned up at load', () => {
  let tv: TempVault | null = null;
  afterEach(async () => {
    await tv?.cleanup();
    tv = null;
  });

  it("the host's atomic-write temp files are removed when the vault loads; users' files are kept", async () => {
    tv = await createTempVault({
      'Note.md': 'kept\n',
      '.Note.md.0123456789ab.tmp': 'half a no',
      'Sub/.x.md.aabbccddeeff.tmp': 'half',
      '.obsidian/plugins/vault-mcp/.proposals.json.tmp.00112233aabb.tmp': '{"half',
      'notes.tmp': 'a user file',
      'Draft.md.tmp': 'a user file',
      '.hidden.tmp': 'a user file',
      'Sub/.x.md.zz.tmp': 'a user file',
      'Sub/.x.md.0123456789AB.tmp': 'a user file (upper-case hex is not ours)',
    });
    for (const leftover of [
      '.Note.md.0123456789ab.tmp',
      'Sub/.x.md.aabbccddeeff.tmp',
      '.obsidian/plugins/vault-mcp/.proposals.json.tmp.00112233aabb.tmp',
    ]) {
      expect(await onDisk(tv, leftover)).toBe(false);
    }
    for (const kept of ['Note.md', 'notes.tmp', 'Draft.md.tmp', '.hidden.tmp', 'Sub/.x.md.zz.tmp', 'Sub/.x.md.0123456789AB.tmp']) {
      expect(await onDisk(tv, kept)).toBe(true);
    }
  });

  it('a plugin file drops the temp copy of a write that did not finish', async () => {
    tv = await createTempVault({ 'plug/proposals.json': '{"whole":true}', 'plug/proposals.json.tmp': '{"hal' });
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'proposals.json');
    expect(await file.read()).toBe('{"whole":true}');
    expect(await onDisk(tv, 'plug/proposals.json.tmp')).toBe(false);
  });

  it('a plugin file whose old copy was removed before the swap is restored from its whole temp copy', async () => {
    tv = await createTempVault({ 'plug/proposals.json.tmp': '{"next":true}' });
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'proposals.json');
    expect(await file.read()).toBe('{"next":true}');
    expect(await onDisk(tv, 'plug/proposals.json.tmp')).toBe(false);
    expect(await fsp.readFile(nodePath.join(tv.dir, 'plug/proposals.json'), 'utf8')).toBe('{"next":true}');
  });

  it('reads and writes as before when nothing was interrupted', async () => {
    tv = await createTempVault({});
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'index.json');
    expect(await file.read()).toBeNull();
    await Promise.all([file.write('one'), file.read()]);
    expect(await file.read()).toBe('one');
    await file.write('two');
    expect(await file.read()).toBe('two');
    expect(await onDisk(tv, 'plug/index.json.tmp')).toBe(false);
  });

  it('a plugin file written in chunks holds their concatenation; an empty list writes an empty file', async () => {
    tv = await createTempVault({});
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'search-index.json');
    await file.writeChunks(['{"format":5}\n', '["M",[]]\n', 'é€𝄞']);
    expect(await file.read()).toBe('{"format":5}\n["M",[]]\né€𝄞');
    await file.writeChunks([]);
    expect(await file.read()).toBe('');
    expect(await onDisk(tv, 'plug/search-index.json.tmp')).toBe(false);
  });

  it('a chunked write that dies midway leaves the previous file whole, readable meanwhile and after', async () => {
    tv = await createTempVault({ 'plug/search-index.json': 'the previous index' });
    const adapter = tv.app.vault.adapter;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The adapter holds every append until the test has read the file mid-write.
    const held = Object.assign(Object.create(adapter) as typeof adapter, {
      append: async (path: string, data: string) => {
        await gate;
        return adapter.append(path, data);
      },
    });
    function* dying(): Generator<string> {
      yield 'the first half of the next index, ';
      yield 'and more of it';
      // What the disk holds when the process dies here: the old file and a partial temp copy.
      throw new Error('killed mid-save');
    }
    const writing = new PluginFile(held as never, 'plug', 'search-index.json').writeChunks(dying());
    const file = new PluginFile(adapter as never, 'plug', 'search-index.json');
    while (!(await onDisk(tv, 'plug/search-index.json.partial'))) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await file.read()).toBe('the previous index');
    release();
    await expect(writing).rejects.toThrow('killed mid-save');
    expect(await fsp.readFile(nodePath.join(tv.dir, 'plug/search-index.json.partial'), 'utf8')).toBe(
      'the first half of the next index, and more of it',
    );
    expect(await file.read()).toBe('the previous index');
    expect(await onDisk(tv, 'plug/search-index.json.partial')).toBe(false);
  });

  it('a first write that dies midway leaves no file, never half of one', async () => {
    tv = await createTempVault({});
    function* dying(): Generator<string> {
      yield '{"format":5}\n';
      throw new Error('killed mid-save');
    }
    await expect(new PluginFile(tv.app.vault.adapter as never, 'plug', 'search-index.json').writeChunks(dying())).rejects.toThrow(
      'killed mid-save',
    );
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'search-index.json');
    expect(await file.read()).toBeNull();
    expect(await onDisk(tv, 'plug/search-index.json.partial')).toBe(false);
    expect(await onDisk(tv, 'plug/search-index.json')).toBe(false);
    await file.write('whole');
    expect(await file.read()).toBe('whole');
  });

  it('a partial copy of a crashed write is dropped while the whole file stays', async () => {
    tv = await createTempVault({ 'plug/proposals.json': '{"whole":true}', 'plug/proposals.json.partial': '{"hal' });
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'proposals.json');
    expect(await file.read()).toBe('{"whole":true}');
    expect(await onDisk(tv, 'plug/proposals.json.partial')).toBe(false);
  });
});
