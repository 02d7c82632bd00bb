import { ActivityLog, type ActivityFile } from '../../../src/activity/activity-log';
import { MemoryActivityFile } from '../../fakes/memory-activity-file';
import { parseActivity, serializeActivity } from '../../../src/activity/activity-codec';
import { locateHunks, textsOf, undoOf } from '../../../src/activity/undo-data';
import { keptAsideFile } from '../../../src/activity/kept-aside';
import { hashText } from '../../../src/vault/hash';
import { diffText } from '../../../src/activity/activity-diff';
import type { AccessScope } from '../../../src/vault/access/access';
import type { AppliedChange } from '../../../src/vault/writes/applied-change';
import { recentWriteHint } from '../../../src/ui/activity/activity-status-bar';
import { listActivity, runActivityCommand } from '../../../src/ui/activity/activity-commands';
import { ActivityRevert } from '../../../src/activity/activity-revert';
import { ToolError } from '../../../src/errors';
import { fileSystemRefusal } from '../../../src/vault/writes/write-errors';
import { guardFrontmatter } from '../../../src/vault/writes/frontmatter/frontmatter-guard';

const AGENT: AccessScope = { label: 'Claude Code', roots: [], actor: { keyId: 'k1', session: 's1' } };
const edit = (before: string, after: string, path = 'Note.md'): AppliedChange => ({ kind: 'edit', tool: 'edit_note', path, before, after });

