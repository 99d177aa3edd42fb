import { describe, expect, it } from 'vitest';
import { groupBy } from '../../../src/shared/lib/group-by';

const questions = [
  { id: 1, type: 'single', score: 2 },
  { id: 2, type: 'blank', score: 4 },
  { id: 3, type: 'single', score: 2 },
];

describe('groupBy', () => {
  it('groups by a property name, keeping the items in their order', () => {
    expect(groupBy(questions, 'type')).toEqual({
      single: [questions[0], questions[2]],
      blank: [questions[1]],
    });
  });

  it('groups by a key function', () => {
    expect(groupBy(questions, (question) => (question.score > 2 ? 'high' : 'low'))).toEqual({
      low: [questions[0], questions[2]],
      high: [questions[1]],
    });
  });

  it('answers an empty object for an empty list', () => {
    expect(groupBy([] as typeof questions, 'type')).toEqual({});
  });
});
