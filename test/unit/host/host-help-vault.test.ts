import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { App, createHostApp, getAllTags, TFile } from '../../host/index';

const HELP_VAULT = nodePath.resolve(process.cwd(), '../shared/vaults/obsidian-help-en');
const d = fs.existsSync(HELP_VAULT) ? describe : describe.skip;
if (!fs.existsSync(HELP_VAULT)) console.log(`Skipping host help-vault tests: ${HELP_VAULT} is absent.`);

d('host on the obsidian-help-en vault', () => {
  let app: App;
  beforeAll(async () => {
    app = await createHostApp({ vaultPath: HELP_VAULT, watchIntervalMs: false });
  });
  afterAll(() => app.close());

  it('loads all 173 notes with frontmatter, as its README counts', () => {
    const notes = app.vault.getMarkdownFiles();
    expect(notes.length).toBe(173);
    expect(notes.filter((f) => app.metadataCache.getFileCache(f)?.frontmatter).length).toBe(173);
    expect(app.vault.getAllFolders().length).toBe(17);
  });

  it('parses 1,412 headings by level (H1 1, H2 602, H3 701, H4 104, H5 4)', () => {
    const levels: Record<number, number> = {};
    for (const f of app.vault.getMarkdownFiles()) {
      for (const h of app.metadataCache.getFileCache(f)?.headings ?? []) levels[h.level] = (levels[h.level] ?? 0) + 1;
    }
    expect(levels).toEqual({ 1: 1, 2: 602, 3: 701, 4: 104, 5: 4 });
  });

  it('counts 1,524 wikilinks, 283 wikilink embeds and the 10 inline tags of Tags.md', () => {
    let wikilinks = 0;
    let embeds = 0;
    const tagged: string[] = [];
    for (const f of app.vault.getMarkdownFiles()) {
      const c = app.metadataCache.getFileCache(f);
      wikilinks += (c?.links ?? []).filter((l) => l.original.startsWith('[[')).length;
      embeds += (c?.embeds ?? []).filter((e) => e.original.startsWith('![[')).length;
      if (c && getAllTags(c)?.length) tagged.push(f.path);
    }
    expect([wikilinks, embeds]).toEqual([1524, 283]);
    expect(tagged).toEqual(['Editing and formatting/Tags.md']);
    const tags = app.metadataCache.getCache('Editing and formatting/Tags.md')?.tags?.map((t) => t.tag);
    expect(tags).toHaveLength(10);
    expect(tags).toEqual(expect.arrayContaining(['#camelCase', '#y1984', '#kebab-case']));
    expect(app.metadataCache.getCache('Extending Obsidian/CSS snippets.md')?.tags).toBeUndefined();
  });

  it('resolves a duplicate basename to the note next to the linking one', () => {
    const mc = app.metadataCache;
    const fromSync = app.vault
      .getMarkdownFiles()
      .find((f) => f.path.startsWith('Obsidian Sync/') && f.basename !== 'Security and privacy') as TFile;
    expect(mc.getFirstLinkpathDest('Security and privacy', fromSync.path)?.path).toBe('Obsidian Sync/Security and privacy.md');
    const fromPublish = app.vault
      .getMarkdownFiles()
      .find((f) => f.path.startsWith('Obsidian Publish/') && f.basename !== 'Security and privacy') as TFile;
    expect(mc.getFirstLinkpathDest('Security and privacy', fromPublish.path)?.path).toBe('Obsidian Publish/Security and privacy.md');
    expect(mc.getFirstLinkpathDest('Plugins/Templates', 'Home.md')?.path).toBe('Plugins/Templates.md');
    expect(mc.getFirstLinkpathDest('home', 'Plugins/Templates.md')?.path).toBe('Home.md');
    expect(mc.getFirstLinkpathDest('No such note', 'Home.md')).toBeNull();
    expect(mc.fileToLinktext(app.vault.getFileByPath('Plugins/Templates.md') as TFile, 'Home.md')).toBe('Plugins/Templates');
    expect(mc.fileToLinktext(app.vault.getFileByPath('Home.md') as TFile, 'Plugins/Templates.md')).toBe('Home');
  });

  it('fills resolvedLinks for every note; only dropped attachments and the Example sample stay unresolved', () => {
    const mc = app.metadataCache;
    expect(Object.keys(mc.resolvedLinks).length).toBe(173);
    const unresolved = Object.entries(mc.unresolvedLinks).flatMap(([src, m]) => Object.keys(m).map((t) => `${src} -> ${t}`));
    const notes = unresolved.filter((t) => !/\.(png|svg|jpe?g|gif|mp4|ogg|webm|ico|pdf)$/i.test(t));
    expect(notes).toEqual([
      'Linking notes and files/Internal links.md -> Example',
      'Linking notes and files/Internal links.md -> Example.md',
    ]);
    expect(mc.resolvedLinks['Home.md']).toEqual(expect.objectContaining({ 'Getting started/Create a vault.md': expect.any(Number) }));
  });
});