describe('ActivityLog', () => {
  let clock: Date;
  let file: MemoryActivityFile;
  let limits: { maxMegabytes: number; maxDays: number };
  const make = () =>
    new ActivityLog(
      file,
      () => limits,
      () => clock,
    );

  beforeEach(() => {
    clock = new Date('2026-12-01T10:00:00Z');
    file = new MemoryActivityFile();
    limits = { maxMegabytes: 20, maxDays: 30 };
  });

  it('persists entries and reads them back after a restart, newest first', async () => {
    const log = make();
    await log.load();
    log.record(edit('a\n', 'a\nb\n'), AGENT);
    clock = new Date('2026-12-01T10:01:00Z');
    log.record({ kind: 'move', tool: 'move_note', from: 'Note.md', path: 'Moved.md', folder: false, linkers: ['Home.md'] }, AGENT);
    await log.whenSaved();
    const again = make();
    expect(await again.load()).toEqual({});
    expect(again.all().map((e) => `${e.kind} ${e.path} ${e.session} ${e.key_label}`)).toEqual([
      'move Moved.md s1 Claude Code',
      'edit Note.md s1 Claude Code',
    ]);
    expect(again.all()[0].linkers).toEqual(['Home.md']);
    // A move that rewrote no link keeps no list; a list that is not of paths is a damaged file.
    expect(
      make().record({ kind: 'move', tool: 'move_note', from: 'A.md', path: 'B.md', folder: false, linkers: [] }, AGENT),
    ).not.toHaveProperty('linkers');
    expect(() => parseActivity((file.text ?? '').replace('"linkers":["Home.md"]', '"linkers":[3]'))).toThrow(
      /"linkers" must be a list of note paths/,
    );
    expect(textsOf(again.all()[1], 'a\nb\n')).toEqual({ before: 'a\n', after: 'a\nb\n' });
    expect(textsOf(again.all()[1], 'a\nb\nlater\n')).toEqual({ before: null, after: null });
  });

  it("keeps a note's creation time and inode as read at the write, and refuses a log whose inode is not a whole number", async () => {
    const log = make();
    await log.load();
    log.record({ ...edit('a\n', 'a\nb\n'), created: 1796500000000, inode: '18446744073709551557' } as AppliedChange, AGENT);
    log.record({ kind: 'move', tool: 'move_note', from: 'D', path: 'E', folder: true, linkers: [], created: 1796500000001 }, AGENT);
    await log.whenSaved();
    const again = make();
    await again.load();
    expect(again.all().map((e) => [e.created, e.inode])).toEqual([
      [1796500000001, undefined],
      [1796500000000, '18446744073709551557'],
    ]);
    for (const bad of ['"12:34"', '18446744073709551557', '""', '"-1"'])
      expect(() => parseActivity((file.text ?? '').replace('"inode":"18446744073709551557"', `"inode":${bad}`))).toThrow(
        /"inode" must be a whole number in a string/,
      );
  });

  it("does not log writes without an actor (internal writes are nobody's activity)", () => {
    expect(make().record(edit('a', 'b'), { label: '', roots: [] })).toBeNull();
  });

  it('drops entries older than maxDays and, past maxMegabytes, the oldest first, always keeping the newest', async () => {
    const log = make();
    await log.load();
    log.record(edit('old', 'older'), AGENT);
    clock = new Date('2026-12-20T10:00:00Z');
    for (let i = 0; i < 5; i++) log.record(edit('x'.repeat(1000), `${'y'.repeat(1000)}${i}`, `N${i}.md`), AGENT);
    expect(log.all()).toHaveLength(6);
    limits = { maxMegabytes: 20, maxDays: 10 };
    log.record(edit('a', 'b', 'Last.md'), AGENT);
    expect(log.all().map((e) => e.path)).toEqual(['Last.md', 'N4.md', 'N3.md', 'N2.md', 'N1.md', 'N0.md']);
    limits = { maxMegabytes: 5000 / (1024 * 1024), maxDays: 10 };
    log.record(edit('c', 'd', 'Newest.md'), AGENT);
    expect(log.all().map((e) => e.path)).toEqual(['Newest.md', 'Last.md', 'N4.md']);
    expect(log.sizeBytes()).toBeLessThanOrEqual(5000);
    limits = { maxMegabytes: 1 / (1024 * 1024), maxDays: 10 };
    log.record(edit('e', 'f', 'Only.md'), AGENT);
    expect(log.all().map((e) => e.path)).toEqual(['Only.md']);
    await log.whenSaved();
    expect(parseActivity(file.text ?? '')).toHaveLength(1);
  });

  it('a small change to a big note logs the change, not the note (F1)', async () => {
    const log = make();
    await log.load();
    const big = 'a line of a long clippings note\n'.repeat(130_000); // about 4 MB
    log.record({ kind: 'edit', tool: 'append_note', path: 'Big.md', before: big, after: `${big}tail` }, AGENT);
    log.record(edit(big, big.replace('a line', 'A LINE')), AGENT);
    expect(log.sizeBytes()).toBeLessThan(3000);
  });

  it("one key's flood drops its own oldest entries, never another key's (F1)", async () => {
    limits = { maxMegabytes: 1, maxDays: 30 };
    const log = make();
    await log.load();
    const OTHER: AccessScope = { label: 'Cursor', roots: [], actor: { keyId: 'k2', session: 's2' } };
    log.record(edit('the user text\n', 'gone\n', 'Home.md'), OTHER);
    for (let i = 0; i < 6; i++)
      log.record({ kind: 'create', tool: 'create_note', path: `flood${i}.md`, after: 'x'.repeat(300_000) }, AGENT);
    expect(log.all().map((e) => e.path)).toEqual(['flood5.md', 'flood4.md', 'flood3.md', 'Home.md']);
    expect(log.sizeBytes()).toBeLessThanOrEqual(1024 * 1024);
  });

  it('an entry the size limit drops while it holds replaced text is kept aside, never lost silently (F1)', async () => {
    limits = { maxMegabytes: 1, maxDays: 30 };
    const kept: string[] = [];
    const log = new ActivityLog(
      file,
      () => limits,
      () => clock,
      (entries) => kept.push(...entries.map((e) => keptAsideFile(e).text)),
    );
    await log.load();
    log.record(edit('# Home\nthe only copy of the user text\n', 'gone\n', 'Home.md'), AGENT);
    for (let i = 0; i < 2; i++) log.record(edit(`${i}`.repeat(600_000), `new ${i}`, `Big${i}.md`), AGENT);
    expect(log.all().map((e) => e.path)).toEqual(['Big1.md']);
    expect(kept).toHaveLength(2);
    expect(kept[0]).toContain("Vault MCP kept this text of 'Home.md'");
    expect(kept[0]).toContain('# Home\nthe only copy of the user text\n');
    expect(kept[1]).toContain('0'.repeat(600_000));
    expect(keptAsideFile(log.all()[0]).path).toMatch(/^\.trash\/Vault MCP a_[0-9a-f]{12} Big1\.md$/);
  });

  it('one trim that drops several entries holding replaced text hands them to keepAside in one call', async () => {
    limits = { maxMegabytes: 1, maxDays: 30 };
    const calls: string[][] = [];
    const log = new ActivityLog(
      file,
      () => limits,
      () => clock,
      (entries) => calls.push(entries.map((e) => e.path)),
    );
    await log.load();
    for (const name of ['Home', 'Work', 'Plans']) log.record(edit(`# ${name}\nthe user's text\n`, 'gone\n', `${name}.md`), AGENT);
    log.record({ kind: 'create', tool: 'create_note', path: 'New.md', after: 'x' }, AGENT);
    expect(calls).toEqual([]);
    log.record(edit('y'.repeat(1_100_000), 'short\n', 'Big.md'), AGENT);
    // The create held no replaced text: nothing of it to keep.
    expect(calls).toEqual([['Home.md', 'Work.md', 'Plans.md']]);
    expect(log.all().map((e) => e.path)).toEqual(['Big.md']);
  });

  it('reads a log written before patch-only undo data (whole text after) and still gives its texts (F1)', () => {
    const old =
      '{"version":1,"entries":[\n' +
      '{"id":"a_000000000001","at":"2026-11-01T10:00:00.000Z","key_id":"k1","key_label":"Claude Code","key_roots":[],"session":null,' +
      '"tool":"edit_note","kind":"edit","path":"N.md","hash_before":null,"hash_after":null,"via":"agent",' +
      '"undo":{"after":"a\\nB\\n","patch":[{"from":2,"to":4,"inserted":"b\\n"}]}}\n]}\n';
    const [entry] = parseActivity(old);
    expect(textsOf(entry)).toEqual({ before: 'a\nb\n', after: 'a\nB\n' });
    expect(diffText(entry, 10)).toBe('@@ Line 2\n-b\n+B');
  });

  it('keeps a damaged file aside and reports it in one sentence; what this run recorded stays', async () => {
    file.text = '{"version":1,"entries":[{"id":"a_1"';
    const log = make();
    log.record(edit('a', 'b'), AGENT);
    const { problem } = await log.load();
    expect(problem).toMatch(
      /^Vault MCP could not read its agent activity file \(not valid JSON \(.+\)\); it was kept as \.obsidian\/plugins\/vault-mcp\/activity\.json\.corrupt-2026-12-01T10-00-00-000Z and the activity log starts empty\.$/,
    );
    expect(Object.values(file.aside)).toEqual(['{"version":1,"entries":[{"id":"a_1"']);
    expect(log.all()).toHaveLength(1);
    await log.whenSaved();
    expect(parseActivity(file.text ?? '')).toHaveLength(1);
  });

  it('a file that does not read is reported and left as it is', async () => {
    const broken: ActivityFile = {
      ...file,
      path: file.path,
      read: async () => {
        throw new Error('EACCES');
      },
      write: file.write.bind(file),
      keepCorruptAside: file.keepCorruptAside.bind(file),
    };
    const log = new ActivityLog(
      broken,
      () => limits,
      () => clock,
    );
    expect((await log.load()).problem).toMatch(/^Vault MCP could not read its agent activity file .+ \(EACCES\); it was left as it is/);
  });

  it('marks an entry reverted by its revert, and applied again when the revert is reverted', () => {
    const log = make();
    const change = log.record(edit('a', 'b'), AGENT)!;
    const undo = log.record(edit('b', 'a'), { ...AGENT, actor: { keyId: 'k1', via: { revert: change.id } } })!;
    expect(undo).toMatchObject({ via: 'revert', reverts: change.id, session: null });
    expect(log.isReverted(change)).toBe(true);
    const redo = log.record(edit('a', 'b'), { ...AGENT, actor: { keyId: 'k1', via: { revert: undo.id } } })!;
    expect(log.isReverted(undo)).toBe(true);
    expect(log.isReverted(change)).toBe(false);
    expect(log.isReverted(redo)).toBe(false);
  });

  it('records an accepted proposal with its id and the hunks accepted', () => {
    const e = make().record(edit('a\nb\n', 'a\nc\n'), { ...AGENT, actor: { keyId: 'k1', via: { proposal: 'p_1', hunks: [0, 2] } } });
    expect(e).toMatchObject({ via: 'proposal', proposal_id: 'p_1', hunks: [0, 2] });
  });

  it('the status-bar hint names who wrote directly in the last minutes, and is gone afterwards', () => {
    const log = make();
    log.record(edit('a', 'b'), AGENT);
    log.record(edit('a', 'b'), { ...AGENT, actor: { keyId: 'k1', via: { proposal: 'p_1' } } });
    const t = clock.getTime();
    expect(recentWriteHint(log, t + 30_000)).toBe('Claude Code made 1 change · just now');
    expect(recentWriteHint(log, t + 3 * 60_000)).toBe('Claude Code made 1 change · 3 min ago');
    expect(recentWriteHint(log, t + 6 * 60_000)).toBeNull();
  });

  it("refresh takes in another log's entries on the same file once its stat changes: one stat otherwise, no entry twice", async () => {
    /** The file as two instances share it: a stat that changes with every write (mtime, size), reads counted. */
    class StatFile extends MemoryActivityFile {
      version = 0;
      reads = 0;
      override async read(): Promise<string | null> {
        this.reads++;
        return super.read();
      }
      override async write(text: string): Promise<void> {
        this.version++;
        await super.write(text);
      }
      async stamp(): Promise<string> {
        return this.text === null ? '' : `${1000 + this.version} 1 ${this.text.length}`;
      }
    }
    const shared = new StatFile();
    file = shared;
    const a = make();
    const b = make();
    await a.load();
    await b.load();
    const theirs = b.record(edit('a\n', 'a\nb\n'), { ...AGENT, actor: { keyId: 'k2', session: 's2' } });
    await b.whenSaved();
    expect(a.get(theirs?.id ?? '')).toBeUndefined();
    const events: string[] = [];
    a.onChange((e) => events.push(e.type));
    await a.refresh();
    expect(a.all().map((e) => e.id)).toEqual([theirs?.id]);
    expect(events).toEqual(['loaded']);
    // Unchanged since: one stat, no read, no event.
    const reads = shared.reads;
    await a.refresh();
    expect(shared.reads).toBe(reads);
    expect(events).toEqual(['loaded']);
    // A's revert entry reaches B the same way, marking B's entry reverted; nothing twice.
    const revert = a.record(
      { kind: 'edit', tool: 'revert', path: 'Note.md', before: 'a\nb\n', after: 'a\n' },
      {
        ...AGENT,
        actor: { keyId: 'k2', via: { revert: theirs?.id ?? '' } },
      },
    );
    await a.whenSaved();
    await b.refresh();
    expect(b.all().map((e) => e.id)).toEqual([revert?.id, theirs?.id]);
    expect(b.isReverted(b.get(theirs?.id ?? '') as never)).toBe(true);
    expect(parseActivity(shared.text ?? '').map((e) => e.id)).toEqual([theirs?.id, revert?.id]);
  });
});

