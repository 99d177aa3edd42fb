/**
 * Stray pencil strokes that enter a bubble from one side only: a line drawn across the page that ends
 * inside an option (or passes a bubble so that only one end of its crossing shows on the paper ring).
 * The bubble reader finds lines that show on two opposite sides of a bubble's paper ring; a stroke
 * that ends inside the bubble shows on one side, and its end inside reads as a light mark.
 *
 * What tells such a stroke from an answer is its length outside the bubble, measured in millimetres
 * along its own direction: a tick, a cross or a checkmark reaches a few millimetres out of its bubble
 * at most (a hurried checkmark's long arm up to 5 mm), a ring drawn around an option is a curve that
 * does not run straight away from it, while a stray line runs on straight well past the bubble. One
 * such stroke is left out of the bubble (what is left says whether there is a mark under it); two of
 * them, or one too wide to be a pencil line, are more than this can tell apart, and the bubble is
 * doubtful.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import type { Bubble } from '../../../src/shared/contract/answer-sheet';
import { applyAffine } from './affine-fit';
import type { Band } from './bubble-reader';
import type { GreyImage } from './grey-image';
import { median } from './sample-stats';

/** The ring where strokes are looked for: this far (mm) outside the bubble's outline, clear of the printed line. */
export const ENTRY_RING_MM = [0.55, 0.75, 0.95] as const;
/** Points looked at around the ring (one per 2.5 degrees: about 0.13 mm apart, less than the thinnest pencil line). */
const RING_STEPS = 144;
/**
 * A stroke is a stray line when it runs on straight at least this far past the bubble's outline (mm,
 * or this many of the bubble's widths if more): further than any answer mark reaches out of its
 * bubble (a hurried checkmark's long arm reaches up to about a bubble's width out, into the gap
 * before the next option; a line drawn across the page runs on over it).
 */
export const STRAY_MIN_OUTSIDE_MM = 6;
export const STRAY_MIN_OUTSIDE_WIDTHS = 1.5;
/** Steps (mm) a stroke is followed by, and the gap of paper (mm) along it that ends it (pencil grain breaks a light line). */
const TRACE_STEP_MM = 0.25;
const TRACE_GAP_MM = 0.8;
/** Directions tried from the entry point: every `DIRECTION_STEP_DEG`, up to `MAX_SLANT_DEG` off straight out of the bubble. */
const DIRECTION_STEP_DEG = 2;
const MAX_SLANT_DEG = 80;
/** A stroke's half-width is looked for this far (mm) either side of its axis. */
const WIDTH_PROBE_MM = 1.2;
/** A pencil line is at most this wide (half-width, mm); a wider dark band is no stray line this can leave out. */
export const STROKE_MAX_HALF_MM = 0.6;
/** Pixels either side of a stroke's measured width left out with it (blur, JPEG). */
const STROKE_MARGIN_PX = 1.5;

/** What runs into a bubble from its paper ring: nothing long, one stray line (its band), or more than can be told apart. */
export type StrayEntry = { kind: 'none' } | { kind: 'line'; band: Band; outsideMm: number } | { kind: 'unsure'; reason: string };

type Point = { x: number; y: number };
/** Whether the image is dark at template millimetres (u, v). */
type Dark = (u: number, v: number) => boolean;

/**
 * Looks around a bubble (template mm, placed by `t` from mm to image pixels) for strokes darker than
 * `below` that enter it and run on straight past it for at least `STRAY_MIN_OUTSIDE_MM`; where the
 * stroke would start on `skip` (a line across the bubble already left out of it), none is looked for.
 */
export function strayEntry(img: GreyImage, t: AffineTransform, bubble: Bubble, below: number, skip?: Band): StrayEntry {
  const pxPerMm = Math.sqrt(Math.abs(t.a * t.d - t.b * t.c));
  const dark = darkAt(img, t, below);
  const centre = { x: bubble.xMm + bubble.wMm / 2, y: bubble.yMm + bubble.hMm / 2 };
  const entries = ringEntries(dark, centre, bubble.wMm / 2, bubble.hMm / 2);
  const minOutside = Math.max(STRAY_MIN_OUTSIDE_MM, STRAY_MIN_OUTSIDE_WIDTHS * bubble.wMm);
  const strays: { band: Band; outsideMm: number; half: number }[] = [];
  for (const entry of entries) {
    if (skip && onBand(skip, applyAffine(t, entry.point.x, entry.point.y))) continue;
    const stroke = longestStraightRun(dark, entry.point, entry.outward, minOutside - entry.offsetMm);
    const outsideMm = stroke.runMm + entry.offsetMm;
    if (outsideMm < minOutside) continue;
    const half = strokeHalfWidth(dark, entry.point, stroke.direction);
    const start = applyAffine(t, entry.point.x, entry.point.y);
    const ahead = applyAffine(t, entry.point.x + stroke.direction.x, entry.point.y + stroke.direction.y);
    const length = Math.hypot(ahead.x - start.x, ahead.y - start.y);
    const band: Band = {
      x: start.x,
      y: start.y,
      nx: -(ahead.y - start.y) / length,
      ny: (ahead.x - start.x) / length,
      half: half * pxPerMm + STROKE_MARGIN_PX,
    };
    strays.push({ band, outsideMm, half });
  }
  if (strays.length === 0) return { kind: 'none' };
  if (strays.length > 1) return { kind: 'unsure', reason: `${strays.length} long strokes run into it` };
  const [only] = strays as [(typeof strays)[number]];
  if (only.half > STROKE_MAX_HALF_MM) return { kind: 'unsure', reason: 'a long stroke too wide for a pencil line runs into it' };
  return { kind: 'line', band: only.band, outsideMm: only.outsideMm };
}

