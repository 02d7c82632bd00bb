import { assertNotDeviceName, assertValidName } from '../../src/vault/paths/note-names';
import { errorOf } from '../harness/tool-errors';

describe('new note and folder names: Windows device names', () => {
  it('refuses CON, PRN, AUX, NUL, COM1-9 and LPT1-9 in any case, with any extension, in any segment', () => {
    for (const path of ['CON.md', 'con.md', 'Notes/nul.md', 'aux', 'Projects/COM1/plan.md', 'lpt9.txt.md', 'Prn.backup.md', 'com¹.md']) {
      expect(errorOf(() => assertValidName(path)).message).toMatch(/Windows reserves for a device.*choose another name/);
    }
  });

  it('accepts names that only start like one', () => {
    for (const path of [
      'Console.md',
      'connect.md',
      'com10.md',
      'com0.md',
      'lpt.md',
      'auxiliary/notes.md',
      'Null hypothesis.md',
      'my con.md',
    ]) {
      expect(() => assertValidName(path)).not.toThrow();
    }
  });

  it('names the segment and the reserved word', () => {
    expect(errorOf(() => assertNotDeviceName('nul.html')).message).toMatch(/^'nul\.html' is named 'nul'/);
  });
});

describe('new note and folder names: invisible characters', () => {
  it('refuses a zero-width space, word joiner, BOM, soft hyphen or bidirectional control, naming it by code point', () => {
    for (const [path, code] of [
      ['Inbox\u200b.md', 'U+200B'],
      ['Pro\u2060jects/plan.md', 'U+2060'],
      ['\ufeffInbox.md', 'U+FEFF'],
      ['In\u00adbox.md', 'U+00AD'],
      ['Notes/evil\u202egpj.md', 'U+202E'],
      ['a\u2066b.md', 'U+2066'],
      ['a\u200fb.md', 'U+200F'],
    ]) {
      expect(errorOf(() => assertValidName(path)).message).toMatch(
        new RegExp(`contains '${code.replace('+', '\\+')}': names may not contain invisible characters`),
      );
    }
  });

  it('accepts the joiners that emoji sequences and Persian or Indic words need, and look-alike letters (another name, not a hidden one)', () => {
    for (const path of ['Family 👨\u200d👩\u200d👧.md', 'می\u200cخواهم.md', 'क्\u200dष.md', 'Іnbox.md', 'Café.md']) {
      expect(() => assertValidName(path)).not.toThrow();
    }
  });
});
