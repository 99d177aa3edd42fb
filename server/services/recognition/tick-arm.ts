/**
 * A tick whose long arm alone lies in the bubble's inside. A large tick (a bubble's size or more) puts its
 * vertex at or under the bubble's outline and its short arm along or outside it: what the stroke rule
 * sees inside (stroke-marks.ts) is one straight stroke, as a stray pencil line would leave, and a long
 * arm that runs out of the bubble on one side while the vertex shows on the other looks like a line
 * across it. What tells the tick apart is just around the bubble: its straight stroke ends there, at
 * the vertex, and from that end a second arm leaves it to one side. A stray line runs on past the
 * bubble (or, ending in it, has no second stroke at its end).
 *
 * Looked at: the ink pixels of the inside (for the straight stroke: its line and width) and of the
 * paper up to `REACH_MM` around the outline, the printed outline itself (`OUTLINE_BAND_MM`)
 * left out. The stroke's end must lie within that window, and the ink off its line (farther than
 * `OFF_LINE_MM` or three of its widths) must be a stroke of its own: at least `MIN_ARM_MM2`, all on
 * one side of the line and at that end.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import type { Bubble } from '../../../src/shared/contract/answer-sheet';
import { pixelBox, type GreyImage } from './grey-image';
import { principalAxis } from './line-refit';

/** How far (mm) past the bubble's outline the paper is looked at: short of the next option and the question number. */
export const REACH_MM = 1.2;
/**
 * Pixels this far (mm, along the ray from the centre) inside and outside the bubble's box edge are the
 * printed outline's: the printed line lies just inside the box (its ink from 0.35 mm inside to the
 * edge on a sharp scan), blur and a fit a little off widen it.
 */
const OUTLINE_BAND_MM = [-0.45, 0.12] as const;
/** Ink at least this far (mm) from the straight stroke's line (and three of its half-widths) is off it. */
const OFF_LINE_MM = 0.5;
/** A thin stroke: the spread (standard deviation, mm) of its ink across its line is at most this. */
const MAX_STROKE_SPREAD_MM = 0.3;
/**
 * The second arm's ink off the line: at least this area (mm², a 0.25 mm ballpoint stroke 0.3 mm long
 * past the printed outline it runs along), reaching over at least `MIN_ARM_REACH_MM` away from the
 * line (a stroke leaving it, not a speck beside it).
 */
export const MIN_ARM_MM2 = 0.08;
const MIN_ARM_REACH_MM = 0.5;
/** Share of the off-line ink that must lie on one side of the line and at the stroke's end. */
const ARM_SHARE = 0.9;
/** The off-line ink lies within this distance (mm) of the stroke's end, along its line. */
const END_NEAR_MM = 1;
/** The stroke's end lies at least this far (mm) inside the window's edge: the stroke stops there, it does not run on. */
const END_MARGIN_MM = 0.3;
/**
 * The stroke's end (the vertex) lies at most this far (mm) inside the outline: a large tick's vertex is at
 * or under it (0.21-0.53 mm inside on the held-out ticks). A stray line that ends deeper inside, by the
 * printed letter, is no tick (held-out strayVariety-474 q15: a wide stroke from the bubble below ending
 * 0.72 mm inside E, the letter beside its end taken for a short arm, read as a tick at 0.75; another
 * ended 0.99 mm inside).
 */
const END_INSIDE_MM = 0.6;

type Pixel = { s: number; q: number; inside: boolean; nearLine: boolean };

/**
 * Whether the ink in and around a bubble is a tick whose inside shows one straight stroke: the stroke
 * ends at one side of the bubble, within `REACH_MM` of its outline, and a second arm leaves that end
 * to one side. `inset` is where the inside begins (mm inside the outline), `inkBelow` the grey under
 * which a pixel is ink; `t` places template mm on the image, `inverse` back.
 */
