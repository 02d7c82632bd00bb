import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { DEMO_VAULT, copyToTemp } from '../../harness/temp-copy';
import { bootWriteEnvIn, call, callError, searchPaths, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/** One property name in both Unicode forms: a note written on macOS (or pasted from a file name) may hold the NFD one. */
const NFC = 'caf\u00e9';
const NFD = NFC.normalize('NFD');
/** The key's label in both forms: the settings tab holds one, a note's `agent_overrides` may name it in the other. */
const LABEL = 'Caf\u00e9 bot';
const LABEL_NFD = LABEL.normalize('NFD');

describe('property names in another Unicode form match as the same property, on every route', () => {
  let env: WriteEnv;
  const disk = (p: string): Promise<string> => fsp.readFile(nodePath.join(env.dir, p), 'utf8');

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    await writeVaultFiles(copy.dir, {
      'P/Nfd.md': `---\n${NFD}: nfdvalue\nother: 1\n---\nbody\n`,
      'P/Upper.md': `---\n${NFD.toUpperCase()}: upper\n---\nbody\n`,
      'P/Query.md': `---\n${NFD}: qvalue\n---\nbody\n`,
      // NFD of an ASCII name is that name: the access key in "NFD" is the plain key, and stays a rule.
      'P/Private nfd.md': `---\n${'access'.normalize('NFD')}: private\n---\nprivsecret\n`,
      'P/Twins.md': `---\nCaf${'\u00e9'.normalize('NFD')}: one\nCAF\u00c9: two\n---\nbody\n`,
      'P/Hidden map.md': `---\nagent_overrides:\n  "${LABEL_NFD}": no-access\n---\nmapsecret\n`,
      'P/Hidden list.md': `---\nagent_overrides: ["${LABEL_NFD}"]\n---\nlistsecret\n`,
      'P/Hidden unparsed.md': `---\nagent_overrides:\n  ${LABEL_NFD}: no-access\nbroken: [\n---\nunparsedsecret\n`,
      'P/Read only.md': `---\nagent_overrides: {"${LABEL_NFD}": read-only}\n---\nreadonly body\n`,
    });
    env = await bootWriteEnvIn(copy.dir, { label: LABEL }, copy.cleanup);
  });
  afterAll(async () => env?.done());

  it('set_properties and write_note change the line the note spells in NFD, never add a second one', async () => {
    const set = await call(env.client, 'set_properties', { path: 'P/Nfd', properties: { [NFC]: 'nfc' } });
    expect(await disk('P/Nfd.md')).toBe(`---\n${NFD}: nfc\nother: 1\n---\nbody\n`);
    expect(set.note).toContain(`Unicode form (NFC or NFD): applied '${NFC}' as the note's '${NFD}'`);
    await call(env.client, 'write_note', { path: 'P/Nfd', body: 'body\n', frontmatter_patch: { [NFC.toUpperCase()]: 'again' } });
    expect(await disk('P/Nfd.md')).toBe(`---\n${NFD}: again\nother: 1\n---\nbody\n`);
    await call(env.client, 'set_properties', { path: 'P/Upper', properties: { [NFC]: null } });
    expect(await disk('P/Upper.md')).toBe('body\n');
  });

  it('a name that matches several spellings by case and form is refused, as by case alone; a patch naming one twice too', async () => {
    expect(await callError(env.client, 'set_properties', { path: 'P/Twins', properties: { [NFC]: 'x' } })).toMatch(
      /has properties .* none spelled/,
    );
    expect(await callError(env.client, 'set_properties', { path: 'P/Nfd', properties: { [NFC]: 1, [NFD]: 2 } })).toMatch(
      /differ only in case or Unicode form \(one property in Obsidian\)/,
    );
    expect(await disk('P/Twins.md')).toContain('CAF\u00c9: two');
  });

  it('query_notes and search [prop:value] find the property typed in the other form', async () => {
    const rows = (await call(env.client, 'query_notes', { query: `WHERE ${NFC} = "qvalue"` })).rows as Json[];
    expect(rows.map((r) => r[0])).toEqual(['P/Query.md']);
    // Typed in NFD against the NFC twin `CAFÉ` of P/Twins.md (and upper case against P/Query.md's NFD key).
    const typedNfd = (await call(env.client, 'query_notes', { query: `WHERE ${NFD} = "two" OR ${NFD.toUpperCase()} = "qvalue"` }))
      .rows as Json[];
    expect(typedNfd.map((r) => r[0]).sort()).toEqual(['P/Query.md']);
    expect(await searchPaths(env.client, `[${NFC}:qvalue]`)).toEqual(['P/Query.md']);
    expect(await searchPaths(env.client, `[${NFD.toUpperCase()}:qvalue]`)).toEqual(['P/Query.md']);
    expect(await searchPaths(env.client, `[${NFC}]`)).toEqual(expect.arrayContaining(['P/Query.md', 'P/Twins.md']));
  });

  it("agent_overrides naming the key's label in NFD applies to that key: parsed, as a list, unparsed, read-only", async () => {
    for (const note of ['P/Hidden map', 'P/Hidden list', 'P/Hidden unparsed', 'P/Private nfd'])
      expect(await callError(env.client, 'read_note', { path: note })).toMatch(/not found|No note/i);
    for (const word of ['mapsecret', 'listsecret', 'unparsedsecret', 'privsecret']) expect(await searchPaths(env.client, word)).toEqual([]);
    expect(await callError(env.client, 'write_note', { path: 'P/Read only', body: 'changed' })).toMatch(/read-only|may only read/i);
    expect(await disk('P/Read only.md')).toContain('readonly body');
  });
});
