import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as mupdf from 'mupdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { renderAnswerSheetPdf } from '../../../server/services/answer-sheet/answer-sheet-pdf';
import {
  answerSheetSpecSchema,
  type AnswerSheetSpec,
  type AnswerSheetTemplate,
  type Bubble,
} from '../../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import { decodeSheetQr, encodeSheetQr } from '../../../src/shared/lib/answer-sheet-qr';

const DPI = 150;
const PX_PER_MM = DPI / 25.4;
const STUDENT = { name: '张三丰', code: '2024001' };

function mixedSpec(paperSize: 'A4' | 'A3'): AnswerSheetSpec {
  return answerSheetSpecSchema.parse({
    homeworkId: 3107,
    title: '八年级物理第二章作业',
    subjectName: '物理',
    paperSize,
    className: '八年级(3)班',
    questions: [
      ...Array.from({ length: 10 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
      { no: 11, type: 'multiple', score: 4, optionCount: 5 },
      { no: 12, type: 'multiple', score: 4 },
      ...Array.from({ length: 4 }, (_, i) => ({ no: 13 + i, type: 'judge', score: 2 })),
      { no: 17, type: 'blank', score: 6, blankCount: 3 },
      { no: 18, type: 'subjective', score: 10 },
      { no: 19, type: 'subjective', score: 12, lines: 14 },
      { no: 20, type: 'subjective', score: 14 },
    ],
  });
}

/** A rendered page as 8-bit greyscale, addressed in millimetres. */
class Raster {
  constructor(
    readonly gray: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
    readonly stride: number,
  ) {}

  at(xMm: number, yMm: number): number {
    const x = Math.min(this.width - 1, Math.max(0, Math.floor(xMm * PX_PER_MM)));
    const y = Math.min(this.height - 1, Math.max(0, Math.floor(yMm * PX_PER_MM)));
    return this.gray[y * this.stride + x] ?? 255;
  }

  /** Darkest pixel within about a pixel of the point: tolerant of anti-aliasing on thin lines. */
  darkestNear(xMm: number, yMm: number): number {
    const d = 1 / PX_PER_MM;
    let min = 255;
    for (const dx of [-d, 0, d]) for (const dy of [-d, 0, d]) min = Math.min(min, this.at(xMm + dx, yMm + dy));
    return min;
  }

  /** Centroid and area of the dark pixels in a window, in millimetres. */
  darkCentroid(xMm: number, yMm: number, halfMm: number) {
    let sumX = 0;
    let sumY = 0;
    let count = 0;
    const [x0, x1] = [Math.floor((xMm - halfMm) * PX_PER_MM), Math.ceil((xMm + halfMm) * PX_PER_MM)];
    const [y0, y1] = [Math.floor((yMm - halfMm) * PX_PER_MM), Math.ceil((yMm + halfMm) * PX_PER_MM)];
    for (let y = Math.max(0, y0); y < Math.min(this.height, y1); y += 1) {
      for (let x = Math.max(0, x0); x < Math.min(this.width, x1); x += 1) {
        if ((this.gray[y * this.stride + x] ?? 255) < 100) {
          sumX += x + 0.5;
          sumY += y + 0.5;
          count += 1;
        }
      }
    }
    return { xMm: sumX / count / PX_PER_MM, yMm: sumY / count / PX_PER_MM, areaMm2: count / PX_PER_MM ** 2 };
  }

  /** RGBA copy for the barcode reader. */
  toImageData() {
    const data = new Uint8ClampedArray(this.width * this.height * 4);
    for (let y = 0; y < this.height; y += 1) {
      for (let x = 0; x < this.width; x += 1) {
        const v = this.gray[y * this.stride + x] ?? 255;
        data.set([v, v, v, 255], (y * this.width + x) * 4);
      }
    }
    return { data, width: this.width, height: this.height, colorSpace: 'srgb' as const };
  }
}

interface Rendered {
  spec: AnswerSheetSpec;
  template: AnswerSheetTemplate;
  pdf: Uint8Array;
  doc: mupdf.Document;
}

function rasterise(doc: mupdf.Document, index: number): Raster {
  const page = doc.loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(DPI / 72, DPI / 72), mupdf.ColorSpace.DeviceGray, false);
  return new Raster(pixmap.getPixels(), pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride());
}

function pageText(doc: mupdf.Document, index: number): string {
  return doc.loadPage(index).toStructuredText('preserve-whitespace').asText();
}

async function qrTexts(raster: Raster): Promise<string[]> {
  const results = await readBarcodes(raster.toImageData() as ImageData, { formats: ['QRCode'], tryHarder: true });
  return results.map((r) => r.text);
}

/** Share of points on the bubble's outline (the stroke centre: 0.15 mm inside the rectangle) that are dark. */
function ringInk(raster: Raster, o: Pick<Bubble, 'xMm' | 'yMm' | 'wMm' | 'hMm'>): number {
  const cx = o.xMm + o.wMm / 2;
  const cy = o.yMm + o.hMm / 2;
  const samples = 32;
  let dark = 0;
  for (let i = 0; i < samples; i += 1) {
    const a = (2 * Math.PI * i) / samples;
    if (raster.darkestNear(cx + (o.wMm / 2 - 0.15) * Math.cos(a), cy + (o.hMm / 2 - 0.15) * Math.sin(a)) < 128) dark += 1;
  }
  return dark / samples;
}

/** Darkest pixel and mean inside the bubble, away from its outline. */
function interior(raster: Raster, o: Bubble) {
  const cx = o.xMm + o.wMm / 2;
  const cy = o.yMm + o.hMm / 2;
  let min = 255;
  let sum = 0;
  let n = 0;
  const step = 0.5 / PX_PER_MM;
  for (let y = -0.5; y <= 0.5; y += step / (o.hMm * 0.55)) {
    for (let x = -0.5; x <= 0.5; x += step / (o.wMm * 0.55)) {
      if (x * x + y * y > 0.25) continue;
      const v = raster.at(cx + x * o.wMm * 0.55, cy + y * o.hMm * 0.55);
      min = Math.min(min, v);
      sum += v;
      n += 1;
    }
  }
  return { min, mean: sum / n };
}

beforeAll(async () => {
  // The reader's wasm comes from node_modules: by default zxing-wasm would fetch it from a CDN.
  const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
  await prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    fireImmediately: true,
  });
});

