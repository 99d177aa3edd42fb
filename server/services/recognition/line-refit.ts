/**
 * A stray line's band fitted again from the ink inside the bubble (issue 18). The band a line across a
 * bubble is left out with runs through the line's ink on the paper ring (bubble-reader.ts): where a
 * wide stroke ends just past the bubble, the ink it leaves on the ring there is its rounded, ragged end,
 * off its axis, and the band misses the line inside the bubble; the line is then read as a mark beside
 * its own band. The ink inside tells where the line runs: its principal axis. When a band along that
 * axis leaves nothing beside it, one straight stroke was all the ink; otherwise (a tick's other arm, a
 * fill) the ring's band stands.
 */
import type { Band } from './bubble-reader';
import type { InkPixel } from './dot-mark';
import { quantile } from './sample-stats';

/** The band half-width takes in this share of the ink's distances from the axis (a ragged edge, a speck). */
const HALF_QUANTILE = 0.9;
/** Too few ink pixels say nothing about an axis. */
const MIN_PIXELS = 12;

/**
 * A band (image pixels) along the principal axis of the ink pixels, `margin` pixels wider on each side
 * than nearly all of them lie from it; null with too few pixels, or when it would be wider than `maxHalf`.
 */
export function inkAxisBand(ink: readonly InkPixel[], margin: number, maxHalf: number): Band | null {
  if (ink.length < MIN_PIXELS) return null;
  const { x: mx, y: my, angle } = principalAxis(ink);
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  const half = quantile(
    ink.map((p) => Math.abs((p.x - mx) * nx + (p.y - my) * ny)),
    HALF_QUANTILE,
  );
  if (half > maxHalf) return null;
  return { x: mx, y: my, nx, ny, half: half + margin };
}

/**
 * How fully the ink pixels fill the band along their own axis (`inkAxisBand`, no margin), over their own
 * extent along it: 1 a solid bar, about 0.8 a solid stroke with rounded ends, less a tick's two arms or
 * scattered specks. Null with too few pixels, or when the band would be wider than `maxHalf` pixels.
 * `skip`: a band whose pixels were left out of the ink (a streak the bubble was read beside); its part
 * of the axis band is left out of the area too, or a stroke it crosses would look half empty.
 */
export function axisBandFill(ink: readonly InkPixel[], maxHalf: number, skip?: Band): number | null {
  const band = inkAxisBand(ink, 0, maxHalf);
  if (band === null) return null;
  let from = Infinity;
  let to = -Infinity;
  let inside = 0;
  for (const p of ink) {
    if (Math.abs((p.x - band.x) * band.nx + (p.y - band.y) * band.ny) > band.half) continue;
    const along = (p.x - band.x) * band.ny - (p.y - band.y) * band.nx;
    from = Math.min(from, along);
    to = Math.max(to, along);
    inside += 1;
  }
  return inside / (skip ? areaBeside(band, from, to, skip) : (2 * band.half + 1) * (to - from + 1));
}

/** The pixels of `band` between `from` and `to` along it that lie off `skip`, a pixel apart (at least 1). */
function areaBeside(band: Band, from: number, to: number, skip: Band): number {
  let area = 0;
  for (let along = from; along <= to + 0.5; along += 1) {
    for (let across = -band.half; across <= band.half + 0.5; across += 1) {
      const x = band.x + along * band.ny + across * band.nx;
      const y = band.y - along * band.nx + across * band.ny;
      if (Math.abs((x - skip.x) * skip.nx + (y - skip.y) * skip.ny) > skip.half) area += 1;
    }
  }
  return Math.max(1, area);
}

/**
 * The principal axis of a set of points: their centre, the angle (radians) of their largest spread, and
 * their variance across it (the smaller eigenvalue of their covariance).
 */
export function principalAxis(points: readonly { x: number; y: number }[]): {
  x: number;
  y: number;
  angle: number;
  across: number;
} {
  let mx = 0;
  let my = 0;
  for (const p of points) {
    mx += p.x;
    my += p.y;
  }
  mx /= points.length;
  my /= points.length;
  let xx = 0;
  let xy = 0;
  let yy = 0;
  for (const p of points) {
    xx += (p.x - mx) ** 2;
    xy += (p.x - mx) * (p.y - my);
    yy += (p.y - my) ** 2;
  }
  xx /= points.length;
  xy /= points.length;
  yy /= points.length;
  const angle = Math.atan2(2 * xy, xx - yy) / 2;
  const across = Math.max(0, (xx + yy) / 2 - Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy));
  return { x: mx, y: my, angle, across };
}
