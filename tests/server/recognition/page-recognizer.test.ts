import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyAffine } from '../../../server/services/recognition/affine-fit';
import { DEFAULT_REGION_DPI, recognizePage } from '../../../server/services/recognition/page-recognizer';
import * as qrReader from '../../../server/services/recognition/qr-reader';
import type { TemplateResolver } from '../../../server/services/recognition/recognition-engine';
import type { AnswerSheetTemplate, SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import { pageReadingSchema } from '../../../src/shared/contract/recognition';
import { planSimulatedBatch, seededRandom } from '../../../src/shared/lib/simulated-scan';
import { simulatedScanJpeg } from '../../../server/services/scan/simulated-scan-pages';
import {
  randomMarks,
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type SyntheticSheet,
  type SyntheticSheetOptions,
} from '../../support/synthetic-sheets';

vi.mock('../../../server/services/recognition/qr-reader', async (importOriginal) => {
  const original = await importOriginal<typeof qrReader>();
  return { ...original, readQr: vi.fn(original.readQr) };
});

const fixture = sheetFixture(standardSpec(4101));
const page = fixture.template.pages[0]!;
const STUDENT = { name: '李四', code: '2026010203' };

/** A resolver that knows one template and records what it was asked. */
function resolverFor(template: AnswerSheetTemplate | null) {
  const calls: (SheetQrPayload | null)[] = [];
  const resolve: TemplateResolver = async (qr) => {
    calls.push(qr);
    return qr === null || qr.homeworkId === template?.homeworkId ? template : null;
  };
  return { resolve, calls };
}

async function sheetWith(options: SyntheticSheetOptions) {
  return renderSyntheticSheet(fixture, {
    student: STUDENT,
    marks: randomMarks(page, seededRandom(options.seed ?? 1)),
    ...options,
  });
}

function expectAnswersRight(sheet: SyntheticSheet, reading: { objective: { questionNo: number; marked: string[] }[] }) {
  expect(reading.objective.map((o) => o.questionNo)).toEqual(page.objective.map((q) => q.questionNo));
  for (const o of reading.objective) expect(o.marked, `question ${o.questionNo}`).toEqual(sheet.expected.get(o.questionNo));
}

afterEach(() => vi.mocked(qrReader.readQr).mockClear());

describe('recognizePage on a straight and an upside-down scan', () => {
  const cases = [
    { name: 'upright, 2 degrees, 2 % small', degrade: { rotationDeg: 2, scale: 0.98 } },
    { name: 'upside down, -2.5 degrees, 1.5 % large', degrade: { rotationDeg: -2.5, scale: 1.015, upsideDown: true } },
  ];
  const results = new Map<
    string,
    {
      sheet: SyntheticSheet;
      result: Awaited<ReturnType<typeof recognizePage>>;
      calls: (SheetQrPayload | null)[];
      qrCrops: number[];
    }
  >();

  beforeAll(async () => {
    for (const [i, c] of cases.entries()) {
      const sheet = await sheetWith({ seed: 20 + i, writeIn: [22], degrade: c.degrade });
      const { resolve, calls } = resolverFor(fixture.template);
      vi.mocked(qrReader.readQr).mockClear();
      const result = await recognizePage(sheet.jpeg, resolve);
      const qrCrops = vi.mocked(qrReader.readQr).mock.calls.map(([crop]) => crop.width * crop.height);
      results.set(c.name, { sheet, result, calls, qrCrops });
    }
  });

  it.each(cases)('$name: reads the QR and asks for the template once, with its payload', ({ name }) => {
    const { result, calls } = results.get(name)!;
    const qr = { homeworkId: 4101, page: 1, studentCode: STUDENT.code };
    expect(result.reading.qr).toEqual(qr);
    expect(result.reading.qrText).toBe('SH1:h4101:p1:s2026010203');
    expect(calls).toEqual([qr]);
  });

  it.each(cases)('$name: reads the QR from small crops only, never the page', ({ name }) => {
    const { qrCrops, sheet } = results.get(name)!;
    expect(qrCrops.length).toBeGreaterThan(0);
    for (const area of qrCrops) expect(area).toBeLessThan((sheet.width * sheet.height) / 40);
  });

  it.each(cases)('$name: finds the orientation, scale and skew', ({ name, degrade }) => {
    const { result } = results.get(name)!;
    expect(result.reading.rotation).toBe(degrade.upsideDown ? 180 : 0);
    expect(result.reading.scale).toBeCloseTo(degrade.scale, 2);
    expect(result.reading.skewDeg).toBeCloseTo(degrade.rotationDeg, 1);
  });

  it.each(cases)('$name: fits a transform that puts every bubble within 0.1 mm of where it is', ({ name }) => {
    const { result, sheet } = results.get(name)!;
    const t = result.reading.transform!;
    for (const q of page.objective) {
      for (const o of q.options) {
        const [x, y] = [o.xMm + o.wMm / 2, o.yMm + o.hMm / 2];
        const read = applyAffine(t, x, y);
        const truth = applyAffine(sheet.transform, x, y);
        expect(Math.hypot(read.x - truth.x, read.y - truth.y) / (300 / 25.4)).toBeLessThan(0.1);
      }
    }
  });

  it.each(cases)('$name: reads every answer right, with no problems, and fits the contract', ({ name }) => {
    const { result, sheet } = results.get(name)!;
    expectAnswersRight(sheet, result.reading);
    expect(result.reading.problems).toEqual([]);
    expect(result.reading.confidence).toBeGreaterThanOrEqual(0.8);
    expect(pageReadingSchema.parse(result.reading)).toEqual(result.reading);
  });

  it.each(cases)('$name: cuts every region upright at the region resolution, with its ink', async ({ name }) => {
    const { result } = results.get(name)!;
    const k = DEFAULT_REGION_DPI / 25.4;
    expect(result.reading.regions.map((r) => r.questionNo)).toEqual(page.regions.map((r) => r.questionNo));
    expect(result.regions.map((r) => r.questionNo)).toEqual(page.regions.map((r) => r.questionNo));
    for (const [i, region] of page.regions.entries()) {
      const reading = result.reading.regions[i]!;
      expect([reading.width, reading.height]).toEqual([Math.round(region.wMm * k), Math.round(region.hMm * k)]);
      const meta = await sharp(result.regions[i]!.jpeg).metadata();
      expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['jpeg', reading.width, reading.height, 1]);
    }
    const ink = Object.fromEntries(result.reading.regions.map((r) => [r.questionNo, r.ink]));
    expect(ink[22]).toBeGreaterThan(0.01);
    // Nothing written: the printed label, frame, numbers and underlines do not count.
    expect(ink[21]).toBeLessThan(0.002);
    expect(ink[23]).toBeLessThan(0.002);
  });

  it('turns an upside-down region back: its printed label comes out at the top left', async () => {
    const { result } = results.get(cases[1]!.name)!;
    const region = result.regions.find((r) => r.questionNo === 23)!;
    const { data, info } = await sharp(region.jpeg).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const darkIn = (x0: number, y0: number, x1: number, y1: number) => {
      let dark = 0;
      for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) if (data[y * info.width + x]! < 110) dark += 1;
      return dark;
    };
    const k = DEFAULT_REGION_DPI / 25.4;
    // The label "23．（12分）" lies 2-25 mm from the left, 1-6 mm from the top; the bottom corner is empty.
    const label = darkIn(Math.round(2 * k), Math.round(1.5 * k), Math.round(25 * k), Math.round(5.5 * k));
    const opposite = darkIn(
      info.width - Math.round(25 * k),
      info.height - Math.round(5.5 * k),
      info.width - Math.round(2 * k),
      info.height - Math.round(1.5 * k),
    );
    expect(label).toBeGreaterThan(50);
    expect(opposite).toBeLessThan(10);
  });
});