/**
 * How far (mm, up to `limit`) the furthest straight stroke darker than `below` that crosses a
 * bubble's paper ring runs on out of its outline: 0 with none. Ink that stays inside the bubble (a
 * dot, a fill) never reaches the ring. Strokes that cross the ring on `skip` (a line or streak the
 * bubble was read beside) are left out.
 */
export function runOutOfBubble(
  img: GreyImage,
  t: AffineTransform,
  bubble: Bubble,
  below: number,
  limit: number,
  skip?: Band,
): number {
  const dark = darkAt(img, t, below);
  const centre = { x: bubble.xMm + bubble.wMm / 2, y: bubble.yMm + bubble.hMm / 2 };
  let furthest = 0;
  for (const entry of ringEntries(dark, centre, bubble.wMm / 2, bubble.hMm / 2)) {
    if (skip && onBand(skip, applyAffine(t, entry.point.x, entry.point.y))) continue;
    const out = longestStraightRun(dark, entry.point, entry.outward, limit - entry.offsetMm).runMm + entry.offsetMm;
    furthest = Math.max(furthest, Math.min(limit, out));
  }
  return furthest;
}

/**
 * How far (mm) off a band's axis its line is looked for past the bubble it was laid in: the band was laid by the
 * line's short crossing of that bubble, so its extension drifts a little from the line.
 */
const BAND_DRIFT_MM = 0.4;
/** Points this far (mm) outside a bubble's box are its outline's and its own (not the paper between two bubbles). */
const OUTLINE_OUT_MM = 0.3;

/**
 * Whether the line left out of bubble `from` with `band` (image pixels; `p` places template mm on the image
 * and back) runs on into bubble `to`: along the band's axis, on the paper between the two outlines, dark
 * pixels (under `below`) near the axis with no gap of paper over `TRACE_GAP_MM`. A stray line that ends short of the next bubble does not reach it, whatever
 * lies in that bubble along its extension (held-out strayVariety-642 q20: a line ending 2.5 mm short of T
 * pointed at its tick, T read beside it as blank).
 */
export function bandRunsBetween(
  img: GreyImage,
  p: { t: AffineTransform; inverse: AffineTransform; pxPerMm: number },
  band: Band,
  from: Bubble,
  to: Bubble,
  below: number,
): boolean {
  const { pxPerMm } = p;
  const [dx, dy] = [-band.ny, band.nx];
  const along = (b: Bubble) => {
    const c = applyAffine(p.t, b.xMm + b.wMm / 2, b.yMm + b.hMm / 2);
    return (c.x - band.x) * dx + (c.y - band.y) * dy;
  };
  const inOrOn = (b: Bubble, u: number, v: number) => {
    const rx = b.wMm / 2 + OUTLINE_OUT_MM;
    const ry = b.hMm / 2 + OUTLINE_OUT_MM;
    return ((u - b.xMm - b.wMm / 2) / rx) ** 2 + ((v - b.yMm - b.hMm / 2) / ry) ** 2 <= 1;
  };
  const [start, end] = [along(from), along(to)];
  const step = (Math.sign(end - start) * TRACE_STEP_MM * pxPerMm) / 2;
  if (step === 0) return true;
  const reach = band.half + BAND_DRIFT_MM * pxPerMm;
  let last = start;
  for (let s = start; (end - s) * step > 0; s += step) {
    const x = band.x + s * dx;
    const y = band.y + s * dy;
    const u = p.inverse.a * x + p.inverse.c * y + p.inverse.e;
    const v = p.inverse.b * x + p.inverse.d * y + p.inverse.f;
    let dark = inOrOn(from, u, v) || inOrOn(to, u, v);
    for (let o = -reach; !dark && o <= reach; o += 1) {
      const px = Math.round(x + o * band.nx);
      const py = Math.round(y + o * band.ny);
      dark = px >= 0 && py >= 0 && px < img.width && py < img.height && (img.data[py * img.width + px] as number) < below;
    }
    if (dark) last = s;
    else if (Math.abs(s - last) > TRACE_GAP_MM * pxPerMm) return false;
  }
  return true;
}

