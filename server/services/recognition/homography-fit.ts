/**
 * The perspective transform (homography) of a photographed page: exact from four point pairs (the
 * corner fiducials), applied to points, and the affine transform it comes down to near one point (its
 * first-order expansion), for the steps that measure small things in an affine way. Pure arithmetic.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import type { Point, PointPair } from './affine-fit';

/** Row-major 3x3 matrix with h[8] = 1: (x, y) -> ((h0 x + h1 y + h2) / w, (h3 x + h4 y + h5) / w), w = h6 x + h7 y + 1. */
export type Homography = readonly number[];

/** Solves a linear system by Gaussian elimination with partial pivoting; null when singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const k = m[r]![col]! / m[col]![col]!;
      if (k === 0) continue;
      for (let c = col; c <= n; c += 1) m[r]![c]! -= k * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * The homography taking each `from` to its `to`: exact on four pairs, least squares (in the algebraic
 * sense) on more; null when the points are degenerate (three on a line). Coordinates are normalised
 * first so millimetres and thousands of pixels do not spoil the conditioning.
 */
export function fitHomography(pairs: readonly PointPair[]): Homography | null {
  if (pairs.length < 4) return null;
  const norm = (points: Point[]) => {
    const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
    const my = points.reduce((s, p) => s + p.y, 0) / points.length;
    const scale = Math.max(1e-9, points.reduce((s, p) => s + Math.hypot(p.x - mx, p.y - my), 0) / points.length);
    return { mx, my, k: 1 / scale };
  };
  const nf = norm(pairs.map((p) => p.from));
  const nt = norm(pairs.map((p) => p.to));
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  for (const { from, to } of pairs) {
    const x = (from.x - nf.mx) * nf.k;
    const y = (from.y - nf.my) * nf.k;
    const u = (to.x - nt.mx) * nt.k;
    const v = (to.y - nt.my) * nt.k;
    for (const [row, rhs] of [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ] as const) {
      for (let i = 0; i < 8; i += 1) {
        atb[i]! += row[i]! * rhs;
        for (let j = 0; j < 8; j += 1) ata[i]![j]! += row[i]! * row[j]!;
      }
    }
  }
  const h = solve(ata, atb);
  if (!h) return null;
  // Undo the normalisations: H = Tt^-1 * Hn * Tf.
  const hn = [...h, 1];
  const tf = [nf.k, 0, -nf.k * nf.mx, 0, nf.k, -nf.k * nf.my, 0, 0, 1];
  const ttInv = [1 / nt.k, 0, nt.mx, 0, 1 / nt.k, nt.my, 0, 0, 1];
  const mul = (p: number[], q: number[]) =>
    Array.from({ length: 9 }, (_, i) => {
      const r = Math.floor(i / 3);
      const c = i % 3;
      return p[r * 3]! * q[c]! + p[r * 3 + 1]! * q[3 + c]! + p[r * 3 + 2]! * q[6 + c]!;
    });
  const full = mul(ttInv, mul(hn, tf));
  const w = full[8]!;
  if (Math.abs(w) < 1e-12) return null;
  return full.map((v) => v / w);
}

export function applyHomography(h: Homography, x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + 1;
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
}

/** The affine transform that agrees with `h` at (x, y) to first order. */
export function localAffine(h: Homography, x: number, y: number): AffineTransform {
  const w = h[6]! * x + h[7]! * y + 1;
  const p = applyHomography(h, x, y);
  const a = (h[0]! - h[6]! * p.x) / w;
  const b = (h[3]! - h[6]! * p.y) / w;
  const c = (h[1]! - h[7]! * p.x) / w;
  const d = (h[4]! - h[7]! * p.y) / w;
  return { a, b, c, d, e: p.x - a * x - c * y, f: p.y - b * x - d * y };
}

/** Root-mean-square distance between the mapped `from` points and their `to` points. */
export function homographyResidual(h: Homography, pairs: readonly PointPair[]): number {
  let sum = 0;
  for (const { from, to } of pairs) {
    const p = applyHomography(h, from.x, from.y);
    sum += (p.x - to.x) ** 2 + (p.y - to.y) ** 2;
  }
  return Math.sqrt(sum / Math.max(1, pairs.length));
}
