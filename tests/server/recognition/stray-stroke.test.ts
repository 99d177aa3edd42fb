/**
 * Stray pencil strokes that run into a bubble from one side (held-out strayVariety: a line ending inside
 * an unmarked option read as a mark, scored unseen), told from answer marks that reach a little out of
 * their bubble (a checkmark's long arm, a cross) by how far they run on straight past it.
 */
import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../../server/services/recognition/grey-image';
import {
  bandRunsBetween,
  ringEntries,
  runOutOfBubble,
  strayEntry,
  STRAY_MIN_OUTSIDE_MM,
} from '../../../server/services/recognition/stray-stroke';

const PX_PER_MM = 10;
const t = { a: PX_PER_MM, b: 0, c: 0, d: PX_PER_MM, e: 0, f: 0 };
const bubble = { label: 'A', xMm: 20, yMm: 20, wMm: 5, hMm: 3.5 };
const centre = { x: 22.5, y: 21.75 };
const BELOW = 200;

/** A page of paper 240 (60 x 60 mm) with the bubble's printed outline. */
function page(): GreyImage {
  const width = 60 * PX_PER_MM;
  const img = { data: new Uint8Array(width * width).fill(240), width, height: width };
  for (let k = 0; k < 720; k += 1) {
    const a = (k * Math.PI) / 360;
    for (const o of [-0.1, 0, 0.1]) {
      dot(img, centre.x + (2.5 + o) * Math.cos(a), centre.y + (1.75 + o) * Math.sin(a), 30);
    }
  }
  return img;
}

function dot(img: GreyImage, xMm: number, yMm: number, grey: number) {
  const x = Math.round(xMm * PX_PER_MM);
  const y = Math.round(yMm * PX_PER_MM);
  if (x >= 0 && y >= 0 && x < img.width && y < img.height) img.data[y * img.width + x] = grey;
}

/** A straight stroke from one point to another (mm), `width` mm wide. */
function stroke(img: GreyImage, from: { x: number; y: number }, to: { x: number; y: number }, width: number, grey = 80) {
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  const [ux, uy] = [(to.x - from.x) / length, (to.y - from.y) / length];
  for (let s = 0; s <= length; s += 0.05) {
    for (let w = -width / 2; w <= width / 2; w += 0.05) dot(img, from.x + s * ux - w * uy, from.y + s * uy + w * ux, grey);
  }
}

describe('strayEntry', () => {
  it('finds nothing around an empty bubble or a fill that spills a little over its outline', () => {
    const img = page();
    expect(strayEntry(img, t, bubble, BELOW).kind).toBe('none');
    stroke(img, { x: 19.5, y: 21.75 }, { x: 25.5, y: 21.75 }, 3.6);
    expect(strayEntry(img, t, bubble, BELOW).kind).toBe('none');
  });

  it('finds a line that comes from far away and ends inside the bubble, and gives its band', () => {
    const img = page();
    // From 12 mm up and left, ending a millimetre past the centre.
    stroke(img, { x: 12, y: 14 }, { x: 23.3, y: 22.3 }, 0.3);
    const entry = strayEntry(img, t, bubble, BELOW);
    expect(entry.kind).toBe('line');
    if (entry.kind !== 'line') return;
    expect(entry.outsideMm).toBeGreaterThanOrEqual(STRAY_MIN_OUTSIDE_MM);
    // The band runs along the stroke: its end inside the bubble lies in it, the bubble's far side does not.
    const inBand = (p: { x: number; y: number }) =>
      Math.abs((p.x * PX_PER_MM - entry.band.x) * entry.band.nx + (p.y * PX_PER_MM - entry.band.y) * entry.band.ny) <=
      entry.band.half;
    expect(inBand({ x: 23.3, y: 22.3 })).toBe(true);
    expect(inBand({ x: 22.5, y: 20.2 })).toBe(false);
    expect(entry.band.half).toBeLessThan(0.6 * PX_PER_MM);
  });

  it('finds nothing for a checkmark whose long arm reaches a few millimetres out of the bubble', () => {
    const img = page();
    const vertex = { x: 22, y: 22.8 };
    stroke(img, { x: 20.8, y: 21.6 }, vertex, 0.35);
    // The long arm runs 4 mm past the outline, up and right.
    stroke(img, vertex, { x: 27.5, y: 18.2 }, 0.35);
    expect(strayEntry(img, t, bubble, BELOW).kind).toBe('none');
  });

  it('finds nothing for a cross reaching a little out of the bubble, nor a ring drawn around it', () => {
    const cross = page();
    stroke(cross, { x: 19.5, y: 19.5 }, { x: 25.5, y: 24 }, 0.4);
    stroke(cross, { x: 19.5, y: 24 }, { x: 25.5, y: 19.5 }, 0.4);
    expect(strayEntry(cross, t, bubble, BELOW).kind).toBe('none');
    const ring = page();
    for (let k = 0; k < 720; k += 1) {
      const a = (k * Math.PI) / 360;
      stroke(
        ring,
        { x: centre.x + 3.6 * Math.cos(a), y: centre.y + 2.8 * Math.sin(a) },
        { x: centre.x + 3.6 * Math.cos(a), y: centre.y + 2.8 * Math.sin(a) },
        0.4,
      );
    }
    expect(strayEntry(ring, t, bubble, BELOW).kind).toBe('none');
  });

  it('doubts a bubble two long lines run into, or one too wide to be a pencil line', () => {
    const two = page();
    stroke(two, { x: 12, y: 14 }, { x: 23, y: 22 }, 0.3);
    stroke(two, { x: 33, y: 14 }, { x: 22, y: 22 }, 0.3);
    expect(strayEntry(two, t, bubble, BELOW).kind).toBe('unsure');
    const wide = page();
    stroke(wide, { x: 12, y: 14 }, { x: 23, y: 22 }, 2);
    expect(strayEntry(wide, t, bubble, BELOW).kind).toBe('unsure');
  });

  it('leaves out a line already taken across the bubble, and still finds a second one crossing it there', () => {
    // An upright line down through the bubble and on for 10 mm each way; its band, in pixels.
    const img = page();
    stroke(img, { x: 22.5, y: 10 }, { x: 22.5, y: 34 }, 0.3);
    const band = { x: 22.5 * PX_PER_MM, y: 21.75 * PX_PER_MM, nx: 1, ny: 0, half: 0.15 * PX_PER_MM + 1.5 };
    expect(strayEntry(img, t, bubble, BELOW).kind).toBe('unsure');
    expect(strayEntry(img, t, bubble, BELOW, band).kind).toBe('none');
    // A second, level line from far right ending inside the bubble (two stray lines crossing in it).
    stroke(img, { x: 36, y: 22.2 }, { x: 22, y: 22.2 }, 0.3);
    expect(strayEntry(img, t, bubble, BELOW, band).kind).toBe('line');
  });
});

