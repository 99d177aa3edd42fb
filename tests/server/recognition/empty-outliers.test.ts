import { describe, expect, it } from 'vitest';
import { emptyOutlierCap, OUTLIER_CONFIDENCE } from '../../../server/services/recognition/empty-outliers';

describe('emptyOutlierCap', () => {
  it('doubts an empty bubble far outside the empty ones and not far under the lightest mark', () => {
    // The held-out gamma page: empty spread 0.004, lightest mark rising 0.112; two true/false answers at 0.047 and 0.071.
    const cap = emptyOutlierCap(0.0043, [0.112, 0.4, 0.5]);
    expect(cap(0.047, false)).toBe(OUTLIER_CONFIDENCE);
    expect(cap(0.071, false)).toBe(OUTLIER_CONFIDENCE);
    // Near the empty level, or under a third of the lightest mark: empty.
    expect(cap(0.02, false)).toBe(1);
    expect(cap(0.035, false)).toBe(1);
  });

  it('leaves a degraded scan’s smudges alone: far under its marks, or within its wider empty spread', () => {
    // A degraded scan: marks rising 0.37 and more; empty bubbles up to 0.11 above their level.
    expect(emptyOutlierCap(0.009, [0.372, 0.6])(0.098, false)).toBe(1);
    // The same rise on a page whose empty bubbles spread 0.012 is within eight spreads.
    expect(emptyOutlierCap(0.012, [0.2])(0.09, false)).toBe(1);
    // Specks of dust on a very clean scan: under the least rise.
    expect(emptyOutlierCap(0.001, [0.05])(0.025, false)).toBe(1);
  });

  it('doubts a bubble with light strokes from fewer spreads, whatever the lightest mark', () => {
    // gammaContrast-182 q11 D (truth D, read empty at 0.624): a light tick rising 0.059, empty spread 0.0086, lightest mark 0.17.
    const cap = emptyOutlierCap(0.0086, [0.171, 0.4]);
    expect(cap(0.059, true)).toBe(OUTLIER_CONFIDENCE);
    expect(cap(0.059, false)).toBe(1);
    // Within four spreads, or under the least rise: empty.
    expect(cap(0.033, true)).toBe(1);
    expect(emptyOutlierCap(0.002, [0.4])(0.025, true)).toBe(1);
  });

  it('has nothing to compare with on a page with no mark, but for a bubble with light strokes', () => {
    expect(emptyOutlierCap(0.001, [])(0.2, false)).toBe(1);
    expect(emptyOutlierCap(0.001, [])(0.2, true)).toBe(OUTLIER_CONFIDENCE);
  });
});
