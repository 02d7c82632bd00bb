import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../../../src/vault/access/access';
import { NoteStore, type NoteChange } from '../../../src/vault/note-store';
import { isWithinRoots } from '../../../src/vault/access/access-rules';
import { bodyStart } from '../../../src/vault/content/note-body';
import { buildOutline, headingTexts, sectionAt } from '../../../src/vault/content/sections';
import type { HeadingCache } from 'obsidian';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { codeOf, errorOf } from '../../harness/server/tool-errors';

const ANYONE: AccessScope = { label: 'Test agent', roots: [] };
const CLAUDE: AccessScope = { label: 'Claude Code', roots: [] };
const CURSOR: AccessScope = { label: 'Cursor', roots: [] };
const ALPHA_ONLY: AccessScope = { label: 'Test agent', roots: ['Projects/Alpha'] };

let vault: DemoVault;
let userQuarantine: string[];
let store: NoteStore;

beforeAll(async () => {
  vault = await openDemoVault();
  userQuarantine = ['Archive'];
  store = new NoteStore(vault.app, { quarantine: () => userQuarantine });
});

afterAll(async () => {
  await vault?.close();
});

describe('normalizePath', () => {
  test.each([
    ['Projects/Alpha/Budget.md', 'Projects/Alpha/Budget.md'],
    ['projects/alpha/budget.md', 'Projects/Alpha/Budget.md'],
    ['PROJECTS\\ALPHA\\BUDGET.MD', 'Projects/Alpha/Budget.md'],
    ['/Inbox.md', 'Inbox.md'],
    ['//Inbox.md', 'Inbox.md'],
    ['./Reference/../Reference/日本語メモ.md', 'Reference/日本語メモ.md'],
    ['Reference/Cafe\u0301 notes.md', 'Reference/Café notes.md'],
    ['reference/CAFÉ NOTES.md', 'Reference/Café notes.md'],
    ['Reference/Caf%C3%A9%20notes.md', 'Reference/Café notes.md'],
    ['%2FAreas%2F%C3%9Cbersicht.md', 'Areas/Übersicht.md'],
    ['\\Areas\\Übersicht.md', 'Areas/Übersicht.md'],
    ['projects/alpha/New note.md', 'Projects/Alpha/New note.md'],
    ['projects/Gamma/New note.md', 'Projects/Gamma/New note.md'],
    ['Projects/Alpha/', 'Projects/Alpha'],
  ])('%j → %j', (input, expected) => {
    expect(store.policy.normalizePath(input, ANYONE)).toBe(expected);
  });

  test.each([
    ['', 'invalid_argument'],
    ['/', 'invalid_argument'],
    ['C:\\vault\\Inbox.md', 'invalid_argument'],
    ['../Inbox.md', 'forbidden'],
    ['%2e%2e/%2e%2e/etc/passwd', 'forbidden'],
    ['Projects/../../outside.md', 'forbidden'],
    ['.obsidian/app.json', 'forbidden'],
    ['.OBSIDIAN/app.json', 'forbidden'],
    ['%2Eobsidian/app.json', 'forbidden'],
    ['Projects/../.trash/Deleted draft.md', 'forbidden'],
    ['_private/Passwords hint.md', 'forbidden'],
    ['_PRIVATE/new.md', 'forbidden'],
    ['Projects/_private/x.md', 'forbidden'],
    ['Archive/Old ideas.md', 'forbidden'],
    ['archive', 'forbidden'],
  ])('%j is refused with %s', (input, code) => {
    expect(codeOf(() => store.policy.normalizePath(input, ANYONE))).toBe(code);
  });

  test('roots confine the key, after normalization', () => {
    expect(store.policy.normalizePath('projects/alpha/Budget.md', ALPHA_ONLY)).toBe('Projects/Alpha/Budget.md');
    expect(codeOf(() => store.policy.normalizePath('Projects/Beta/Beta overview.md', ALPHA_ONLY))).toBe('forbidden');
    expect(codeOf(() => store.policy.normalizePath('Projects/Alpha/../Beta/x.md', ALPHA_ONLY))).toBe('forbidden');
    expect(codeOf(() => store.policy.normalizePath('Projects/Alphabet/x.md', ALPHA_ONLY))).toBe('forbidden');
    expect(errorOf(() => store.policy.normalizePath('Inbox.md', ALPHA_ONLY)).message).toMatch(
      /outside the folders this key may use \(Projects\/Alpha\)/,
    );
  });

  test('the user quarantine list is read live', () => {
    expect(store.policy.normalizePath('Templates/Daily note.md', ANYONE)).toBe('Templates/Daily note.md');
    userQuarantine.push('templates');
    try {
      expect(codeOf(() => store.policy.normalizePath('Templates/Daily note.md', ANYONE))).toBe('forbidden');
      expect(store.readableNotes(ANYONE).some((f) => f.path.startsWith('Templates/'))).toBe(false);
    } finally {
      userQuarantine.pop();
    }
  });

  test('normalizeFolderPath accepts the vault root', () => {
    expect(store.policy.normalizeFolderPath(undefined, ANYONE)).toBe('');
    expect(store.policy.normalizeFolderPath('/', ANYONE)).toBe('');
    expect(store.policy.normalizeFolderPath('projects', ANYONE)).toBe('Projects');
    expect(codeOf(() => store.policy.normalizeFolderPath('.obsidian', ANYONE))).toBe('forbidden');
  });
});

