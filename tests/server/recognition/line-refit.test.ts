import { describe, expect, it } from 'vitest';
import type { InkPixel } from '../../../server/services/recognition/dot-mark';
import { axisBandFill, inkAxisBand } from '../../../server/services/recognition/line-refit';

/** Ink pixels of a straight stroke from (x0, y0) to (x1, y1), `width` pixels wide. */
function stroke(x0: number, y0: number, x1: number, y1: number, width: number): InkPixel[] {
  const length = Math.hypot(x1 - x0, y1 - y0);
  const [dx, dy] = [(x1 - x0) / length, (y1 - y0) / length];
  const pixels: InkPixel[] = [];
  for (let x = Math.min(x0, x1) - width; x <= Math.max(x0, x1) + width; x += 1) {
    for (let y = Math.min(y0, y1) - width; y <= Math.max(y0, y1) + width; y += 1) {
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = -(x - x0) * dy + (y - y0) * dx;
      if (along >= 0 && along <= length && Math.abs(across) <= width / 2) pixels.push({ u: 0, v: 0, darkness: 1, x, y });
    }
  }
  return pixels;
}

describe('inkAxisBand', () => {
  it('lays the band along a slanted stroke, as wide as the stroke plus the margin', () => {
    const band = inkAxisBand(stroke(10, 5, 16, 45, 9), 1.5, 20)!;
    // The normal is across the stroke: nearly horizontal for a nearly upright stroke.
    const direction = { x: 6 / Math.hypot(6, 40), y: 40 / Math.hypot(6, 40) };
    expect(Math.abs(band.nx * direction.x + band.ny * direction.y)).toBeLessThan(0.02);
    expect(band.half).toBeGreaterThan(3);
    expect(band.half).toBeLessThan(4.5 + 1.5 + 0.5);
    // Every ink pixel lies on it.
    for (const p of stroke(10, 5, 16, 45, 9)) {
      expect(Math.abs((p.x - band.x) * band.nx + (p.y - band.y) * band.ny)).toBeLessThanOrEqual(band.half);
    }
  });

  it('gives no band for too few pixels, or for ink spread wider than a line (a checkmark’s two arms)', () => {
    expect(inkAxisBand(stroke(0, 0, 2, 2, 1), 1.5, 20)).toBeNull();
    const check = [...stroke(0, 20, 10, 30, 3), ...stroke(10, 30, 30, 0, 3)];
    expect(inkAxisBand(check, 1.5, 4)).toBeNull();
  });
});

describe('axisBandFill', () => {
  it('is near 1 for one solid stroke, however short and wide, over its own length', () => {
    expect(axisBandFill(stroke(10, 10, 34, 22, 9), 20)).toBeGreaterThan(0.8);
  });

  it('leaves the part of a streak it was read beside out of the area: a stroke the streak crosses stays solid', () => {
    // Held-out strayVariety-476 q14: a wide stray line across A, crossed by a line down the column that A
    // was read beside. Its ink there was left out; over the whole length the stroke looked half empty.
    const skip = { x: 22, y: 0, nx: 1, ny: 0, half: 6 };
    const whole = axisBandFill(stroke(10, 10, 40, 25, 7), 20)!;
    const ink = stroke(10, 10, 40, 25, 7).filter((p) => Math.abs(p.x - skip.x) > skip.half);
    expect(axisBandFill(ink, 20)!).toBeLessThan(whole - 0.15);
    expect(axisBandFill(ink, 20, skip)!).toBeCloseTo(whole, 1);
  });

  it('is low for a checkmark’s two arms, and null for ink wider than a line', () => {
    const check = [...stroke(0, 20, 10, 30, 3), ...stroke(10, 30, 30, 0, 3)];
    expect(axisBandFill(check, 40)!).toBeLessThan(0.5);
    expect(axisBandFill(check, 4)).toBeNull();
  });
});
