import { describe, expect, it } from 'vitest';
import { readObjective } from '../../../server/services/recognition/bubble-reader';
import { insideInk, isSolidDot } from '../../../server/services/recognition/dot-mark';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import {
  RAY_START_MM,
  RING_DIRECTIONS,
  RING_PARTIAL,
  RING_SURE,
  nearbyOutlines,
  ringConfidence,
  ringCover,
  ringHits,
} from '../../../server/services/recognition/ring-mark';
import type { Bubble } from '../../../src/shared/contract/answer-sheet';
import { LOW_CONFIDENCE, type AffineTransform } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import { randomMarks, renderSyntheticSheet, sheetFixture, standardSpec, type SheetMark } from '../../support/synthetic-sheets';

/** 12 pixels per template millimetre, no rotation. */
const PX = 12;
const t: AffineTransform = { a: PX, b: 0, c: 0, d: PX, e: 0, f: 0 };
const inverse: AffineTransform = { a: 1 / PX, b: 0, c: 0, d: 1 / PX, e: 0, f: 0 };
const WHITE = 240;
const BLACK = 20;

/** A row of three 5 x 3.5 mm bubbles, 7.5 mm apart, as the sheets print them. */
const row: Bubble[] = ['A', 'B', 'C'].map((label, i) => ({ label, xMm: 5 + 7.5 * i, yMm: 6, wMm: 5, hMm: 3.5 }));
const [left, middle, right] = row as [Bubble, Bubble, Bubble];

/** A blank 30 x 16 mm page with the bubbles' printed outlines; `draw` darkens pixels (template mm in, grey out or null). */
function sheet(draw: (xMm: number, yMm: number) => number | null): GreyImage {
  const width = 30 * PX;
  const height = 16 * PX;
  const data = new Uint8Array(width * height).fill(WHITE);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [u, v] = [x / PX, y / PX];
      for (const b of row) {
        const r = Math.hypot((u - b.xMm - b.wMm / 2) / (b.wMm / 2), (v - b.yMm - b.hMm / 2) / (b.hMm / 2));
        if (Math.abs(r - 1) * (b.hMm / 2) < 0.15) data[y * width + x] = 60;
      }
      const ink = draw(u, v);
      if (ink !== null) data[y * width + x] = Math.min(data[y * width + x]!, ink);
    }
  }
  return { data, width, height };
}

const centre = (b: Bubble) => ({ x: b.xMm + b.wMm / 2, y: b.yMm + b.hMm / 2 });

/** A pencil ring (0.4 mm wide) of semi-axes rx, ry around a point, open over `gapDeg` degrees. */
function ring(at: { x: number; y: number }, rx: number, ry: number, gapDeg = 0) {
  return (u: number, v: number) => {
    const angle = (Math.atan2((v - at.y) / ry, (u - at.x) / rx) * 180) / Math.PI + 180;
    if (angle < gapDeg) return null;
    const r = Math.hypot((u - at.x) / rx, (v - at.y) / ry);
    return Math.abs(r - 1) * Math.min(rx, ry) < 0.2 ? 50 : null;
  };
}

const coverOf = (img: GreyImage, b: Bubble) => ringCover(ringHits(img, t, b, nearbyOutlines(b, row), 185));

describe('ringCover: how much of the way round one curve of ink goes', () => {
  const all = (r: number) => Array.from({ length: RING_DIRECTIONS }, () => r);

  it('is 1 for a closed ring, and passes over a single direction that found nothing', () => {
    expect(ringCover(all(0.8))).toBe(1);
    const broken = all(0.8).map((r, i) => (i === 10 ? null : r));
    expect(ringCover(broken)).toBe(1);
  });

  it('is 0 for ink found only at the start of the rays all round (the printed outline), not when a ring touches it on one side', () => {
    expect(ringCover(all(RAY_START_MM))).toBe(0);
    expect(ringCover(all(0.6).map((r, i) => (i < 24 ? RAY_START_MM + 0.1 * Math.sin((i * Math.PI) / 24) : r)))).toBe(1);
  });

  it('counts an open ring by its arc, and a jump in distance breaks the curve', () => {
    const open = all(0.8).map((r, i) => (i < 8 ? null : r));
    expect(ringCover(open)).toBeCloseTo(40 / 48, 5);
    const jumps = all(0.8).map((r, i) => (i < 24 ? r : 2.2));
    expect(ringCover(jumps)).toBeLessThanOrEqual(0.5);
  });

  it('is small for a line met in a few directions and for scattered noise', () => {
    expect(ringCover(all(0.8).map((r, i) => (i >= 4 && i < 12 ? r : null)))).toBeLessThan(RING_PARTIAL);
    const random = seededRandom(3);
    const noise = all(0).map(() => (random() < 0.5 ? random() * 2 : null));
    expect(ringCover(noise)).toBeLessThan(RING_PARTIAL);
  });
});

