/**
 * What crosses a bubble's paper ring on one pair of opposite sides (above and below it, or left and
 * right of it): a single straight line through the bubble, or the arms of a cross drawn over it.
 *
 * A single pencil line leaves its ink on each of the two sides in one place, all of it within the
 * line's half-width (under `LINE_MAX_HALF_MM` of bubble-reader.ts, 0.6 mm) of the straight line through
 * the two places. An X drawn over a wide bubble pokes its four arms out at its left and right ends,
 * two on each side, a bubble's height apart: its ring ink lies millimetres from any one line through
 * them (the lead's rule, a line-flagged bubble is a cross only when ink shows on both pairs of sides or
 * diagonally, took such a cross for one line and sent it to review). What else spreads ink that far on
 * one pair of sides is more than one stroke: two stray lines through the bubble, which run on straight
 * well past it (stray-stroke.ts finds such strokes), where a cross's arms end a millimetre or two out.
 *
 * So a bubble whose one-pair ring ink spreads at least `CROSS_ARM_SPREAD_MM` from a line, with no
 * stroke running on straight past the bubble into it, is judged as a cross may be (its inside must
 * still show two bars crossing: stroke-marks.ts); anything else stays a line through the bubble.
 */
import type { StrayEntry } from './stray-stroke';

/**
 * Ring ink on one pair of sides this far (mm, at the 90th percentile) from the line through its two
 * ends is no single line: a pencil line of 1 mm is at most 0.6 mm from its axis with blur; an X's arms
 * at the ends of a 5 by 3.5 mm bubble lie 1.5 to 3 mm from the line between their middles.
 */
export const CROSS_ARM_SPREAD_MM = 1.5;

/**
 * Whether ink on one pair of opposite sides of a bubble's paper ring (`lineSpreadMm` its spread about
 * the line through its two ends) is the arms of a cross, not one line: spread too far for one pencil
 * line, and no long straight stroke runs into the bubble (`entry`, stray-stroke.ts: 'none').
 */
export function crossArmsOnOnePair(lineSpreadMm: number, entry: () => StrayEntry): boolean {
  if (lineSpreadMm < CROSS_ARM_SPREAD_MM) return false;
  return entry().kind === 'none';
}

/**
 * Two bars crossing, for a bubble with ink on all four sides of its paper ring: the ink's spread across
 * its main direction is at least this share of its spread along it. A + over a wide bubble has its
 * upright bar cut short by the bubble's height (about 0.5 to 0.6, where CROSS_RATIO of stroke-marks.ts
 * wants 0.6); a tick is 0.3 to 0.5, one straight line under 0.25.
 */
export const ALL_SIDES_CROSS_RATIO = 0.45;

/**
 * Whether ink with this shape (stroke-marks.ts strokeShape) in a bubble with ink on all four sides of
 * its ring (`vertical` and `horizontal`) is two bars crossing: wide enough across, and no long
 * straight stroke runs into the bubble (two stray lines crossing in it would).
 */
export function crossOnAllSides(shape: number, vertical: boolean, horizontal: boolean, entry: () => StrayEntry): boolean {
  if (!vertical || !horizontal || shape < ALL_SIDES_CROSS_RATIO) return false;
  return entry().kind === 'none';
}
