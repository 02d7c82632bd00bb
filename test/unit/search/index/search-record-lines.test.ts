import { documentsOf, loadRecordLine } from '../../../../src/search/engine/record-lines';
import { TermIndex } from '../../../../src/search/engine/term-index';
import { FIELD_COUNT } from '../../../../src/search/engine/text/note-fields';
import type { NoteRecord } from '../../../../src/search/query/note-filters';

describe('saved note records', () => {
  it('load as saved, a synthetic id and a frontmatter title equal to the title kept as one string with the path or title', () => {
    const saved: NoteRecord[] = [
      { path: 'A/Alpha.md', id: 'path:A/Alpha.md', title: 'Alpha', tags: ['x'], frontmatter: { title: 'Alpha', n: 1 } },
      { path: 'B.md', id: 'path:A/B.md', title: 'Bee', tags: [], frontmatter: { title: 'Other' } },
      { path: 'C.md', id: 'c-1', title: 'C', tags: [], frontmatter: {} },
      { path: 'D.md', id: 'xpath:D.md', title: 'D', tags: [], frontmatter: undefined as never },
    ];
    const into = new Map<string, NoteRecord>();
    loadRecordLine(JSON.parse(JSON.stringify(saved)), into);
    expect([...into.values()]).toEqual(saved.map((r) => ({ ...r, frontmatter: r.frontmatter ?? {} })));
  });

  it('refuse a record without its fields', () => {
    expect(() => loadRecordLine([{ path: 'A.md', id: 'a', title: 'A' }], new Map())).toThrow('malformed note record');
    expect(() => loadRecordLine({ path: 'A.md' }, new Map())).toThrow('malformed record line');
  });

  it('match every document to one record, pausing between steps of documents', async () => {
    const index = new TermIndex();
    const records = new Map<string, NoteRecord>();
    for (let i = 0; i < 4500; i++) {
      const path = `N${i}.md`;
      index.add(
        path,
        Array.from({ length: FIELD_COUNT }, () => 'word'),
      );
      records.set(path, { path, id: path, title: path, tags: [], frontmatter: {} });
    }
    let pauses = 0;
    const docs = await documentsOf(index, records, async () => {
      pauses++;
    });
    expect(docs.size).toBe(4500);
    expect(docs.get('N4499.md')).toBe(4499);
    expect(pauses).toBe(2);
    records.delete('N7.md');
    await expect(documentsOf(index, records, async () => undefined)).rejects.toThrow('records and documents disagree');
  });
});
