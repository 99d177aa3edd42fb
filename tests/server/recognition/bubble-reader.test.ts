import { beforeAll, describe, expect, it } from 'vitest';
import {
  FALLBACK_THRESHOLD,
  THRESHOLD_RANGE,
  bubbleConfidence,
  pageThreshold,
  questionThreshold,
  readObjective,
} from '../../../server/services/recognition/bubble-reader';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import {
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SheetMark,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

describe('pageThreshold', () => {
  it('splits the widest gap between empty and marked bubbles', () => {
    const fills = [0.05, 0.07, 0.08, 0.06, 0.82, 0.78, 0.07, 0.85];
    const { threshold, fallback } = pageThreshold(fills);
    expect(fallback).toBe(false);
    expect(threshold).toBeGreaterThan(0.08);
    expect(threshold).toBeLessThan(0.78);
  });

  it('looks for the gap only where a threshold is plausible', () => {
    // The widest raw gap (0.5 to 0.95) lies mostly above the range; the band from 0.25 to 0.5 wins.
    const { threshold } = pageThreshold([0.06, 0.07, 0.25, 0.5, 0.95]);
    expect(threshold).toBeGreaterThanOrEqual(THRESHOLD_RANGE[0]);
    expect(threshold).toBeCloseTo(0.375, 3);
  });

  it('puts the threshold in the middle of the range on a page without marks', () => {
    expect(pageThreshold([0.05, 0.06, 0.09, 0.1]).threshold).toBeCloseTo((THRESHOLD_RANGE[0] + THRESHOLD_RANGE[1]) / 2, 6);
  });

  it('falls back to the fixed ratio when fills spread without a clear gap', () => {
    const spread = Array.from({ length: 40 }, (_, i) => 0.05 + i * 0.02);
    expect(pageThreshold(spread)).toMatchObject({ threshold: FALLBACK_THRESHOLD, fallback: true });
  });
});

describe('questionThreshold', () => {
  it('lowers the threshold for a light mark standing clear of its empty neighbours', () => {
    expect(questionThreshold([0.07, 0.36, 0.06, 0.08], 0.55, 0.07)).toBeCloseTo(0.22, 2);
  });

  it('keeps the page threshold for an erasure too light to be a mark', () => {
    expect(questionThreshold([0.07, 0.22, 0.06, 0.08], 0.45, 0.07)).toBe(0.45);
  });

  it('never goes below the range', () => {
    expect(questionThreshold([0.01, 0.3], 0.5, 0.01)).toBe(THRESHOLD_RANGE[0]);
  });
});

describe('bubbleConfidence', () => {
  it('is certain far from the threshold and doubtful near it', () => {
    expect(bubbleConfidence(0.85, 0.4, 0.07)).toBe(1);
    expect(bubbleConfidence(0.07, 0.4, 0.07)).toBe(1);
    expect(bubbleConfidence(0.43, 0.4, 0.07)).toBeLessThan(LOW_CONFIDENCE);
    expect(bubbleConfidence(0.37, 0.4, 0.07)).toBeLessThan(LOW_CONFIDENCE);
  });

  it('doubts an unmarked bubble that is clearly darker than the empty ones (smudge, erasure, light mark)', () => {
    expect(bubbleConfidence(0.15, 0.45, 0.07)).toBe(1);
    expect(bubbleConfidence(0.26, 0.45, 0.07)).toBeLessThan(LOW_CONFIDENCE);
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

  it('is confident about clean solid and empty questions', () => {
    for (const no of [1, 7, 13, 17]) expect(byNo(no).confidence, `question ${no}`).toBeGreaterThanOrEqual(0.9);
  });
});
