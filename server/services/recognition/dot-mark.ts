/**
 * A small dot pressed into a bubble instead of a fill (1-2 mm of pencil or pen): a deliberate answer,
 * but it covers only a tenth to a third of the bubble, so its ink share stands barely above the page's
 * empty level and the page's calibration alone cannot be sure of it. What makes it sure is its shape:
 * one solid, round blob, much darker than the paper. What else leaves a little ink in a bubble is
 * none of that: dust is far smaller, the speckle a 1-bit scan keeps of faint pencil is many specks, a
 * tick or a stray stroke is thin and long, what a rubber leaves is grey.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import type { Bubble } from '../../../src/shared/contract/answer-sheet';
import { pixelBox, type GreyImage } from './grey-image';

/** A dot covers at least this much (mm²): a 0.8 mm dot. A speck of dust is under 0.1 mm². */
export const DOT_MIN_MM2 = 0.5;
/** Its one blob holds at least this share of the bubble's ink (a stray speck or two beside it aside). */
const DOT_BLOB_SHARE = 0.9;
/** Round: its narrower extent at least this share of its wider one (a stroke is long and thin). */
const DOT_MIN_ROUNDNESS = 0.5;
/** Solid: it covers at least this share of the ellipse its extents span (a tick or a ring of ink covers a third or less). */
const DOT_MIN_SOLIDITY = 0.6;
/** Dark: its pixels on average at least this share of the way from paper to toner (pencil pressed on; a rubber's grey is lighter). */
const DOT_MIN_DARKNESS = 0.65;

/** The ink pixels of a bubble's inside, as measured: template mm from its centre, and darkness 0 (paper) to 1 (toner). */
export type InkPixel = { u: number; v: number; darkness: number; x: number; y: number };

/**
 * The ink pixels inside a bubble's measured ellipse (its outline inset by `insetMm`): darker than half
 * way from `white` (its paper) to `black` (the printer's toner).
 */
export function insideInk(
  img: GreyImage,
  t: AffineTransform,
  inverse: AffineTransform,
  bubble: Bubble,
  insetMm: number,
  white: number,
  black: number,
): InkPixel[] {
  const cx = bubble.xMm + bubble.wMm / 2;
  const cy = bubble.yMm + bubble.hMm / 2;
  const irx = Math.max(0.3, bubble.wMm / 2 - insetMm);
  const iry = Math.max(0.3, bubble.hMm / 2 - insetMm);
  const { left, right, top, bottom } = pixelBox(img, t, cx, cy, irx, iry);
  const range = Math.max(40, white - black);
  const inkBelow = white - 0.5 * range;
  const ink: InkPixel[] = [];
  for (let y = top; y <= bottom; y += 1) {
    for (let x = left; x <= right; x += 1) {
      const value = img.data[y * img.width + x] as number;
      if (value >= inkBelow) continue;
      const u = inverse.a * x + inverse.c * y + inverse.e - cx;
      const v = inverse.b * x + inverse.d * y + inverse.f - cy;
      if ((u / irx) ** 2 + (v / iry) ** 2 > 1) continue;
      ink.push({ u, v, darkness: Math.min(1, (white - value) / range), x, y });
    }
  }
  return ink;
}

/**
 * Whether a bubble's ink (`insideInk`) is one solid, round, dark dot of at least `DOT_MIN_MM2`, at
 * `pxPerMm` image pixels per template millimetre.
 */
export function isSolidDot(ink: readonly InkPixel[], pxPerMm: number): boolean {
  const mm2PerPx = 1 / (pxPerMm * pxPerMm);
  if (ink.length * mm2PerPx < DOT_MIN_MM2) return false;
  const blob = largestBlob(ink);
  if (blob.length < DOT_BLOB_SHARE * ink.length || blob.length * mm2PerPx < DOT_MIN_MM2) return false;
  const pixel = 1 / pxPerMm;
  const extent = (values: number[]) => Math.max(...values) - Math.min(...values) + pixel;
  const width = extent(blob.map((p) => p.u));
  const height = extent(blob.map((p) => p.v));
  if (Math.min(width, height) < DOT_MIN_ROUNDNESS * Math.max(width, height)) return false;
  if ((blob.length * mm2PerPx) / ((Math.PI / 4) * width * height) < DOT_MIN_SOLIDITY) return false;
  return blob.reduce((sum, p) => sum + p.darkness, 0) / blob.length >= DOT_MIN_DARKNESS;
}

/** The largest 8-connected group of the pixels (by image position). */
function largestBlob(ink: readonly InkPixel[]): InkPixel[] {
  const at = new Map(ink.map((p) => [`${p.x},${p.y}`, p]));
  const seen = new Set<InkPixel>();
  let best: InkPixel[] = [];
  for (const start of ink) {
    if (seen.has(start)) continue;
    const group = [start];
    seen.add(start);
    for (let i = 0; i < group.length; i += 1) {
      const p = group[i]!;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const q = at.get(`${p.x + dx},${p.y + dy}`);
          if (q && !seen.has(q)) {
            seen.add(q);
            group.push(q);
          }
        }
      }
    }
    if (group.length > best.length) best = group;
  }
  return best;
}
