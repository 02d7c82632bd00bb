import { assertNotDeviceName, assertValidName } from '../../../../src/vault/paths/note-names';
import { errorOf } from '../../../harness/server/tool-errors';

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

  it('refuses every other default-ignorable code point: joiners outside emoji and joining scripts, tags, fillers, selectors (F9)', () => {
    for (const [path, code] of [
      ['\u200cInbox.md', 'U+200C'],
      ['In\u200dbox.md', 'U+200D'],
      ['Inbox\u200c.md', 'U+200C'],
      ['Home\u200d.md', 'U+200D'],
      ['\u{1f469}\u200d.md', 'U+200D'],
      ['\u200d\u{1f4bb}.md', 'U+200D'],
      ['\u0645\u200cx.md', 'U+200C'],
      ['Inbox\u180ex.md', 'U+180E'],
      ['Inbox\u2061x.md', 'U+2061'],
      ['Inbox\u2064x.md', 'U+2064'],
      ['Inbox\u034fx.md', 'U+034F'],
      ['Inbox\ufe00x.md', 'U+FE00'],
      ['Inbox\ufe0fx.md', 'U+FE0F'],
      ['Inbox\u{e0001}x.md', 'U+E0001'],
      ['Inbox\u{e0041}x.md', 'U+E0041'],
      ['Inbox\u{1d173}x.md', 'U+1D173'],
      ['Inbox\u206ax.md', 'U+206A'],
      ['Inbox\u17b4x.md', 'U+17B4'],
      ['Inbox\u115fx.md', 'U+115F'],
      ['Inbox\u1160x.md', 'U+1160'],
      ['\u3164Inbox.md', 'U+3164'],
      ['Inbox\uffa0x.md', 'U+FFA0'],
      ['Z/Inbox\u{e0041}/x.md', 'U+E0041'],
    ]) {
      const message = errorOf(() => assertValidName(path)).message;
      expect(message).toMatch(new RegExp(`contains '${code.replace('+', '\\+')}': names may not contain invisible characters`));
      // The name is quoted with the character shown, and the message says what to do.
      expect(message).toMatch(new RegExp(`^'[^']*<${code.replace('+', '\\+')}>[^']*'`));
      expect(message).toMatch(/remove it from the name/);
    }
  });

  it('accepts the joiners that emoji sequences and Persian or Indic words need, and look-alike letters (another name, not a hidden one)', () => {
    for (const path of [
      'Family 👨\u200d👩\u200d👧.md',
      '\u{1f469}\u{1f3fd}\u200d\u{1f4bb} Work.md',
      '\u{1f3f3}\ufe0f\u200d\u{1f308}.md',
      '\u2764\ufe0f notes.md',
      '1\ufe0f\u20e3 first.md',
      'Flag \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}.md',
      'می\u200cخواهم.md',
      'क्\u200dष.md',
      'क्\u200cष.md',
      'Іnbox.md',
      'Café.md',
    ]) {
      expect(() => assertValidName(path)).not.toThrow();
    }
  });
});