/**
 * A sheet's scan as a lossless PNG with a streak `widthPx` wide the length of the page, centred `offsetMm`
 * right of the QR's left edge: `paint` gives a pixel's grey under it from its grey before, `paper` (if
 * given) every pixel's grey first.
 */
async function withStreakAcrossQr(
  sheet: Awaited<ReturnType<typeof sheetWith>>,
  offsetMm: number,
  widthPx: number,
  paint: (grey: number) => number,
  paper?: (grey: number) => number,
): Promise<Buffer> {
  const { data, info } = await sharp(sheet.jpeg).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  if (paper) for (let i = 0; i < data.length; i += 1) data[i] = paper(data[i]!);
  const at = applyAffine(sheet.transform, page.qr.xMm + offsetMm, page.qr.yMm + page.qr.sizeMm / 2);
  for (let y = 0; y < info.height; y += 1) {
    for (let x = Math.round(at.x) - widthPx / 2; x < Math.round(at.x) + widthPx / 2; x += 1) {
      data[y * info.width + x] = paint(data[y * info.width + x]!);
    }
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

describe('recognizePage on pages that need a person', () => {
  it('flags a blank page and nothing else, and still asks for a template (with no QR)', async () => {
    const sheet = await renderSyntheticSheet(fixture, { blank: true, seed: 5, degrade: { rotationDeg: 0.7 } });
    const { resolve, calls } = resolverFor(fixture.template);
    const { reading, regions } = await recognizePage(sheet.jpeg, resolve);
    expect(reading.problems).toEqual([{ kind: 'blankPage' }]);
    expect(reading).toMatchObject({ qr: null, qrText: null, transform: null, objective: [], regions: [] });
    expect(regions).toEqual([]);
    expect(calls).toEqual([null]);
  });

  it('reads the QR of another homework and leaves the rest to the server when no template comes back', async () => {
    const sheet = await sheetWith({ seed: 6, qrHomeworkId: 4999, degrade: { rotationDeg: -1 } });
    const { resolve, calls } = resolverFor(fixture.template);
    const { reading, regions } = await recognizePage(sheet.jpeg, resolve);
    expect(calls).toEqual([{ homeworkId: 4999, page: 1, studentCode: STUDENT.code }]);
    expect(reading.qr).toEqual({ homeworkId: 4999, page: 1, studentCode: STUDENT.code });
    expect(reading.transform).not.toBeNull();
    expect(reading.objective).toEqual([]);
    expect(regions).toEqual([]);
    expect(reading.problems).toEqual([]);
  });

  it('reports an unreadable QR, and still reads a one-page sheet when the caller knows the homework', async () => {
    const sheet = await sheetWith({ seed: 7, cover: ['qr'], degrade: { rotationDeg: 1 } });
    const { resolve, calls } = resolverFor(fixture.template);
    const { reading } = await recognizePage(sheet.jpeg, resolve);
    expect(calls).toEqual([null]);
    expect(reading.problems).toEqual([{ kind: 'qrUnreadable' }]);
    expect(reading.qr).toBeNull();
    expect(reading.confidence).toBe(0);
    expectAnswersRight(sheet, reading);
  });

  it('reads the QR through a scanner streak down its finder patterns, painted over from the paper beside it', async () => {
    const sheet = await sheetWith({ seed: 12, degrade: { rotationDeg: 0.5 } });
    // A dark streak 8 px wide the length of the page, down the middle of the left finder patterns.
    const streaked = await withStreakAcrossQr(sheet, 2.8, 8, () => 70);
    const { resolve, calls } = resolverFor(fixture.template);
    const { reading } = await recognizePage(streaked, resolve);
    expect(calls).toEqual([{ homeworkId: 4101, page: 1, studentCode: STUDENT.code }]);
    expect(reading.problems.filter((p) => p.questionNo === undefined)).toEqual([]);
  });

  it('reads the QR through a wide streak of dust that dims the modules under it, redrawn from what shows through', async () => {
    const sheet = await sheetWith({ seed: 15, degrade: { rotationDeg: 0.3 } });
    // An 18 px streak of grey 58 (modules stay as dark as they were), across the symbol's middle: painted
    // over from the paper beside it, two columns of modules were guessed and the symbol was not read.
    const streaked = await withStreakAcrossQr(sheet, 5.2, 18, (grey) => Math.min(grey, 58));
    const { reading } = await recognizePage(streaked, resolverFor(fixture.template).resolve);
    expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: STUDENT.code });
  });

  it('reads the QR through a wide opaque streak down its finder patterns, the patterns drawn in', async () => {
    const sheet = await sheetWith({ seed: 14, degrade: { rotationDeg: -0.4 } });
    // An 18 px streak as dark as toner (grey 30) that hides all under it, down the left finder patterns'
    // light ring: painted over from the paper beside it, they were broken for the reader.
    const streaked = await withStreakAcrossQr(sheet, 4.4, 18, () => 30);
    const { reading } = await recognizePage(streaked, resolverFor(fixture.template).resolve);
    expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: STUDENT.code });
  });

  it('reads the QR through a white streak (a dead sensor pixel) down its finder patterns', async () => {
    const sheet = await sheetWith({ seed: 14, degrade: { rotationDeg: -0.4 } });
    // Paper of grey 245 (a white streak on paper of 255 shows nothing to find, and cuts nothing either),
    // and a streak of 255, 6 px wide, the length of the page, down the left finder patterns' cores (before
    // the fix, 7 of 21 places across the symbol, this one among them, left it unread).
    const streaked = await withStreakAcrossQr(
      sheet,
      2.4,
      6,
      () => 255,
      (grey) => Math.round(grey * 0.96),
    );
    const { resolve, calls } = resolverFor(fixture.template);
    const { reading } = await recognizePage(streaked, resolve);
    expect(calls).toEqual([{ homeworkId: 4101, page: 1, studentCode: STUDENT.code }]);
    expect(reading.problems.filter((p) => p.questionNo === undefined)).toEqual([]);
  });

  it('reads the QR through a pencil line across a finder pattern, on its toner alone', async () => {
    const sheet = await sheetWith({ seed: 16, degrade: { rotationDeg: 0.6 } });
    const { data, info } = await sharp(sheet.jpeg).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    // A stray line of grey 90, 5 px thick, at 60 degrees through the bottom-left finder pattern's core.
    const core = applyAffine(sheet.transform, page.qr.xMm + 2.6, page.qr.yMm + page.qr.sizeMm - 2.6);
    for (let t = -200; t <= 200; t += 0.5) {
      for (let w = -2; w <= 2; w += 1) {
        const x = Math.round(core.x + t * Math.cos(Math.PI / 3) + w);
        const y = Math.round(core.y - t * Math.sin(Math.PI / 3));
        data[y * info.width + x] = Math.min(data[y * info.width + x]!, 90);
      }
    }
    const crossed = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png()
      .toBuffer();
    const { reading } = await recognizePage(crossed, resolverFor(fixture.template).resolve);
    expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: STUDENT.code });
  });

  it('places a scan of low contrast (grey paper, grey toner) as a scan, not a photo with a desk around it', async () => {
    const sheet = await sheetWith({ seed: 13, degrade: { rotationDeg: -0.7, noise: 4 } });
    // Paper 192, toner 75: the paper of such a scan runs to its edge, under the photo's desk grey.
    const { data, info } = await sharp(sheet.jpeg).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    for (let i = 0; i < data.length; i += 1) data[i] = 75 + Math.round((data[i]! * 117) / 255);
    const grey = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .jpeg({ quality: 85 })
      .toBuffer();
    const { reading } = await recognizePage(grey, resolverFor(fixture.template).resolve);
    expect(reading.photo).toBeUndefined();
    expect(reading.transform).not.toBeNull();
    expect(reading.problems.filter((p) => p.questionNo === undefined)).toEqual([]);
    expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: STUDENT.code });
  });

  it('tells an upside-down page without a readable QR by where the printed outlines fall', async () => {
    const sheet = await sheetWith({ seed: 17, cover: ['qr'], degrade: { rotationDeg: 2, upsideDown: true } });
    const { reading } = await recognizePage(sheet.jpeg, resolverFor(fixture.template).resolve);
    expect(reading.problems).toEqual([{ kind: 'qrUnreadable' }]);
    expect(reading.rotation).toBe(180);
    expectAnswersRight(sheet, reading);
  });

  it('locates a page with one fiducial covered from the other three and the QR', async () => {
    const sheet = await sheetWith({ seed: 8, cover: ['bl'], degrade: { rotationDeg: -1.5, upsideDown: true } });
    const { reading } = await recognizePage(sheet.jpeg, resolverFor(fixture.template).resolve);
    expect(reading.problems).toEqual([]);
    expect(reading.rotation).toBe(180);
    expectAnswersRight(sheet, reading);
  });

  it('reads a page with one fiducial and the QR covered, but only for review: the fit cannot be checked', async () => {
    const sheet = await sheetWith({ seed: 11, cover: ['tr', 'qr'], degrade: { rotationDeg: -1 } });
    const { reading } = await recognizePage(sheet.jpeg, resolverFor(fixture.template).resolve);
    expect(reading.problems).toEqual([
      { kind: 'qrUnreadable' },
      { kind: 'lowConfidence', detail: 'three fiducials and no QR: nothing to check the fit against' },
      // The doubt about the whole page holds back every question (the server scores by question).
      ...page.objective.map((q) => ({ kind: 'lowConfidence', questionNo: q.questionNo, detail: 'page placement uncertain' })),
    ]);
    expect(reading.confidence).toBe(0);
    for (const o of reading.objective) expect(o.confidence).toBeLessThan(0.6);
    expectAnswersRight(sheet, reading);
  });

  it('locates a page with the top fiducials covered from the bottom ones and the QR', async () => {
    const sheet = await sheetWith({ seed: 10, cover: ['tl', 'tr'], degrade: { rotationDeg: 0.8 } });
    const { reading } = await recognizePage(sheet.jpeg, resolverFor(fixture.template).resolve);
    expect(reading.problems).toEqual([]);
    expectAnswersRight(sheet, reading);
  });

  it('does not extrapolate a transform from points along the top edge only', async () => {
    const sheet = await sheetWith({ seed: 9, cover: ['bl', 'br'] });
    const { reading, regions } = await recognizePage(sheet.jpeg, resolverFor(fixture.template).resolve);
    expect(reading.problems.map((p) => p.kind)).toEqual(['fiducialsNotFound']);
    expect(reading.qr).toEqual({ homeworkId: 4101, page: 1, studentCode: STUDENT.code });
    expect(reading).toMatchObject({ transform: null, objective: [], confidence: 0 });
    expect(regions).toEqual([]);
  });

  it('rejects what is not an image', async () => {
    await expect(recognizePage(Buffer.from('not a jpeg'), resolverFor(null).resolve)).rejects.toThrow();
  });
});

