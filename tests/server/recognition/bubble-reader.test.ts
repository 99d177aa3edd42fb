import { beforeAll, describe, expect, it } from 'vitest';
import {
  FALLBACK_INK,
  MIN_MARK_RISE,
  bubbleConfidence,
  columnBand,
  emptyPopulation,
  erasuresBesideMarks,
  findStreaks,
  greyBesideFirmMarks,
  isMarked,
  localEmptyModel,
  measureBubble,
  onlyFillsBeside,
  pageModel,
  pageThreshold,
  readObjective,
  riseConfidence,
} from '../../../server/services/recognition/bubble-reader';
import { applyAffine, invertAffine } from '../../../server/services/recognition/affine-fit';
import { rubberSmear } from '../../../server/services/recognition/rubbed-marks';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import {
  randomMarks,
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type Degradation,
  type MarkMix,
  type SheetMark,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

/** A page's bubbles as (ink, fill): `empty` empty ones near zero, then the given marks. */
function page(empty: number, marks: { ink: number; fill: number }[]) {
  const random = seededRandom(5);
  const bubbles = Array.from({ length: empty }, () => ({ ink: random() * 0.004, fill: 0.05 + random() * 0.03 }));
  return [...bubbles, ...marks];
}

describe('emptyPopulation and pageThreshold', () => {
  it('takes the empty level from the lower quartile and splits at the first clear gap above it', () => {
    const inks = [0, 0.001, 0.002, 0, 0.003, 0.001, 0.22, 0.25, 0.95, 1];
    const empty = emptyPopulation(inks);
    expect(empty.level).toBeLessThan(0.005);
    const t = pageThreshold(inks, empty);
    // Ticks at 0.22 are the page's first marks: the split is below them, not in the wide gap above.
    expect(t.fallback).toBe(false);
    expect(t.threshold).toBeGreaterThan(MIN_MARK_RISE);
    expect(t.threshold).toBeLessThan(0.22);
  });

  it('falls back when nothing rises clearly above the empty level', () => {
    const inks = [0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11];
    const t = pageThreshold(inks, emptyPopulation(inks));
    expect(t.fallback).toBe(true);
    expect(t.threshold).toBe(FALLBACK_INK);
  });
});

describe('bubbleConfidence against both populations of the page', () => {
  it('reads a page of consistent ticks as surely as a page of fills', () => {
    const ticks = page(
      60,
      Array.from({ length: 20 }, (_, i) => ({ ink: 0.2 + (i % 5) * 0.02, fill: 0.22 })),
    );
    const model = pageModel(ticks);
    for (const b of ticks.slice(60)) {
      expect(isMarked(b, model)).toBe(true);
      expect(bubbleConfidence(b, model)).toBeGreaterThanOrEqual(0.9);
    }
    for (const b of ticks.slice(0, 60)) expect(bubbleConfidence(b, model)).toBe(1);
  });

  it('reads a page of consistent light marks (fill without ink) confidently', () => {
    const light = page(
      60,
      Array.from({ length: 20 }, (_, i) => ({ ink: 0.01, fill: 0.45 + (i % 4) * 0.03 })),
    );
    const model = pageModel(light);
    for (const b of light.slice(60)) {
      expect(isMarked(b, model)).toBe(true);
      expect(bubbleConfidence(b, model)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    }
  });

  it('never trusts a grey fill half way between the empty and the marked bubbles of its page', () => {
    const bubbles = page(60, [...Array.from({ length: 19 }, () => ({ ink: 1, fill: 0.85 })), { ink: 0, fill: 0.42 }]);
    const model = pageModel(bubbles);
    expect(bubbleConfidence({ ink: 0, fill: 0.42 }, model)).toBeLessThan(LOW_CONFIDENCE);
    expect(bubbleConfidence({ ink: 0, fill: 0.3 }, model)).toBeLessThan(LOW_CONFIDENCE);
    expect(bubbleConfidence({ ink: 1, fill: 0.85 }, model)).toBe(1);
  });

  it('reads a light pencil mark among fills when it stands well above what a rubber leaves', () => {
    const bubbles = page(60, [...Array.from({ length: 19 }, () => ({ ink: 1, fill: 0.85 })), { ink: 0.01, fill: 0.5 }]);
    const model = pageModel(bubbles);
    expect(isMarked({ ink: 0.01, fill: 0.5 }, model)).toBe(true);
    expect(bubbleConfidence({ ink: 0.01, fill: 0.5 }, model)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    // A little ink above the page's ink threshold does not make a firm fill less sure.
    expect(bubbleConfidence({ ink: 0.1, fill: 0.5 }, model)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it('reads the grey a rubber left beside a firm mark of the same question as empty, and doubts it alone', () => {
    const bubbles = page(
      60,
      Array.from({ length: 20 }, () => ({ ink: 1, fill: 0.85 })),
    );
    const model = pageModel(bubbles);
    const bubble = (ink: number, fill: number, specks = 0) => ({ ink, fill, specks, line: false });
    const solid = bubble(1, 0.85);
    const grey = bubble(0, 0.36);
    expect([...erasuresBesideMarks([solid, grey, bubble(0, 0.06), bubble(0, 0.07)], model)]).toEqual([grey]);
    // Alone on its question: rubbed out or marked lightly, nothing says which.
    expect(erasuresBesideMarks([grey, bubble(0, 0.06), bubble(0, 0.07)], model).size).toBe(0);
    expect(bubbleConfidence(grey, model)).toBeLessThan(LOW_CONFIDENCE);
    // Pencil (ink or speckle) or a mark darker than an erasure is never taken for one.
    expect(erasuresBesideMarks([solid, bubble(0.1, 0.36)], model).size).toBe(0);
    expect(erasuresBesideMarks([solid, bubble(0, 0.3, 30)], model).size).toBe(0);
    expect(erasuresBesideMarks([solid, bubble(0, 0.45)], model).size).toBe(0);
    expect(erasuresBesideMarks([solid, { ...grey, line: true }], model).size).toBe(0);
  });

  it('never takes a grey nearly as dark as the firm mark beside it for an erasure (two light marks)', () => {
    const bubbles = page(
      60,
      Array.from({ length: 20 }, () => ({ ink: 1, fill: 0.85 })),
    );
    const model = pageModel(bubbles);
    const bubble = (ink: number, fill: number) => ({ ink, fill, specks: 0, line: false });
    // A light mark with pencil ink (a firm reading) and, beside it, a second one lighter still: on a
    // degraded scan a real second mark of light pencil keeps no ink and reads grey 0.33.
    const light = bubble(0.9, 0.47);
    const second = bubble(0, 0.33);
    expect(bubbleConfidence(light, model)).toBe(1);
    expect(erasuresBesideMarks([light, second, bubble(0, 0.06), bubble(0, 0.07)], model).size).toBe(0);
    // So the question is held back, whatever its type.
    expect(bubbleConfidence(second, model)).toBeLessThan(LOW_CONFIDENCE);
    // Beside a firm fill the same grey is far lighter than the mark: what a rubber leaves.
    expect([...erasuresBesideMarks([bubble(1, 0.85), second], model)]).toEqual([second]);

    // On a page of light pencil the grey alone would read as a sure mark (it sits high between the
    // page's empty and marked levels); beside a light firm mark it is a second mark or an erasure,
    // and readObjective never trusts it.
    const lightPage = pageModel(
      page(
        60,
        Array.from({ length: 20 }, () => ({ ink: 0.9, fill: 0.47 })),
      ),
    );
    const grey = bubble(0, 0.36);
    expect(bubbleConfidence(grey, lightPage)).toBe(1);
    expect([...greyBesideFirmMarks([bubble(0.9, 0.47), grey, bubble(0, 0.06)], lightPage)]).toEqual([[grey, 'second']]);
    // A grey a little darker than what a rubber leaves, beside a fill on such a page: as doubtful as
    // its rise alone makes it (a half-erased mark of grey 150 reads about 0.35 above the empty level).
    const darker = bubble(0, lightPage.emptyFill.level + 0.35);
    expect(bubbleConfidence(darker, lightPage)).toBe(1);
    expect([...greyBesideFirmMarks([bubble(1, 0.85), darker], lightPage)]).toEqual([[darker, 'second']]);
    expect(riseConfidence(0.35)).toBeLessThan(LOW_CONFIDENCE);
    // Light pencil well above that (0.38 and more on a clean scan) stays a sure mark.
    expect(riseConfidence(0.38)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    expect(greyBesideFirmMarks([bubble(1, 0.85), bubble(0, lightPage.emptyFill.level + 0.43)], lightPage).size).toBe(0);
  });

  it('knows a question whose other marks are all fills', () => {
    const marks = Array.from({ length: 20 }, (_, i) => (i % 2 ? { ink: 1, fill: 0.85 } : { ink: 0.23, fill: 0.29 }));
    const model = pageModel(page(60, marks));
    const bubble = (ink: number, fill: number, line = false) => ({ ink, fill, specks: 0, line });
    const empty = model.emptyFill.level;
    const grey = bubble(0.04, empty + 0.14);
    const fill = bubble(1, 0.85);
    // A tick whose fill rises 0.23 (a blurred photo's tick): marked, but no fill.
    const tick = bubble(0.23, empty + 0.23);
    expect(isMarked(tick, model)).toBe(true);
    expect(onlyFillsBeside(grey, [fill, grey, bubble(0, empty)], model)).toBe(true);
    expect(onlyFillsBeside(grey, [tick, grey], model)).toBe(false);
    expect(onlyFillsBeside(grey, [fill, tick, grey], model)).toBe(false);
    // Nothing beside it; a mark a line runs through says nothing of the student's own.
    expect(onlyFillsBeside(grey, [grey, bubble(0, empty)], model)).toBe(false);
    expect(onlyFillsBeside(grey, [fill, { ...tick, line: true }, grey], model)).toBe(true);
  });

  it('holds back a light second mark beside a fill on a multiple-choice question (a legal second answer)', () => {
    const bubbles = page(
      60,
      Array.from({ length: 20 }, () => ({ ink: 1, fill: 0.85 })),
    );
    const model = pageModel(bubbles);
    const bubble = (ink: number, fill: number, specks = 0) => ({ ink, fill, specks, line: false });
    // Light pencil on a degraded scan: grey as dark as 0.42 to 0.45 with little or no ink left.
    for (const faint of [bubble(0, 0.42), bubble(0.02, 0.45), bubble(0.004, 0.43, 1)]) {
      const question = [bubble(1, 0.82), faint, bubble(0, 0.06), bubble(0, 0.07), bubble(0, 0.06)];
      expect(erasuresBesideMarks(question, model).size).toBe(0);
      // Read as a mark or as empty, it is never certain: the question goes to review.
      expect(bubbleConfidence(faint, model)).toBeLessThan(LOW_CONFIDENCE);
    }
  });

  it('doubts an empty-looking bubble with speckle on a page whose empty bubbles have none', () => {
    const bubbles = page(
      60,
      Array.from({ length: 20 }, () => ({ ink: 1, fill: 1 })),
    );
    const model = pageModel(bubbles);
    expect(isMarked({ ink: 0.03, fill: 0.03 }, model)).toBe(false);
    expect(bubbleConfidence({ ink: 0.03, fill: 0.03 }, model)).toBeLessThan(LOW_CONFIDENCE);
    expect(bubbleConfidence({ ink: 0.002, fill: 0.06 }, model)).toBe(1);
  });
});

describe('localEmptyModel: calibration on the unmarked bubbles around a bubble', () => {
  const bubbles = page(
    60,
    Array.from({ length: 20 }, () => ({ ink: 1, fill: 0.85 })),
  ).map((b) => ({ ...b, specks: 0 }));
  const model = pageModel(bubbles);
  const grid = (ink: number, specks: number, count = 12) =>
    Array.from({ length: count }, (_, i) => ({
      b: { ink, fill: 0.08, specks },
      x: 10 + (i % 4) * 7.5,
      y: 10 + Math.floor(i / 4) * 6,
    }));
  const at = { xMm: 15, yMm: 15, wMm: 5, hMm: 3.5 };
  const outlineTrace = { ink: 0.03, fill: 0.09, specks: 6 };

  it('does not doubt an empty bubble that carries what its neighbours all carry (a photo region a little off)', () => {
    expect(bubbleConfidence(outlineTrace, model)).toBeLessThan(LOW_CONFIDENCE);
    const local = localEmptyModel(outlineTrace, at, grid(0.03, 6), model);
    expect(bubbleConfidence(outlineTrace, local)).toBe(1);
    // Thresholds and marks stay the page's.
    expect(local.ink.threshold).toBe(model.ink.threshold);
    expect(local.markFill).toBe(model.markFill);
  });

  it('still doubts a trace of pencil among clean neighbours, or with too few neighbours to judge', () => {
    expect(bubbleConfidence(outlineTrace, localEmptyModel(outlineTrace, at, grid(0.001, 0), model))).toBeLessThan(LOW_CONFIDENCE);
    expect(localEmptyModel(outlineTrace, at, grid(0.03, 6, 7), model)).toBe(model);
    // Neighbours beyond the radius do not count.
    const far = grid(0.03, 6).map((n) => ({ ...n, x: n.x + 100 }));
    expect(localEmptyModel(outlineTrace, at, far, model)).toBe(model);
  });

  it('reads far more speckle than the neighbourhood carries as doubtful (faint pencil on a 1-bit scan)', () => {
    const speckled = { ink: 0.05, fill: 0.12, specks: 30 };
    expect(bubbleConfidence(speckled, localEmptyModel(speckled, at, grid(0.03, 6), model))).toBeLessThan(LOW_CONFIDENCE);
  });
});

describe('findStreaks', () => {
  it('joins vertical crossings of two or more bubbles at one column into a streak', () => {
    const streaks = findStreaks(
      [
        { x: 500, width: 6 },
        { x: 503, width: 8 },
        { x: 1200, width: 5 },
      ],
      11.8,
    );
    expect(streaks).toHaveLength(1);
    expect(streaks[0]!.x).toBeCloseTo(501.5, 3);
    expect(streaks[0]!.width).toBe(6);
  });
});

describe('readObjective on a generated page', () => {
  const fixture = sheetFixture(standardSpec());
  const page = fixture.template.pages[0]!;
  const marks: SheetMark[] = [
    { questionNo: 1, label: 'A', style: 'solid' },
    { questionNo: 2, label: 'B', style: 'faint' },
    { questionNo: 3, label: 'C', style: 'partial' },
    { questionNo: 4, label: 'D', style: 'erased' },
    { questionNo: 5, label: 'A', style: 'erased' },
    { questionNo: 5, label: 'C', style: 'solid' },
    { questionNo: 6, label: 'A', style: 'solid' },
    { questionNo: 6, label: 'D', style: 'solid' },
    // 7: left empty
    { questionNo: 13, label: 'B', style: 'solid' },
    { questionNo: 13, label: 'E', style: 'solid' },
    { questionNo: 17, label: 'T', style: 'solid' },
    { questionNo: 18, label: 'F', style: 'faint' },
  ];
  let sheet: SyntheticSheet;
  let img: GreyImage;

  beforeAll(async () => {
    sheet = await renderSyntheticSheet(fixture, { marks, seed: 11, degrade: { rotationDeg: 1.2, scale: 0.99, noise: 4 } });
    img = await decodeGrey(sheet.jpeg);
  });

  const read = () => readObjective(img, sheet.transform, page.objective, 22);
  const byNo = (no: number) => read().readings.find((r) => r.questionNo === no)!;

  it('reads solid, faint and partial marks as marked and erasures as empty', () => {
    expect(byNo(1).marked).toEqual(['A']);
    expect(byNo(2).marked).toEqual(['B']);
    expect(byNo(3).marked).toEqual(['C']);
    expect(byNo(4).marked).toEqual([]);
    expect(byNo(5).marked).toEqual(['C']);
    expect(byNo(7).marked).toEqual([]);
    expect(byNo(18).marked).toEqual(['F']);
  });

  it('reads every question as the truth says', () => {
    for (const r of read().readings) expect(r.marked, `question ${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
  });

  it('reports fills in template order, the empty ones low and the solid ones high', () => {
    const first = byNo(1);
    expect(first.fills.map((f) => f.label)).toEqual(['A', 'B', 'C', 'D']);
    expect(first.fills[0]!.fill).toBeGreaterThan(0.6);
    for (const f of first.fills.slice(1)) expect(f.fill).toBeLessThan(0.15);
  });

  it('raises multipleMarks for two marks on a single-choice question, not on a multiple-choice one', () => {
    const { problems } = read();
    expect(byNo(6).marked).toEqual(['A', 'D']);
    expect(problems).toContainEqual(expect.objectContaining({ kind: 'multipleMarks', questionNo: 6 }));
    expect(byNo(13).marked).toEqual(['B', 'E']);
    expect(problems.filter((p) => p.questionNo === 13)).toEqual([]);
  });

  it('says how much of a bubble a band left out hid: all of it when the band covers the bubble', () => {
    const bubble = page.objective.find((q) => q.questionNo === 1)!.options[0]!;
    const inverse = invertAffine(sheet.transform);
    expect(measureBubble(img, sheet.transform, inverse, bubble, 22).hidden).toBe(0);
    const centre = applyAffine(sheet.transform, bubble.xMm + bubble.wMm / 2, bubble.yMm + bubble.hMm / 2);
    const narrow = measureBubble(img, sheet.transform, inverse, bubble, 22, columnBand(centre.x - 3, centre.x + 3));
    expect(narrow.hidden).toBeGreaterThan(0.05);
    expect(narrow.hidden).toBeLessThan(0.3);
    expect(narrow.fill).toBeGreaterThan(0.6);
    const wide = measureBubble(img, sheet.transform, inverse, bubble, 22, columnBand(centre.x - 80, centre.x + 80));
    expect(wide.hidden).toBe(1);
  });

  it('is confident about clean solid and empty questions', () => {
    for (const no of [1, 7, 13, 17]) expect(byNo(no).confidence, `question ${no}`).toBeGreaterThanOrEqual(0.9);
  });
});

/** Generated pages of each kind that beat earlier engines: no answer read wrong may go unflagged. */
describe('readObjective on generated pages of each hard kind', () => {
  const fixture = sheetFixture(standardSpec());
  const page = fixture.template.pages[0]!;
  const kinds: { name: string; mix: Partial<MarkMix>; degrade: Degradation; allRight: boolean }[] = [
    { name: 'ticks', mix: { tick: 0.4 }, degrade: { blur: 0.8, noise: 4 }, allRight: true },
    { name: 'crosses', mix: { cross: 0.4 }, degrade: { noise: 4 }, allRight: true },
    { name: 'every mark a tick', mix: { tick: 1 }, degrade: { noise: 4 }, allRight: true },
    { name: 'every mark faint', mix: { faint: 1 }, degrade: { noise: 4 }, allRight: false },
    { name: 'faint pencil on a 1-bit scan', mix: { faint: 0.4 }, degrade: { bilevel: 140, blur: 0.6 }, allRight: false },
    { name: 'a streak down a bubble column', mix: {}, degrade: { columnStreaks: 2 }, allRight: false },
    { name: 'stray lines on multiple choice', mix: { stray: 0.8 }, degrade: {}, allRight: false },
    {
      name: 'stray lines over ticks, light marks and fills',
      mix: { tick: 0.35, faint: 0.15, stray: 0.6, strayOnMark: 0.5 },
      degrade: { blur: 0.6, noise: 4 },
      allRight: false,
    },
    {
      name: 'a streak down a column of fills',
      mix: {},
      degrade: { columnStreaks: 1, columnStreakOn: { questionNo: 9, label: 'A' } },
      allRight: false,
    },
    { name: 'half-erased marks', mix: { halfErased: 0.3 }, degrade: {}, allRight: false },
    {
      name: 'diagonal stray lines over empty bubbles, ticks and fills',
      mix: { tick: 0.3, faint: 0.1, stray: 0.8, strayOnMark: 0.4, diagonal: 1 },
      degrade: { blur: 0.6, noise: 4 },
      allRight: false,
    },
  ];
  for (const kind of kinds) {
    it(`${kind.name}: every wrong reading is flagged${kind.allRight ? ', and every reading is right' : ''}`, async () => {
      for (const seed of [31, 32]) {
        const sheet = await renderSyntheticSheet(fixture, {
          marks: randomMarks(page, seededRandom(seed), kind.mix),
          seed,
          degrade: { rotationDeg: 0.8, ...kind.degrade },
        });
        const img = await decodeGrey(sheet.jpeg);
        const { readings, problems } = readObjective(img, sheet.transform, page.objective, 22);
        for (const r of readings) {
          const right = r.marked.join('') === sheet.expected.get(r.questionNo)!.join('');
          if (kind.allRight) expect(r.marked, `seed ${seed} question ${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
          if (!right) {
            expect(r.confidence, `seed ${seed} question ${r.questionNo}`).toBeLessThan(LOW_CONFIDENCE);
            expect(problems.some((p) => p.questionNo === r.questionNo)).toBe(true);
          }
        }
      }
    });
  }

  it('never scores unseen a half-erased mark beside a fill on a page of light pencil', async () => {
    // Every single-choice and judge question marked lightly (the page's marks are light, so a grey
    // sits high between its empty and marked levels); each multiple-choice question a fill and, beside
    // it, a mark rubbed out halfway.
    for (const seed of [1, 8]) {
      const marks: SheetMark[] = page.objective.flatMap((q): SheetMark[] =>
        q.type === 'multiple'
          ? [
              { questionNo: q.questionNo, label: 'A', style: 'solid' },
              { questionNo: q.questionNo, label: 'E', style: 'halfErased' },
            ]
          : [{ questionNo: q.questionNo, label: q.options[seed % q.options.length]!.label, style: 'faint' }],
      );
      const sheet = await renderSyntheticSheet(fixture, { marks, seed, degrade: { rotationDeg: 0.5, noise: 3 } });
      const { readings } = readObjective(await decodeGrey(sheet.jpeg), sheet.transform, page.objective, 22);
      for (const r of readings) {
        if (r.confidence >= LOW_CONFIDENCE)
          expect(r.marked, `seed ${seed} question ${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
      }
      // The light marks themselves are read without review.
      for (const r of readings.filter((x) => x.questionNo <= 12))
        expect(r.confidence, `seed ${seed} question ${r.questionNo}`).toBe(1);
    }
  });

  it('reads beside a stray line: an empty bubble under it reads empty, never fully certain; a mark under it stays', async () => {
    const strays: SheetMark[] = [
      { questionNo: 13, label: 'A', style: 'solid' },
      { questionNo: 13, label: 'C', style: 'stray' },
      { questionNo: 14, label: 'B', style: 'tick' },
      { questionNo: 14, label: 'B', style: 'stray' },
      { questionNo: 15, label: 'D', style: 'solid' },
      { questionNo: 15, label: 'D', style: 'stray' },
    ];
    const sheet = await renderSyntheticSheet(fixture, { marks: strays, seed: 41 });
    const read = readObjective(await decodeGrey(sheet.jpeg), sheet.transform, page.objective, 22);
    const q = (no: number) => read.readings.find((r) => r.questionNo === no)!;
    const crossed = (no: number, label: string) =>
      read.measures.find((m) => m.questionNo === no)!.bubbles.find((b) => b.label === label)!.crossed;
    expect(crossed(13, 'C')).toBe(true);
    expect(q(13).marked).toEqual(['A']);
    expect(q(13).confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    expect(q(13).confidence).toBeLessThan(1);
    expect(read.problems.filter((p) => p.questionNo === 13)).toEqual([]);
    // The tick and the fill a line runs through are still read (or held back), never read empty unseen.
    for (const no of [14, 15]) {
      if (q(no).confidence >= LOW_CONFIDENCE) expect(q(no).marked, `question ${no}`).toEqual(sheet.expected.get(no));
    }
    expect(q(15).marked).toEqual(['D']);

    // A line at 45 degrees leaves its ink in opposite corners of the paper ring: it is still found and read around.
    const diagonals: SheetMark[] = [
      { questionNo: 13, label: 'A', style: 'solid' },
      { questionNo: 13, label: 'C', style: 'strayDiagonal' },
      { questionNo: 15, label: 'D', style: 'solid' },
      { questionNo: 15, label: 'D', style: 'strayDiagonal' },
    ];
    const diagonal = await renderSyntheticSheet(fixture, { marks: diagonals, seed: 43 });
    const read3 = readObjective(await decodeGrey(diagonal.jpeg), diagonal.transform, page.objective, 22);
    const bubble3 = (no: number, label: string) =>
      read3.measures.find((m) => m.questionNo === no)!.bubbles.find((b) => b.label === label)!;
    expect(bubble3(13, 'C').crossed).toBe(true);
    // What is left beside a line (a tick's arm at the edge) is never taken for the printed outline.
    expect(bubble3(13, 'C').edgeInk).toBe(0);
    // Over the fill the line's ink shows on all four sides of the ring: found as a diagonal.
    expect(bubble3(15, 'D').diagonal).toBe(true);
    expect(bubble3(15, 'D').across).not.toBeNull();
    const q13 = read3.readings.find((r) => r.questionNo === 13)!;
    expect(q13.marked).toEqual(['A']);
    expect(q13.confidence).toBeLessThan(1);
    expect(read3.readings.find((r) => r.questionNo === 15)!.marked).toEqual(['D']);

    const streaked = await renderSyntheticSheet(fixture, {
      marks: randomMarks(page, seededRandom(42)),
      seed: 42,
      degrade: { columnStreaks: 1 },
    });
    const read2 = readObjective(await decodeGrey(streaked.jpeg), streaked.transform, page.objective, 22);
    expect(read2.streaks.length).toBe(1);
    for (const r of read2.readings) expect(r.marked, `question ${r.questionNo}`).toEqual(streaked.expected.get(r.questionNo));
  });
});

describe("one bubble drawn at 12 px/mm: the printed outline seen inside it (a photo near a curled edge), a rubber's streaks beside it", () => {
  // A 5 x 3.5 mm bubble drawn at 12 px/mm on paper 235 with toner 22: its printed outline 0.3 mm wide.
  const px = 12;
  const t = { a: px, b: 0, c: 0, d: px, e: 0, f: 0 };
  const inverse = invertAffine(t);
  const bubble = { label: 'A', xMm: 4, yMm: 4, wMm: 5, hMm: 3.5 };
  const [cx, cy, rx, ry] = [6.5, 5.75, 2.5, 1.75];
  const draw = (paint: (u: number, v: number, x: number, y: number) => number | null): GreyImage => {
    const random = seededRandom(7);
    const width = 13 * px;
    const data = new Uint8Array(width * width);
    for (let y = 0; y < width; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const value = paint(x / px - cx, y / px - cy, x, y);
        data[y * width + x] = Math.round((value ?? 235) + (random() - 0.5) * 6);
      }
    }
    return { data, width, height: width };
  };
  /** The printed outline where a curled page put it: shifted by (du, dv) mm, broken into specks along the arc that falls inside. */
  const outline = (u: number, v: number, x: number, du: number, dv: number) => {
    const r = Math.hypot((u - du) / rx, (v - dv) / ry);
    if (Math.abs(r - 1) * Math.min(rx, ry) > 0.15) return null;
    // Inside the measured ellipse the arc is broken every few pixels (JPEG, blur): specks.
    const inner = Math.hypot(u / (rx - 0.55), v / (ry - 0.55));
    return inner <= 1 && x % 4 >= 2 ? null : 40;
  };
  const model = pageModel(
    page(
      60,
      Array.from({ length: 20 }, () => ({ ink: 1, fill: 0.85 })),
    ).map((b) => ({ ...b, specks: 0 })),
  );

  it('finds the ink of an outline arc all in the inside outer band, and reads the bubble blank with confidence', () => {
    const m = measureBubble(
      draw((u, v, x) => outline(u, v, x, -0.5, 0.35)),
      t,
      inverse,
      bubble,
      22,
    );
    expect(m.ink).toBeGreaterThan(0.005);
    expect(m.ink).toBeLessThan(0.06);
    expect(m.specks).toBeGreaterThanOrEqual(4);
    expect(m.edgeInk).toBeGreaterThanOrEqual(0.95);
    expect(isMarked(m, model)).toBe(false);
    // Judged as pencil (ink and specks where the page's empty bubbles have none), it would go to review.
    expect(bubbleConfidence({ ...m, edgeInk: 0 }, model)).toBeLessThan(LOW_CONFIDENCE);
    expect(bubbleConfidence(m, model)).toBeGreaterThanOrEqual(0.9);
  });

  it('still reads a light fill under the same arc as marked or doubtful', () => {
    const random = seededRandom(3);
    const m = measureBubble(
      draw((u, v, x) => {
        const line = outline(u, v, x, -0.5, 0.35);
        const inFill = (u / (rx * 0.95)) ** 2 + (v / (ry * 0.95)) ** 2 <= 1;
        return inFill ? Math.min(line ?? 255, 150 + (random() - 0.5) * 30) : line;
      }),
      t,
      inverse,
      bubble,
      22,
    );
    expect(isMarked(m, model) || bubbleConfidence(m, model) < LOW_CONFIDENCE).toBe(true);
  });

  it("measures a rubber's streaks run sideways out of a grey mark, and not a light fill's spill all round", () => {
    const ring = (u: number, v: number, x: number) => outline(u, v, x, 0, 0);
    const inside = (u: number, v: number, grow: number) => (u / (rx * grow)) ** 2 + (v / (ry * grow)) ** 2 <= 1;
    // Half-erased grey with two of the rubber's streaks dragged 1 mm out past the outline on the left.
    const streaked = measureBubble(
      draw(
        (u, v, x) =>
          ring(u, v, x) ?? (inside(u, v, 1) ? 150 : u >= -3.5 && u <= 0 && Math.abs(Math.abs(v) - 0.4) <= 0.3 ? 185 : null),
      ),
      t,
      inverse,
      bubble,
      22,
    );
    expect(streaked.sideSmear).toBeGreaterThanOrEqual(0.18);
    expect(rubberSmear(streaked)).toBe(true);
    // A light fill spilling 0.45 mm past the outline all round.
    const spilt = measureBubble(
      draw((u, v, x) => ring(u, v, x) ?? (inside(u, v, (rx + 0.45) / rx) ? 150 : null)),
      t,
      inverse,
      bubble,
      22,
    );
    expect(spilt.sideSmear).toBeLessThan(0.05);
    expect(rubberSmear(spilt)).toBe(false);
  });

  it('still doubts faint pencil on a 1-bit scan: specks spread over the bubble, not along its edge', () => {
    const random = seededRandom(9);
    const m = measureBubble(
      draw((u, v) => ((u / rx) ** 2 + (v / ry) ** 2 <= 0.9 && random() < 0.012 ? 30 : null)),
      t,
      inverse,
      bubble,
      22,
    );
    expect(m.specks).toBeGreaterThanOrEqual(4);
    expect(m.edgeInk).toBeLessThan(0.8);
    expect(isMarked(m, model)).toBe(false);
    expect(bubbleConfidence(m, model)).toBeLessThan(LOW_CONFIDENCE);
  });
});
