/**
 * A ring drawn around an option instead of a fill: students circle the option they mean, and a teacher
 * counts a ring around C as C. The ring lies on the paper around the bubble, between its printed
 * outline and its neighbours, while the bubble's inside stays clean, so the inside's measures (fill,
 * ink) see nothing; the paper ring of bubble-reader.ts only sees ink on all its sides, as a line would
 * leave.
 *
 * A ring is told by looking out from the bubble's centre in every direction: a closed (or nearly
 * closed) curve of ink encloses the centre, so in nearly every direction a thin run of ink lies between
 * the bubble's outline and the nearest neighbour's, and its distance changes little from one direction
 * to the next. A straight line (a stray stroke, a streak) past the bubble is met over a narrow range of
 * directions only; a ring around a neighbour is met only on the side that faces it (the rays stop short
 * of every other bubble's outline); a dark background (a shadow) is no thin run; scattered noise makes
 * no continuous curve.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import type { Bubble } from '../../../src/shared/contract/answer-sheet';
import { applyAffine } from './affine-fit';
import type { GreyImage } from './grey-image';

/** Directions looked in around the bubble (7.5 degrees apart). */
export const RING_DIRECTIONS = 48;
/** The rays start this far (mm) outside the printed outline (0.3 mm wide). */
export const RAY_START_MM = 0.3;
/**
 * Ink from the rays' very start may be the printed outline, seen there when the fit is off (or a
 * photo's curl bends the page): on the side the outline moved towards, all of that side, never
 * beyond the start. A drawn ring lies clear of the outline, after paper, over at least this share of
 * the directions, even one drawn tight and off centre that touches the outline on one side.
 */
const CLEAR_OF_OUTLINE_SHARE = 0.25;
/** A ring is looked for up to this far (mm) outside the outline (and never past a neighbour's outline). */
export const RING_REACH_MM = 2.5;
/** Rays stop this far (mm) short of another bubble's outline: its printed line is no ring. */
const NEIGHBOUR_CLEAR_MM = 0.4;
/** A run of ink is a pencil stroke from this many pixels (a single dark pixel is noise) ... */
const MIN_RUN_PX = 2;
/** ... up to this width (mm) across: wider is a shadow, a fill spilling over, a dark band, not a drawn curve. */
const MAX_RUN_MM = 1.2;
/** Directions in a row (22.5 degrees) a curve may pass over where a ray found nothing. */
const MAX_PASSED_OVER = 3;
/** Neighbouring directions whose ink lies this much (mm) further in or out still follow one curve. */
const CURVE_JUMP_MM = 0.6;
/**
 * Share of the directions one continuous curve must cover to be a ring around the bubble: from
 * `RING_SURE` (a gap of up to 72 degrees where the pencil started and stopped) it is read surely; from
 * `RING_PARTIAL` it is an open or ambiguous ring (a ring across two bubbles, an arc) that a person
 * must see. A straight line passing outside the outline covers at most about a quarter.
 */
export const RING_SURE = 0.8;
export const RING_PARTIAL = 0.5;
/** The most an open ring (cover under `RING_SURE`) is sure of: under the review line (LOW_CONFIDENCE 0.6). */
export const PARTIAL_RING_CEILING = 0.55;

/**
 * The other bubbles' ellipses that a ray from `bubble` could reach, in template mm (their outlines
 * grown by `NEIGHBOUR_CLEAR_MM`).
 */
export function nearbyOutlines(bubble: Bubble, all: readonly Bubble[]): { cx: number; cy: number; rx: number; ry: number }[] {
  const reach = RING_REACH_MM + RAY_START_MM + NEIGHBOUR_CLEAR_MM;
  return all
    .filter(
      (o) =>
        o !== bubble &&
        Math.abs(o.xMm + o.wMm / 2 - (bubble.xMm + bubble.wMm / 2)) <= (o.wMm + bubble.wMm) / 2 + reach &&
        Math.abs(o.yMm + o.hMm / 2 - (bubble.yMm + bubble.hMm / 2)) <= (o.hMm + bubble.hMm) / 2 + reach,
    )
    .map((o) => ({
      cx: o.xMm + o.wMm / 2,
      cy: o.yMm + o.hMm / 2,
      rx: o.wMm / 2 + NEIGHBOUR_CLEAR_MM,
      ry: o.hMm / 2 + NEIGHBOUR_CLEAR_MM,
    }));
}

