import { describe, expect, it } from 'vitest';
import {
  applyHomography,
  fitHomography,
  homographyResidual,
  localAffine,
} from '../../../server/services/recognition/homography-fit';
import { applyAffine } from '../../../server/services/recognition/affine-fit';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import { photoProjection } from '../../support/synthetic-sheets';

const corners = [
  { x: 11, y: 11 },
  { x: 199, y: 11 },
  { x: 11, y: 286 },
  { x: 199, y: 286 },
];

describe('fitHomography', () => {
  it('recovers a 20-degree perspective view exactly from the four fiducials', () => {
    const { project } = photoProjection(
      { pageWidthMm: 210, pageHeightMm: 297 },
      { tiltDeg: 20, tiltAzimuthDeg: 35, rollDeg: 5, fill: 0.85, shadow: 0, gradient: 0, curlMm: 0, blur: 0 },
    );
    const h = fitHomography(corners.map((from) => ({ from, to: project(from.x, from.y) })))!;
    expect(h).not.toBeNull();
    const random = seededRandom(9);
    for (let i = 0; i < 50; i += 1) {
      const x = random() * 210;
      const y = random() * 297;
      const p = applyHomography(h, x, y);
      const q = project(x, y);
      expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeLessThan(0.01);
    }
  });

  it('fits more than four points in the least-squares sense and reports the residual', () => {
    const truth = fitHomography(
      corners.map((from) => ({ from, to: { x: 100 + from.x * 11 + from.y * 0.5, y: 50 + from.y * 12 - from.x * 0.3 } })),
    )!;
    const random = seededRandom(3);
    const pairs = Array.from({ length: 12 }, () => {
      const from = { x: random() * 210, y: random() * 297 };
      const to = applyHomography(truth, from.x, from.y);
      return { from, to: { x: to.x + (random() - 0.5), y: to.y + (random() - 0.5) } };
    });
    const h = fitHomography(pairs)!;
    expect(homographyResidual(h, pairs)).toBeLessThan(0.6);
  });

  it('refuses points on a line', () => {
    const pairs = [0, 1, 2, 3].map((i) => ({ from: { x: i * 10, y: i * 10 }, to: { x: i * 100, y: i * 100 } }));
    expect(fitHomography(pairs)).toBeNull();
  });

  it('comes down to an affine transform that agrees near its point', () => {
    const { project } = photoProjection(
      { pageWidthMm: 210, pageHeightMm: 297 },
      { tiltDeg: 15, tiltAzimuthDeg: 100, rollDeg: 0, fill: 0.9, shadow: 0, gradient: 0, curlMm: 0, blur: 0 },
    );
    const h = fitHomography(corners.map((from) => ({ from, to: project(from.x, from.y) })))!;
    const t = localAffine(h, 80, 120);
    for (const [dx, dy] of [
      [0, 0],
      [2.5, 0],
      [0, 1.75],
      [-2.5, -1.75],
    ] as const) {
      const a = applyAffine(t, 80 + dx, 120 + dy);
      const b = applyHomography(h, 80 + dx, 120 + dy);
      // Within a bubble's reach, the local affine stays within a tenth of a pixel of the perspective.
      expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThan(0.1);
    }
  });
});