describe('ringConfidence', () => {
  it('is sure from RING_SURE, falls to the floor at RING_PARTIAL, and is 0 for no ring', () => {
    expect(ringConfidence(1, 0.3)).toBe(1);
    expect(ringConfidence(RING_SURE, 0.3)).toBeCloseTo(1, 5);
    expect(ringConfidence(RING_PARTIAL, 0.3)).toBeCloseTo(0.3, 5);
    expect(ringConfidence(0.6, 0.3)).toBeLessThan(LOW_CONFIDENCE);
    // An open ring is never sure enough to be scored unseen: two stray lines crossing beside a bubble
    // can pass for two thirds of one.
    expect(ringConfidence(RING_SURE - 0.01, 0.3)).toBeLessThan(LOW_CONFIDENCE);
    expect(ringConfidence(0.65, 0.3)).toBeLessThan(LOW_CONFIDENCE);
    expect(ringConfidence(RING_PARTIAL - 0.01, 0.3)).toBe(0);
  });
});

describe('ringHits: a ring around a bubble, told from what passes near it', () => {
  it('finds a ring around the middle bubble, closed or open by 40 degrees, and gives it to that bubble alone', () => {
    for (const gap of [0, 40]) {
      const img = sheet(ring(centre(middle), 3.6, 2.6, gap));
      expect(coverOf(img, middle), `gap ${gap}`).toBeGreaterThanOrEqual(RING_SURE);
      // The ring grazes its neighbours' paper on one side only.
      expect(coverOf(img, left)).toBeLessThan(RING_PARTIAL);
      expect(coverOf(img, right)).toBeLessThan(RING_PARTIAL);
    }
  });

  it('finds no ring where there is none: a clean row, a stray line past a bubble, a dark shadow', () => {
    expect(
      coverOf(
        sheet(() => null),
        middle,
      ),
    ).toBe(0);
    const line = sheet((_u, v) => (Math.abs(v - 4.6) < 0.2 ? 60 : null));
    expect(coverOf(line, middle)).toBeLessThan(RING_PARTIAL);
    const twoLines = sheet((_u, v) => (Math.abs(v - 4.6) < 0.2 || Math.abs(v - 11.4) < 0.2 ? 60 : null));
    expect(coverOf(twoLines, middle)).toBeLessThan(RING_PARTIAL);
    const shadow = sheet(() => 90);
    expect(coverOf(shadow, middle)).toBe(0);
  });

  it('finds no ring in the printed outline itself, seen outside where the fit is off or too small', () => {
    const outline = (dx: number, grow: number) => (u: number, v: number) => {
      const { x, y } = centre(middle);
      const r = Math.hypot((u - x - dx) / (middle.wMm / 2 + grow), (v - y) / (middle.hMm / 2 + grow));
      return Math.abs(r - 1) * (middle.hMm / 2) < 0.15 ? 60 : null;
    };
    expect(coverOf(sheet(outline(0.45, 0)), middle)).toBeLessThan(RING_PARTIAL);
    expect(coverOf(sheet(outline(0, 0.45)), middle)).toBeLessThan(RING_PARTIAL);
  });

  it('does not take a ring round two bubbles for a ring round either', () => {
    const both = { x: (centre(left).x + centre(middle).x) / 2, y: centre(left).y };
    const img = sheet(ring(both, 7.5, 2.7));
    expect(coverOf(img, left)).toBeLessThan(RING_SURE);
    expect(coverOf(img, middle)).toBeLessThan(RING_SURE);
  });
});

