import { Text } from '@codemirror/state';
import type { ReviewHunk } from '../../../src/proposals/types';
import {
  canApply,
  hunkAtPosition,
  hunkInDirection,
  hunksConflict,
  hunksToAcceptTogether,
  sameHunk,
} from '../../../src/editor/hunk-selection';

const DOC = Text.of(['# Plan', 'alpha', 'beta', 'gamma', '']);

/** A hunk on DOC: `removed` is taken from the document at [from, to). */
function hunk(proposalId: string, index: number, from: number, to: number, inserted: string, stale = false): ReviewHunk {
  return { proposalId, index, from, to, removed: DOC.sliceString(from, to), inserted, keyLabel: 'Claude Code', stale };
}

const beta = hunk('p1', 0, 13, 18, 'BETA\n');
const insertBeforeGamma = hunk('p2', 0, 18, 18, 'new\n');
const gamma = hunk('p1', 1, 18, 24, '');

describe('hunk selection', () => {
  test('sameHunk compares proposal and index only; hunksConflict is overlap, or two insertions at one point', () => {
    expect(sameHunk(beta, { ...beta, from: 99 })).toBe(true);
    expect(sameHunk(beta, gamma)).toBe(false);
    expect(hunksConflict(beta, gamma)).toBe(false);
    expect(hunksConflict(beta, hunk('p3', 0, 15, 20, 'x'))).toBe(true);
    expect(hunksConflict(insertBeforeGamma, hunk('p3', 0, 18, 18, 'y'))).toBe(true);
    expect(hunksConflict(insertBeforeGamma, gamma)).toBe(false);
  });

  test('canApply refuses a stale hunk, one whose text changed, one past the end of the document', () => {
    expect(canApply(DOC, beta)).toBe(true);
    expect(canApply(DOC, { ...beta, stale: true })).toBe(false);
    expect(canApply(DOC, { ...beta, removed: 'other\n' })).toBe(false);
    expect(canApply(DOC, { ...beta, from: DOC.length + 1, to: DOC.length + 5 })).toBe(false);
  });

  test('hunkAtPosition finds the hunk on the line of a position, an insertion on the line it precedes, none elsewhere', () => {
    const hunks = [beta, insertBeforeGamma, gamma];
    expect(hunkAtPosition(hunks, DOC, 15)).toBe(beta);
    expect(hunkAtPosition(hunks, DOC, 20)).toBe(insertBeforeGamma);
    expect(hunkAtPosition(hunks, DOC, 2)).toBeNull();
    expect(hunkAtPosition([], DOC, 15)).toBeNull();
  });

  test('hunksToAcceptTogether takes the applicable ones last-first and leaves stale and conflicting ones', () => {
    const rival = hunk('p3', 0, 14, 16, 'xx');
    expect(hunksToAcceptTogether([beta, rival, insertBeforeGamma, { ...gamma, stale: true }], DOC)).toEqual([insertBeforeGamma, rival]);
    expect(hunksToAcceptTogether([], DOC)).toEqual([]);
  });

  test('hunkInDirection moves forward and backward and wraps around; null without hunks', () => {
    const hunks = [beta, gamma];
    expect(hunkInDirection(hunks, 0, 1)).toBe(beta);
    expect(hunkInDirection(hunks, 13, 1)).toBe(gamma);
    expect(hunkInDirection(hunks, 18, 1)).toBe(beta);
    expect(hunkInDirection(hunks, 30, -1)).toBe(gamma);
    expect(hunkInDirection(hunks, 18, -1)).toBe(beta);
    expect(hunkInDirection(hunks, 13, -1)).toBe(gamma);
    expect(hunkInDirection([], 5, 1)).toBeNull();
    expect(hunkInDirection([], 5, -1)).toBeNull();
  });
});