describe('terminal listing', () => {
  it('lists the newest 100 and says how many older ones there are', () => {
    const log = new ActivityLog(new MemoryActivityFile(), () => ({ maxMegabytes: 20, maxDays: 30 }));
    expect(listActivity(log)).toBe('No agent activity yet.');
    for (let i = 0; i < 105; i++) log.record(edit('a', `b${i}`, `N${i}.md`), AGENT);
    const lines = listActivity(log).split('\n');
    expect(lines[0]).toBe('"Claude Code", session s1:');
    expect(lines).toHaveLength(102);
    expect(lines[1]).toMatch(/ edit N104\.md via edit_note$/);
    expect(lines[101]).toBe('... and 5 older changes; revert key "<label>" and revert session <session> cover them too.');
  });

  it('answers usage mistakes in one line and leaves other commands to the review', async () => {
    const target = { activity: new ActivityLog(new MemoryActivityFile(), () => ({ maxMegabytes: 20, maxDays: 30 })), reverts: {} as never };
    expect(await runActivityCommand(target, 'activity a_1 extra')).toBe('Usage: activity [entry id [line to start from]]');
    expect(await runActivityCommand(target, 'activity a_1')).toBe(
      `No activity entry 'a_1'; list them with "activity" (vault-mcp:activity in Obsidian's CLI) or the Agent activity view.`,
    );
    expect(await runActivityCommand(target, 'revert a_1 a_2')).toBe(
      'Usage: revert <entry id> | revert key "<label>" | revert session <session>',
    );
    expect(await runActivityCommand(target, 'revert key')).toBe(
      'Usage: revert <entry id> | revert key "<label>" | revert session <session>',
    );
    expect(await runActivityCommand(target, 'revert key "Nobody"')).toBe(
      'No activity from a key labelled "Nobody"; "activity" lists the keys that changed something.',
    );
    expect(await runActivityCommand(target, 'accept p_1')).toBeNull();
    expect(await runActivityCommand(target, '')).toBeNull();
  });
});

