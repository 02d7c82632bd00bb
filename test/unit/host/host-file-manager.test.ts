import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { createTempVault, TempVault, TFile, TFolder } from '../../host/index';

describe('host fileManager.processFrontMatter', () => {
  let tv: TempVault;
  const read = (p: string): Promise<string> => fsp.readFile(nodePath.join(tv.dir, p), 'utf8');
  beforeEach(async () => {
    tv = await createTempVault(
      {
        'Fm.md': '---\n# a comment\ntitle: Old\ntags:\n  - a\ncount: 1\n---\nBody line 1\n\nBody [[line]] 2\n',
        'Plain.md': 'No frontmatter here.\n',
        'Bad.md': '---\ntitle: [unclosed\n---\nbody\n',
        'Crlf.md': '---\r\ntitle: x\r\n---\r\nbody\r\n',
      },
      { watchIntervalMs: false },
    );
  });
  afterEach(() => tv.cleanup());
  const file = (p: string): TFile => tv.app.vault.getFileByPath(p) as TFile;

  it('changes only the touched keys and keeps the body and comments exactly', async () => {
    await tv.app.fileManager.processFrontMatter(file('Fm.md'), (fm) => {
      fm.title = 'New';
      fm.tags.push('b');
      delete fm.count;
      fm.added = ['[[Link]]'];
    });
    expect(await read('Fm.md')).toBe(
      '---\n# a comment\ntitle: New\ntags:\n  - a\n  - b\nadded:\n  - "[[Link]]"\n---\nBody line 1\n\nBody [[line]] 2\n',
    );
    await tv.app.metadataCache.whenResolved();
    expect(tv.app.metadataCache.getFileCache(file('Fm.md'))?.frontmatter).toEqual({ title: 'New', tags: ['a', 'b'], added: ['[[Link]]'] });
  });

  it('adds a frontmatter block to a note without one, and removes it when emptied', async () => {
    await tv.app.fileManager.processFrontMatter(file('Plain.md'), (fm) => {
      fm.status = 'draft';
    });
    expect(await read('Plain.md')).toBe('---\nstatus: draft\n---\nNo frontmatter here.\n');
    await tv.app.fileManager.processFrontMatter(file('Plain.md'), (fm) => {
      delete fm.status;
    });
    expect(await read('Plain.md')).toBe('No frontmatter here.\n');
  });

  it('throws YAMLParseError on invalid frontmatter and leaves the file untouched', async () => {
    const before = await read('Bad.md');
    const fn = jest.fn();
    await expect(tv.app.fileManager.processFrontMatter(file('Bad.md'), fn)).rejects.toMatchObject({ name: 'YAMLParseError' });
    expect(fn).not.toHaveBeenCalled();
    expect(await read('Bad.md')).toBe(before);
  });

  it('keeps CRLF line endings and does not write when nothing changed', async () => {
    const mtime = file('Crlf.md').stat.mtime;
    await tv.app.fileManager.processFrontMatter(file('Crlf.md'), () => undefined);
    expect(file('Crlf.md').stat.mtime).toBe(mtime);
    await tv.app.fileManager.processFrontMatter(file('Crlf.md'), (fm) => {
      fm.title = 'y';
    });
    expect(await read('Crlf.md')).toBe('---\r\ntitle: y\r\n---\r\nbody\r\n');
  });
});