/** `readableFromScan(scope)` asked about every file: the decisions it makes (paths it leaves undecided left out). */
function decidedFromScan(store: NoteStore, scope: AccessScope, files: { path: string }[]): Map<string, boolean> {
  const decide = store.readableFromScan(scope);
  if (decide === null) throw new Error('no current unrestricted scan');
  const out = new Map<string, boolean>();
  for (const f of files) {
    const ok = decide(f.path);
    if (ok !== undefined) out.set(f.path, ok);
  }
  return out;
}

describe('readability and access', () => {
  const file = (p: string) => {
    const f = vault.app.vault.getFileByPath(p);
    if (!f) throw new Error(`fixture lacks ${p}`);
    return f;
  };

  test('quarantined, private and no-access notes are not readable', () => {
    const paths = store.readableNotes(ANYONE).map((f) => f.path);
    expect(paths).toContain('Projects/Alpha/Budget.md');
    expect(paths).toContain('Projects/Beta/Retrospective.md');
    expect(paths).not.toContain('_private/Passwords hint.md');
    expect(paths).not.toContain('Personal/Therapy notes.md');
    expect(paths.some((p) => p.startsWith('.'))).toBe(false);
    expect(paths.some((p) => p.startsWith('Archive/'))).toBe(false);
    const forClaude = store.readableNotes(CLAUDE).map((f) => f.path);
    expect(forClaude).not.toContain('Projects/Beta/Retrospective.md');
    expect(forClaude).toHaveLength(paths.length - 1);
  });

  test('readableFromScan decides the notes of the unrestricted scan as canRead does (quarantine not checked again), and none without that scan', async () => {
    const fresh = new NoteStore(vault.app, { quarantine: () => userQuarantine });
    try {
      const scopes = [ANYONE, CLAUDE, CURSOR, ALPHA_ONLY, UNRESTRICTED_SCOPE];
      const files = vault.app.vault.getMarkdownFiles();
      const expected = scopes.map((scope) => new Map(files.map((f) => [f.path, fresh.canRead(f, scope)])));
      // The comparison is sensitive: each scope hides notes, some of them by quarantine alone, some by a rule for its label only.
      for (const want of expected) expect([...want.values()].filter((ok) => !ok).length).toBeGreaterThan(0);
      expect(expected[0].get('_private/Passwords hint.md')).toBe(false);
      expect(expected[1].get('Projects/Beta/Retrospective.md')).toBe(false);
      expect(expected[0].get('Projects/Beta/Retrospective.md')).toBe(true);
      // Without the unrestricted scan at hand nothing is decided (the caller asks by path).
      for (const scope of scopes) expect(fresh.readableFromScan(scope)).toBeNull();
      await fresh.readableNotesInSteps(UNRESTRICTED_SCOPE, { due: () => false, pause: async () => {} });
      const quarantine = jest.spyOn(fresh.policy, 'isQuarantined');
      // Only the notes the unrestricted scope may read are decided; the others no scope may read.
      const open = new Set(fresh.readableNotes(UNRESTRICTED_SCOPE).map((f) => f.path));
      expect(open.size).toBeLessThan(files.length);
      scopes.forEach((scope, k) => {
        const decided = decidedFromScan(fresh, scope, files);
        expect([...decided.keys()].sort()).toEqual([...open].sort());
        for (const f of files) expect(decided.get(f.path) ?? false).toBe(expected[k].get(f.path));
      });
      expect(quarantine).not.toHaveBeenCalled();
      quarantine.mockRestore();
    } finally {
      fresh.close();
    }
  });

  test('byLabelInScan: every other note of the vault is read by a scope exactly when the unrestricted scope reads it within the roots', async () => {
    // What a caller's view derived from the unrestricted scope's relies on (ReadableCache.baseCaller, CorpusViews BaseNarrowing).
    const broken = await openDemoVault(async (dir) => {
      await fs.writeFile(path.join(dir, 'Broken override.md'), '---\nagent_overrides: {Test agent: no-access\n---\nbody\n');
      await fs.writeFile(path.join(dir, 'Broken private.md'), '---\naccess: private\ntitle: "unclosed\n---\nbody\n');
    });
    const fresh = new NoteStore(broken.app, { quarantine: () => userQuarantine });
    try {
      expect(fresh.byLabelInScan()).toBeNull();
      await fresh.readableNotesInSteps(UNRESTRICTED_SCOPE, { due: () => false, pause: async () => {} });
      const byLabel = fresh.byLabelInScan()!;
      expect([...byLabel].sort()).toEqual(['Broken override.md', 'Projects/Beta/Retrospective.md']);
      const files = broken.app.vault.getMarkdownFiles();
      const scopes = [ANYONE, CLAUDE, CURSOR, ALPHA_ONLY, { label: 'Other', roots: ['Projects', 'Archive'] }];
      let differ = 0;
      for (const scope of scopes)
        for (const f of files) {
          const base = fresh.canRead(f, UNRESTRICTED_SCOPE) && isWithinRoots(f.path, scope.roots);
          if (byLabel.includes(f.path)) differ += base === fresh.canRead(f, scope) ? 0 : 1;
          else expect([f.path, scope.label, fresh.canRead(f, scope)]).toEqual([f.path, scope.label, base]);
        }
      // The listed ones do differ for some scope (the comparison is sensitive).
      expect(differ).toBeGreaterThan(0);
      // A change makes the scan stale: nothing is listed then.
      await broken.app.vault.modify(broken.app.vault.getFileByPath('Broken override.md')!, 'plain now\n');
      expect(fresh.byLabelInScan()).toBeNull();
    } finally {
      fresh.close();
      await broken.close();
    }
  });

  test('readableFromScan reads the rules only of notes whose access may differ by label, and still applies them', async () => {
    // Rules for one label in parsed frontmatter (Retrospective: Claude Code no-access) and in blocks that do not parse.
    const broken = await openDemoVault(async (dir) => {
      await fs.writeFile(path.join(dir, 'Broken override.md'), '---\nagent_overrides: {Test agent: no-access\n---\nbody\n');
      await fs.writeFile(path.join(dir, 'Broken plain.md'), '---\ntitle: "unclosed\n---\nbody\n');
      await fs.writeFile(path.join(dir, 'Broken private.md'), '---\naccess: private\ntitle: "unclosed\n---\nbody\n');
    });
    const fresh = new NoteStore(broken.app, { quarantine: () => userQuarantine });
    try {
      const scopes = [ANYONE, CLAUDE, CURSOR, ALPHA_ONLY, { label: 'Other', roots: ['Projects'] }];
      const files = broken.app.vault.getMarkdownFiles();
      await fresh.readableNotesInSteps(UNRESTRICTED_SCOPE, { due: () => false, pause: async () => {} });
      const byLabel = files.filter((f) => fresh.policy.openness(f) === 'by-label').map((f) => f.path);
      expect(byLabel.sort()).toEqual(['Broken override.md', 'Broken plain.md', 'Projects/Beta/Retrospective.md']);
      expect(fresh.policy.openness(broken.app.vault.getFileByPath('Broken private.md')!)).toBe('closed');
      // Closed exactly where the unrestricted scope may not read (quarantine, private).
      for (const f of files)
        expect([f.path, fresh.policy.openness(f) !== 'closed']).toEqual([f.path, fresh.canRead(f, UNRESTRICTED_SCOPE)]);
      const rules = jest.spyOn(fresh.policy, 'accessOf');
      for (const scope of scopes) {
        rules.mockClear();
        const decided = decidedFromScan(fresh, scope, files);
        // The rules were read for by-label notes only (those within the scope's roots).
        expect(rules.mock.calls.every(([f]) => byLabel.includes(f.path))).toBe(true);
        // Each note as canRead decides it, the label's rules included.
        for (const f of files) expect([f.path, decided.get(f.path) ?? false]).toEqual([f.path, fresh.canRead(f, scope)]);
        expect(decided.get('Projects/Beta/Retrospective.md')).toBe(scope !== CLAUDE && scope !== ALPHA_ONLY);
      }
      expect(fresh.readableFromScan(ANYONE)!('Broken override.md')).toBe(false);
      expect(fresh.readableFromScan(CLAUDE)!('Broken override.md')).toBe(true);
      rules.mockClear();
      decidedFromScan(fresh, CURSOR, files);
      expect(rules.mock.calls.map(([f]) => f.path).sort()).toEqual(byLabel);
      rules.mockRestore();
    } finally {
      fresh.close();
      await broken.close();
    }
  });

  test('readableNotesInSteps answers what readableNotes does, pausing whenever the pacer says the slice is due', async () => {
    const fresh = new NoteStore(vault.app, { quarantine: () => userQuarantine });
    try {
      let checks = 0;
      let pauses = 0;
      const pacer = {
        due: () => ++checks % 3 === 0,
        pause: async () => {
          pauses++;
        },
      };
      const stepped = await fresh.readableNotesInSteps(CLAUDE, pacer);
      expect(stepped.map((f) => f.path)).toEqual(fresh.readableNotes(CLAUDE).map((f) => f.path));
      expect(stepped.map((f) => f.path)).not.toContain('Projects/Beta/Retrospective.md');
      const notes = vault.app.vault.getMarkdownFiles().length;
      expect(checks).toBe(notes);
      expect(pauses).toBe(Math.floor(notes / 3));
      expect(fresh.markdownCount()).toBe(notes);
      expect(fresh.markdownCount()).toBeGreaterThan(stepped.length);
      // The answer is shared until the vault changes: a second scan checks nothing and hands out a fresh copy.
      const again = await fresh.readableNotesInSteps(CLAUDE, pacer);
      expect(checks).toBe(notes);
      expect(again).not.toBe(stepped);
      expect(again).toEqual(stepped);
      // Another scope is scanned on its own.
      expect((await fresh.readableNotesInSteps(ALPHA_ONLY, pacer)).every((f) => f.path.startsWith('Projects/Alpha/'))).toBe(true);
      expect(checks).toBe(2 * notes);
      // The listing is shared by the count and the scans, and made again once the vault changes.
      const listing = jest.spyOn(vault.app.vault, 'getMarkdownFiles');
      expect(fresh.markdownCount()).toBe(notes);
      expect(listing).not.toHaveBeenCalled();
      vault.app.vault.trigger('delete', vault.app.vault.getMarkdownFiles()[0]);
      listing.mockClear();
      expect(fresh.markdownCount()).toBe(notes);
      expect(listing).toHaveBeenCalledTimes(1);
      listing.mockRestore();
    } finally {
      fresh.close();
    }
  });

  test('readableNotesInSteps does not keep an answer when the vault changed while it scanned', async () => {
    const fresh = new NoteStore(vault.app, { quarantine: () => userQuarantine });
    try {
      let checks = 0;
      let changed = false;
      const pacer = {
        due: () => ++checks === 2,
        pause: async () => {
          // A note changes while the scan waits between slices.
          if (!changed) vault.app.vault.trigger('modify', vault.app.vault.getMarkdownFiles()[0]);
          changed = true;
        },
      };
      await fresh.readableNotesInSteps(ANYONE, pacer);
      const notes = vault.app.vault.getMarkdownFiles().length;
      expect(checks).toBe(notes);
      await fresh.readableNotesInSteps(ANYONE, pacer);
      expect(checks).toBe(2 * notes);
      await fresh.readableNotesInSteps(ANYONE, pacer);
      expect(checks).toBe(2 * notes);
    } finally {
      fresh.close();
    }
  });

  test('accessOf combines access and agent_overrides', () => {
    expect(store.policy.accessOf(file('Projects/Alpha/Budget.md'), ANYONE)).toBe('read-only');
    expect(store.policy.accessOf(file('Personal/Therapy notes.md'), ANYONE)).toBe('private');
    expect(store.policy.accessOf(file('Projects/Beta/Retrospective.md'), ANYONE)).toBe('read-write');
    expect(store.policy.accessOf(file('Projects/Beta/Retrospective.md'), CURSOR)).toBe('read-only');
    expect(store.policy.accessOf(file('Projects/Beta/Retrospective.md'), CLAUDE)).toBe('private');
    expect(store.canRead(file('Projects/Beta/Retrospective.md'), CLAUDE)).toBe(false);
    expect(store.canRead(file('Projects/Beta/Retrospective.md'), CURSOR)).toBe(true);
    expect(store.canRead(file('Inbox.md'), ALPHA_ONLY)).toBe(false);
  });

  test('isQuarantined covers built-ins and the user list', () => {
    expect(store.policy.isQuarantined('.obsidian')).toBe(true);
    expect(store.policy.isQuarantined('_private/Passwords hint.md')).toBe(true);
    expect(store.policy.isQuarantined('Archive/Old ideas.md')).toBe(true);
    expect(store.policy.isQuarantined('Projects/Alpha/Budget.md')).toBe(false);
  });

  test('readableFolders hides quarantined folders and respects roots', () => {
    const folders = store.readableFolders(ANYONE).map((f) => f.path);
    expect(folders).toEqual(expect.arrayContaining(['Projects', 'Projects/Alpha', 'Journal/2026', 'Personal']));
    expect(folders).not.toContain('_private');
    expect(folders).not.toContain('Archive');
    expect(folders.some((p) => p.startsWith('.'))).toBe(false);
    expect(store.readableFolders(ALPHA_ONLY).map((f) => f.path)).toEqual(['Projects/Alpha']);
  });

  test('readableFolders gives plain {path, parent} rows (parent "" at the vault root)', () => {
    const byPath = new Map(store.readableFolders(ANYONE).map((f) => [f.path, f]));
    expect(byPath.get('Projects')).toEqual({ path: 'Projects', parent: '' });
    expect(byPath.get('Journal/2026')).toEqual({ path: 'Journal/2026', parent: 'Journal' });
  });

  test('requireFolder normalizes a folder argument and refuses missing, quarantined and out-of-root ones', () => {
    expect(store.requireFolder(undefined, ANYONE)).toBe('');
    expect(store.requireFolder('/', ANYONE)).toBe('');
    expect(store.requireFolder('projects\\alpha/', ANYONE)).toBe('Projects/Alpha');
    const missing = errorOf(() => store.requireFolder('Nowhere', ANYONE));
    expect(missing.code).toBe('not_found');
    expect(missing.message).toBe("Folder 'Nowhere' not found; call list_folders without folder to see the folders.");
    expect(codeOf(() => store.requireFolder('_private', ANYONE))).toBe('forbidden');
    expect(codeOf(() => store.requireFolder('Areas', ALPHA_ONLY))).toBe('forbidden');
  });
});

