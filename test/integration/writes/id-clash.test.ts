/**
 * A write that gives a note a frontmatter id another readable note has (session 40's newcomer: set_properties
 * did it silently, and read_note {id} then answered "ambiguous"): the write goes through, with a note naming
 * the other note, on every route that can set an id, in both key modes.
 */
import { DEMO_VAULT } from '../../harness/temp-copy';
import { writeEnvPerBlock, type Json } from '../../harness/edits/write-helpers';

const CLASH =
  /^Another note, 'Projects\/Alpha\/Alpha overview\.md', has the id 'PRJ-ALPHA' too: read_note \{id: 'PRJ-ALPHA'\} will answer that several notes use it; give this note an id no other note has\.$/;
/** After a force key's first write, the notes it gave the id have it too. */
const CLASHES = /^(Another note, 'Projects\/Alpha\/Alpha overview\.md', has|\d other notes \(.*\) have) the id 'PRJ-ALPHA' too: /;

describe.each(['force', 'propose'] as const)('an id another note has, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it('set_properties, create_note, write_note (frontmatter_patch) and edit_note (an anchor in the block) say so; the write is made or staged', async () => {
    const set = await env.call('set_properties', { path: 'Inbox.md', properties: { id: 'PRJ-ALPHA' } });
    expect(set.status).toBe(mode === 'force' ? 'applied' : 'pending');
    expect(set.note).toMatch(CLASH);
    const created = await env.call('create_note', { path: 'Twin.md', content: '---\nid: PRJ-ALPHA\n---\nA twin.\n' });
    expect(created.note).toMatch(
      mode === 'force' ? /^2 other notes \('Inbox\.md', 'Projects\/Alpha\/Alpha overview\.md'\) have the id/ : CLASH,
    );
    const written = await env.call('write_note', { path: 'Ideas.md', frontmatter_patch: { id: 'PRJ-ALPHA' } });
    expect(written.note).toMatch(CLASHES);
    const patched = await env.call('edit_note', {
      path: 'Reference/Sourdough handbook.md',
      anchor: 'loaves_baked: 112',
      op: 'insert_after',
      content: '\nid: PRJ-ALPHA',
    });
    expect(patched.note).toMatch(CLASHES);
  });

  it('says nothing for an id no other note has, for the note keeping its own id, or for a number id another note lacks', async () => {
    const fresh: Json = await env.call('set_properties', { path: 'Inbox.md', properties: { id: 'INBOX-1' } });
    // (A propose key is told that this clashes with its pending id change of the test above: no id remark here.)
    expect(fresh.note ?? '').not.toMatch(/the id/);
    const own: Json = await env.call('set_properties', { path: 'Projects/Alpha/Alpha overview.md', properties: { status: 'active' } });
    expect(own.note).toBeUndefined();
    // Beta overview's id is the number 2041: the text '2041' is the same id (frontmatterId reads both as '2041').
    const same: Json = await env.call('set_properties', { path: 'People/Ana Ruiz.md', properties: { id: '2041' } });
    expect(same.note).toMatch(/^Another note, 'Projects\/Beta\/Beta overview\.md', has the id '2041' too/);
  });
});

describe('an id a note outside the key’s roots has', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force', roots: ['People'] });

  it('is not named: the key cannot see that note, and read_note {id} for it finds only its own', async () => {
    const set: Json = await env.call('set_properties', { path: 'People/Ben Okafor.md', properties: { id: 'PRJ-ALPHA' } });
    expect(set.status).toBe('applied');
    expect(set.note).toBeUndefined();
    expect((await env.call('read_note', { id: 'PRJ-ALPHA' })).path).toBe('People/Ben Okafor.md');
  });
});