describe('host fileManager.renameFile', () => {
  let tv: TempVault;
  const read = (p: string): Promise<string> => fsp.readFile(nodePath.join(tv.dir, p), 'utf8');
  beforeEach(async () => {
    tv = await createTempVault(
      {
        'Old.md': '# Old\nSelf link [[#Old]].',
        'Links.md': [
          '---',
          'related: "[[Old]]"',
          '---',
          'Wiki [[Old]], [[Old#Old|alias]], [[Old.md]], embed ![[Old]], md [t](Old.md) and [rel](./Old.md#Old).',
          '',
          '| col | link |',
          '|---|---|',
          '| 1 | [[Old\\|in table]] |',
          '',
          'Unrelated [[Older]] and `[[Old]]` in code.',
        ].join('\n'),
        'Sub/Deep.md': 'From a folder: [[Old]] and [up](../Old.md).',
        'Older.md': 'x',
        'Docs/Guide.md': 'guide',
        'Docs/Ref.md': 'See [[Docs/Guide|guide]] and [[Guide]].',
        'Index.md': 'Read [[Docs/Guide]].',
      },
      { watchIntervalMs: false },
    );
  });
  afterEach(() => tv.cleanup());

  it('moves the note and rewrites every link to it, keeping subpaths and aliases', async () => {
    const old = tv.app.vault.getFileByPath('Old.md') as TFile;
    await tv.app.fileManager.renameFile(old, 'Archive/New name.md');
    expect(old.path).toBe('Archive/New name.md');
    expect(await read('Links.md')).toBe(
      [
        '---',
        'related: "[[New name]]"',
        '---',
        'Wiki [[New name]], [[New name#Old|alias]], [[New name.md]], embed ![[New name]], md [t](New%20name.md) and [rel](./Archive/New%20name.md#Old).',
        '',
        '| col | link |',
        '|---|---|',
        '| 1 | [[New name\\|in table]] |',
        '',
        'Unrelated [[Older]] and `[[Old]]` in code.',
      ].join('\n'),
    );
    expect(await read('Sub/Deep.md')).toBe('From a folder: [[New name]] and [up](../Archive/New%20name.md).');
    expect(await read('Archive/New name.md')).toBe('# Old\nSelf link [[#Old]].');
    await tv.app.metadataCache.whenResolved();
    expect(tv.app.metadataCache.resolvedLinks['Links.md']).toEqual({ 'Archive/New name.md': 8, 'Older.md': 1 });
    expect(tv.app.metadataCache.unresolvedLinks['Links.md']).toEqual({});
  });

  it('rewrites links into a moved folder, keeping full-path links as paths', async () => {
    await tv.app.fileManager.renameFile(tv.app.vault.getFolderByPath('Docs') as TFolder, 'Manual');
    expect(await read('Index.md')).toBe('Read [[Manual/Guide]].');
    expect(await read('Manual/Ref.md')).toBe('See [[Manual/Guide|guide]] and [[Guide]].');
  });

  it('makes its link tables again once after a folder of notes moves, not once per note moved, and resolves by the new paths', async () => {
    for (let i = 0; i < 40; i++) await tv.app.vault.create(`Docs/Page ${i}.md`, `page ${i}`);
    await tv.app.metadataCache.whenResolved();
    const listings = jest.spyOn(tv.app.vault, 'getFiles');
    await tv.app.vault.rename(tv.app.vault.getFolderByPath('Docs') as TFolder, 'Manual');
    expect(tv.app.metadataCache.getFirstLinkpathDest('Page 7', 'Index.md')?.path).toBe('Manual/Page 7.md');
    expect(tv.app.metadataCache.getFirstLinkpathDest('Docs/Guide', 'Index.md')).toBeNull();
    // 42 notes moved: the tables were made again at the first lookup after, once.
    expect(listings).toHaveBeenCalledTimes(1);
    listings.mockRestore();
  });

  it('refuses to overwrite and changes nothing', async () => {
    const before = await read('Links.md');
    await expect(tv.app.fileManager.renameFile(tv.app.vault.getFileByPath('Old.md') as TFile, 'Older.md')).rejects.toThrow(
      'Destination file already exists!',
    );
    expect(await read('Links.md')).toBe(before);
  });

  it('trashes through the vault and generates shortest wikilinks', async () => {
    const guide = tv.app.vault.getFileByPath('Docs/Guide.md') as TFile;
    expect(tv.app.fileManager.generateMarkdownLink(guide, 'Index.md', '#Intro', 'the guide')).toBe('[[Guide#Intro|the guide]]');
    await tv.app.fileManager.trashFile(guide);
    expect(await fsp.readdir(nodePath.join(tv.dir, '.trash'))).toEqual(['Guide.md']);
    expect(await tv.app.fileManager.getAvailablePathForAttachment('Old.md')).toBe('Old 1.md');
  });
});
