/**
 * The transform from template millimetres to scan pixels: a least-squares affine fit on the fiducial
 * centres, its inverse, and what it says about the scan (scale against the nominal resolution, skew,
 * how well the points agree). Pure arithmetic; the AffineTransform shape is the recognition contract's.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';

export type Point = { x: number; y: number };
export type PointPair = { from: Point; to: Point };

/** (x, y) -> (a x + c y + e, b x + d y + f). */
export function applyAffine(t: AffineTransform, x: number, y: number): Point {
  return { x: t.a * x + t.c * y + t.e, y: t.b * x + t.d * y + t.f };
}

export function invertAffine(t: AffineTransform): AffineTransform {
  const det = t.a * t.d - t.b * t.c;
  if (det === 0) throw new Error('Singular transform');
  const a = t.d / det;
  const b = -t.b / det;
  const c = -t.c / det;
  const d = t.a / det;
  return { a, b, c, d, e: -(a * t.e + c * t.f), f: -(b * t.e + d * t.f) };
}

/** Solves the 3x3 system m * v = r by Cramer's rule; null when singular. */
function solve3(m: number[][], r: number[]): [number, number, number] | null {
  const det3 = (k: number[][]) =>
    k[0]![0]! * (k[1]![1]! * k[2]![2]! - k[1]![2]! * k[2]![1]!) -
    k[0]![1]! * (k[1]![0]! * k[2]![2]! - k[1]![2]! * k[2]![0]!) +
    k[0]![2]! * (k[1]![0]! * k[2]![1]! - k[1]![1]! * k[2]![0]!);
  const det = det3(m);
  if (Math.abs(det) < 1e-12) return null;
  const column = (i: number) => det3(m.map((row, j) => row.map((v, k) => (k === i ? r[j]! : v))));
  return [column(0) / det, column(1) / det, column(2) / det];
}

/** The least-squares affine transform taking each `from` to its `to` (at least three pairs not on a line). */
export function fitAffine(pairs: readonly PointPair[]): AffineTransform | null {
  if (pairs.length < 3) return null;
  const m = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const rx = [0, 0, 0];
  const ry = [0, 0, 0];
  for (const { from, to } of pairs) {
    const v = [from.x, from.y, 1];
    for (let i = 0; i < 3; i += 1) {
      for (let j = 0; j < 3; j += 1) m[i]![j]! += v[i]! * v[j]!;
      rx[i]! += v[i]! * to.x;
      ry[i]! += v[i]! * to.y;
    }
  }
  const x = solve3(m, rx);
  const y = solve3(m, ry);
  if (!x || !y) return null;
  return { a: x[0], c: x[1], e: x[2], b: y[0], d: y[1], f: y[2] };
}

/** The similarity (rotation, uniform scale, shift) taking two points to two points; null when they coincide. */
export function fitSimilarity(first: PointPair, second: PointPair): AffineTransform | null {
  const px = second.from.x - first.from.x;
  const py = second.from.y - first.from.y;
  const qx = second.to.x - first.to.x;
  const qy = second.to.y - first.to.y;
  const norm = px * px + py * py;
  if (norm === 0) return null;
  // Complex division (q / p) gives scale and rotation at once.
  const re = (qx * px + qy * py) / norm;
  const im = (qy * px - qx * py) / norm;
  return {
    a: re,
    b: im,
    c: -im,
    d: re,
    e: first.to.x - (re * first.from.x - im * first.from.y),
    f: first.to.y - (im * first.from.x + re * first.from.y),
  };
}

/** Root-mean-square distance between the transformed `from` points and their `to` points. */
export function fitResidual(t: AffineTransform, pairs: readonly PointPair[]): number {
  let sum = 0;
  for (const { from, to } of pairs) {
    const p = applyAffine(t, from.x, from.y);
    sum += (p.x - to.x) ** 2 + (p.y - to.y) ** 2;
  }
  return Math.sqrt(sum / Math.max(1, pairs.length));
}

export type AffineShape = {
  /** Mean pixels per millimetre of the two axes. */
  pxPerMm: number;
  /** Horizontal over vertical scale (a copier or feeder stretching one direction shows here). */
  aspect: number;
  /** Rotation of the template's x axis in degrees, after taking away a half turn when `turned`. */
  skewDeg: number;
  /** Deviation of the mapped axes from a right angle, in degrees. */
  shearDeg: number;
};

export function affineShape(t: AffineTransform, turned: boolean): AffineShape {
  const sx = Math.hypot(t.a, t.b);
  const sy = Math.hypot(t.c, t.d);
  const sign = turned ? -1 : 1;
  const skewDeg = (Math.atan2(sign * t.b, sign * t.a) * 180) / Math.PI;
  const cos = (t.a * t.c + t.b * t.d) / (sx * sy);
  return {
    pxPerMm: (sx + sy) / 2,
    aspect: sx / sy,
    skewDeg,
    shearDeg: 90 - (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI,
  };
}
