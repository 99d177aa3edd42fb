/**
 * Light pencil strokes in a bubble (a tick or a cross lighter than the ink level: a scan whose gamma or
 * contrast lifts pencil, a hard pencil): found by the held-out check (npm run bench heldout, kind
 * gammaContrast), where such a tick read blank with confidence 1 and would have been scored unseen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { applyAffine } from '../../../server/services/recognition/affine-fit';
import {
  LIGHT_RISE_START,
  lightStrokeCaps,
  pageModel,
  readObjective,
  washOverCore,
} from '../../../server/services/recognition/bubble-reader';
import { pageCalibration } from '../../../server/services/recognition/sheet-calibration';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import {
  randomMarks,
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

describe('lightStrokeCaps', () => {
  const bubble = (label: string, coreLight: number) => ({ label, coreLight });

  it('doubts an empty bubble whose core is darker than the empty bubbles of its letter, not a letter printed darker', () => {
    const peersA = [0.08, 0.09, 0.1, 0.085].map((v) => bubble('A', v));
    const peersB = [0.2, 0.21, 0.19].map((v) => bubble('B', v));
    const stroke = bubble('A', 0.09 + LIGHT_RISE_START + 0.1);
    const near = bubble('A', 0.09 + LIGHT_RISE_START / 2);
    const caps = lightStrokeCaps([...peersA, ...peersB, stroke, near]);
    expect(caps.get(stroke)).toBeLessThan(LOW_CONFIDENCE);
    expect(caps.has(near)).toBe(false);
    // B's letter covers more of its core than A's: its empty bubbles are judged against each other.
    for (const b of peersB) expect(caps.has(b)).toBe(false);
  });

  it('judges a letter with too few empty bubbles against the darkest letter that has them, and none without one', () => {
    expect(lightStrokeCaps([bubble('T', 0), bubble('T', 0.4)]).size).toBe(0);
    // gammaContrast-95 q17: a light cross over F, the page's only other empty F clean (read blank at 0.825).
    const peersA = [0.08, 0.09, 0.1].map((v) => bubble('A', v));
    const peersB = [0.2, 0.21, 0.19].map((v) => bubble('B', v));
    const cross = bubble('F', 0.2 + LIGHT_RISE_START + 0.1);
    const clean = bubble('F', 0.05);
    // As dark as B's letter, no more: an F judged against A alone would be doubted.
    const likeB = bubble('E', 0.2 + LIGHT_RISE_START / 2);
    const caps = lightStrokeCaps([...peersA, ...peersB, cross, clean, likeB]);
    expect(caps.get(cross)).toBeLessThan(LOW_CONFIDENCE);
    expect(caps.has(clean)).toBe(false);
    expect(caps.has(likeB)).toBe(false);
  });

  it('judges such a letter against its own other empty bubbles where even the darkest of them is lighter than the darkest letter', () => {
    // gammaContrast-136 q20: a tick over T (core 0.269) on a contrasty scan, the other empty T at 0.135, B at 0.2.
    const peersB = [0.2, 0.21, 0.19].map((v) => bubble('B', v));
    const tick = bubble('T', 0.269);
    const otherT = bubble('T', 0.135);
    const caps = lightStrokeCaps([...peersB, tick, otherT]);
    expect(caps.get(tick)).toBeLessThan(LOW_CONFIDENCE);
    expect(caps.has(otherT)).toBe(false);
    // An F whose other empty F is darker than B is still judged against B: never more lenient than before.
    const f = bubble('F', 0.2 + LIGHT_RISE_START + 0.1);
    expect(lightStrokeCaps([...peersB, f, bubble('F', 0.4)]).get(f)).toBeLessThan(LOW_CONFIDENCE);
  });
});

describe('readObjective: a light cross in an otherwise empty bubble', () => {
  const fixture = sheetFixture(standardSpec(4101));
  const page = fixture.template.pages[0]!;
  let sheet: SyntheticSheet;
  let img: GreyImage;
  const target = { questionNo: 4, label: 'D' };

  beforeAll(async () => {
    // Fills on every question but question 4, left empty.
    const marks = randomMarks(page, seededRandom(8), { blankQuestion: 0 }).filter((m) => m.questionNo !== target.questionNo);
    sheet = await renderSyntheticSheet(fixture, { marks, seed: 8, degrade: { rotationDeg: 0.8, noise: 3 } });
    img = await decodeGrey(sheet.jpeg);
    // A light pencil cross (grey 150 on paper about 246: 0.43 of the way to toner, lighter than ink)
    // of 0.3 mm strokes over the middle of the bubble, drawn on the scan.
    const option = page.objective.find((q) => q.questionNo === target.questionNo)!.options.find((o) => o.label === target.label)!;
    const [cx, cy] = [option.xMm + option.wMm / 2, option.yMm + option.hMm / 2];
    for (const [sx, sy] of [
      [1, 1],
      [1, -1],
    ] as const) {
      for (let s = -1.4; s <= 1.4; s += 0.02) {
        for (let w = -0.15; w <= 0.15; w += 0.02) {
          const p = applyAffine(sheet.transform, cx + s * sx + w * sy * 0.7, cy + s * sy * 0.7 - w * sx);
          const i = Math.round(p.y) * img.width + Math.round(p.x);
          img.data[i] = Math.min(img.data[i]!, 150);
        }
      }
    }
  });

  it('holds the question back instead of reading it blank with confidence', () => {
    const { readings } = readObjective(img, sheet.transform, page.objective, 22);
    const q = readings.find((r) => r.questionNo === target.questionNo)!;
    expect(q.marked).toEqual([]);
    expect(q.confidence).toBeLessThan(LOW_CONFIDENCE);
  });

  it('names the doubt as not its calibration’s, so the student’s other pages can never release it', () => {
    const result = readObjective(img, sheet.transform, page.objective, 22);
    expect(result.otherDoubts).toContain(target.questionNo);
    expect(pageCalibration(result, page.objective).held.map((h) => h.questionNo)).not.toContain(target.questionNo);
  });

  it('leaves the other questions of the page as sure as before', () => {
    const { readings } = readObjective(img, sheet.transform, page.objective, 22);
    for (const r of readings.filter((x) => x.questionNo !== target.questionNo)) {
      expect(r.marked, `question ${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
      expect(r.confidence, `question ${r.questionNo}`).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    }
  });
});

describe('readObjective: a light second mark beside a fill, not what a rubber leaves', () => {
  const fixture = sheetFixture(standardSpec(4101));
  const page = fixture.template.pages[0]!;
  const target = { questionNo: 13, label: 'D' };
  let sheet: SyntheticSheet;
  let img: GreyImage;

  beforeAll(async () => {
    // A firm fill on B of multiple-choice question 13; D gets a light even wash of pencil (grey about
    // 178 give or take 20, under what a rubber's grey rises to beside B), drawn on the scan.
    const marks = randomMarks(page, seededRandom(9), { blankQuestion: 0 }).filter((m) => m.questionNo !== target.questionNo);
    marks.push({ questionNo: target.questionNo, label: 'B', style: 'solid' });
    sheet = await renderSyntheticSheet(fixture, { marks, seed: 9, degrade: { rotationDeg: -0.6, noise: 3 } });
    img = await decodeGrey(sheet.jpeg);
    const option = page.objective.find((q) => q.questionNo === target.questionNo)!.options.find((o) => o.label === target.label)!;
    const random = seededRandom(3);
    const [cx, cy, rx, ry] = [option.xMm + option.wMm / 2, option.yMm + option.hMm / 2, option.wMm / 2, option.hMm / 2];
    for (let v = -1; v <= 1; v += 0.01) {
      for (let u = -1; u <= 1; u += 0.01) {
        if (u * u + v * v > 0.95) continue;
        const p = applyAffine(sheet.transform, cx + u * rx, cy + v * ry);
        const i = Math.round(p.y) * img.width + Math.round(p.x);
        img.data[i] = Math.min(img.data[i]!, Math.round(178 + (random() - 0.5) * 40));
      }
    }
  });

  it('does not read it as an erasure with confidence: the question goes to review', () => {
    const { readings } = readObjective(img, sheet.transform, page.objective, 22);
    const q = readings.find((r) => r.questionNo === target.questionNo)!;
    expect(q.marked).toContain('B');
    expect(q.confidence).toBeLessThan(LOW_CONFIDENCE);
  });
});

describe('washOverCore: what a rubber leaves over a bubble, not light strokes', () => {
  const model = pageModel(
    Array.from({ length: 40 }, (_, i) => ({ ink: 0, fill: 0.05 + (i % 4) * 0.01, specks: 0, line: false })),
  );

  it('takes a grey over the whole core, or one darker than strokes lighter than ink could make it, for a wash', () => {
    expect(washOverCore({ fill: 0.42, coreLight: 0.95 }, model, 0.85)).toBe(true);
    // Grey near the light level: noise puts part of the core past it, but the fill is a wash's.
    expect(washOverCore({ fill: 0.33, coreLight: 0.45 }, model, 0.35)).toBe(true);
  });

  it('takes a light cross (a little fill, strokes over part of the core) for strokes', () => {
    expect(washOverCore({ fill: 0.13, coreLight: 0.3 }, model, 0.2)).toBe(false);
  });
});
