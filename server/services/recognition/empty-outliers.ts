/**
 * Empty-read bubbles far outside the page's empty population (issue 18). A scan's gamma or contrast can
 * leave a pencil mark so light that it carries no ink and darkens its bubble less than the absolute
 * doubt start of an empty bubble (bubble-reader.ts `EMPTY_FILL_START`, there for scans whose empty
 * bubbles vary a lot): on a held-out sheet two true/false answers rose 0.047 and 0.071 above an empty
 * level whose spread was 0.004, read empty with certainty. Such a bubble is a mark or a smudge; which
 * one, a person decides when it sits both far outside the empty bubbles (in spreads) and not far under
 * the page's own lightest mark. On the accuracy bench's degraded scans the empty bubbles that far out
 * (8-11 spreads) sat at 0.17-0.26 of the page's lightest mark but for one at 0.41; the two light
 * marks at 0.42 and 0.63. A bubble with light strokes in its core (bubble-reader.ts `lightStrokeCaps`)
 * is doubtful from fewer spreads, whatever the page's lightest mark: a light tick over D on a held-out
 * gamma-lifted sheet rose 6.9 spreads, its strokes just short of the review line (0.624), while every
 * empty-read bubble of the accuracy bench with both was held already. So is a bubble read beside a line
 * through it that keeps ink there: on a held-out sheet a stray line ran into a tick's vertex, the two
 * read as one line with the long arm; the short arm left beside it rose 5 spreads (0.621).
 */

/** An empty bubble rising more than this many of the page's empty spreads above its empty level... */
export const OUTLIER_SPREADS = 8;
/** ...and more than this (a scan with a tight empty population still has specks of dust)... */
export const OUTLIER_MIN_RISE = 0.03;
/** ...and more than this share of the page's lightest mark's rise is doubtful. */
export const OUTLIER_OF_LIGHTEST = 0.35;
/** ... or, with light strokes in it, more than this many spreads (and `OUTLIER_MIN_RISE`). */
export const STROKES_OUTLIER_SPREADS = 4;
/** Its confidence: under the review line. */
export const OUTLIER_CONFIDENCE = 0.5;

/**
 * The cap for an empty-read bubble by its rise above its (local) empty level, with light `strokes` in it
 * or not, on a page whose empty fills spread `emptySpread` and whose marks rise `markRises` above the
 * empty level: `OUTLIER_CONFIDENCE` for an outlier as above, else 1. A page with no mark has no lightest
 * mark to compare with: only a bubble with strokes can be an outlier there.
 */
export function emptyOutlierCap(emptySpread: number, markRises: readonly number[]): (rise: number, strokes: boolean) => number {
  const start =
    markRises.length === 0
      ? Infinity
      : Math.max(OUTLIER_MIN_RISE, OUTLIER_SPREADS * emptySpread, OUTLIER_OF_LIGHTEST * Math.min(...markRises));
  const strokesStart = Math.max(OUTLIER_MIN_RISE, STROKES_OUTLIER_SPREADS * emptySpread);
  return (rise, strokes) => (rise > (strokes ? strokesStart : start) ? OUTLIER_CONFIDENCE : 1);
}
