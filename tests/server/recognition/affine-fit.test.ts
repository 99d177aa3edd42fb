import { describe, expect, it } from 'vitest';
import {
  affineShape,
  applyAffine,
  fitAffine,
  fitResidual,
  fitSimilarity,
  invertAffine,
  type PointPair,
} from '../../../server/services/recognition/affine-fit';
import type { AffineTransform } from '../../../src/shared/contract/recognition';

/** 300 dpi, rotated by `deg`, shifted. */
function scan(deg: number, scale = 1): AffineTransform {
  const k = (300 / 25.4) * scale;
  const r = (deg * Math.PI) / 180;
  return { a: k * Math.cos(r), b: k * Math.sin(r), c: -k * Math.sin(r), d: k * Math.cos(r), e: 40, f: -25 };
}

const corners = [
  { x: 11, y: 11 },
  { x: 199, y: 11 },
  { x: 11, y: 286 },
  { x: 199, y: 286 },
];
const pairs = (t: AffineTransform, points = corners): PointPair[] =>
  points.map((from) => ({ from, to: applyAffine(t, from.x, from.y) }));

describe('fitAffine', () => {
  it('recovers the transform from four exact points, with no residual', () => {
    const truth = scan(2.5, 0.98);
    const fit = fitAffine(pairs(truth))!;
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f'] as const) expect(fit[key]).toBeCloseTo(truth[key], 6);
    expect(fitResidual(fit, pairs(truth))).toBeLessThan(1e-6);
  });

  it('shows a misplaced point as residual', () => {
    const moved = pairs(scan(0));
    moved[3] = { ...moved[3]!, to: { x: moved[3]!.to.x + 20, y: moved[3]!.to.y } };
    // 20 px off on one of four points: the least-squares fit spreads it, RMS 5 px per point.
    expect(fitResidual(fitAffine(moved)!, moved)).toBeCloseTo(5, 0);
  });

  it('needs three points not on a line', () => {
    expect(fitAffine(pairs(scan(0)).slice(0, 2))).toBeNull();
    const line = [0, 1, 2].map((i) => ({ from: { x: i, y: i }, to: { x: 2 * i, y: 2 * i } }));
    expect(fitAffine(line)).toBeNull();
  });
});

describe('invertAffine', () => {
  it('undoes the transform', () => {
    const t = scan(-1.2, 1.02);
    const back = invertAffine(t);
    const p = applyAffine(t, 105, 148.5);
    const q = applyAffine(back, p.x, p.y);
    expect(q.x).toBeCloseTo(105, 9);
    expect(q.y).toBeCloseTo(148.5, 9);
  });
});

describe('fitSimilarity', () => {
  it('recovers rotation, scale and shift from two points', () => {
    const truth = scan(3, 1.03);
    const [first, , , last] = pairs(truth);
    const fit = fitSimilarity(first!, last!)!;
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f'] as const) expect(fit[key]).toBeCloseTo(truth[key], 6);
  });

  it('recovers a half turn', () => {
    const turned = { ...scan(0), a: -300 / 25.4, d: -300 / 25.4, e: 2480, f: 3507 };
    const [first, second] = pairs(turned);
    expect(affineShape(fitSimilarity(first!, second!)!, true).skewDeg).toBeCloseTo(0, 6);
  });
});

describe('affineShape', () => {
  it('reports scale, skew and no shear for a rotation', () => {
    const shape = affineShape(scan(-2, 0.97), false);
    expect(shape.pxPerMm).toBeCloseTo((300 / 25.4) * 0.97, 6);
    expect(shape.skewDeg).toBeCloseTo(-2, 6);
    expect(shape.shearDeg).toBeCloseTo(0, 6);
    expect(shape.aspect).toBeCloseTo(1, 6);
  });

  it('takes the half turn out of the skew of an upside-down page', () => {
    const t = scan(181.5);
    expect(affineShape(t, true).skewDeg).toBeCloseTo(1.5, 6);
  });

  it('reports a stretched axis and shear', () => {
    const shape = affineShape({ a: 12, b: 0, c: 0.5, d: 12.6, e: 0, f: 0 }, false);
    expect(shape.aspect).toBeCloseTo(12 / Math.hypot(0.5, 12.6), 6);
    expect(shape.shearDeg).toBeGreaterThan(2);
  });
});
