import { describe, expect, it } from 'vitest';
import { emptyOutlierCap, OUTLIER_CONFIDENCE } from '../../../server/services/recognition/empty-outliers';

describe('emptyOutlierCap', () => {
  it('doubts an empty bubble far outside the empty ones and not far under the lightest mark', () => {
    // The held-out gamma page: empty spread 0.004, lightest mark rising 0.112; two true/false answers at 0.047 and 0.071.
    const cap = emptyOutlierCap(0.0043, [0.112, 0.4, 0.5]);
    expect(cap(0.047)).toBe(OUTLIER_CONFIDENCE);
    expect(cap(0.071)).toBe(OUTLIER_CONFIDENCE);
    // Near the empty level, or under a third of the lightest mark: empty.
    expect(cap(0.02)).toBe(1);
    expect(cap(0.035)).toBe(1);
  });

  it('leaves a degraded scan’s smudges alone: far under its marks, or within its wider empty spread', () => {
    // A degraded scan: marks rising 0.37 and more; empty bubbles up to 0.11 above their level.
    expect(emptyOutlierCap(0.009, [0.372, 0.6])(0.098)).toBe(1);
    // The same rise on a page whose empty bubbles spread 0.012 is within eight spreads.
    expect(emptyOutlierCap(0.012, [0.2])(0.09)).toBe(1);
    // Specks of dust on a very clean scan: under the least rise.
    expect(emptyOutlierCap(0.001, [0.05])(0.025)).toBe(1);
  });

  it('has nothing to compare with on a page with no mark', () => {
    expect(emptyOutlierCap(0.001, [])(0.2)).toBe(1);
  });
});
