import { BM25F, fieldFrequency, lengthNormalizers } from '../../../../src/search/engine/ranked/bm25';
import { boundList, roundUp } from '../../../../src/search/engine/postings/block-bounds';
import { peakLevel, WINDOW_DOCS } from '../../../../src/search/engine/postings/dense-terms';
import { FIELD_BOOSTS, FIELD_COUNT } from '../../../../src/search/engine/text/note-fields';
import { postingField, postingFrequency } from '../../../../src/search/engine/postings/posting-codec';
import type { PostingLists } from '../../../../src/search/engine/postings/posting-lists';
import { TermIndex } from '../../../../src/search/engine/term-index';

/**
 * block-bounds.ts's boundList reads a list's bytes in one loop of its own (no cursor, no call
 * per posting). Held here to the definition, computed the plain way over a PostingCursor with
 * bm25.ts's fieldFrequency: each block's largest pseudo-frequency rounded up, the documents
 * counted, and for a dense list each holder's bit and each window's largest value as a peak level.
 */

const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta'];

/** An index of `size` documents with random words in random fields: common and rare words, some repeated enough for two-byte codes, gaps of more than 127 doc ids in the rare ones' lists. */
function randomIndex(seed: number, size: number): TermIndex {
  let s = seed;
  const random = (): number => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const index = new TermIndex();
  for (let doc = 0; doc < size; doc++) {
    const fields = Array.from({ length: FIELD_COUNT }, () => '');
    for (let k = Math.floor(random() * 40); k > 0; k--) {
      const f = Math.floor(random() * random() * FIELD_COUNT);
      fields[f] += ` ${words[Math.floor(random() * random() * words.length)]}`;
    }
    if (random() < 0.05) fields[0] += ' rare';
    if (random() < 0.1) fields[1] += ' repeated'.repeat(20);
    index.add(`N${doc}.md`, fields);
  }
  return index;
}

/** The bounds, document count, bits and peaks of term `id`'s list by the definition (see the comment at the top). */
function reference(index: TermIndex, id: number, norm: Float64Array, docs: number) {
  const { cursor, blocks, skips } = index.blockWalk(id);
  const fieldLen = index.fieldLengths();
  const values = new Float32Array(blocks);
  const bits = new Uint32Array((docs + 31) >>> 5);
  const windows = new Float64Array(Math.ceil(docs / WINDOW_DOCS));
  const x = new Map<number, { block: number; x: number }>();
  for (let at = cursor.at; cursor.next(); at = cursor.at) {
    let block = 0;
    while (block + 1 < blocks && skips[2 * block + 1] <= at) block++;
    const f = postingField(cursor.code);
    const share = fieldFrequency(FIELD_BOOSTS[f], postingFrequency(cursor.code), norm[f], fieldLen[cursor.doc * FIELD_COUNT + f], BM25F);
    const sum = x.get(cursor.doc) ?? { block, x: 0 };
    x.set(cursor.doc, { block: sum.block, x: sum.x + share });
  }
  const blockMax = new Float64Array(blocks);
  for (const [doc, { block, x: value }] of x) {
    blockMax[block] = Math.max(blockMax[block], value);
    bits[doc >>> 5] |= 1 << (doc & 31);
    windows[(doc / WINDOW_DOCS) | 0] = Math.max(windows[(doc / WINDOW_DOCS) | 0], value);
  }
  blockMax.forEach((m, k) => (values[k] = roundUp(m)));
  return { values, docs: x.size, bits, peaks: Uint8Array.from(windows, peakLevel) };
}

describe('block bounds made in one pass over a list (boundList)', () => {
  it('equals the definition for every list: block bounds, documents, holder bits and window peaks', () => {
    for (let seed = 1; seed <= 3; seed++) {
      const index = randomIndex(seed, 700 + seed * 300);
      const docs = index.documentCount;
      const fieldLen = index.fieldLengths();
      const total = new Float64Array(FIELD_COUNT);
      for (let doc = 0; doc < docs; doc++) for (let f = 0; f < FIELD_COUNT; f++) total[f] += fieldLen[doc * FIELD_COUNT + f];
      const norm = lengthNormalizers(total, docs, BM25F);
      const post = (index as unknown as { post: PostingLists }).post;
      let multiBlock = 0;
      for (let id = 0; id < index.dict.size; id++) {
        const { blocks, skips } = index.blockWalk(id);
        if (blocks === 0) continue;
        const want = reference(index, id, norm, docs);
        const made = boundList(post.listBytes(id), skips, blocks, fieldLen, norm, docs);
        expect([index.dict.term(id), made.docs]).toEqual([index.dict.term(id), want.docs]);
        expect(made.values).toEqual(want.values);
        expect(made.dense?.bits).toEqual(want.bits);
        expect(made.dense?.peaks).toEqual(want.peaks);
        expect(boundList(post.listBytes(id), skips, blocks, fieldLen, norm, 0).dense).toBeNull();
        if (blocks > 2) multiBlock++;
      }
      // Lists of several blocks were among them (else the block boundaries went untested).
      expect(multiBlock).toBeGreaterThan(3);
    }
  });
});