describe('undo data', () => {
  it.each([
    ['a\nb\n', 'a\nb\nc'],
    ['hello', 'hello\nworld'],
    ['x\r\ny\r\n', 'x\r\nz\r\n'],
    ['', 'abc\n'],
    ['---\ntags: [a]\n---\nbody', '---\ntags: [a, b]\n---\nbody'],
  ])('a reverse patch gives back the text before exactly (%j → %j)', (before, after) => {
    const { undo } = undoOf(edit(before, after));
    expect(undo.patch).toEqual(expect.any(Array));
    expect(undo.before).toBeUndefined();
    expect(undo.after).toBeUndefined();
    expect(textsOf({ undo, hash_after: hashText(after) } as never, after)).toEqual({ before, after });
  });

  it('stores only the changed lines in the patch, the text before once', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}\n`);
    const before = lines.join('');
    const after = [...lines.slice(0, 250), 'new line\n', ...lines.slice(251)].join('');
    const { undo } = undoOf(edit(before, after));
    const at = after.indexOf('new line');
    expect(undo).toEqual({
      // A note of more than 256 lines (chunks of 2): the line and its neighbours occur once, so marked `unique`.
      patch: [
        {
          from: at,
          to: at + 9,
          inserted: 'line 250\n',
          removed: 'new line\n',
          pre: 'line 249\n',
          post: 'line 251\n',
          line: 251,
          unique: true,
        },
      ],
      after_sums: { k: 2, sums: expect.any(String), cut: 'mix' },
    });
    // The fingerprint of the text after is a few KB at most, whatever the note's size.
    expect(JSON.stringify(undo.after_sums).length).toBeLessThan(4000);
    const big = Array.from({ length: 100_000 }, (_, i) => `line ${i} of a big note\n`).join('');
    expect(JSON.stringify(undoOf(edit(big, `${big}one more\n`)).undo).length).toBeLessThan(8000);
  });

  it('finds each hunk again by its context on a text changed since, leaving out the ones later typing touched (F1)', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    const after = 'one\nTWO\nthree\nfour\nFIVE\nsix\n';
    const { undo } = undoOf(edit(before, after));
    const current = 'zero\none\nTWO\nthree\nfour\nFIVE!\nsix\n';
    const { ready, left } = locateHunks(undo, current);
    expect(left).toEqual([1]); // the second hunk (FIVE), by its index in the patch
    expect(ready.map((h) => current.slice(h.from, h.to))).toEqual(['TWO\n']);
    // Three-way, not by matching lines: two lines put above and the last three rewritten leave TWO and its neighbours in place.
    const moved = 'TWO\nthree\none\nTWO\nthree\nfour\nTWO\nthree\n';
    expect(locateHunks(undo, moved).ready.map((h) => [h.from, h.to])).toEqual([[14, 18]]);
    // The last three rewritten as a copy of TWO with both its neighbours: two copies side by side, which is the agent's cannot be told.
    expect(locateHunks(undo, 'TWO\nthree\none\nTWO\nthree\none\nTWO\nthree\n').left).toEqual([0, 1]);
    expect(locateHunks(undo, 'one\nTWO!\nthree\nfour\nFIVE\nsix\n').left).toEqual([0]);
  });

  it('a rewrite of every line still round-trips', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `LINE ${i}`).join('\n');
    expect(textsOf({ undo: undoOf(edit(before, after)).undo, hash_after: hashText(after) } as never, after)).toEqual({ before, after });
  });

  it("an agent's diff lines are cut at maxLineChars, saying how much was left out: a one-line note of megabytes gave a megabyte 'short' diff (session 43)", () => {
    const PREVIEW_LINE_CHARS = 240;
    const blob = 'x'.repeat(4_000_000);
    const entry = { id: 'a_2', undo: { after: `${blob}\n`, before: 'a\n' } } as never;
    // The user's views show the line whole.
    expect(diffText(entry, 10)).toBe(`@@ Line 1\n-a\n+${blob}`);
    const text = diffText(entry, 10, undefined, PREVIEW_LINE_CHARS);
    expect(text).toBe(`@@ Line 1\n-a\n+${'x'.repeat(PREVIEW_LINE_CHARS)}… (${4_000_000 - PREVIEW_LINE_CHARS} more characters)`);
    // Cut on a grapheme cluster boundary: an emoji's surrogate pair is kept whole, never split.
    const emoji = { id: 'a_3', undo: { after: `${'y'.repeat(PREVIEW_LINE_CHARS - 1)}\u{1F600}z\n`, before: '' } } as never;
    expect(diffText(emoji, 10, undefined, PREVIEW_LINE_CHARS)).toBe(
      `@@ Line 1\n+${'y'.repeat(PREVIEW_LINE_CHARS - 1)}… (3 more characters)`,
    );
  });

  it('a damaged entry (patch no longer applies) says so instead of guessing', () => {
    const entry = { id: 'a_1', undo: { after: 'z\n', patch: undoOf(edit('a\nb\nc\n', 'a\nb\nd\n')).undo.patch } } as never;
    expect(() => textsOf(entry)).toThrow('Activity entry a_1 is damaged: its patch does not fit its text.');
    expect(diffText(entry, 5)).toBe('Activity entry a_1 is damaged: its patch does not fit its text.');
  });

  it('a revert of a damaged entry is refused in one sentence, the vault untouched', async () => {
    const log = new ActivityLog(new MemoryActivityFile(), () => ({ maxMegabytes: 20, maxDays: 30 }));
    const e = log.record(edit('a\nb\nc\n', 'a\nb\nd\n'), AGENT)!;
    e.undo.after = 'z\n'; // a format-1 entry (whole text after) whose patch no longer fits it
    const noVault = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the vault was touched');
        },
      },
    );
    expect(await new ActivityRevert(log, noVault as never, () => null).revert(e.id)).toEqual({
      id: e.id,
      reverted: false,
      message: `${e.id} was not reverted: Activity entry ${e.id} is damaged: its patch does not fit its text.`,
    });
  });

  it('a refused revert names the rule that refused it: file permissions, frontmatter that would not parse, a closed folder', async () => {
    const log = new ActivityLog(new MemoryActivityFile(), () => ({ maxMegabytes: 20, maxDays: 30 }));
    const e = log.record(edit('a\nb\n', 'a\nB\n'), AGENT)!;
    /** A vault whose note is still the text after, and whose write throws `err` (as the real producers make it). */
    const refusing = (err: unknown) =>
      new ActivityRevert(
        log,
        {
          writes: {
            currentText: async () => 'a\nB\n',
            noteCreated: async () => 0,
            writeExactText: async () => {
              throw err;
            },
          },
        } as never,
        () => null,
      );
    const eacces = fileSystemRefusal(Object.assign(new Error('EACCES'), { code: 'EACCES' }), "'Note.md'");
    expect((await refusing(eacces).revert(e.id)).message).toBe(
      `${e.id} was not reverted: 'Note.md' is read-only on disk (file permissions or a read-only drive), so it was left as it is. Make it writable, then revert again.`,
    );
    let yaml: unknown;
    try {
      guardFrontmatter('a\n', '---\na: [\n---\n', 'Note.md');
    } catch (err) {
      yaml = err;
    }
    expect((await refusing(yaml).revert(e.id)).message).toBe(
      `${e.id} was not reverted: undoing it on the text 'Note.md' has now would leave frontmatter that does not parse, so it was left as it is. Revert the later changes to 'Note.md' first (newest first), then this one. To undo it by hand, see its diff (activity ${e.id}, or the Agent activity view).`,
    );
    const closed = new ToolError('forbidden', `Path 'Note.md' is in a folder agents may not access; use a path outside it.`, 'closed');
    expect((await refusing(closed).revert(e.id)).message).toBe(
      `${e.id} was not reverted: 'Note.md' is now in a folder closed to agents, so it was left as it is. To undo it by hand, see its diff (activity ${e.id}, or the Agent activity view).`,
    );
  });

  it('"activity <id>" shows a long diff 80 lines at a time, ending with the command that shows the rest', async () => {
    const log = new ActivityLog(new MemoryActivityFile(), () => ({ maxMegabytes: 20, maxDays: 30 }));
    const e = log.record(edit('', Array.from({ length: 100 }, (_, i) => `l${i}\n`).join('')), AGENT)!;
    const target = { activity: log, reverts: {} as never };
    const first = ((await runActivityCommand(target, `activity ${e.id}`)) ?? '').split('\n');
    expect(first).toHaveLength(1 + 80 + 1);
    expect(first[81]).toBe(`  … 21 more lines: activity ${e.id} 81`);
    const rest = ((await runActivityCommand(target, `activity ${e.id} 81`)) ?? '').split('\n');
    expect(rest.slice(1)).toEqual(Array.from({ length: 21 }, (_, i) => `  +l${79 + i}`));
    expect(await runActivityCommand(target, `activity ${e.id} 500`)).toBe(`Entry ${e.id} has 101 diff lines; give a line from 1 to 101.`);
    // However many digits: told the range, not only the usage (newcomer finding).
    expect(await runActivityCommand(target, `activity ${e.id} 99999999999999999999`)).toBe(
      `Entry ${e.id} has 101 diff lines; give a line from 1 to 101.`,
    );
  });

  it('a preview is capped with a line saying how many were left out', () => {
    const { undo } = undoOf(edit('', Array.from({ length: 30 }, (_, i) => `l${i}\n`).join('')));
    expect(diffText({ kind: 'edit', undo } as never, 5).split('\n')).toEqual(['@@ Line 1', '+l0', '+l1', '+l2', '+l3', '… 26 more lines']);
    const two = undoOf(edit('a\nb\nc\nd\ne\n', 'a\nB\nc\nd\ne\nf\n')).undo;
    expect(diffText({ kind: 'edit', undo: two } as never, 20).split('\n')).toEqual(['@@ Line 2', '-b', '+B', '@@ Line 6', '+f']);
  });

  it('after a last line without a line break, the diff shows the lines as they are: no empty line, the right line number', () => {
    const lines = (before: string, after: string): string[] =>
      diffText({ kind: 'edit', undo: undoOf(edit(before, after)).undo } as never, 20).split('\n');
    // append_note "gamma" to `x\nbeta` (no final newline), and its revert.
    expect(lines('x\nbeta', 'x\nbeta\ngamma')).toEqual(['@@ Line 3', '+gamma']);
    expect(lines('x\nbeta\ngamma', 'x\nbeta')).toEqual(['@@ Line 3', '-gamma']);
    expect(lines('alpha', 'alpha\nbeta\n')).toEqual(['@@ Line 2', '+beta']);
    expect(lines('a\nold', 'a\nnew')).toEqual(['@@ Line 2', '-old', '+new']);
    // The final line break alone is said in words, as `show` says it.
    expect(lines('a\nb', 'a\nb\n')).toEqual(['@@ Line 2', '\\ adds the line break at the end of the note']);
    expect(lines('a\nb\n', 'a\nb')).toEqual(['@@ Line 2', '\\ removes the line break at the end of the note']);
    // Entries keeping the whole texts (logs before patch-only undo data, widget files) read the same.
    const whole = { kind: 'edit', undo: { after: 'x\nbeta\ngamma', patch: undoOf(edit('x\nbeta', 'x\nbeta\ngamma')).undo.patch } };
    expect(diffText(whole as never, 20).split('\n')).toEqual(['@@ Line 3', '+gamma']);
  });
});

describe('activity file format', () => {
  it('round-trips entries and refuses a malformed one naming it', () => {
    const log = new ActivityLog(new MemoryActivityFile(), () => ({ maxMegabytes: 20, maxDays: 30 }));
    const e = log.record(edit('a', 'b'), AGENT)!;
    expect(parseActivity(serializeActivity([e]))).toEqual([e]);
    expect(() => parseActivity('[]')).toThrow('no "entries" list');
    expect(() => parseActivity('{"version":2,"entries":[]}')).toThrow('format version 2, expected 1');
    expect(() => parseActivity(serializeActivity([{ ...e, kind: 'zap' as never }]))).toThrow('entry #1: unknown kind "zap"');
    expect(() => parseActivity(serializeActivity([{ ...e, at: 'yesterday' }]))).toThrow('entry #1: "at" must be a time');
    expect(() => parseActivity(serializeActivity([{ ...e, kind: 'move' }]))).toThrow('entry #1: a move needs "from"');
    expect(() => parseActivity(serializeActivity([{ ...e, undo: { after: 5 as never } }]))).toThrow(
      'entry #1: "undo.after" must be a string',
    );
    expect(() => parseActivity(serializeActivity([{ ...e, undo: { after: 'x', patch: [{ from: 0, to: 'z' }] as never } }]))).toThrow(
      'entry #1: "undo.patch" must be a list of {from, to, inserted, removed?, pre?, post?, line?, unique?}',
    );
  });
});

describe("a widget entry keeps the widget's writer before the change", () => {
  it('logs it (a key, or null for none), reads it back after a restart, and refuses a damaged one', async () => {
    const file = new MemoryActivityFile();
    const log = new ActivityLog(file, () => ({ maxMegabytes: 20, maxDays: 30 }));
    await log.load();
    const writer = { key_id: 'kb', key_label: 'KeyB', written_at: '2026-12-06T07:00:00.000Z', hash: 'ab' };
    const base = { kind: 'widget', tool: 'widget_write', path: 'Widgets/board.html', before: 'old', after: 'new' } as const;
    log.record({ ...base, writerBefore: writer }, AGENT);
    log.record({ ...base, path: 'Widgets/mine.html', writerBefore: null }, AGENT);
    await log.whenSaved();
    const [board, mine] = parseActivity(file.text ?? '');
    expect(board!.writer_before).toEqual(writer);
    expect(mine!.writer_before).toBeNull();
    // A writer that is not {key_id, key_label, written_at} or null makes the file damaged, never read as "no writer".
    for (const bad of ['"KeyB"', '{"key_id":"kb"}', '[]'])
      expect(() => parseActivity((file.text ?? '').replace('"writer_before":null', `"writer_before":${bad}`))).toThrow(
        /"writer_before" must be null or \{key_id, key_label, written_at\}/,
      );
  });
});
