import { describe, expect, it } from 'vitest';
import { reviewActionsFor, toggleSelection } from '../../../src/features/marking/review-actions';
import { RECOGNITION_PROBLEM_KINDS } from '../../../src/shared/contract/recognition';

const reading = { questionNo: 5, fills: [{ label: 'A', fill: 0.9 }], marked: ['A'], confidence: 0.4 };

describe('review actions', () => {
  it('offers at least one fix for every kind of problem', () => {
    for (const kind of RECOGNITION_PROBLEM_KINDS) expect(reviewActionsFor({ kind, reading: null }).length).toBeGreaterThan(0);
  });

  it('offers a bubble correction only with the reading it corrects', () => {
    expect(reviewActionsFor({ kind: 'multipleMarks', reading })).toContain('setAnswer');
    expect(reviewActionsFor({ kind: 'multipleMarks', reading: null })).not.toContain('setAnswer');
  });

  it('lets a page of unknown owner be given to a student', () => {
    expect(reviewActionsFor({ kind: 'unknownStudent', reading: null })).toContain('assignStudent');
    expect(reviewActionsFor({ kind: 'qrUnreadable', reading: null })).toContain('assignStudent');
  });

  it('offers only what the server says it will take (no 确认 for a sheet of a homework outside the school)', () => {
    expect(reviewActionsFor({ kind: 'otherHomework', reading: null, actions: ['discard'] })).toEqual(['discard']);
    expect(reviewActionsFor({ kind: 'otherHomework', reading: null })).toEqual(['accept', 'discard']);
  });
});

describe('selecting review items', () => {
  const order = [10, 11, 12, 13, 14];

  it('toggles one item on a plain click', () => {
    expect([...toggleSelection(order, new Set([10]), 10, 13, true, false)]).toEqual([10, 13]);
    expect([...toggleSelection(order, new Set([10, 13]), 10, 13, false, false)]).toEqual([10]);
  });

  it('sets the range from the last clicked item on a shift-click, in either direction', () => {
    expect([...toggleSelection(order, new Set([11]), 11, 13, true, true)].sort()).toEqual([11, 12, 13]);
    expect([...toggleSelection(order, new Set(order), 13, 11, false, true)].sort()).toEqual([10, 14]);
    // Without a last click a shift-click selects just the one.
    expect([...toggleSelection(order, new Set(), null, 12, true, true)]).toEqual([12]);
  });
});
