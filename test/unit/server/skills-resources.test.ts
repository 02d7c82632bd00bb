import { JsonRpcError } from '../../../src/server/session/tool-dispatch';
import { NOTE_URI_PREFIX, noteUri, pathOfNoteUri } from '../../../src/server/content/note-resources';
import { migrateSettings } from '../../../src/settings/migrate-settings';
import { NEVER_CHANGED } from '../../../src/settings/settings';
import { judgeSkillText } from '../../../src/vault/skills';
import { skillsFolderOf, touchesSkills } from '../../../src/vault/skills-folder';

describe('SKILL.md frontmatter', () => {
  it('takes name and description from good frontmatter', () => {
    expect(judgeSkillText('---\nname: Summarize\ndescription: Three bullets.\n---\nBody\n')).toEqual({
      name: 'Summarize',
      description: 'Three bullets.',
      error: null,
    });
  });

  it.each([
    ['no block', 'Just text.\n', /no frontmatter/],
    ['broken YAML', '---\nname: [x\n---\n', /does not parse/],
    ['missing name', '---\ndescription: d\n---\n', /needs a text name;/],
    ['both missing', '---\nother: 1\n---\n', /needs a text name and a text description; add name: and description:/],
    ['non-text description', '---\nname: n\ndescription: [a, b]\n---\n', /description/],
    ['blank name', '---\nname: "  "\ndescription: d\n---\n', /name/],
  ])('names the problem of %s', (_case, text, error) => {
    expect(judgeSkillText(text).error).toMatch(error);
  });
});

describe('skills folder setting', () => {
  it('normalizes the folder and falls back to Skills', () => {
    expect(skillsFolderOf(undefined)).toBe('Skills');
    expect(skillsFolderOf('  ')).toBe('Skills');
    expect(skillsFolderOf('/Team//Playbooks/')).toBe('Team/Playbooks');
  });

  it('knows which changes touch the skills: inside the folder, or the folder itself or a parent', () => {
    expect(touchesSkills('Skills/a/SKILL.md', 'Skills')).toBe(true);
    expect(touchesSkills('skills/a/SKILL.md', 'Skills')).toBe(true);
    expect(touchesSkills('Team', 'Team/Skills')).toBe(true);
    expect(touchesSkills('Skillset/a.md', 'Skills')).toBe(false);
  });

  it('migrates data.json without or with a broken skills entry to the default', () => {
    expect(migrateSettings({}).skills).toEqual({ folder: 'Skills', changed_at: NEVER_CHANGED });
    expect(migrateSettings({ skills: 'x' }).skills).toEqual({ folder: 'Skills', changed_at: NEVER_CHANGED });
    expect(migrateSettings({ skills: { folder: 42 } }).skills).toEqual({ folder: 'Skills', changed_at: NEVER_CHANGED });
    expect(migrateSettings({ skills: { folder: 'Playbooks' } }).skills).toEqual({ folder: 'Playbooks', changed_at: NEVER_CHANGED });
  });
});

describe('note resource URIs', () => {
  it.each(['Home.md', 'Projects/Plan #1?.md', 'Areas/Übersicht.md', 'a%20b/c d.md', '日本/メモ.md'])('round-trips %p', (path) => {
    const uri = noteUri(path);
    expect(uri.startsWith(NOTE_URI_PREFIX)).toBe(true);
    expect(uri.slice(NOTE_URI_PREFIX.length)).not.toMatch(/[ #?]/);
    expect(pathOfNoteUri(uri)).toBe(path);
  });

  it('is null for another scheme and -32602 for a broken escape or an empty path', () => {
    expect(pathOfNoteUri('file:///etc/passwd')).toBeNull();
    for (const uri of [`${NOTE_URI_PREFIX}%E0%A4`, NOTE_URI_PREFIX, `${NOTE_URI_PREFIX}%20`]) {
      expect(() => pathOfNoteUri(uri)).toThrow(JsonRpcError);
    }
    let caught: unknown = null;
    try {
      pathOfNoteUri(`${NOTE_URI_PREFIX}%zz`);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: -32602, message: expect.stringMatching(/percent-escape.*encodeURIComponent/) });
  });
});