describe('isSolidDot: a small, round, dark dot in a bubble', () => {
  const inkOf = (img: GreyImage, b: Bubble) => insideInk(img, t, inverse, b, 0.55, WHITE, BLACK);
  const blob = (r: number, grey: number) => (u: number, v: number) =>
    Math.hypot(u - centre(middle).x, v - centre(middle).y) <= r ? grey : null;

  it('is a dot from 0.8 mm across, dark', () => {
    expect(isSolidDot(inkOf(sheet(blob(0.5, 50)), middle), PX)).toBe(true);
    expect(isSolidDot(inkOf(sheet(blob(0.75, 80)), middle), PX)).toBe(true);
  });

  it('is no dot for a speck of dust, a grey, a thin stroke, a tick, or speckle', () => {
    expect(isSolidDot(inkOf(sheet(blob(0.2, 30)), middle), PX)).toBe(false);
    expect(isSolidDot(inkOf(sheet(blob(0.7, 120)), middle), PX)).toBe(false);
    const stroke = sheet((u, v) => (Math.abs(v - centre(middle).y) < 0.2 && Math.abs(u - centre(middle).x) < 1.5 ? 40 : null));
    expect(isSolidDot(inkOf(stroke, middle), PX)).toBe(false);
    const { x, y } = centre(middle);
    const tick = sheet((u, v) => {
      const short = u < x - 0.3 && u > x - 1.2 && Math.abs(v - y - (u - x + 0.3)) < 0.2;
      const long = u >= x - 0.3 && u < x + 1.3 && Math.abs(v - y + (u - x + 0.3) * 0.8) < 0.2;
      return short || long ? 40 : null;
    });
    expect(isSolidDot(inkOf(tick, middle), PX)).toBe(false);
    const speckle = sheet((u, v) => (Math.round(u * PX) % 5 === 0 && Math.round(v * PX) % 5 === 0 ? 0 : null));
    expect(isSolidDot(inkOf(speckle, middle), PX)).toBe(false);
  });
});

describe('readObjective on generated pages of rings and dots', () => {
  const fixture = sheetFixture(standardSpec());
  const page = fixture.template.pages[0]!;

  for (const style of ['ring', 'dot'] as const) {
    it(`reads ${style}s (among fills) right and surely, on every question`, async () => {
      for (const seed of [41, 42]) {
        const marks = randomMarks(page, seededRandom(seed), { [style]: seed === 41 ? 1 : 0.5 });
        const sheet = await renderSyntheticSheet(fixture, { marks, seed, degrade: { noise: 4, blur: 0.5 } });
        const img = await decodeGrey(sheet.jpeg);
        const { readings } = readObjective(img, sheet.transform, page.objective, 22);
        for (const r of readings) {
          expect(r.marked, `seed ${seed} question ${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
          expect(r.confidence, `seed ${seed} question ${r.questionNo}`).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
        }
      }
    });
  }

  it('holds a ring beside a fill on a single-choice question as two marks', async () => {
    const marks: SheetMark[] = [
      { questionNo: 1, label: 'A', style: 'solid' },
      { questionNo: 1, label: 'C', style: 'ring' },
      { questionNo: 2, label: 'B', style: 'ring' },
    ];
    const sheet = await renderSyntheticSheet(fixture, { marks, seed: 43, degrade: { noise: 3 } });
    const img = await decodeGrey(sheet.jpeg);
    const { readings, problems } = readObjective(img, sheet.transform, page.objective, 22);
    expect(readings.find((r) => r.questionNo === 1)!.marked).toEqual(['A', 'C']);
    expect(problems).toContainEqual(expect.objectContaining({ kind: 'multipleMarks', questionNo: 1 }));
    expect(readings.find((r) => r.questionNo === 2)!.marked).toEqual(['B']);
    expect(readings.find((r) => r.questionNo === 2)!.confidence).toBe(1);
  });
});
