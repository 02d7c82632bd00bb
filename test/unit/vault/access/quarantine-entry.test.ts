import { lexicalVaultPath } from '../../../../src/vault/paths/paths';
import { vaultOnDisk } from '../../../../src/vault/paths/path-spelling';
import { Quarantine, quarantineNotice, readQuarantineEntry } from '../../../../src/vault/access/quarantine';

/** A vault at /srv/Vault with top-level entries Journal and Work, read as the plugin reads it (NotePolicy.literalPath). */
const VAULT = '/srv/Vault';
const disk = vaultOnDisk([VAULT], (name) => ['Journal', 'Work'].includes(name));
const toVaultPath = (entry: string): string => lexicalVaultPath(entry, disk);

describe('readQuarantineEntry: the one rule for a quarantine entry', () => {
  test.each([
    ['Journal', 'Journal'],
    ['journal', 'journal'],
    // Spaces at the ends are part of the name (` Sp ` and `Sp` are two folders), as in every vault path.
    [' Journal ', ' Journal '],
    ['Journal/', 'Journal'],
    ['./Journal', 'Journal'],
    ['Journal/../Journal', 'Journal'],
    ['JOURNAL/2026', 'JOURNAL/2026'],
    ['/Journal', 'Journal'],
    [`${VAULT}/Journal`, 'Journal'],
    [`${VAULT}/Work/HR/`, 'Work/HR'],
    [`file://${VAULT}/journal`, 'journal'],
    ['Journ', 'Journ'],
    ['[Archive]', '[Archive]'],
  ])('%j names the vault folder %j', (entry, folder) => {
    expect(readQuarantineEntry(entry, toVaultPath)).toEqual({ ok: true, folder });
  });

  test.each([
    ['', 'is empty, so it names no folder'],
    ['   ', 'is empty, so it names no folder'],
    ['Jour*', 'holds a wildcard (* or ?), but entries are folder paths, not patterns'],
    ['Journal/202?', 'holds a wildcard (* or ?), but entries are folder paths, not patterns'],
    ['/', 'names the vault itself, not a folder in it'],
    ['.', 'names the vault itself, not a folder in it'],
    [VAULT, 'names the vault itself, not a folder in it'],
    [`file://${VAULT}/`, 'names the vault itself, not a folder in it'],
    ['..', 'climbs out of the vault with ".."'],
    ['Journal/../../Other', 'climbs out of the vault with ".."'],
    ['/tmp/Other/Journal', 'is an absolute path or URL outside the vault'],
    ['file:///srv/Other', 'is an absolute path or URL outside the vault'],
    ['C:\\Users\\me\\Journal', 'is an absolute path or URL outside the vault'],
    ['Jour\nnal', 'contains control characters'],
    [7, 'is not text'],
  ])('%j is refused: it %s', (entry, reason) => {
    expect(readQuarantineEntry(entry, toVaultPath)).toEqual({ ok: false, reason });
  });

  test('without the vault every absolute path is refused, as lexicalVaultPath refuses it', () => {
    expect(readQuarantineEntry('C:\\Vault\\Journal')).toEqual({ ok: false, reason: 'is an absolute path or URL outside the vault' });
    expect(readQuarantineEntry('Journal/')).toEqual({ ok: true, folder: 'Journal' });
  });
});

describe('Quarantine reads its entries by that rule', () => {
  test('an absolute path or file:// URL inside the vault quarantines the folder, in any case', () => {
    const list = [`${VAULT}/Journal`, `file://${VAULT}/work/hr`];
    const q = new Quarantine('.obsidian', () => list, toVaultPath);
    expect(q.contains('Journal/2026/2026-02-02.md')).toBe(true);
    expect(q.contains('journal')).toBe(true);
    expect(q.contains('Work/HR/Pay.md')).toBe(true);
    expect(q.contains('Work/Plan.md')).toBe(false);
    expect(q.refusal('Journal/x.md')).toBe(
      "Path 'Journal/x.md' is inside 'Journal', a folder the user closed to agents, which agents may not access; use a path outside it.",
    );
  });

  test('entries that name no folder quarantine nothing (and never the whole vault)', () => {
    const q = new Quarantine('.obsidian', () => ['', '/', '..', 'Jour*', '/tmp/Other'], toVaultPath);
    expect(q.contains('Home.md')).toBe(false);
    expect(q.contains('.obsidian/app.json')).toBe(true);
  });
});

describe('quarantineNotice: a saved entry that names no folder is told, not dropped silently', () => {
  test('one sentence per such entry, and what to write instead', () => {
    expect(quarantineNotice(['Journal', `${VAULT}/Work`, 'Journ'], toVaultPath)).toBeNull();
    expect(quarantineNotice(['Journal', '/', 'Jour*'], toVaultPath)).toBe(
      'Vault MCP: The quarantine entry "/" names the vault itself, not a folder in it, so it quarantines nothing. ' +
        'The quarantine entry "Jour*" holds a wildcard (* or ?), but entries are folder paths, not patterns, so it quarantines nothing. ' +
        'Fix it in Vault MCP settings → Access (give a folder of the vault, relative to it, such as "Journal" or "Work/HR").',
    );
  });
});
