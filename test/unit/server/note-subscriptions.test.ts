import type { NoteResources } from '../../../src/server/content/note-resources';
import { noteUri } from '../../../src/server/content/note-resources';
import { NoteSubscriptions } from '../../../src/server/content/note-subscriptions';

/** A viewer that may read the notes in `readable` and whose quarantine and roots admit every path but those in `outside`. */
function view(readable: string[], outside: string[] = []): NoteResources {
  return {
    canReadPath: (path: string) => readable.includes(path),
    admitsPath: (path: string) => !outside.includes(path),
  } as unknown as NoteResources;
}

/** NoteSubscriptions (note-subscriptions.ts): what a subscriber hears is decided by what it could read when last judged. */
describe('NoteSubscriptions', () => {
  const A = noteUri('A.md');
  const B = noteUri('B.md');

  test('a note held while hidden: its edits, rename and deletion are never reported', () => {
    const subs = new NoteSubscriptions();
    subs.hold(A, false);
    subs.hold(B, false);
    expect(subs.changed({ type: 'modify', path: 'A.md' }, view([]))).toEqual([]);
    expect(subs.changed({ type: 'rename', path: 'B.md', oldPath: 'A.md' }, view([]))).toEqual([]);
    expect(subs.changed({ type: 'delete', path: 'B.md' }, view([]))).toEqual([]);
  });

  test("a URI the client spelled otherwise is matched by the note's own and reported as spelled, until released", () => {
    const subs = new NoteSubscriptions();
    const spelled = 'vault-mcp://note/a.md';
    subs.hold(spelled, true, A);
    subs.hold(A, true);
    const readable = { ...view(['A.md']), versionOf: () => null } as unknown as NoteResources;
    expect(subs.changed({ type: 'modify', path: 'A.md' }, readable).sort()).toEqual([A, spelled].sort());
    subs.release(spelled, true);
    expect(subs.changed({ type: 'modify', path: 'A.md' }, readable)).toEqual([A]);
    subs.release(A);
    expect(subs.empty).toBe(true);
  });

  test('a readable note turning hidden is reported once; its deletion afterwards is not', () => {
    const subs = new NoteSubscriptions();
    subs.hold(A, true);
    expect(subs.changed({ type: 'modify', path: 'A.md' }, view([]))).toEqual([A]);
    expect(subs.changed({ type: 'modify', path: 'A.md' }, view([]))).toEqual([]);
    expect(subs.changed({ type: 'delete', path: 'A.md' }, view([]))).toEqual([]);
  });

  test('a readable note deleted or renamed away is reported while its path stays in view, not once it left the roots', () => {
    const subs = new NoteSubscriptions();
    subs.hold(A, true);
    subs.hold(B, true);
    expect(subs.changed({ type: 'delete', path: 'A.md' }, view(['B.md']))).toEqual([A]);
    expect(subs.changed({ type: 'rename', path: 'C.md', oldPath: 'B.md' }, view(['C.md'], ['B.md']))).toEqual([]);
  });

  test('recheck reports the held notes whose verdict changed; no view reports nothing and reads nothing', () => {
    const subs = new NoteSubscriptions();
    subs.hold(A, true);
    subs.hold(B, false);
    subs.hold('other://thing', true);
    expect(subs.recheck(view(['B.md']))).toEqual([A, B]);
    expect(subs.recheck(view(['B.md']))).toEqual([]);
    expect(subs.recheck(null)).toEqual([]);
    expect(subs.changed({ type: 'delete', path: 'B.md' }, view([]))).toEqual([]);
  });

  test('holders are counted: the URI is forgotten when the last one releases it, or at once with all', () => {
    const subs = new NoteSubscriptions();
    subs.hold(A, true);
    subs.hold(A, true);
    subs.release(A);
    expect(subs.empty).toBe(false);
    subs.release(A);
    expect(subs.empty).toBe(true);
    subs.hold(B, true);
    subs.hold(B, true);
    subs.release(B, true);
    expect(subs.empty).toBe(true);
  });
});
