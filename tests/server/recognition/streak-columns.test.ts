import { describe, expect, it } from 'vitest';
import { readObjective } from '../../../server/services/recognition/bubble-reader';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import { brightColumns, seenConfidence } from '../../../server/services/recognition/streak-columns';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import { randomMarks, renderSyntheticSheet, sheetFixture, standardSpec, type SheetMark } from '../../support/synthetic-sheets';

/** Paper of grey 240 with noise of a few levels, 200 x 400 pixels, with printed lines across it every 40 rows. */
function paper(): GreyImage {
  const random = seededRandom(3);
  const width = 200;
  const height = 400;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) data[y * width + x] = y % 40 < 3 ? 30 : Math.round(240 + (random() - 0.5) * 12);
  }
  return { data, width, height };
}

describe('brightColumns', () => {
  it('finds a dead pixel of the sensor: a column brighter than the paper nearly all the way down, through printed lines', () => {
    const img = paper();
    for (let y = 0; y < img.height; y += 1) for (let x = 100; x < 104; x += 1) img.data[y * img.width + x] = 255;
    expect(brightColumns(img, 50, 150, 200, 300, 243)).toEqual([[100, 103]]);
  });

  it('finds nothing in paper with noise, or where the paper is as bright as the streak', () => {
    const img = paper();
    expect(brightColumns(img, 0, 199, 200, 300, 243)).toEqual([]);
    for (let y = 0; y < img.height; y += 1) for (let x = 100; x < 104; x += 1) img.data[y * img.width + x] = 255;
    expect(brightColumns(img, 50, 150, 200, 300, 255)).toEqual([]);
  });

  it('needs enough rows to judge', () => {
    const img = paper();
    for (let y = 0; y < img.height; y += 1) img.data[y * img.width + 100] = 255;
    expect(brightColumns(img, 90, 110, 200, 10, 243)).toEqual([]);
  });
});

describe('seenConfidence', () => {
  it('is certain from enough of the bubble seen, and below it never enough to score unseen', () => {
    expect(seenConfidence(0.7, 0.4)).toBe(1);
    expect(seenConfidence(0.4, 0.4)).toBe(1);
    expect(seenConfidence(0.3, 0.4)).toBeLessThan(LOW_CONFIDENCE);
    expect(seenConfidence(0.39, 0.4)).toBeLessThan(LOW_CONFIDENCE);
    expect(seenConfidence(0.2, 0.4)).toBeLessThan(LOW_CONFIDENCE);
    expect(seenConfidence(-0.1, 0.4)).toBe(0);
  });
});

describe('readObjective beside streaks down a bubble column', () => {
  const fixture = sheetFixture(standardSpec());
  const page = fixture.template.pages[0]!;
  // At 300 dpi the inside of a 5 mm bubble is 46 pixels wide: a streak of 18 leaves about half of it,
  // one of 25 about 30 % (under MIN_SEEN_SHARE: a small mark could hide under it).
  const cases = [
    { name: 'a dark streak of 18 px', px: 18, grey: 40 },
    { name: 'a white streak of 12 px (a dead sensor pixel)', px: 12, grey: 255 },
    { name: 'a white streak of 4 px', px: 4, grey: 255 },
  ];
  const read = async (seed: number, px: number, grey: number) => {
    const marks: SheetMark[] = randomMarks(page, seededRandom(seed));
    // Through a column of marks: a fill the streak runs through, and empty bubbles of that letter.
    const on = marks.find((m) => m.style === 'solid')!;
    const sheet = await renderSyntheticSheet(fixture, {
      marks,
      seed,
      degrade: { columnStreaks: 1, columnStreakOn: on, columnStreakPx: px, columnStreakGrey: grey, noise: 3 },
    });
    return { sheet, on, read: readObjective(await decodeGrey(sheet.jpeg), sheet.transform, page.objective, 22) };
  };
  for (const c of cases) {
    it(`${c.name}: every reading right and sure, the crossed bubbles read on what is left of them`, async () => {
      for (const seed of c.px === 18 ? [51, 52] : [51]) {
        const { sheet, on, read: result } = await read(seed, c.px, c.grey);
        expect(result.streaks).toHaveLength(1);
        const crossed = result.measures.flatMap((m) => m.bubbles.filter((b) => b.streak));
        expect(crossed.length).toBeGreaterThanOrEqual(4);
        for (const b of crossed) expect(b.line).toBe(false);
        for (const r of result.readings) {
          expect(r.marked, `question ${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
          expect(r.confidence, `question ${r.questionNo}`).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
        }
        // The fill under the streak reads as a fill on the rest of it (a white streak took ink out of it).
        const fill = result.measures.find((m) => m.questionNo === on.questionNo)!.bubbles.find((b) => b.label === on.label)!;
        expect(fill.ink).toBeGreaterThan(0.9);
      }
    });
  }

  it('a streak too wide to leave enough of the bubbles (25 px dark or light, 34 px): the questions of the empty ones go to review, none read wrong unseen', async () => {
    for (const [seed, px, grey] of [
      [51, 25, 60],
      [52, 25, 180],
      [51, 34, 50],
      [52, 34, 50],
    ] as const) {
      const { sheet, read: result } = await read(seed, px, grey);
      // An empty bubble a streak hides most of could hide a small mark (a fill still shows beside it).
      const crossedQuestions = result.measures
        .filter((m) => m.bubbles.some((b) => b.streak && b.ink < 0.5))
        .map((m) => m.questionNo);
      expect(crossedQuestions.length).toBeGreaterThanOrEqual(4);
      for (const r of result.readings) {
        const right = JSON.stringify(r.marked) === JSON.stringify(sheet.expected.get(r.questionNo));
        if (!right || crossedQuestions.includes(r.questionNo))
          expect(r.confidence, `question ${r.questionNo}`).toBeLessThan(LOW_CONFIDENCE);
      }
    }
  });
});
