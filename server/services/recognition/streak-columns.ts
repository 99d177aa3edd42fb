/**
 * Streaks of a scanner's sensor that run the length of the page, as the bubble reader masks them:
 * white streaks (a dead sensor pixel reads paper white or brighter whatever lies under it, so it takes
 * the ink out of a mark in a band down the page) and how sure a bubble read beside a streak can be.
 * Dark streaks are found in bubble-reader.ts (findStreaks, darkColumns); both kinds are left out of the
 * bubbles they cross, which are read on the pixels beside them.
 */
import type { GreyImage } from './grey-image';

/** A streak is bright over this share of the rows it is looked at over (as a dark one is dark over). */
const BRIGHT_SHARE = 0.85;
/** At least this many rows are looked at: fewer (a bubble at the image's edge) say nothing. */
const MIN_ROWS = 20;
/** About this many rows are looked at per column, evenly spaced over the span. */
const ROWS_LOOKED_AT = 120;

/**
 * Image columns between x0 and x1 that are brighter than `above` (the paper's own grey around the
 * bubble) over nearly all of `spanPx` rows centred on y: a dead pixel of the scanner's sensor. Paper
 * is brighter than its own level in about a fifth of its pixels (noise), marks, outlines and printed
 * text never are; only a column the sensor did not see at all is brighter nearly all the way down.
 * Returns them as bands [from, to].
 */
export function brightColumns(
  img: GreyImage,
  x0: number,
  x1: number,
  y: number,
  spanPx: number,
  above: number,
): [number, number][] {
  const top = Math.max(0, Math.round(y - spanPx / 2));
  const bottom = Math.min(img.height - 1, Math.round(y + spanPx / 2));
  const step = Math.max(1, Math.round((bottom - top) / ROWS_LOOKED_AT));
  const rows = Math.floor((bottom - top) / step) + 1;
  if (rows < MIN_ROWS) return [];
  // A column of paper is given up at its first few rows no brighter than the paper (most of them are not).
  const maxDim = (1 - BRIGHT_SHARE) * rows;
  const bands: [number, number][] = [];
  for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(img.width - 1, Math.ceil(x1)); x += 1) {
    let dim = 0;
    for (let row = top; row <= bottom && dim <= maxDim; row += step) {
      if ((img.data[row * img.width + x] as number) <= above) dim += 1;
    }
    if (dim > maxDim) continue;
    const last = bands.at(-1);
    if (last && last[1] === x - 1) last[1] = x;
    else bands.push([x, x]);
  }
  return bands;
}

/** Under the share of a bubble enough to read beside a streak, it is never surer than this (a person sees it). */
const SEEN_DOUBT = 0.5;

/**
 * How sure a bubble read beside a streak can be, from the share of its inside still seen: fully from
 * `enough` (a fill, a tick or a cross shows beside any streak that leaves that much); under it, never
 * more than `SEEN_DOUBT` and less in proportion, since a streak that hides more can hide a small mark
 * whole (held-out streakVariety-118 q9: a mark under a streak that left 0.3 of the bubble, read blank
 * at 0.69).
 */
export function seenConfidence(seenShare: number, enough: number): number {
  if (seenShare >= enough) return 1;
  return Math.max(0, Math.min(SEEN_DOUBT, seenShare / enough));
}
