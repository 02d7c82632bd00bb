import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { createTempVault, type TempVault } from '../../../host/index';
import type { DataAdapter } from 'obsidian';
import { PartedFile, type FilePart, type FilePartLength } from '../../../../src/vault/plugin-files/parted-file';
import { PluginFile } from '../../../../src/vault/plugin-files/plugin-file';

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

  it('a partial copy of a crashed write is dropped while the whole file stays', async () => {
    tv = await createTempVault({ 'plug/proposals.json': '{"whole":true}', 'plug/proposals.json.partial': '{"hal' });
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'proposals.json');
    expect(await file.read()).toBe('{"whole":true}');
    expect(await onDisk(tv, 'plug/proposals.json.partial')).toBe(false);
  });

  it('a file two instances write (activity.json): their writes and reads at once never fail, never find it missing', async () => {
    tv = await createTempVault({ 'plug/activity.json': '"v0"' });
    const adapter = tv.app.vault.adapter as never;
    const first = new PluginFile(adapter, 'plug', 'activity.json', 'aaaa');
    const second = new PluginFile(adapter, 'plug', 'activity.json', 'bbbb');
    const failures: string[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 40; i++) {
      const steps = [first.write(`"a${i}"`), second.write(`"b${i}"`), first.read(), second.read()];
      const outcomes = await Promise.allSettled(steps);
      for (const o of outcomes) if (o.status === 'rejected') failures.push(String(o.reason));
      for (const o of outcomes.slice(2)) if (o.status === 'fulfilled' && o.value === null) missing.push(i);
    }
    expect(failures).toEqual([]);
    expect(missing).toEqual([]);
    expect(await first.read()).toMatch(/^"[ab]39"$/);
    expect((await fsp.readdir(nodePath.join(tv.dir, 'plug'))).sort()).toEqual(['activity.json']);
  });

  it('writeIfUnchanged writes only while the file still holds what was read, and leaves no copy when it does not', async () => {
    tv = await createTempVault({ 'plug/activity.json': '"seen"' });
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'activity.json', 'mine');
    expect(await file.writeIfUnchanged('"mine 1"', '"seen"')).toBe(true);
    await fsp.writeFile(nodePath.join(tv.dir, 'plug/activity.json'), '"another instance"');
    expect(await file.writeIfUnchanged('"mine 2"', '"mine 1"')).toBe(false);
    expect(await file.read()).toBe('"another instance"');
    expect((await fsp.readdir(nodePath.join(tv.dir, 'plug'))).sort()).toEqual(['activity.json']);
    await fsp.rm(nodePath.join(tv.dir, 'plug/activity.json'));
    expect(await file.writeIfUnchanged('"first"', null)).toBe(true);
    expect(await file.read()).toBe('"first"');
  });

  it("a file two instances write is restored from a writer's whole temp copy when the file is gone", async () => {
    tv = await createTempVault({ 'plug/activity.json.tmp-dead': '"next"', 'plug/activity.json.partial-dead2': '"ha' });
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'activity.json', 'live');
    expect(await file.read()).toBe('"next"');
    expect(await onDisk(tv, 'plug/activity.json.tmp-dead')).toBe(false);
    // A crashed writer's partial copy stays while it could be another instance's write under way.
    expect(await onDisk(tv, 'plug/activity.json.partial-dead2')).toBe(true);
  });

  it("another writer's copies older than ten minutes are a crashed write's: the first read removes them", async () => {
    tv = await createTempVault({
      'plug/activity.json': '"whole"',
      'plug/activity.json.partial-old': '"ha',
      'plug/activity.json.tmp-old': '"older"',
      'plug/activity.json.partial-new': '"under way',
    });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const name of ['activity.json.partial-old', 'activity.json.tmp-old'])
      await fsp.utimes(nodePath.join(tv.dir, 'plug', name), hourAgo, hourAgo);
    const file = new PluginFile(tv.app.vault.adapter as never, 'plug', 'activity.json', 'live');
    expect(await file.read()).toBe('"whole"');
    expect((await fsp.readdir(nodePath.join(tv.dir, 'plug'))).sort()).toEqual(['activity.json', 'activity.json.partial-new']);
  });
});

