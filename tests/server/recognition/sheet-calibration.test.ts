import { describe, expect, it } from 'vitest';
import { recognizePage } from '../../../server/services/recognition/page-recognizer';
import {
  calibrateReading,
  calibrateSheet,
  MIN_PRIOR_MARKS,
  pooledModel,
} from '../../../server/services/recognition/sheet-calibration';
import { LOW_CONFIDENCE, type PageCalibration, type PageReading } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import { randomMarks, renderSyntheticSheet, sheetFixture, twoPageSpec } from '../../support/synthetic-sheets';

const RICH: PageCalibration = {
  bubbles: 480,
  marks: 118,
  emptyInk: { level: 0.002, spread: 0.004 },
  emptyFill: { level: 0.01, spread: 0.004 },
  emptySpecks: { level: 0, spread: 1.5 },
  ink: { threshold: 0.2, emptyMax: 0.03, markMin: 0.4 },
  fill: { threshold: 0.3, emptyMax: 0.05, markMin: 0.45 },
  markFill: 0.6,
  style: { fills: 0, ticks: 0, light: 118 },
  held: [],
};

/** A page of two judge questions whose question 1 (F marked, a few specks in T) is held for its own calibration's doubt. */
function thinPage(
  held: PageCalibration['held'][number]['bubbles'] = [
    [0.012, 0.008, 5, 0.2],
    [0.461, 0.46, 3, 0.4],
  ],
): PageReading {
  return {
    qr: { homeworkId: 1, page: 2, studentCode: '2026010101' },
    qrText: null,
    rotation: 0,
    transform: null,
    scale: 1,
    skewDeg: 0,
    objective: [
      {
        questionNo: 1,
        fills: [
          { label: 'T', fill: held[0]![0] },
          { label: 'F', fill: held[1]![0] },
        ],
        marked: held[1]![1] > 0.2 ? ['F'] : [],
        confidence: 0.3,
      },
      {
        questionNo: 2,
        fills: [
          { label: 'T', fill: 0.45 },
          { label: 'F', fill: 0.01 },
        ],
        marked: ['T'],
        confidence: 1,
      },
    ],
    regions: [],
    confidence: 0.3,
    problems: [{ kind: 'lowConfidence', questionNo: 1, detail: 'specks' }],
    elapsedMs: 1,
    calibration: {
      bubbles: 4,
      marks: 2,
      emptyInk: { level: 0.003, spread: 0.003 },
      emptyFill: { level: 0.012, spread: 0.003 },
      emptySpecks: { level: 0, spread: 1 },
      ink: { threshold: 0.2, emptyMax: 0.012, markMin: 0.44 },
      fill: { threshold: 0.24, emptyMax: 0.012, markMin: 0.45 },
      markFill: 0.46,
      style: { fills: 0, ticks: 0, light: 2 },
      held: [{ questionNo: 1, marked: held[1]![1] > 0.2 ? ['F'] : [], bubbles: held }],
    },
  };
}

describe('pooling the calibrations of a sheet’s pages', () => {
  it('splits between every page’s highest empty value and lowest mark', () => {
    const model = pooledModel([RICH, thinPage().calibration!])!;
    expect(model.ink.threshold).toBeGreaterThan(0.03);
    expect(model.ink.threshold).toBeLessThan(0.4);
    expect(model.ink.fallback).toBe(false);
    // Weighted by bubbles: the rich page's levels.
    expect(model.emptySpecks.spread).toBeCloseTo(1.5, 1);
  });

  it('gives no model when the pages disagree about where marks begin', () => {
    const other = { ...RICH, ink: { threshold: 0.5, emptyMax: 0.47, markMin: 0.6 } };
    expect(pooledModel([other, thinPage().calibration!])).toBeNull();
  });

  it('releases a held question the pooled calibration reads the same and surely, and records it', () => {
    const { reading, released } = calibrateReading(thinPage(), [RICH]);
    expect(released).toEqual([{ questionNo: 1, alone: 0.3, pooled: 1 }]);
    expect(reading.objective[0]!.confidence).toBe(1);
    expect(reading.problems).toEqual([]);
    expect(reading.calibration!.held).toEqual([]);
    expect(reading.calibration!.released).toEqual(released);
    // Idempotent: nothing is held any more.
    expect(calibrateReading(reading, [RICH]).released).toEqual([]);
  });

  it('needs a prior with enough marks, a page that looks like the others, and confident measures', () => {
    expect(calibrateReading(thinPage(), [{ ...RICH, marks: MIN_PRIOR_MARKS - 1 }]).released).toEqual([]);
    const darker = thinPage();
    darker.calibration!.emptyFill = { level: 0.2, spread: 0.003 };
    expect(calibrateReading(darker, [RICH]).released).toEqual([]);
    // T with as much ink as a faint mark's beginnings: as doubtful under the pool as alone.
    const traced = thinPage([
      [0.15, 0.03, 12, 0.3],
      [0.461, 0.46, 3, 0.4],
    ]);
    expect(calibrateReading(traced, [RICH]).released).toEqual([]);
  });

  it('never lets a thinner sheet page decide a richer one', () => {
    const rich = { ...thinPage(), calibration: { ...thinPage().calibration!, bubbles: 500 } };
    expect(calibrateReading(rich, [RICH]).released).toEqual([]);
  });

  it('only decides the candidates it is given (the server leaves out what a person decided)', () => {
    expect(calibrateReading(thinPage(), [RICH], new Set([7])).released).toEqual([]);
  });
});

describe('a student’s two-page sheet, all faint pencil on a 1-bit scan', () => {
  // 120 objective questions fill page 1; page 2 has five judge questions.
  const spec = twoPageSpec();
  const fixture = sheetFixture(spec);

  it('page 2 alone holds a rightly read question that page 1’s calibration releases; nothing read wrong is released', async () => {
    const random = seededRandom(101);
    const readings: PageReading[] = [];
    const expected: Map<number, string[]>[] = [];
    for (const pageIndex of [0, 1]) {
      const page = fixture.template.pages[pageIndex]!;
      const sheet = await renderSyntheticSheet(fixture, {
        pageIndex,
        seed: 302 + pageIndex,
        student: { name: '学生1', code: '2026010101' },
        marks: randomMarks(page, random, { blankQuestion: 0.05, faint: 1 }),
        writeIn: page.regions.map((r) => r.questionNo),
        degrade: { rotationDeg: 1, noise: 3, specks: 300, blur: 0.5, jpegQuality: 85, bilevel: 140 },
      });
      readings.push((await recognizePage(sheet.jpeg, async () => fixture.template)).reading);
      expected.push(sheet.expected);
    }
    const [one, two] = readings as [PageReading, PageReading];
    expect(fixture.template.pages[1]!.objective).toHaveLength(5);
    // What each page keeps for the other is small.
    expect(JSON.stringify(one.calibration).length).toBeLessThan(2000);
    expect(JSON.stringify(two.calibration).length).toBeLessThan(2000);
    const heldAlone = two.objective.filter((o) => o.confidence < LOW_CONFIDENCE).map((o) => o.questionNo);
    expect(heldAlone.length).toBeGreaterThan(0);

    const pooled = calibrateSheet(readings);
    expect(pooled[0]).toEqual(one);
    const released = pooled[1]!.calibration!.released!.map((r) => r.questionNo);
    expect(released).toEqual(heldAlone);
    for (const no of released) {
      const read = pooled[1]!.objective.find((o) => o.questionNo === no)!;
      expect(read.marked).toEqual(expected[1]!.get(no));
      expect(read.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    }
  }, 120_000);
});
