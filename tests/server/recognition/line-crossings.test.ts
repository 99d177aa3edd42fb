import { beforeAll, describe, expect, it } from 'vitest';
import { readObjective } from '../../../server/services/recognition/bubble-reader';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import {
  ALL_SIDES_CROSS_RATIO,
  CROSS_ARM_SPREAD_MM,
  crossArmsOnOnePair,
  crossOnAllSides,
} from '../../../server/services/recognition/line-crossings';
import type { StrayEntry } from '../../../server/services/recognition/stray-stroke';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import {
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SheetMark,
  type SyntheticSheet,
} from '../../support/synthetic-sheets';

const none = (): StrayEntry => ({ kind: 'none' });
const long = (): StrayEntry => ({ kind: 'unsure', reason: '2 long strokes run into it' });

describe('crossArmsOnOnePair', () => {
  it('takes ink spread far from one line, with no long stroke running in, for a cross', () => {
    expect(crossArmsOnOnePair(2.6, none)).toBe(true);
    // One pencil line, however wide, is not.
    expect(crossArmsOnOnePair(0.5, none)).toBe(false);
    expect(crossArmsOnOnePair(CROSS_ARM_SPREAD_MM - 0.01, none)).toBe(false);
    // Two stray lines through the bubble run on past it.
    expect(crossArmsOnOnePair(2.6, long)).toBe(false);
  });
});

describe('crossOnAllSides', () => {
  it('takes a + cut short by a wide bubble for two bars, only with ink on all four sides and no long stroke', () => {
    expect(crossOnAllSides(0.53, true, true, none)).toBe(true);
    expect(crossOnAllSides(ALL_SIDES_CROSS_RATIO - 0.01, true, true, none)).toBe(false);
    expect(crossOnAllSides(0.53, true, false, none)).toBe(false);
    expect(crossOnAllSides(0.53, true, true, long)).toBe(false);
  });
});

describe('readObjective with lines and crosses over bubbles', () => {
  const fixture = sheetFixture(standardSpec());
  const page = fixture.template.pages[0]!;
  const marks: SheetMark[] = [
    { questionNo: 1, label: 'A', style: 'solid' },
    { questionNo: 2, label: 'B', style: 'solid' },
    { questionNo: 3, label: 'C', style: 'solid' },
    { questionNo: 13, label: 'B', style: 'solid' },
    { questionNo: 14, label: 'A', style: 'solid' },
    { questionNo: 15, label: 'D', style: 'solid' },
    { questionNo: 16, label: 'E', style: 'solid' },
  ];
  let sheet: SyntheticSheet;
  let img: GreyImage;

  /** Draws a pencil stroke (grey 70) of `widthMm` from template mm (x0, y0) to (x1, y1) on the scan. */
  const stroke = (x0: number, y0: number, x1: number, y1: number, widthMm: number) => {
    const t = sheet.transform;
    const px = (u: number, v: number) => ({ x: t.a * u + t.c * v + t.e, y: t.b * u + t.d * v + t.f });
    const a = px(x0, y0);
    const b = px(x1, y1);
    const half = (widthMm / 2) * Math.sqrt(Math.abs(t.a * t.d - t.b * t.c));
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    for (let y = Math.floor(Math.min(a.y, b.y) - half - 1); y <= Math.max(a.y, b.y) + half + 1; y += 1) {
      for (let x = Math.floor(Math.min(a.x, b.x) - half - 1); x <= Math.max(a.x, b.x) + half + 1; x += 1) {
        const s = Math.max(0, Math.min(1, ((x - a.x) * (b.x - a.x) + (y - a.y) * (b.y - a.y)) / (length * length)));
        const d = Math.hypot(x - (a.x + s * (b.x - a.x)), y - (a.y + s * (b.y - a.y)));
        if (d <= half) img.data[y * img.width + x] = Math.min(img.data[y * img.width + x]!, 70);
      }
    }
  };
  const option = (no: number, label: string) => {
    const o = page.objective.find((q) => q.questionNo === no)!.options.find((b) => b.label === label)!;
    return { cx: o.xMm + o.wMm / 2, cy: o.yMm + o.hMm / 2, rx: o.wMm / 2, ry: o.hMm / 2 };
  };

  beforeAll(async () => {
    sheet = await renderSyntheticSheet(fixture, { marks, seed: 43 });
    img = await decodeGrey(sheet.jpeg);
    // 13 C: an X whose arms poke 0.6 mm out of the bubble's left and right ends (none above or below it).
    {
      const { cx, cy, rx, ry } = option(13, 'C');
      stroke(cx - rx - 0.6, cy - 1.1 * ry, cx + rx + 0.6, cy + 1.1 * ry, 0.7);
      stroke(cx - rx - 0.6, cy + 1.1 * ry, cx + rx + 0.6, cy - 1.1 * ry, 0.7);
    }
    // 14 C: a single level pencil line through the bubble and out into the gaps beside it, nothing else.
    {
      const { cx, cy, rx } = option(14, 'C');
      stroke(cx - rx - 2, cy + 0.2, cx + rx + 2, cy - 0.1, 0.45);
    }
    // 15 D: the same line over the fill.
    {
      const { cx, cy, rx } = option(15, 'D');
      stroke(cx - rx - 2, cy + 0.2, cx + rx + 2, cy - 0.1, 0.45);
    }
  });

  const read = () => readObjective(img, sheet.transform, page.objective, 22);
  const byNo = (no: number) => read().readings.find((r) => r.questionNo === no)!;

  it('reads an X whose arms poke out of the bubble on one pair of sides as a mark, with confidence', () => {
    const q = byNo(13);
    expect(q.marked).toEqual(['B', 'C']);
    expect(q.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it('reads a bubble with a single line through it and nothing else blank, with confidence', () => {
    const q = byNo(14);
    expect(q.marked).toEqual(['A']);
    expect(q.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it('reads a fill beside the line as marked', () => {
    const q = byNo(15);
    expect(q.marked).toEqual(['D']);
    expect(q.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });
});
