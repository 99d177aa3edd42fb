import { describe, expect, it } from 'vitest';
import { decide, type RoundMark } from '../../../server/services/marking/double-marking';

const mark = (round: number, score: number | null, problem = false): RoundMark => ({ round, score, problem });

describe('single marking', () => {
  it('takes the one mark as final', () => {
    expect(decide([mark(1, null)], false, 0)).toEqual({ rounds: [1], final: null, arbitration: false });
    expect(decide([mark(1, 7)], false, 0)).toEqual({ rounds: [1], final: 7, arbitration: false });
  });

  it('sends a problem paper to the owner', () => {
    expect(decide([mark(1, 0, true)], false, 0)).toEqual({ rounds: [1, 4], final: null, arbitration: true });
    expect(decide([mark(1, 0, true), mark(4, 5)], false, 0)).toEqual({ rounds: [1, 4], final: 5, arbitration: true });
  });

  it('ignores surplus rounds left from double marking', () => {
    expect(decide([mark(1, 6), mark(2, 2)], false, 0).final).toBe(6);
  });
});

describe('double marking', () => {
  it('waits for two marks', () => {
    expect(decide([mark(1, 5)], true, 2)).toEqual({ rounds: [1, 2], final: null, arbitration: false });
  });

  it('takes the mean of two marks within the tolerance (inclusive)', () => {
    expect(decide([mark(1, 5), mark(2, 7)], true, 2)).toEqual({ rounds: [1, 2], final: 6, arbitration: false });
    expect(decide([mark(1, 0.3), mark(2, 0.1)], true, 0.2).final).toBe(0.2);
  });

  it('asks for a third mark beyond the tolerance, which decides with the mark it agrees with', () => {
    expect(decide([mark(1, 2), mark(2, 8)], true, 2)).toEqual({ rounds: [1, 2, 3], final: null, arbitration: false });
    expect(decide([mark(1, 2), mark(2, 8), mark(3, 7)], true, 2)).toEqual({ rounds: [1, 2, 3], final: 7.5, arbitration: false });
    expect(decide([mark(1, 2), mark(2, 8), mark(3, 3)], true, 2).final).toBe(2.5);
  });

  it('pairs the third mark with the closer one when it agrees with both', () => {
    expect(decide([mark(1, 4), mark(2, 7)], true, 2).final).toBeNull();
    expect(decide([mark(1, 4), mark(2, 7), mark(3, 6)], true, 2).final).toBe(6.5);
  });

  it("sends the answer to arbitration when the third agrees with neither, and takes the arbiter's score", () => {
    expect(decide([mark(1, 0), mark(2, 10), mark(3, 5)], true, 2)).toEqual({
      rounds: [1, 2, 3, 4],
      final: null,
      arbitration: true,
    });
    expect(decide([mark(1, 0), mark(2, 10), mark(3, 5), mark(4, 6)], true, 2).final).toBe(6);
  });

  it('drops the third marking when a changed mark brings the first two together', () => {
    expect(decide([mark(1, 2), mark(2, 3), mark(3, 7)], true, 2)).toEqual({ rounds: [1, 2], final: 2.5, arbitration: false });
  });

  it('goes straight to arbitration when no teacher is left for a third marking', () => {
    expect(decide([mark(1, 2), mark(2, 8)], true, 2, false)).toEqual({ rounds: [1, 2, 4], final: null, arbitration: true });
    expect(decide([mark(1, 2), mark(2, 8), mark(4, 5)], true, 2, false).final).toBe(5);
    expect(decide([mark(1, 2), mark(2, 3)], true, 2, false).final).toBe(2.5);
  });

  it('sends a problem paper to the owner', () => {
    expect(decide([mark(1, 4, true), mark(2, 4)], true, 2)).toEqual({ rounds: [1, 2, 4], final: null, arbitration: true });
  });
});