/**
 * Where, along each direction around a bubble, the first thin run of ink lies (mm outside the
 * outline), or null when none does before `RING_REACH_MM`, a neighbour's outline or the image's
 * edge. `below` is the grey under which a pixel is ink (a line's level: a pencil ring may be light).
 */
export function ringHits(
  img: GreyImage,
  t: AffineTransform,
  bubble: Bubble,
  neighbours: readonly { cx: number; cy: number; rx: number; ry: number }[],
  below: number,
): (number | null)[] {
  const pxPerMm = Math.sqrt(Math.abs(t.a * t.d - t.b * t.c));
  const step = 1 / Math.max(1, pxPerMm);
  const maxRunSamples = MAX_RUN_MM / step;
  const cx = bubble.xMm + bubble.wMm / 2;
  const cy = bubble.yMm + bubble.hMm / 2;
  const rx = bubble.wMm / 2;
  const ry = bubble.hMm / 2;
  const hits: (number | null)[] = [];
  for (let k = 0; k < RING_DIRECTIONS; k += 1) {
    const angle = (2 * Math.PI * k) / RING_DIRECTIONS;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    let run = 0;
    let runStart = 0;
    let hit: number | null = null;
    for (let s = RAY_START_MM; s <= RING_REACH_MM; s += step) {
      const x = cx + (rx + s) * cos;
      const y = cy + (ry + s) * sin;
      if (neighbours.some((n) => ((x - n.cx) / n.rx) ** 2 + ((y - n.cy) / n.ry) ** 2 <= 1)) break;
      const p = applyAffine(t, x, y);
      const px = Math.round(p.x);
      const py = Math.round(p.y);
      if (px < 0 || py < 0 || px >= img.width || py >= img.height) break;
      if ((img.data[py * img.width + px] as number) < below) {
        if (run === 0) runStart = s;
        run += 1;
        continue;
      }
      // Paper after a run: a thin stroke, when it was long enough to be pencil and no wider than one.
      if (run >= MIN_RUN_PX && run <= maxRunSamples) {
        hit = runStart;
        break;
      }
      if (run > maxRunSamples) break;
      run = 0;
    }
    hits.push(hit);
  }
  return hits;
}

/**
 * Share of the directions around a bubble covered by the longest continuous curve of ink in `hits`:
 * consecutive directions whose ink lies within `CURVE_JUMP_MM` of each other, around the circle. Up to
 * `MAX_PASSED_OVER` directions may be passed over (where the pencil's start and stop overlap, a ray
 * runs along the stroke, or the ring touches the outline, a ray finds no thin run after paper) when
 * the directions either side of them join. 1 for a closed ring, about 0.9 for one left open where the
 * pencil started and stopped.
 */
export function ringCover(hits: readonly (number | null)[]): number {
  const n = hits.length;
  if (hits.filter((h) => h !== null && h > RAY_START_MM).length < CLEAR_OF_OUTLINE_SHARE * n) return 0;
  const joins = (i: number, j: number) => {
    const a = hits[i % n];
    const b = hits[j % n];
    return a !== null && a !== undefined && b !== null && b !== undefined && Math.abs(a - b) <= CURVE_JUMP_MM;
  };
  let best = 0;
  for (let start = 0; start < n && best < n; start += 1) {
    if (hits[start] === null) continue;
    let at = start;
    while (at - start < n) {
      let next = 1;
      while (next <= MAX_PASSED_OVER + 1 && !joins(at, at + next)) next += 1;
      if (next > MAX_PASSED_OVER + 1) break;
      at += next;
    }
    best = Math.max(best, Math.min(n, at - start + 1));
  }
  return best / n;
}

/**
 * How surely a ring of `cover` marks its bubble: 1 from `RING_SURE`; an open ring from `floor` at
 * `RING_PARTIAL` up to `PARTIAL_RING_CEILING` (a person decides); 0 under `RING_PARTIAL` (no ring).
 */
export function ringConfidence(cover: number, floor: number): number {
  if (cover < RING_PARTIAL) return 0;
  if (cover >= RING_SURE) return 1;
  // An open ring is for a person to see: under the review line (two stray lines crossing beside a
  // bubble can pass for two thirds of a ring, held-out strayVariety).
  return floor + ((PARTIAL_RING_CEILING - floor) * (cover - RING_PARTIAL)) / (RING_SURE - RING_PARTIAL);
}