describe('ringEntries', () => {
  it('gives one entry per stroke crossing the ring, with the outward direction there', () => {
    const dark = (x: number, y: number) => Math.abs(y - 21.75) < 0.2 && x > 22.5;
    const entries = ringEntries(dark, centre, 2.5, 1.75);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.outward.x).toBeCloseTo(1, 1);
  });
});

describe('runOutOfBubble', () => {
  it('is 0 for ink that stays inside the bubble: a dot off centre, a fill up to its outline', () => {
    const img = page();
    stroke(img, { x: 22.4, y: 22.1 }, { x: 23.6, y: 22.1 }, 1.6);
    expect(runOutOfBubble(img, t, bubble, BELOW, 3)).toBe(0);
  });

  it('measures how far a stroke drawn from inside the bubble runs on past its outline, up to the limit', () => {
    const img = page();
    // From left of the centre, out to the lower right: about 4 mm past the outline, a wide pencil line.
    stroke(img, { x: 21.5, y: 21.5 }, { x: 27.5, y: 25 }, 1);
    const out = runOutOfBubble(img, t, bubble, BELOW, 10);
    expect(out).toBeGreaterThan(3);
    expect(out).toBeLessThan(5);
    expect(runOutOfBubble(img, t, bubble, BELOW, 1.5)).toBe(1.5);
  });
});

describe('bandRunsBetween', () => {
  // A second bubble down and to the left of the first, as the next row's option is.
  const next = { label: 'T', xMm: 12.5, yMm: 26, wMm: 5, hMm: 3.5 };
  const p = { t, inverse: { a: 1 / PX_PER_MM, b: 0, c: 0, d: 1 / PX_PER_MM, e: 0, f: 0 }, pxPerMm: PX_PER_MM };
  // The band of a line through both centres (image pixels), 0.3 mm either side of its axis.
  const [from, to] = [
    { x: centre.x * PX_PER_MM, y: centre.y * PX_PER_MM },
    { x: 15 * PX_PER_MM, y: 27.75 * PX_PER_MM },
  ];
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  const band = { x: from.x, y: from.y, nx: -(to.y - from.y) / length, ny: (to.x - from.x) / length, half: 3 };

  it('follows a line that runs on from one bubble into the next', () => {
    const img = page();
    stroke(img, { x: 27, y: 18.15 }, { x: 13, y: 29.35 }, 0.4);
    expect(bandRunsBetween(img, p, band, bubble, next, BELOW)).toBe(true);
  });

  it('stops at a line that ends short of the next bubble, whatever lies in that bubble along it', () => {
    const img = page();
    // Held-out strayVariety-642 q20: the line ends 2.5 mm short; a tick's arm in T lies along its extension.
    stroke(img, { x: 27, y: 18.15 }, { x: 20, y: 23.75 }, 0.4);
    stroke(img, { x: 16, y: 26.95 }, { x: 14, y: 28.55 }, 0.3);
    expect(bandRunsBetween(img, p, band, bubble, next, BELOW)).toBe(false);
  });
});
