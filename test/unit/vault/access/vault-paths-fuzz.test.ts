import * as path from 'node:path';
import { ToolError } from '../../../../src/errors';
import { NoteStore } from '../../../../src/vault/note-store';
import { seededRandom } from '../../../harness/seeded-random';
import { openDemoVault, type DemoVault } from '../../../harness/vault-fixture';

const PIECES = [
  '..',
  '.',
  '',
  'Projects',
  'Alpha',
  'alpha',
  '_private',
  '.obsidian',
  '%2e%2e',
  '%2F',
  '%5C',
  '%252e',
  'Cafe\u0301',
  '日本語',
  ' ',
  'C:',
  'Note.md',
  '...',
  '\\',
  'x%',
];

let vault: DemoVault;
let notes: NoteStore;

beforeAll(async () => {
  vault = await openDemoVault();
  notes = new NoteStore(vault.app, { quarantine: () => ['Archive'] });
});
afterAll(async () => vault?.close());

describe('NotePolicy.normalizePath fuzz', () => {
  test('5000 seeded random inputs: a ToolError, or a clean vault path inside the roots and outside quarantine', () => {
    const random = seededRandom(7);
    const scope = { label: 'fuzz', roots: ['Projects/Alpha'] };
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 6) }, () => PIECES[Math.floor(random() * PIECES.length)]);
      const prefix = random() < 0.6 ? ['Projects/Alpha/', 'projects\\ALPHA\\', './Projects/x/../Alpha/'][Math.floor(random() * 3)] : '';
      const input = prefix + parts.join(['/', '\\', '//'][Math.floor(random() * 3)]);
      let out: string;
      try {
        out = notes.policy.normalizePath(input, scope);
      } catch (err) {
        expect(err).toBeInstanceOf(ToolError);
        continue;
      }
      accepted++;
      // eslint-disable-next-line no-control-regex -- NUL must never survive normalization
      expect(out).not.toMatch(/^\/|\/$|\\|\/\/|\u0000/);
      expect(out.split('/')).not.toContain('..');
      expect(out.split('/')).not.toContain('.');
      expect(out === 'Projects/Alpha' || out.startsWith('Projects/Alpha/')).toBe(true);
      expect(notes.policy.isQuarantined(out)).toBe(false);
      expect(out).toBe(out.normalize('NFC'));
      expect(path.resolve(vault.dir, out).startsWith(vault.dir + path.sep)).toBe(true);
    }
    expect(accepted).toBeGreaterThan(500);
  });
});
