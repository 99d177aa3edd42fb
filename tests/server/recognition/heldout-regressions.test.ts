import { describe, expect, it } from 'vitest';
import { HELDOUT_KINDS, renderHeldout, type HeldoutKind } from '../../../scripts/bench/heldout-sheets';
import { heldBackForReview } from '../../../server/services/marking/page-settlement';
import { recognizePage } from '../../../server/services/recognition/page-recognizer';
import { sheetFixture, standardSpec } from '../../support/synthetic-sheets';

/**
 * Held-out sheets (`npm run bench heldout`) on which a question was once read wrongly and scored
 * without review: each must now be read right or held back for a person. The sheet is made again from
 * the bench's seed, so the case is the very page the bench found.
 */
const CASES: [HeldoutKind, number, number][] = [
  ['gammaContrast', 12, 18],
  ['gammaContrast', 22, 14],
  ['halfErasedTexture', 12, 4],
  ['halfErasedTexture', 34, 17],
  ['halfErasedTexture', 35, 16],
  ['faint1bitThreshold', 32, 2],
  ['faint1bitThreshold', 47, 4],
  ['strayVariety', 42, 16],
  ['strayVariety', 45, 3],
  ['strayVariety', 59, 16],
  ['halfErasedTexture', 59, 15],
  ['strayVariety', 64, 16],
  ['strayVariety', 73, 16],
  ['halfErasedTexture', 72, 13],
  ['gammaContrast', 83, 15],
  ['faint1bitThreshold', 89, 19],
  ['faint1bitThreshold', 89, 20],
  ['gammaContrast', 95, 17],
  ['halfErasedTexture', 107, 15],
  ['halfErasedTexture', 117, 13],
  ['streakVariety', 118, 9],
  ['strayVariety', 108, 13],
  ['photoHard', 118, 16],
  ['gammaContrast', 129, 18],
  ['gammaContrast', 129, 19],
  ['gammaContrast', 136, 20],
  ['strayVariety', 137, 14],
  ['halfErasedTexture', 142, 13],
  ['halfErasedTexture', 143, 13],
  ['halfErasedTexture', 166, 8],
  ['gammaContrast', 182, 11],
  ['lightStreaks', 199, 13],
  ['strayVariety', 195, 2],
  ['faint1bitThreshold', 227, 4],
  ['faint1bitThreshold', 227, 8],
  ['faint1bitThreshold', 227, 18],
  ['halfErasedTexture', 230, 9],
  ['strayVariety', 232, 6],
  ['gammaContrast', 260, 10],
  ['gammaContrast', 274, 7],
  ['gammaContrast', 274, 8],
  ['strayVariety', 286, 15],
  ['streakVariety', 294, 15],
  ['faint1bitThreshold', 298, 14],
  ['faint1bitThreshold', 304, 14],
  ['faint1bitThreshold', 304, 17],
  ['faint1bitThreshold', 304, 19],
  ['streakVariety', 325, 15],
  ['halfErasedTexture', 272, 2],
  ['strayVariety', 342, 15],
  ['gammaContrast', 412, 9],
  ['halfErasedTexture', 418, 16],
  ['gammaContrast', 465, 16],
  ['strayVariety', 474, 15],
  ['strayVariety', 476, 14],
  ['faint1bitThreshold', 512, 12],
  ['faint1bitThreshold', 527, 19],
  ['strayVariety', 504, 15],
  ['strayVariety', 556, 14],
  ['strayVariety', 556, 15],
  ['strayVariety', 598, 14],
  ['streakVariety', 609, 10],
  ['gammaContrast', 606, 15],
  ['halfErasedTexture', 619, 5],
  ['strayVariety', 642, 20],
  ['gammaContrast', 638, 18],
];

/** Held-out pages whose QR was once not read (a streak or a stray line across it): each must now be filed by its QR. */
const QR_CASES: [HeldoutKind, number][] = [
  ['lightStreaks', 432],
  ['streakVariety', 441],
  ['strayVariety', 455],
];

const fixture = sheetFixture(standardSpec(4101, 'A4'));
const key = (labels: readonly string[]) => [...labels].sort().join('');

describe('held-out sheets once scored wrongly without review', () => {
  it.each(CASES)('%s-%i q%i is read right or held back', async (kind, index, questionNo) => {
    const seed = 70000 + HELDOUT_KINDS.indexOf(kind) * 1000 + index;
    const sheet = await renderHeldout(fixture, { kind, index, seed });
    const { reading } = await recognizePage(sheet.bytes, async () => fixture.template);
    const layout = fixture.template.pages[0]!.objective.find((q) => q.questionNo === questionNo)!;
    const read = reading.objective.find((o) => o.questionNo === questionNo);
    const right = read !== undefined && key(read.marked) === key(sheet.expected.get(questionNo) ?? []);
    expect(right || heldBackForReview(reading, layout, layout.type)).toBe(true);
  });
});

describe('held-out pages whose QR a streak or a stray line once hid', () => {
  it.each(QR_CASES)('%s-%i is filed by its QR', async (kind, index) => {
    const seed = 70000 + HELDOUT_KINDS.indexOf(kind) * 1000 + index;
    const sheet = await renderHeldout(fixture, { kind, index, seed });
    const { reading } = await recognizePage(sheet.bytes, async () => fixture.template);
    // The bench's students are 2026010101-04, one after another (renderHeldout).
    expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: `202601010${1 + (index % 4)}` });
  });
});
