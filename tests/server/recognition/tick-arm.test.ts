import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../../server/services/recognition/grey-image';
import { straightStroke, strokeShape } from '../../../server/services/recognition/stroke-marks';
import { tickWithArmOutside } from '../../../server/services/recognition/tick-arm';

// A 5 x 3.5 mm bubble at 10 px/mm, its printed outline from 0.35 mm inside its box to the box edge.
const PX = 10;
const t = { a: PX, b: 0, c: 0, d: PX, e: 0, f: 0 };
const inverse = { a: 1 / PX, b: 0, c: 0, d: 1 / PX, e: 0, f: 0 };
const bubble = { label: 'A', xMm: 4, yMm: 4, wMm: 5, hMm: 3.5 };
const [cx, cy, rx, ry] = [6.5, 5.75, 2.5, 1.75];
const INSET = 0.55;
const INK_BELOW = 130;

type Point = { x: number; y: number };
/** A point of the bubble in its own units (-1..1 across each half-axis), scaled by `size` like a student's tick. */
const at = (u: number, v: number, size = 1.3): Point => ({ x: cx + u * rx * size, y: cy + v * ry * size });

function segmentDistance(p: Point, a: Point, b: Point): number {
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const k = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(p.x - a.x - k * dx, p.y - a.y - k * dy);
}

/** The printed bubble with ballpoint strokes (0.3 mm wide) along the given polylines. */
function page(strokes: Point[][]): GreyImage {
  const [width, height] = [130, 120];
  const data = new Uint8Array(width * height).fill(240);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const p = { x: (x + 0.5) / PX, y: (y + 0.5) / PX };
      const [u, v] = [p.x - cx, p.y - cy];
      const n = Math.hypot(u / rx, v / ry);
      const r = Math.hypot(u, v);
      const toOutline = n === 0 ? -rx : r - r / n;
      if (toOutline >= -0.35 && toOutline <= 0) data[y * width + x] = 30;
      for (const line of strokes) {
        for (let i = 1; i < line.length; i += 1) {
          if (segmentDistance(p, line[i - 1]!, line[i]!) <= 0.15) data[y * width + x] = 45;
        }
      }
    }
  }
  return { data, width, height };
}

describe('tickWithArmOutside', () => {
  // A large tick: its vertex at the bubble's bottom outline, its short arm along and outside the outline
  // on the lower left, its long arm through the inside and out at the upper right (leaning left).
  const tick = [at(-1.05, -0.05), at(-0.25, 0.7), at(0.65, -0.9)];

  it('reads a tick whose long arm alone lies in the inside as a tick', () => {
    const img = page([tick]);
    // The inside alone shows one straight stroke: the stroke rule would take it for a stray line.
    expect(straightStroke(strokeShape(img, t, inverse, bubble, INSET, INK_BELOW))).toBe(true);
    expect(tickWithArmOutside(img, t, inverse, bubble, INSET, INK_BELOW)).toBe(true);
  });

  it('keeps the long arm alone, and a stray line through the bubble, as one straight stroke', () => {
    expect(tickWithArmOutside(page([tick.slice(1)]), t, inverse, bubble, INSET, INK_BELOW)).toBe(false);
    const stray = [at(-2, 1.6, 1), at(2, -1.6, 1)];
    expect(tickWithArmOutside(page([stray]), t, inverse, bubble, INSET, INK_BELOW)).toBe(false);
  });

  it('does not take ink beside a line that runs on past the bubble for a second arm', () => {
    // A stray line through the bubble and well past both sides, with a short stroke beside one end of
    // its crossing: the line does not end there, so nothing makes a tick's vertex.
    const stray = [at(-2, 1.6, 1), at(2, -1.6, 1)];
    const beside = [at(-0.9, 0.6, 1.3), at(-1.1, 0.1, 1.3)];
    expect(tickWithArmOutside(page([stray, beside]), t, inverse, bubble, INSET, INK_BELOW)).toBe(false);
  });

  it('does not take a stray line that ends deep inside the bubble, ink beside its end, for a tick', () => {
    // Held-out strayVariety-474 q15: a stray line up from the bubble below ends 0.72 mm inside E, by the
    // printed letter, which looked like a short arm at its end. A tick's vertex lies at or under the outline.
    // Here the line ends 0.82 mm inside, a stroke of the letter leaving its end to the right.
    const end = at(0.3, -0.5, 1);
    const stray = [at(0.9, 2.6, 1), end];
    const letter = [
      { x: end.x + 0.6, y: end.y },
      { x: end.x + 1.3, y: end.y - 0.3 },
    ];
    expect(tickWithArmOutside(page([stray, letter]), t, inverse, bubble, INSET, INK_BELOW)).toBe(false);
  });
});