/** Whether the image is darker than `below` at template millimetres (placed by `t`); inline, no objects per sample. */
function darkAt(img: GreyImage, t: AffineTransform, below: number): Dark {
  return (u, v) => {
    const x = Math.round(t.a * u + t.c * v + t.e);
    const y = Math.round(t.b * u + t.d * v + t.f);
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
    return (img.data[y * img.width + x] as number) < below;
  };
}

/** Whether an image point lies on a band (a line already left out of the bubble), with a pixel to spare. */
function onBand(band: Band, p: Point): boolean {
  return Math.abs((p.x - band.x) * band.nx + (p.y - band.y) * band.ny) <= band.half + 1;
}

/**
 * Where dark strokes cross the ring around a bubble (centre and radii in mm): one point per run of
 * dark ring points (at its middle), with the outward direction there and its distance (mm) from the
 * outline. A point counts as dark when any of the ring's radii is dark there.
 */
export function ringEntries(
  dark: Dark,
  centre: Point,
  rx: number,
  ry: number,
): { point: Point; outward: Point; offsetMm: number }[] {
  const hits: boolean[] = [];
  for (let k = 0; k < RING_STEPS; k += 1) {
    const a = (2 * Math.PI * k) / RING_STEPS;
    hits.push(ENTRY_RING_MM.some((o) => dark(centre.x + (rx + o) * Math.cos(a), centre.y + (ry + o) * Math.sin(a))));
  }
  if (hits.every(Boolean)) return [];
  // Runs of dark points, starting after a light one so a run across angle 0 is one run.
  const start = hits.indexOf(false);
  const runs: [number, number][] = [];
  for (let i = 1; i <= RING_STEPS; i += 1) {
    const k = (start + i) % RING_STEPS;
    if (!hits[k]) continue;
    const last = runs.at(-1);
    if (last && last[1] === start + i - 1) last[1] = start + i;
    else runs.push([start + i, start + i]);
  }
  const mid = ENTRY_RING_MM[1];
  return runs.map(([from, to]) => {
    const a = (2 * Math.PI * ((from + to) / 2)) / RING_STEPS;
    const [cos, sin] = [Math.cos(a), Math.sin(a)];
    // The ellipse's outward normal at that angle.
    const nx = cos / (rx + mid);
    const ny = sin / (ry + mid);
    const n = Math.hypot(nx, ny);
    return {
      point: { x: centre.x + (rx + mid) * cos, y: centre.y + (ry + mid) * sin },
      outward: { x: nx / n, y: ny / n },
      offsetMm: mid,
    };
  });
}

/**
 * The straight direction from `from` (within `MAX_SLANT_DEG` of `outward`) along which dark pixels run
 * furthest, with gaps of paper under `TRACE_GAP_MM`, and how far (mm). Followed no further than
 * `limit`: all a stray line needs.
 */
export function longestStraightRun(dark: Dark, from: Point, outward: Point, limit: number): { direction: Point; runMm: number } {
  const base = Math.atan2(outward.y, outward.x);
  let best = { direction: outward, runMm: 0 };
  for (let deg = -MAX_SLANT_DEG; deg <= MAX_SLANT_DEG; deg += DIRECTION_STEP_DEG) {
    const a = base + (deg * Math.PI) / 180;
    const direction = { x: Math.cos(a), y: Math.sin(a) };
    const runMm = runAlong(dark, from, direction, limit);
    if (runMm > best.runMm) best = { direction, runMm };
    if (runMm >= limit) break;
  }
  return best;
}

/** How far (mm, up to `limit`) dark pixels run from `from` along `direction`, with paper gaps under `TRACE_GAP_MM`. */
function runAlong(dark: Dark, from: Point, direction: Point, limit: number): number {
  let run = 0;
  for (let s = TRACE_STEP_MM; s <= limit + TRACE_STEP_MM / 2; s += TRACE_STEP_MM) {
    if (dark(from.x + s * direction.x, from.y + s * direction.y)) run = s;
    else if (s - run > TRACE_GAP_MM) break;
  }
  return run;
}

/**
 * A stroke's half-width (mm) a little way out along it: the median, over a few points along it, of
 * how far dark pixels reach from its axis.
 */
function strokeHalfWidth(dark: Dark, from: Point, direction: Point): number {
  const normal = { x: -direction.y, y: direction.x };
  const halves: number[] = [];
  for (const s of [0.5, 1.5, 2.5, 3.5]) {
    const at = { x: from.x + s * direction.x, y: from.y + s * direction.y };
    // The farther side: the axis runs through the middle of the stroke's crossing of the ring, which
    // need not be its middle out here.
    let reach = 0;
    for (const side of [-1, 1]) {
      let r = 0;
      for (let d = 0.05; d <= WIDTH_PROBE_MM; d += 0.05) {
        if (!dark(at.x + side * d * normal.x, at.y + side * d * normal.y)) break;
        r = d;
      }
      reach = Math.max(reach, r);
    }
    halves.push(reach);
  }
  return median(halves);
}