describe.each(['A4', 'A3'] as const)('renderAnswerSheetPdf on %s', (paperSize) => {
  let r: Rendered;
  let first: Raster;

  beforeAll(async () => {
    const spec = mixedSpec(paperSize);
    const template = layoutAnswerSheet(spec);
    const pdf = await renderAnswerSheetPdf(spec, template, [{ student: STUDENT }, {}]);
    r = { spec, template, pdf, doc: mupdf.Document.openDocument(pdf, 'application/pdf') };
    first = rasterise(r.doc, 0);
  });

  it('prints every template page once per sheet, at the paper size', () => {
    expect(r.doc.countPages()).toBe(2 * r.template.pages.length);
    const [x0, y0, x1, y1] = r.doc.loadPage(0).getBounds();
    expect(((x1 - x0) * 25.4) / 72).toBeCloseTo(r.template.pageWidthMm, 0);
    expect(((y1 - y0) * 25.4) / 72).toBeCloseTo(r.template.pageHeightMm, 0);
    expect(Math.abs(first.width - (r.template.pageWidthMm / 25.4) * DPI)).toBeLessThanOrEqual(1);
  });

  it('puts each fiducial within 1 mm of the template as a solid square', () => {
    for (const f of r.template.pages[0]!.fiducials) {
      const found = first.darkCentroid(f.xMm, f.yMm, f.sizeMm / 2 + 3);
      expect(Math.hypot(found.xMm - f.xMm, found.yMm - f.yMm), `fiducial ${f.corner}`).toBeLessThan(1);
      expect(found.areaMm2).toBeGreaterThan(0.85 * f.sizeMm ** 2);
      expect(found.areaMm2).toBeLessThan(1.15 * f.sizeMm ** 2);
    }
  });

  it('draws every bubble outline where the template says, and leaves it empty inside', () => {
    const bubbles = r.template.pages[0]!.objective.flatMap((q) => q.options.map((o) => ({ ...o, q: q.questionNo })));
    expect(bubbles.length).toBeGreaterThan(40);
    for (const o of bubbles) {
      expect(ringInk(first, o), `outline of ${o.q}${o.label}`).toBeGreaterThanOrEqual(0.9);
      const inside = interior(first, o);
      expect(inside.min, `inside of ${o.q}${o.label}`).toBeGreaterThan(100);
      expect(inside.mean, `inside of ${o.q}${o.label}`).toBeGreaterThan(200);
      // Half a pitch to the right is the gap between two bubbles: no outline there.
      expect(ringInk(first, { ...o, xMm: o.xMm + 3.75 }), `gap after ${o.q}${o.label}`).toBeLessThan(0.5);
    }
  });

  it('boxes every region of the first page', () => {
    for (const g of r.template.pages[0]!.regions) {
      const edges = [0.2, 0.5, 0.8].flatMap((t) => [
        first.darkestNear(g.xMm + t * g.wMm, g.yMm + 0.15),
        first.darkestNear(g.xMm + t * g.wMm, g.yMm + g.hMm - 0.15),
        first.darkestNear(g.xMm + 0.15, g.yMm + t * g.hMm),
        first.darkestNear(g.xMm + g.wMm - 0.15, g.yMm + t * g.hMm),
      ]);
      expect(Math.max(...edges), `region ${g.questionNo}`).toBeLessThan(128);
    }
  });

  it('prints a QR that decodes to the homework, page and student', async () => {
    const expected = encodeSheetQr({ homeworkId: 3107, page: 1, studentCode: STUDENT.code });
    expect(await qrTexts(first)).toEqual([expected]);
    expect(decodeSheetQr(expected)).toEqual({ homeworkId: 3107, page: 1, studentCode: STUDENT.code });
    const genericFirst = rasterise(r.doc, r.template.pages.length);
    expect((await qrTexts(genericFirst)).map(decodeSheetQr)).toEqual([{ homeworkId: 3107, page: 1 }]);
  });

  it('finds the QR where the template puts it', async () => {
    const { qr } = r.template.pages[0]!;
    const results = await readBarcodes(first.toImageData() as ImageData, { formats: ['QRCode'] });
    const { topLeft, bottomRight } = results[0]!.position;
    expect(topLeft.x / PX_PER_MM).toBeCloseTo(qr.xMm, 0);
    expect(topLeft.y / PX_PER_MM).toBeCloseTo(qr.yMm, 0);
    expect(bottomRight.x / PX_PER_MM).toBeCloseTo(qr.xMm + qr.sizeMm, 0);
  });

  it("prints the student's name and code on a per-student sheet and leaves a generic one blank", () => {
    const personal = pageText(r.doc, 0);
    expect(personal).toContain(STUDENT.name);
    expect(personal).toContain(STUDENT.code);
    expect(personal).toContain(r.spec.title);
    expect(personal).toContain('请用2B铅笔');
    const generic = pageText(r.doc, r.template.pages.length);
    expect(generic).not.toContain(STUDENT.name);
    expect(generic).toContain('姓名');
    expect(generic).toContain(r.spec.title);
  });
});