/** The parts of `texts`, as a save takes them: `text#1,2` is the text `text` with the bytes 1 and 2, `text` alone has none. */
async function* partsOf(texts: readonly string[]): AsyncGenerator<FilePart> {
  for (const part of texts) {
    const [text, bytes] = part.split('#');
    yield { text, bytes: Uint8Array.from(bytes === undefined ? [] : bytes.split(',').map(Number)) };
  }
}

/** A head as the search index writes one (index-file.ts): its generation and part lengths. */
const headOf = (generation: string, lengths: readonly FilePartLength[]): string => JSON.stringify({ generation, parts: lengths });

/**
 * What a parted file holds, read as the search index reads it: the head's parts joined in
 * {@link partsOf}'s notation, or null when there is no head. Throws when a part is missing or of another length.
 */
async function loadWhole(file: PartedFile): Promise<string | null> {
  const head = await file.readHead();
  if (head === null) return null;
  const { generation, parts } = JSON.parse(head) as { generation: string; parts: FilePartLength[] };
  const texts: string[] = [];
  for (let n = 0; n < parts.length; n++) {
    const part = await file.readPart(generation, n, parts[n].bytes > 0);
    if (part === null || part.text.length !== parts[n].chars || part.bytes.length !== parts[n].bytes)
      throw new Error(`part ${n} missing or cut`);
    texts.push(part.bytes.length === 0 ? part.text : `${part.text}#${[...part.bytes].join(',')}`);
  }
  return texts.join('|');
}

/** The files in the parts folder, sorted. */
async function partsOnDisk(tv: TempVault): Promise<string[]> {
  return (await fsp.readdir(nodePath.join(tv.dir, 'plug/search-index.parts')).catch(() => [])).sort();
}

/** An adapter over `adapter` that dies (every call throws) from its `at`-th call that changes the disk on. */
function dyingAt(adapter: DataAdapter, at: number): { adapter: DataAdapter; calls: () => number } {
  let calls = 0;
  const dying = Object.create(adapter) as DataAdapter;
  for (const name of ['write', 'append', 'rename', 'remove', 'mkdir', 'writeBinary'] as const) {
    (dying as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      if (calls++ >= at) throw new Error(`the process died at step ${at}`);
      return (adapter[name] as (...a: unknown[]) => Promise<void>).apply(adapter, args);
    };
  }
  return { adapter: dying, calls: () => calls };
}

