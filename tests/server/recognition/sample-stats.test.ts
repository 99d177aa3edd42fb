import { describe, expect, it } from 'vitest';
import { median, quantile } from '../../../server/services/recognition/sample-stats';

describe('sample-stats', () => {
  it('takes the value at floor(q × n) of the sorted values, the largest for q = 1', () => {
    const values = [9, 1, 7, 3, 5];
    expect(quantile(values, 0)).toBe(1);
    expect(quantile(values, 0.25)).toBe(3);
    expect(quantile(values, 0.9)).toBe(9);
    expect(quantile(values, 1)).toBe(9);
    expect(values).toEqual([9, 1, 7, 3, 5]);
  });

  it('reads the upper median of an even count, and 0 with no values', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([2])).toBe(2);
    expect(median([])).toBe(0);
    expect(quantile([], 0.5)).toBe(0);
  });
});
