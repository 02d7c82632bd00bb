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