describe('resolveNote', () => {
  const resolve = (ref: { path?: string; id?: string }, scope = ANYONE) => store.policy.resolveNote(ref, scope).path;

  test('by path, with or without .md, in any case', () => {
    expect(resolve({ path: 'Projects/Alpha/Budget.md' })).toBe('Projects/Alpha/Budget.md');
    expect(resolve({ path: 'Projects/Alpha/Budget' })).toBe('Projects/Alpha/Budget.md');
    expect(resolve({ path: 'projects/alpha/budget' })).toBe('Projects/Alpha/Budget.md');
    expect(resolve({ path: 'Reference/Caf%C3%A9%20notes' })).toBe('Reference/Café notes.md');
  });

  test('by id: frontmatter id (string or number) and synthetic path: ids', () => {
    expect(resolve({ id: 'PRJ-ALPHA' })).toBe('Projects/Alpha/Alpha overview.md');
    expect(resolve({ id: '2041' })).toBe('Projects/Beta/Beta overview.md');
    expect(resolve({ id: 'path:Inbox.md' })).toBe('Inbox.md');
    expect(resolve({ path: 'path:Inbox.md' })).toBe('Inbox.md');
    expect(resolve({ path: 'person-ana' })).toBe('People/Ana Ruiz.md');
    expect(resolve({ id: 'Reading list' })).toBe('Reading list.md');
  });

  test('an id is tried before a path, a path before an id; a synthetic id is its path only; path and id together are refused', () => {
    expect(resolve({ id: '  PRJ-ALPHA  ' })).toBe('Projects/Alpha/Alpha overview.md');
    expect(resolve({ path: '[[person-ana]]' })).toBe('People/Ana Ruiz.md');
    expect(errorOf(() => resolve({ id: 'path:Nowhere.md' })).message).toMatch(/^Note 'Nowhere.md' not found/);
    expect(errorOf(() => resolve({ path: 'path:projects' })).message).toMatch(/'Projects' is a folder/);
    expect(errorOf(() => resolve({ path: 'Inbox', id: 'PRJ-ALPHA' })).message).toBe(
      'Give either path or id, not both: they could name different notes.',
    );
    expect(codeOf(() => resolve({ id: '   ' }))).toBe('invalid_argument');
  });

  test('bare names resolve like wikilinks, aliases included', () => {
    expect(resolve({ path: 'Budget' })).toBe('Projects/Alpha/Budget.md');
    expect(resolve({ path: 'sourdough handbook' })).toBe('Reference/Sourdough handbook.md');
    expect(resolve({ path: 'Alpha/Meeting notes' })).toBe('Projects/Alpha/Meeting notes.md');
    expect(resolve({ path: '[[Alpha overview|Project Alpha]]' })).toBe('Projects/Alpha/Alpha overview.md');
    expect(resolve({ path: 'Northwind dashboard' })).toBe('Projects/Alpha/Alpha overview.md');
    expect(resolve({ path: '日本語メモ' })).toBe('Reference/日本語メモ.md');
  });

  test('an ambiguous bare name lists the candidates', () => {
    const err = errorOf(() => resolve({ path: 'Meeting notes' }));
    expect(err.code).toBe('ambiguous');
    expect(err.message).toContain('Projects/Alpha/Meeting notes.md');
    expect(err.message).toContain('Projects/Beta/Meeting notes.md');
    expect(resolve({ path: 'Meeting notes' }, ALPHA_ONLY)).toBe('Projects/Alpha/Meeting notes.md');
  });

  test('unreadable notes are simply not found', () => {
    const err = errorOf(() => resolve({ path: 'Personal/Therapy notes.md' }));
    expect(err.code).toBe('not_found');
    expect(err.message).toBe("Note 'Personal/Therapy notes.md' not found; call search or list_notes to find its path.");
    expect(codeOf(() => resolve({ path: 'Therapy notes' }))).toBe('not_found');
    expect(codeOf(() => resolve({ path: 'Projects/Beta/Retrospective.md' }, CLAUDE))).toBe('not_found');
    expect(codeOf(() => resolve({ path: 'Retrospective' }, CLAUDE))).toBe('not_found');
    // A bare name that is the path of a note outside the key's roots names that note: refused as outside them (docs/security.md#key-roots).
    expect(codeOf(() => resolve({ path: 'Inbox' }, ALPHA_ONLY))).toBe('forbidden');
    expect(codeOf(() => resolve({ path: 'No such note' }))).toBe('not_found');
    expect(codeOf(() => resolve({ id: 'PRJ-NOPE' }))).toBe('not_found');
  });

  test('quarantined and out-of-root paths are forbidden; bad refs are invalid', () => {
    expect(codeOf(() => resolve({ path: '_private/Passwords hint.md' }))).toBe('forbidden');
    expect(codeOf(() => resolve({ path: '.obsidian/app.json' }))).toBe('forbidden');
    expect(codeOf(() => resolve({ path: 'Areas/Übersicht.md' }, ALPHA_ONLY))).toBe('forbidden');
    expect(codeOf(() => resolve({}))).toBe('invalid_argument');
    expect(codeOf(() => resolve({ path: '  ' }))).toBe('invalid_argument');
    expect(errorOf(() => resolve({ path: 'projects' })).message).toMatch(/'Projects' is a folder; call list_notes/);
    expect(codeOf(() => resolve({ path: 'Attachments/alpha-architecture.svg' }))).toBe('invalid_argument');
  });

  test('a name or id that needs a vault scan lists the readable notes once per resolve', () => {
    const spy = jest.spyOn(store, 'readableNotes');
    try {
      expect(codeOf(() => resolve({ path: 'No such note' }))).toBe('not_found');
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      expect(codeOf(() => resolve({ id: 'PRJ-NOPE' }))).toBe('not_found');
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      expect(resolve({ path: 'person-ana' })).toBe('People/Ana Ruiz.md');
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      expect(resolve({ path: 'Projects/Alpha/Budget.md' })).toBe('Projects/Alpha/Budget.md');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('note facts', () => {
  const note = (p: string) => store.policy.resolveNote({ path: p }, ANYONE);

  test('ids, titles and frontmatter', () => {
    expect(store.noteId(note('Projects/Alpha/Alpha overview.md'))).toBe('PRJ-ALPHA');
    expect(store.noteId(note('Projects/Beta/Beta overview.md'))).toBe('2041');
    expect(store.noteId(note('Inbox.md'))).toBe('path:Inbox.md');
    expect(store.noteTitle(note('Projects/Alpha/Alpha overview.md'))).toBe('Project Alpha');
    expect(store.noteTitle(note('Projects/Alpha/Meeting notes.md'))).toBe('Alpha meeting notes');
    expect(store.frontmatterOf(note('Projects/Alpha/Alpha overview.md'))).toMatchObject({ budget_eur: 48000, status: 'active' });
    expect(store.frontmatterOf(note('Projects/AGENTS.md'))).toEqual({});
  });

  test('hashOf is the SHA-256 of the exact text', async () => {
    const file = note('Reference/Imported from Windows.md');
    const text = await store.readRaw(file);
    expect(text).toContain('\r\n');
    const onDisk = await fs.readFile(path.join(vault.dir, file.path), 'utf8');
    expect(store.hashOf(text)).toBe(store.hashOf(onDisk));
    expect(store.hashOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('tags come with # from frontmatter (list or string) and inline', () => {
    expect(store.tagsOf(note('Journal/2026/2026-01-05.md'))).toEqual(expect.arrayContaining(['#journal', '#work']));
    expect(store.tagsOf(note('Projects/Alpha/Alpha overview.md'))).toEqual(
      expect.arrayContaining(['#project', '#client/northwind', '#active']),
    );
  });

  test('outline: nesting numbers, duplicate headings, code fences are not headings', async () => {
    const meetings = note('Projects/Alpha/Meeting notes.md');
    const outline = store.outline(meetings, await store.readRaw(meetings));
    expect(outline.map((s) => `${s.path} ${s.heading}`)).toEqual([
      '1 Alpha meeting notes',
      '1.1 2026-01-08 Kickoff',
      '1.1.1 Decisions',
      '1.1.2 Action items',
      '1.2 2026-01-15 Data access',
      '1.2.1 Decisions',
      '1.2.2 Action items',
      '1.3 2026-01-29 Layout review',
      '1.3.1 Action items',
      '1.3.1.1 Open questions',
    ]);
    const git = note('Reference/Git cheatsheet.md');
    expect(store.outline(git, await store.readRaw(git)).map((s) => s.heading)).toEqual([
      'Git cheatsheet',
      'Undo',
      'Branches',
      'History',
      'Config',
    ]);
  });

  test("headingTexts: each note's outline headings in order, without the sections; a list out of order is ordered as the outline orders it", async () => {
    for (const file of store.readableNotes(UNRESTRICTED_SCOPE))
      expect(store.headingTexts(file)).toEqual(store.outline(file, await store.readRaw(file)).map((s) => s.heading));
    expect(store.headingTexts(note('Projects/Alpha/Meeting notes.md'))).toHaveLength(10);
    const at = (heading: string, offset: number): HeadingCache =>
      ({ heading, level: 2, position: { start: { offset, line: 0, col: 0 }, end: { offset, line: 0, col: 0 } } }) as HeadingCache;
    const shuffled = [at('Second  one', 40), at(' First ', 10), at('Third', 90), at('Also  at 40', 40)];
    expect(headingTexts(shuffled)).toEqual(buildOutline(shuffled, 100).map((s) => s.heading));
    expect(headingTexts(shuffled)).toEqual(['First', 'Second one', 'Also at 40', 'Third']);
    expect(headingTexts(undefined)).toEqual([]);
  });

  test('CRLF note: body start and section offsets line up with the text', async () => {
    const file = note('Reference/Imported from Windows.md');
    const text = await store.readRaw(file);
    expect(text.slice(bodyStart(text)).startsWith('# Imported from Windows\r\n')).toBe(true);
    const outline = store.outline(file, text);
    const printer = outline.find((s) => s.heading === 'Printer settings')!;
    expect(text.slice(printer.start, printer.end)).toBe('## Printer settings\r\n\r\n- Duplex: long edge\r\n- Paper: A4, tray 2\r\n\r\n');
    expect(sectionAt(outline, text.indexOf('Duplex'))?.path).toBe('1.1');
    expect(sectionAt(outline, 0)).toBeNull();
  });

  test('bodyStart is 0 without frontmatter', async () => {
    const file = note('Projects/AGENTS.md');
    expect(bodyStart(await store.readRaw(file))).toBe(0);
  });
});

describe('links and tags', () => {
  const note = (p: string) => store.policy.resolveNote({ path: p }, ANYONE);

  test('private notes never appear as link source or target', () => {
    const alpha = store.linksOf(note('Projects/Alpha/Alpha overview.md'), ANYONE);
    const backlinks = alpha.backlinks.map((l) => l.path);
    expect(backlinks).toEqual(expect.arrayContaining(['Home.md', 'Journal/2026/2026-01-05.md', 'People/Ana Ruiz.md']));
    expect(backlinks).not.toContain('Personal/Therapy notes.md');
    expect(backlinks).not.toContain('_private/Passwords hint.md');
    const journal = store.linksOf(note('Journal/2026/2026-01-05.md'), ANYONE);
    expect(journal.outgoing.map((l) => l.path)).toEqual(['Projects/Alpha/Alpha overview.md']);
    // A hidden target looks exactly like a missing note: listed as unresolved.
    expect(journal.unresolved).toEqual([{ link: 'Therapy notes', count: 1 }]);
    const beta = store.linksOf(note('Projects/Beta/Beta overview.md'), CLAUDE);
    expect(beta.outgoing.map((l) => l.path)).not.toContain('Projects/Beta/Retrospective.md');
  });

  test('outgoingLinks equals linksOf().outgoing for every scope, without the backlink scan', () => {
    for (const path of ['Ideas.md', 'Home.md', 'Journal/2026/2026-01-05.md', 'Projects/Beta/Beta overview.md']) {
      for (const scope of [ANYONE, CLAUDE]) {
        const file = note(path);
        expect(store.outgoingLinks(file, scope)).toEqual(store.linksOf(file, scope).outgoing);
      }
    }
    expect(store.outgoingLinks(note('Journal/2026/2026-01-05.md'), ANYONE)).toEqual([
      { path: 'Projects/Alpha/Alpha overview.md', count: 1 },
    ]);
  });

  test('unresolved links are reported with their text', () => {
    // Archive/ is quarantined in this suite, so its note counts as missing too.
    expect(store.linksOf(note('Ideas.md'), ANYONE).unresolved).toEqual([
      { link: 'Archive/Old ideas', count: 1 },
      { link: 'Quarterly review', count: 1 },
    ]);
  });

  test('tagCounts counts readable notes only', () => {
    const counts = new Map(store.tagCounts(ANYONE).map((t) => [t.tag, t.count]));
    expect(counts.get('#journal')).toBe(6);
    expect(counts.get('#work')).toBe(2);
    expect(counts.get('#idea')).toBe(2);
    expect(counts.has('#secret')).toBe(false);
    expect(counts.has('#personal')).toBe(false);
    expect(counts.has('#retro')).toBe(true);
    expect(new Map(store.tagCounts(CLAUDE).map((t) => [t.tag, t.count])).has('#retro')).toBe(false);
  });
});

describe('agent instructions', () => {
  test('the nearest AGENTS.md governs notes below it, not itself', async () => {
    const budget = store.policy.resolveNote({ path: 'Projects/Alpha/Budget.md' }, ANYONE);
    const found = await store.agentInstructionsFor(budget, ANYONE);
    expect(found?.path).toBe('Projects/AGENTS.md');
    expect(found?.content).toContain('Meeting notes are append-only');
    expect(await store.agentInstructionsFor(store.policy.resolveNote({ path: 'Inbox' }, ANYONE), ANYONE)).toBeNull();
    expect(await store.agentInstructionsFor(store.policy.resolveNote({ path: 'Projects/AGENTS.md' }, ANYONE), ANYONE)).toBeNull();
    // Issue #10: instructions above a key's roots still govern the notes inside them.
    expect((await store.agentInstructionsFor(budget, ALPHA_ONLY))?.path).toBe('Projects/AGENTS.md');
  });

  test('for several notes, each instructions file is read once and AGENTS.md itself still skips itself', async () => {
    const paths = [
      'Projects/Alpha/Budget.md',
      'Projects/Alpha/Meeting notes.md',
      'Projects/Beta/Beta overview.md',
      'Projects/AGENTS.md',
      'Inbox.md',
    ];
    const files = paths.map((p) => store.policy.resolveNote({ path: p }, ANYONE));
    const spy = jest.spyOn(store, 'read');
    try {
      const found = await store.agentInstructionsForNotes(files, ANYONE);
      expect(found.map((f) => f?.path ?? null)).toEqual(['Projects/AGENTS.md', 'Projects/AGENTS.md', 'Projects/AGENTS.md', null, null]);
      expect(found[0]?.content).toContain('Meeting notes are append-only');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('onNoteChange', () => {
  test('reports create, modify, rename and delete after the cache updated; unsubscribe stops it', async () => {
    const changes: NoteChange[] = [];
    let wake: (() => void) | null = null;
    const off = store.onNoteChange((change) => {
      changes.push(change);
      wake?.();
    });
    const next = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (changes.length >= count) resolve();
        };
        wake = check;
        check();
      });
    const created = await vault.app.vault.create('Capture.md', '# Capture\n\n#todo\n');
    await next(1);
    expect(changes[0]).toEqual({ type: 'create', path: 'Capture.md' });
    expect(store.tagsOf(created)).toEqual(['#todo']);
    await vault.app.vault.modify(created, '# Capture\n\n#done\n');
    await next(2);
    expect(changes[1]).toEqual({ type: 'modify', path: 'Capture.md' });
    expect(store.tagsOf(created)).toEqual(['#done']);
    await vault.app.vault.rename(created, 'Captured.md');
    await next(3);
    expect(changes[2]).toEqual({ type: 'rename', path: 'Captured.md', oldPath: 'Capture.md' });
    await vault.app.vault.delete(created);
    await next(4);
    expect(changes[3]).toEqual({ type: 'delete', path: 'Captured.md' });
    off();
    const again = await vault.app.vault.create('After.md', 'x');
    await vault.app.vault.delete(again);
    expect(changes).toHaveLength(4);
  });
});