describe('renderAnswerSheetPdf for a class', () => {
  it('numbers the pages of a sheet that runs over one page in their QRs', async () => {
    const spec = answerSheetSpecSchema.parse({
      ...mixedSpec('A4'),
      questions: Array.from({ length: 6 }, (_, i) => ({ no: i + 1, type: 'subjective', score: 20 })),
    });
    const template = layoutAnswerSheet(spec);
    expect(template.pages.length).toBeGreaterThan(1);
    const doc = mupdf.Document.openDocument(
      await renderAnswerSheetPdf(spec, template, [{ student: STUDENT }]),
      'application/pdf',
    );
    const second = await qrTexts(rasterise(doc, 1));
    expect(second.map(decodeSheetQr)).toEqual([{ homeworkId: 3107, page: 2, studentCode: STUDENT.code }]);
    expect(pageText(doc, 1)).toContain(`第 2 页（共 ${template.pages.length} 页）`);
  });

  it('renders forty per-student sheets in a few seconds, embedding the font once', async () => {
    const spec = mixedSpec('A4');
    const template = layoutAnswerSheet(spec);
    const sheets = Array.from({ length: 40 }, (_, i) => ({
      student: { name: `学生${i + 1}`, code: `2024${String(i + 1).padStart(3, '0')}` },
    }));
    const started = performance.now();
    const pdf = await renderAnswerSheetPdf(spec, template, sheets);
    expect(performance.now() - started).toBeLessThan(10_000);
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
    expect(doc.countPages()).toBe(40 * template.pages.length);
    expect(pageText(doc, 39 * template.pages.length)).toContain('学生40');
    const pdfDoc = doc.asPDF()!;
    let fontFiles = 0;
    for (let num = 1; num < pdfDoc.countObjects(); num += 1) {
      const obj = pdfDoc.newIndirect(num).resolve();
      if (obj.isDictionary() && !obj.get('FontFile2').isNull()) fontFiles += 1;
    }
    expect(fontFiles).toBe(1);
    expect(pdf.length).toBeLessThan(1_000_000);
  });
});