describe('recognizePage on other sheets', () => {
  it.each([
    { name: 'turned 1.5 degrees, upside down', degrade: { rotationDeg: 1.5, upsideDown: true } },
    // The corners of a skewed, enlarged A3 page leave the scan: two fiducials show only slivers.
    { name: 'turned 2.8 degrees and 2.8 % larger', degrade: { rotationDeg: -2.8, scale: 1.028, shiftMm: { x: 1.6, y: 1.5 } } },
  ])('reads an A3 sheet (landscape, three columns) $name', async ({ degrade }) => {
    const a3 = sheetFixture(standardSpec(4103, 'A3'));
    const a3Page = a3.template.pages[0]!;
    const sheet = await renderSyntheticSheet(a3, { marks: randomMarks(a3Page, seededRandom(4)), seed: 4, degrade });
    const { reading } = await recognizePage(sheet.jpeg, resolverFor(a3.template).resolve);
    expect(reading.qr).toEqual({ homeworkId: 4103, page: 1 });
    expect(reading.problems).toEqual([]);
    for (const o of reading.objective) expect(o.marked, `question ${o.questionNo}`).toEqual(sheet.expected.get(o.questionNo));
  });

  it('reads the pages the browser’s simulated scanner feeds, blank and foreign ones included', async () => {
    const spec = standardSpec(777);
    const students = Array.from({ length: 3 }, (_, i) => ({ name: `学生${i + 1}`, code: `20260101${i + 1}` }));
    const { template, pages } = planSimulatedBatch({ homeworkId: 777, spec, students, pageCount: 5, seed: 2 });
    expect(pages.some((p) => p.kind === 'sheet' && p.upsideDown)).toBe(true);
    const { resolve } = resolverFor(template);
    for (const [i, planned] of pages.entries()) {
      const { reading } = await recognizePage(await simulatedScanJpeg(planned, template, spec), resolve);
      if (planned.kind === 'blank') {
        expect(reading.problems, `page ${i}`).toEqual([{ kind: 'blankPage' }]);
        continue;
      }
      expect(reading.qr?.homeworkId, `page ${i}`).toBe(planned.homeworkId);
      expect(reading.rotation, `page ${i}`).toBe(planned.upsideDown ? 180 : 0);
      if (planned.homeworkId !== 777) continue;
      expect(reading.problems, `page ${i}`).toEqual([]);
      const filled = new Map(planned.filled.map((f) => [f.questionNo, [...f.labels].sort()]));
      for (const o of reading.objective)
        expect(o.marked, `page ${i} question ${o.questionNo}`).toEqual(filled.get(o.questionNo) ?? []);
    }
  });
});
