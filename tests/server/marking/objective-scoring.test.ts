import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTIAL_CREDIT } from '../../../src/shared/contract/marking';
import { answerKeyLabels, isManual, scoreObjective } from '../../../server/services/marking/objective-scoring';

describe('answer keys as bubble labels', () => {
  it("maps the bank's 对/错 judge answers to T/F and keeps choice letters", () => {
    expect(answerKeyLabels('judge', ['对'])).toEqual(['T']);
    expect(answerKeyLabels('judge', ['错'])).toEqual(['F']);
    expect(answerKeyLabels('judge', ['正确'])).toEqual(['T']);
    expect(answerKeyLabels('single', ['B'])).toEqual(['B']);
    expect(answerKeyLabels('multiple', ['C', 'a'])).toEqual(['A', 'C']);
  });

  it('has no key for manual questions or unreadable answers', () => {
    expect(answerKeyLabels('blank', ['42'])).toEqual([]);
    expect(answerKeyLabels('judge', ['也许'])).toEqual([]);
    expect(isManual('blank')).toBe(true);
    expect(isManual('subjective')).toBe(true);
    expect(isManual('multiple')).toBe(false);
  });
});

describe('objective scores', () => {
  const share = DEFAULT_PARTIAL_CREDIT;

  it('gives single choice and judge questions all or nothing', () => {
    expect(scoreObjective('single', ['B'], ['B'], 3, share)).toBe(3);
    expect(scoreObjective('single', ['B'], ['A'], 3, share)).toBe(0);
    expect(scoreObjective('single', ['B'], ['A', 'B'], 3, share)).toBe(0);
    expect(scoreObjective('judge', ['T'], ['T'], 2, share)).toBe(2);
    expect(scoreObjective('judge', ['T'], [], 2, share)).toBe(0);
  });

  it('gives multiple choice full marks, the partial share for a correct subset, and 0 for anything wrong', () => {
    expect(scoreObjective('multiple', ['A', 'C'], ['C', 'A'], 4, share)).toBe(4);
    expect(scoreObjective('multiple', ['A', 'C'], ['A'], 4, share)).toBe(2);
    expect(scoreObjective('multiple', ['A', 'C', 'D'], ['A', 'D'], 3, share)).toBe(1.5);
    expect(scoreObjective('multiple', ['A', 'C'], ['A', 'B'], 4, share)).toBe(0);
    expect(scoreObjective('multiple', ['A', 'C'], ['A', 'B', 'C'], 4, share)).toBe(0);
    expect(scoreObjective('multiple', ['A', 'C'], [], 4, share)).toBe(0);
  });

  it('uses the configured share', () => {
    expect(scoreObjective('multiple', ['A', 'C'], ['A'], 5, 0.4)).toBe(2);
    expect(scoreObjective('multiple', ['A', 'B', 'C'], ['B'], 5, 1 / 3)).toBe(1.67);
    expect(scoreObjective('multiple', ['A', 'C'], ['A'], 5, 0)).toBe(0);
  });

  it('scores nothing against a missing key', () => {
    expect(scoreObjective('single', [], ['A'], 3, share)).toBe(0);
  });
});