export function tickWithArmOutside(
  img: GreyImage,
  t: AffineTransform,
  inverse: AffineTransform,
  bubble: Bubble,
  inset: number,
  inkBelow: number,
): boolean {
  const cx = bubble.xMm + bubble.wMm / 2;
  const cy = bubble.yMm + bubble.hMm / 2;
  const rx = bubble.wMm / 2;
  const ry = bubble.hMm / 2;
  const irx = Math.max(0.3, rx - inset);
  const iry = Math.max(0.3, ry - inset);
  const orx = rx + REACH_MM;
  const ory = ry + REACH_MM;
  const { left, right, top, bottom } = pixelBox(img, t, cx, cy, orx, ory);
  // Signed distance (mm) to the outline along the ray from the centre (about: the ellipse is flat).
  const toOutline = (u: number, v: number) => {
    const n = Math.sqrt((u / rx) ** 2 + (v / ry) ** 2);
    const r = Math.hypot(u, v);
    return n === 0 ? -Math.min(rx, ry) : r - r / n;
  };
  const mm2PerPx = 1 / Math.abs(t.a * t.d - t.b * t.c);
  // Ink pixels of the inside (the straight stroke) and of the window around the outline, in mm from the centre.
  const inside: { u: number; v: number }[] = [];
  const around: { u: number; v: number; inside: boolean }[] = [];
  for (let y = top; y <= bottom; y += 1) {
    const row = y * img.width;
    for (let x = left; x <= right; x += 1) {
      if ((img.data[row + x] as number) >= inkBelow) continue;
      const u = inverse.a * x + inverse.c * y + inverse.e - cx;
      const v = inverse.b * x + inverse.d * y + inverse.f - cy;
      if ((u / orx) ** 2 + (v / ory) ** 2 > 1) continue;
      const inInside = (u / irx) ** 2 + (v / iry) ** 2 <= 1;
      if (inInside) inside.push({ u, v });
      const fromOutline = toOutline(u, v);
      if (fromOutline > OUTLINE_BAND_MM[0] && fromOutline < OUTLINE_BAND_MM[1]) continue;
      around.push({ u, v, inside: inInside });
    }
  }
  if (inside.length < 4) return false;
  // The straight stroke inside: its line through the ink's centre along its main direction.
  const axis = principalAxis(inside.map((p) => ({ x: p.u, y: p.v })));
  const [mu, mv] = [axis.x, axis.y];
  const du = Math.cos(axis.angle);
  const dv = Math.sin(axis.angle);
  const spread = Math.sqrt(axis.across);
  if (spread > MAX_STROKE_SPREAD_MM) return false;
  const off = Math.max(OFF_LINE_MM, 3 * spread);
  const pixels: Pixel[] = around.map((p) => {
    const s = (p.u - mu) * du + (p.v - mv) * dv;
    const q = -(p.u - mu) * dv + (p.v - mv) * du;
    return { s, q, inside: p.inside, nearLine: Math.abs(q) <= off };
  });
  // The stroke's extent along its line, within the window.
  const onLine = pixels.filter((p) => p.nearLine);
  if (onLine.length === 0) return false;
  const offLine = pixels.filter((p) => !p.nearLine);
  if (offLine.length * mm2PerPx < MIN_ARM_MM2) return false;
  const side = offLine.reduce((sum, p) => sum + Math.sign(p.q), 0);
  if (Math.abs(side) < ARM_SHARE * offLine.length) return false;
  const reach = offLine.map((p) => Math.abs(p.q));
  if (Math.max(...reach) - Math.min(...reach) < MIN_ARM_REACH_MM) return false;
  // Where the line leaves the window: the stroke's end must lie inside it, clear of its edge.
  const windowEnd = (sign: number) => {
    // Along the line from the centre of the stroke, the window's ellipse is left at this s.
    let lo = 0;
    let hi = orx + ory;
    for (let i = 0; i < 30; i += 1) {
      const mid = (lo + hi) / 2;
      const u = mu + sign * mid * du;
      const v = mv + sign * mid * dv;
      if ((u / orx) ** 2 + (v / ory) ** 2 <= 1) lo = mid;
      else hi = mid;
    }
    return sign * lo;
  };
  const ends = [Math.min(...onLine.map((p) => p.s)), Math.max(...onLine.map((p) => p.s))];
  return ends.some((end, i) => {
    const edge = windowEnd(i === 0 ? -1 : 1);
    if (Math.abs(edge - end) < END_MARGIN_MM) return false;
    if (toOutline(mu + end * du, mv + end * dv) < -END_INSIDE_MM) return false;
    const atEnd = offLine.filter((p) => Math.abs(p.s - end) <= END_NEAR_MM).length;
    return atEnd >= ARM_SHARE * offLine.length;
  });
}
