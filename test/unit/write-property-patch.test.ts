import { patchFrontmatterText } from '../../src/vault/writes/property-patch';
import { errorOf } from '../harness/tool-errors';

describe('patchFrontmatterText', () => {
  test('rewrites only the patched keys; untouched lines, comments and order stay; the body is kept', () => {
    const text = '---\n# comment\ndue: 2026-03-31\ntags: [a, b]\nowner: Ana\n---\n# Body\n';
    const out = patchFrontmatterText(text, { owner: null, tags: 'c', priority: 2 }, 'N.md');
    expect(out.text).toBe('---\n# comment\ndue: 2026-03-31\ntags:\n  - c\npriority: 2\n---\n# Body\n');
    expect(out.lines).toEqual({ start: 1, end: 7 });
  });

  test('a note without frontmatter gets a block; deleting every key removes it; CRLF and BOM stay', () => {
    const added = patchFrontmatterText('\uFEFFline one\r\nline two\r\n', { status: 'draft' }, 'N.md');
    expect(added.text).toBe('\uFEFF---\r\nstatus: draft\r\n---\r\nline one\r\nline two\r\n');
    const removed = patchFrontmatterText(added.text, { status: null }, 'N.md');
    expect(removed).toEqual({ text: '\uFEFFline one\r\nline two\r\n' });
  });

  test('new keys are added in the patch order whether or not the note had frontmatter (issue 12.11)', () => {
    const patch = { zeta: 1, alpha: 2 };
    expect(patchFrontmatterText('body\n', patch, 'N.md').text).toBe('---\nzeta: 1\nalpha: 2\n---\nbody\n');
    expect(patchFrontmatterText('---\nk: v\n---\nbody\n', patch, 'N.md').text).toBe('---\nk: v\nzeta: 1\nalpha: 2\n---\nbody\n');
    expect(patchFrontmatterText('---\n---\nbody\n', patch, 'N.md').text).toBe('---\nzeta: 1\nalpha: 2\n---\nbody\n');
  });

  test('a patch that changes nothing returns the very same text', () => {
    const text = '---\ncount:   3   # odd spacing\n---\nbody\n';
    expect(patchFrontmatterText(text, { count: 3, missing: null }, 'N.md').text).toBe(text);
  });

  test('refuses frontmatter that does not parse or is not a mapping, naming the note', () => {
    const broken = errorOf(() => patchFrontmatterText('---\ntitle: [unclosed\n---\nbody\n', { x: 1 }, 'Broken.md'));
    expect(broken.code).toBe('invalid_argument');
    expect(broken.message).toMatch(/frontmatter of 'Broken.md' does not parse as YAML/);
    expect(errorOf(() => patchFrontmatterText('---\n- a\n- b\n---\n', { x: 1 }, 'List.md')).code).toBe('invalid_argument');
  });
});
