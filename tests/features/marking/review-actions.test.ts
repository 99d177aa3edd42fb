import { describe, expect, it } from 'vitest';
import { reviewActionsFor } from '../../../src/features/marking/review-actions';
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