describe('a file saved as a head and parts (PartedFile)', () => {
  let tv: TempVault | null = null;
  afterEach(async () => {
    await tv?.cleanup();
    tv = null;
  });

  it('round-trips its parts (characters outside ASCII, an empty part) and removes the previous generation once the new head is in', async () => {
    tv = await createTempVault({});
    const file = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
    expect(await file.readHead()).toBeNull();
    await file.write(partsOf(['one é€𝄞#0,255,10', '', 'three', '#9']), headOf);
    expect(await loadWhole(file)).toBe('one é€𝄞#0,255,10||three|#9');
    // A text file per part, a binary file beside those with bytes.
    expect((await partsOnDisk(tv)).map((name) => name.slice(name.indexOf('.')))).toEqual([
      '.0.bin',
      '.0.part',
      '.1.part',
      '.2.part',
      '.3.bin',
      '.3.part',
    ]);
    await file.write(partsOf(['next']), headOf);
    expect(await loadWhole(file)).toBe('next');
    expect(await partsOnDisk(tv)).toEqual([`${(JSON.parse((await file.readHead())!) as { generation: string }).generation}.0.part`]);
    expect(await onDisk(tv, 'plug/search-index.json.tmp')).toBe(false);
  });

  it('keeps the previous save loadable when the process dies at any step of a save, and the next save removes what it left', async () => {
    let steps = 0;
    for (let at = 0; ; at++) {
      tv = await createTempVault({});
      const file = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
      await file.write(partsOf(['old a#1', 'old b']), headOf);
      const { adapter, calls } = dyingAt(tv.app.vault.adapter, at);
      const died = await new PartedFile(adapter, 'plug', 'search-index.json').write(partsOf(['new a', 'new b#2,3', 'new c']), headOf).then(
        () => false,
        () => true,
      );
      // After the crash, at every step: the old save or the whole new one, never a mix, never damage.
      const loaded = await loadWhole(new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json'));
      expect(died ? ['old a#1|old b', 'new a|new b#2,3|new c'] : ['new a|new b#2,3|new c']).toContain(loaded);
      // The next save (a later process) leaves its own parts only.
      await new Promise((resolve) => setTimeout(resolve, 2));
      const next = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
      await next.write(partsOf(['later']), headOf);
      expect(await loadWhole(next)).toBe('later');
      expect(await partsOnDisk(tv)).toHaveLength(1);
      await tv.cleanup();
      tv = null;
      if (!died) {
        steps = calls();
        break;
      }
    }
    // A save is at least: three part writes and a binary one, the head's temp write and two renames, three removals of old files.
    expect(steps).toBeGreaterThanOrEqual(10);
  });

  it('a save given up midway (its parts throw) leaves the previous save and none of its own parts', async () => {
    tv = await createTempVault({});
    const file = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
    await file.write(partsOf(['old']), headOf);
    async function* changed(): AsyncGenerator<FilePart> {
      yield { text: 'new a', bytes: Uint8Array.of(1) };
      throw new Error('the index changed');
    }
    await expect(file.write(changed(), headOf)).rejects.toThrow('the index changed');
    expect(await loadWhole(file)).toBe('old');
    expect(await partsOnDisk(tv)).toHaveLength(1);
    // A binary file is read only when asked for: a part listed with bytes whose file is gone reads as missing.
    const { generation } = JSON.parse((await file.readHead())!) as { generation: string };
    expect(await file.readPart(generation, 0, false)).toEqual({ text: 'old', bytes: new Uint8Array(0) });
    expect(await file.readPart(generation, 0, true)).toBeNull();
  });

  it('ignores files in the parts folder that are not parts, and refuses a generation that is no file name', async () => {
    tv = await createTempVault({ 'plug/search-index.parts/notes.txt': 'a user file' });
    const file = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
    await file.write(partsOf(['x']), headOf);
    await file.write(partsOf(['y']), headOf);
    await file.write(partsOf(['z#1']), headOf);
    expect((await partsOnDisk(tv)).filter((name) => !/\.(part|bin)$/.test(name))).toEqual(['notes.txt']);
    expect(await partsOnDisk(tv)).toHaveLength(3);
    await expect(file.readPart('../../x', 0, false)).rejects.toThrow('not a part');
  });

  it('reads a part as DataAdapter.read decodes it: a BOM kept, malformed bytes as U+FFFD, characters across 512 KB', async () => {
    tv = await createTempVault({});
    const file = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
    await file.write(partsOf(['x']), headOf);
    const { generation } = JSON.parse((await file.readHead())!) as { generation: string };
    const partPath = `plug/search-index.parts/${generation}.0.part`;
    // Node's readFile with an encoding decodes 512 KB at a time: put a 4-byte character across each cut.
    const long = `${'a'.repeat(512 * 1024 - 2)}𝄞é${'b'.repeat(512 * 1024 - 1)}€\n`;
    const damaged = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('head é '), Buffer.from([0xff, 0xc3]), Buffer.from(long)]);
    await fsp.writeFile(nodePath.join(tv.dir, partPath), damaged);
    const text = (await file.readPart(generation, 0, false))?.text;
    expect(text).toBe(await tv.app.vault.adapter.read(partPath));
    expect(text?.startsWith('\uFEFFhead é \uFFFD\uFFFD')).toBe(true);
    expect(text?.endsWith(long)).toBe(true);
  });

  it('keeps the head and its parts aside with one tag', async () => {
    tv = await createTempVault({});
    const file = new PartedFile(tv.app.vault.adapter, 'plug', 'search-index.json');
    await file.write(partsOf(['a#7', 'b']), headOf);
    const head = await file.readHead();
    expect(await file.keepAside('corrupt-T')).toEqual(['plug/search-index.json.corrupt-T', 'plug/search-index.parts.corrupt-T']);
    expect(await file.readHead()).toBeNull();
    expect(await fsp.readFile(nodePath.join(tv.dir, 'plug/search-index.json.corrupt-T'), 'utf8')).toBe(head);
    expect((await fsp.readdir(nodePath.join(tv.dir, 'plug/search-index.parts.corrupt-T'))).length).toBe(3);
    await file.write(partsOf(['c']), headOf);
    expect(await loadWhole(file)).toBe('c');
  });
});
