/**
 * Synthetic scanned answer sheets with known answers, for the recognition tests and benchmarks (Node,
 * no browser). The sheet is the real printed one: renderAnswerSheetPdf's PDF rasterised by mupdf at
 * 300 dpi. On it go pencil marks (solid, faint, partial, erased with residue) and pen handwriting in
 * the answer regions; then a scanner's degradations: rotation, scale drift, an offset, upside-down
 * feeding, paper and toner tone, sensor noise and dust; then the scan station's output size (A4 to
 * 2480x3507) and JPEG. The ground truth comes back beside the JPEG, including the exact transform from
 * template millimetres to the JPEG's pixels.
 */
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { renderAnswerSheetPdf } from '../../server/services/answer-sheet/answer-sheet-pdf';
import {
  answerSheetSpecSchema,
  type AnswerSheetPage,
  type AnswerSheetSpec,
  type AnswerSheetTemplate,
  type FiducialCorner,
  type SheetQrPayload,
} from '../../src/shared/contract/answer-sheet';
import type { AffineTransform } from '../../src/shared/contract/recognition';
import { RESIZE_TARGETS } from '../../src/shared/contract/scan';
import { layoutAnswerSheet } from '../../src/shared/lib/answer-sheet-layout';
import { seededRandom } from '../../src/shared/lib/simulated-scan';

/** Resolution the sheet is rasterised at (a scanner's). */
export const BASE_DPI = 300;
const BASE_PX_PER_MM = BASE_DPI / 25.4;

export type MarkStyle = 'solid' | 'faint' | 'partial' | 'erased';
export type SheetMark = { questionNo: number; label: string; style: MarkStyle };
/** Marks that count as answers: an erased mark does not. */
export const COUNTS_AS_MARK: Readonly<Record<MarkStyle, boolean>> = { solid: true, faint: true, partial: true, erased: false };

export type Degradation = {
  rotationDeg?: number;
  /** Scale of the printed page on the scan (printer or copier drift), 1 = exact. */
  scale?: number;
  /** Extra vertical scale (a feeder running slightly fast or slow), 1 = none. */
  stretchY?: number;
  /** Offset of the page on the scan, millimetres. */
  shiftMm?: { x: number; y: number };
  upsideDown?: boolean;
  /** Grey of the paper and of solid toner on the scan. */
  paper?: number;
  toner?: number;
  /** Standard deviation of the sensor noise, grey levels. */
  noise?: number;
  /** Dust specks. */
  specks?: number;
  /** Vertical streaks of a dirty scanner glass, dark lines down the whole page. */
  streaks?: number;
  /** Gaussian blur of the scanner's optics, sigma in pixels (0.3 and up; none below). */
  blur?: number;
  jpegQuality?: number;
};

export type SyntheticSheetOptions = {
  pageIndex?: number;
  /** Per-student sheet (name and code printed, code in the QR); generic without. */
  student?: { name: string; code: string };
  /** The QR names this homework instead of the template's (a page of another homework). */
  qrHomeworkId?: number;
  marks?: SheetMark[];
  /** Question numbers of the regions written in. */
  writeIn?: number[];
  degrade?: Degradation;
  seed?: number;
  /** Only the paper: a blank page fed by mistake (or a duplex back side). */
  blank?: boolean;
  /** Printed parts hidden under white (a staple, a torn corner, a sticker): fiducial corners or the QR. */
  cover?: (FiducialCorner | 'qr')[];
};

export type SyntheticSheet = {
  jpeg: Buffer;
  width: number;
  height: number;
  qr: SheetQrPayload;
  /** Marked labels per objective question of the page, in template order (erased marks excluded). */
  expected: Map<number, string[]>;
  /** Template millimetres to the JPEG's pixel coordinates (pixel centres at integers). */
  transform: AffineTransform;
  upsideDown: boolean;
};

export type SheetFixture = {
  spec: AnswerSheetSpec;
  template: AnswerSheetTemplate;
  /** Rasterised pages per sheet (student code or "-"), rendered on first use. */
  bases: Map<string, Promise<Uint8Array[]>>;
};

/** A typical homework's sheet: 12 single, 4 multiple (5 options), 4 judge, a blank and two subjective. */
export function standardSpec(homeworkId = 4101, paperSize: 'A4' | 'A3' = 'A4'): AnswerSheetSpec {
  return answerSheetSpecSchema.parse({
    homeworkId,
    title: '七年级数学第三单元作业',
    subjectName: '数学',
    paperSize,
    className: '七年级(1)班',
    questions: [
      ...Array.from({ length: 12 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
      ...Array.from({ length: 4 }, (_, i) => ({ no: 13 + i, type: 'multiple', score: 4, optionCount: 5 })),
      ...Array.from({ length: 4 }, (_, i) => ({ no: 17 + i, type: 'judge', score: 2 })),
      { no: 21, type: 'blank', score: 6, blankCount: 3 },
      { no: 22, type: 'subjective', score: 10, lines: 6 },
      { no: 23, type: 'subjective', score: 12, lines: 8 },
    ],
  });
}

export function sheetFixture(spec: AnswerSheetSpec): SheetFixture {
  return { spec, template: layoutAnswerSheet(spec), bases: new Map() };
}

function pageSizePx(template: AnswerSheetTemplate) {
  const target = template.paperSize === 'A4' ? RESIZE_TARGETS[1] : null;
  return (
    target ?? {
      width: Math.round(template.pageWidthMm * BASE_PX_PER_MM),
      height: Math.round(template.pageHeightMm * BASE_PX_PER_MM),
    }
  );
}

async function basePages(fixture: SheetFixture, student: { name: string; code: string } | undefined, qrHomeworkId: number) {
  const key = `${qrHomeworkId}:${student?.code ?? '-'}`;
  let pages = fixture.bases.get(key);
  if (!pages) {
    pages = (async () => {
      const template = { ...fixture.template, homeworkId: qrHomeworkId };
      const pdf = await renderAnswerSheetPdf({ ...fixture.spec, homeworkId: qrHomeworkId }, template, [
        student ? { student } : {},
      ]);
      const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
      const rendered: Uint8Array[] = [];
      const width = Math.round(fixture.template.pageWidthMm * BASE_PX_PER_MM);
      const height = Math.round(fixture.template.pageHeightMm * BASE_PX_PER_MM);
      for (let i = 0; i < doc.countPages(); i += 1) {
        const pixmap = doc
          .loadPage(i)
          .toPixmap(mupdf.Matrix.scale(BASE_DPI / 72, BASE_DPI / 72), mupdf.ColorSpace.DeviceGray, false);
        // mupdf rounds the page out to whole pixels; keep exactly width x height, top-left aligned.
        const src = pixmap.getPixels();
        const stride = pixmap.getStride();
        const out = new Uint8Array(width * height).fill(255);
        for (let y = 0; y < Math.min(height, pixmap.getHeight()); y += 1) {
          out.set(src.subarray(y * stride, y * stride + Math.min(width, pixmap.getWidth())), y * width);
        }
        rendered.push(out);
        pixmap.destroy();
      }
      doc.destroy();
      return rendered;
    })();
    fixture.bases.set(key, pages);
  }
  return pages;
}

/** A grey canvas in base pixels with millimetre drawing helpers; `min` keeps the darker of page and ink. */
class Paper {
  constructor(
    readonly data: Uint8Array,
    readonly width: number,
    readonly height: number,
  ) {}

  /** Ellipse centred at (cx, cy) mm with radii rx, ry; `shade(x, y)` gives the ink level per pixel; `keep(u, v)` its coverage. */
  ellipse(
    cx: number,
    cy: number,
    rx: number,
    ry: number,
    shade: () => number,
    keep: (u: number, v: number) => boolean = () => true,
  ) {
    const k = BASE_PX_PER_MM;
    const x0 = Math.max(0, Math.floor((cx - rx) * k) - 1);
    const x1 = Math.min(this.width - 1, Math.ceil((cx + rx) * k) + 1);
    const y0 = Math.max(0, Math.floor((cy - ry) * k) - 1);
    const y1 = Math.min(this.height - 1, Math.ceil((cy + ry) * k) + 1);
    const soft = Math.min(rx, ry) * k;
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        const u = ((x + 0.5) / k - cx) / rx;
        const v = ((y + 0.5) / k - cy) / ry;
        const d = Math.sqrt(u * u + v * v);
        const alpha = Math.min(1, Math.max(0, (1 - d) * soft + 0.5));
        if (alpha <= 0 || !keep(u, v)) continue;
        const i = y * this.width + x;
        const page = this.data[i] as number;
        const ink = shade();
        const mixed = page + alpha * (Math.min(page, ink) - page);
        this.data[i] = Math.round(mixed);
      }
    }
  }

  /** A pen stroke of `widthMm` along a polyline (mm). */
  stroke(points: { x: number; y: number }[], widthMm: number, ink: number) {
    const k = BASE_PX_PER_MM;
    const r = (widthMm / 2) * k;
    for (let s = 0; s + 1 < points.length; s += 1) {
      const a = { x: points[s]!.x * k, y: points[s]!.y * k };
      const b = { x: points[s + 1]!.x * k, y: points[s + 1]!.y * k };
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len2 = dx * dx + dy * dy || 1;
      const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - r - 1));
      const x1 = Math.min(this.width - 1, Math.ceil(Math.max(a.x, b.x) + r + 1));
      const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - r - 1));
      const y1 = Math.min(this.height - 1, Math.ceil(Math.max(a.y, b.y) + r + 1));
      for (let y = y0; y <= y1; y += 1) {
        for (let x = x0; x <= x1; x += 1) {
          const px = x + 0.5;
          const py = y + 0.5;
          const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / len2));
          const dist = Math.hypot(px - (a.x + t * dx), py - (a.y + t * dy));
          const alpha = Math.min(1, Math.max(0, r - dist + 0.5));
          if (alpha <= 0) continue;
          const i = y * this.width + x;
          const page = this.data[i] as number;
          this.data[i] = Math.round(page + alpha * (Math.min(page, ink) - page));
        }
      }
    }
  }
}

function drawMark(
  paper: Paper,
  bubble: { xMm: number; yMm: number; wMm: number; hMm: number },
  style: MarkStyle,
  random: () => number,
) {
  const cx = bubble.xMm + bubble.wMm / 2 + (random() - 0.5) * 0.5;
  const cy = bubble.yMm + bubble.hMm / 2 + (random() - 0.5) * 0.4;
  const grow = 0.92 + random() * 0.18;
  const rx = (bubble.wMm / 2) * grow;
  const ry = (bubble.hMm / 2) * grow;
  // Graphite is grainy: each pixel a little lighter or darker.
  const grain = (level: number, spread: number) => () => level + (random() - 0.5) * spread;
  if (style === 'solid') {
    paper.ellipse(cx, cy, rx, ry, grain(40 + random() * 40, 40));
  } else if (style === 'faint') {
    paper.ellipse(cx, cy, rx, ry, grain(110 + random() * 35, 40));
  } else if (style === 'partial') {
    // A mark that stops short: a random side of the bubble left empty, 50-80 % covered.
    const angle = random() * 2 * Math.PI;
    const cut = -0.5 + random() * 0.5;
    const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
    paper.ellipse(cx, cy, rx, ry, grain(45 + random() * 40, 40), (u, v) => u * ux + v * uy > cut);
  } else {
    // Rubbed out: light graphite left in patches.
    const level = 200 + random() * 30;
    const patches = Array.from({ length: 5 }, () => ({
      u: (random() - 0.5) * 1.4,
      v: (random() - 0.5) * 1.4,
      r: 0.35 + random() * 0.4,
    }));
    paper.ellipse(cx, cy, rx, ry, grain(level, 20), (u, v) => patches.some((p) => (u - p.u) ** 2 + (v - p.v) ** 2 < p.r ** 2));
  }
}

/** Some handwriting: lines of glyph-like pen strokes across the upper part of a region. */
function handwriting(paper: Paper, region: { xMm: number; yMm: number; wMm: number; hMm: number }, random: () => number) {
  const lines = Math.max(1, Math.min(4, Math.floor((region.hMm - 8) / 8)));
  const ink = 25 + random() * 40;
  const width = 0.35 + random() * 0.2;
  for (let line = 0; line < lines; line += 1) {
    const baseline = region.yMm + 12 + line * 8;
    if (baseline > region.yMm + region.hMm - 2) break;
    let x = region.xMm + 9;
    const end = region.xMm + region.wMm * (0.45 + random() * 0.45);
    while (x < end) {
      const glyphWidth = 2 + random() * 2.5;
      const points = Array.from({ length: 7 }, (_, step) => ({
        x: x + (glyphWidth * step) / 6,
        y: baseline - 0.5 - random() * 3.5,
      }));
      paper.stroke(points, width, ink);
      x += glyphWidth + 0.8 + random() * 1.5;
    }
  }
}

/** Renders one scanned page. */
export async function renderSyntheticSheet(fixture: SheetFixture, options: SyntheticSheetOptions = {}): Promise<SyntheticSheet> {
  const { template } = fixture;
  const pageIndex = options.pageIndex ?? 0;
  const layout = template.pages[pageIndex] as AnswerSheetPage;
  const random = seededRandom(options.seed ?? 1);
  const qrHomeworkId = options.qrHomeworkId ?? template.homeworkId;
  const baseWidth = Math.round(template.pageWidthMm * BASE_PX_PER_MM);
  const baseHeight = Math.round(template.pageHeightMm * BASE_PX_PER_MM);
  const base = options.blank
    ? new Uint8Array(baseWidth * baseHeight).fill(255)
    : Uint8Array.from((await basePages(fixture, options.student, qrHomeworkId))[pageIndex] as Uint8Array);
  const paper = new Paper(base, baseWidth, baseHeight);
  for (const part of options.cover ?? []) {
    const f = layout.fiducials.find((g) => g.corner === part);
    const rect =
      part === 'qr'
        ? { x: layout.qr.xMm - 1, y: layout.qr.yMm - 1, w: layout.qr.sizeMm + 2, h: layout.qr.sizeMm + 2 }
        : { x: f!.xMm - f!.sizeMm / 2 - 1, y: f!.yMm - f!.sizeMm / 2 - 1, w: f!.sizeMm + 2, h: f!.sizeMm + 2 };
    for (let y = Math.floor(rect.y * BASE_PX_PER_MM); y < Math.ceil((rect.y + rect.h) * BASE_PX_PER_MM); y += 1) {
      base.fill(
        255,
        y * baseWidth + Math.floor(rect.x * BASE_PX_PER_MM),
        y * baseWidth + Math.ceil((rect.x + rect.w) * BASE_PX_PER_MM),
      );
    }
  }

  const expected = new Map<number, string[]>(layout.objective.map((q) => [q.questionNo, []]));
  if (!options.blank) {
    for (const mark of options.marks ?? []) {
      const q = layout.objective.find((o) => o.questionNo === mark.questionNo);
      const bubble = q?.options.find((o) => o.label === mark.label);
      if (!q || !bubble) throw new Error(`No bubble ${mark.questionNo}${mark.label} on page ${pageIndex + 1}`);
      drawMark(paper, bubble, mark.style, random);
      if (COUNTS_AS_MARK[mark.style]) expected.get(q.questionNo)!.push(mark.label);
    }
    for (const no of options.writeIn ?? []) {
      const region = layout.regions.find((r) => r.questionNo === no);
      if (region) handwriting(paper, region, random);
    }
  }
  for (const [no, labels] of expected) {
    const order = layout.objective.find((q) => q.questionNo === no)!.options.map((o) => o.label);
    labels.sort((p, q) => order.indexOf(p) - order.indexOf(q));
  }

  const d = options.degrade ?? {};
  const out = pageSizePx(template);
  const kx = out.width / template.pageWidthMm;
  const ky = out.height / template.pageHeightMm;
  const theta = (((d.rotationDeg ?? 0) + (d.upsideDown ? 180 : 0)) * Math.PI) / 180;
  const s = d.scale ?? 1;
  const sy = s * (d.stretchY ?? 1);
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const cMm = { x: template.pageWidthMm / 2, y: template.pageHeightMm / 2 };
  const shift = { x: (d.shiftMm?.x ?? 0) * kx, y: (d.shiftMm?.y ?? 0) * ky };
  // Template mm -> output continuous pixels: centre, rotate, scale, back, to pixels, shift.
  // p = K (c + S R (m - c)) + shift, with K = diag(kx, ky) and S = diag(s, sy).
  const forward: AffineTransform = {
    a: kx * s * cos,
    c: -kx * s * sin,
    b: ky * sy * sin,
    d: ky * sy * cos,
    e: 0,
    f: 0,
  };
  forward.e = kx * cMm.x + shift.x - (forward.a * cMm.x + forward.c * cMm.y);
  forward.f = ky * cMm.y + shift.y - (forward.b * cMm.x + forward.d * cMm.y);
  // The JPEG's pixel (i, j) is centred on continuous (i + 0.5, j + 0.5).
  const transform: AffineTransform = { ...forward, e: forward.e - 0.5, f: forward.f - 0.5 };

  const det = forward.a * forward.d - forward.b * forward.c;
  const inv = {
    a: forward.d / det,
    b: -forward.b / det,
    c: -forward.c / det,
    d: forward.a / det,
  };
  const paperLevel = d.paper ?? 246;
  const toner = d.toner ?? 22;
  const sigma = d.noise ?? 3;
  const noise = seededRandom((options.seed ?? 1) ^ 0x5f3759df);
  // Sensor noise from a table of normal deviates, picked by a xorshift: per-pixel PRNG calls would
  // make generating the accuracy set slower than recognising it.
  const table = new Int16Array(1 << 16);
  for (let i = 0; i < table.length; i += 1) {
    const n = Math.sqrt(-2 * Math.log(1 - noise())) * Math.cos(2 * Math.PI * noise());
    table[i] = Math.round(n * sigma * 16);
  }
  // Tone: base 0..255 to toner..paper, in 8.8 fixed point, with the noise added.
  const tone = new Int32Array(256);
  for (let v = 0; v < 256; v += 1) tone[v] = Math.round((toner + (v * (paperLevel - toner)) / 255) * 16);
  let state = (options.seed ?? 1) * 2654435761 || 1;
  const pixels = new Uint8Array(out.width * out.height);
  const ONE = 65536;
  const stepX = Math.round(inv.a * BASE_PX_PER_MM * ONE);
  const stepY = Math.round(inv.b * BASE_PX_PER_MM * ONE);
  for (let j = 0; j < out.height; j += 1) {
    // Output pixel centre -> template mm -> base pixel coordinates (pixel centres at integers).
    const py = j + 0.5 - forward.f;
    const px0 = 0.5 - forward.e;
    let bx = Math.round(((inv.a * px0 + inv.c * py) * BASE_PX_PER_MM - 0.5) * ONE);
    let by = Math.round(((inv.b * px0 + inv.d * py) * BASE_PX_PER_MM - 0.5) * ONE);
    const row = j * out.width;
    for (let i = 0; i < out.width; i += 1, bx += stepX, by += stepY) {
      const x0 = bx >> 16;
      const y0 = by >> 16;
      let v = 255;
      if (x0 >= 0 && y0 >= 0 && x0 < baseWidth - 1 && y0 < baseHeight - 1) {
        const fx = (bx >> 8) & 255;
        const fy = (by >> 8) & 255;
        const k = y0 * baseWidth + x0;
        const p00 = base[k]!;
        const p01 = base[k + baseWidth]!;
        const top = (p00 << 8) + fx * (base[k + 1]! - p00);
        const bottom = (p01 << 8) + fx * (base[k + baseWidth + 1]! - p01);
        v = ((top << 8) + fy * (bottom - top) + 32768) >> 16;
      }
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const value = (tone[v]! + table[state & 0xffff]!) >> 4;
      pixels[row + i] = value < 0 ? 0 : value > 255 ? 255 : value;
    }
  }
  for (let i = 0; i < (d.specks ?? 400); i += 1) {
    const size = 1 + Math.floor(noise() * 3);
    const x = Math.floor(noise() * (out.width - size));
    const y = Math.floor(noise() * (out.height - size));
    const level = 40 + noise() * 100;
    for (let dy = 0; dy < size; dy += 1) for (let dx = 0; dx < size; dx += 1) pixels[(y + dy) * out.width + x + dx] = level;
  }

  for (let i = 0; i < (d.streaks ?? 0); i += 1) {
    const x = Math.floor(noise() * (out.width - 3));
    const width = 1 + Math.floor(noise() * 2);
    const level = 60 + noise() * 90;
    for (let y = 0; y < out.height; y += 1) for (let dx = 0; dx < width; dx += 1) pixels[y * out.width + x + dx] = level;
  }

  let image = sharp(pixels, { raw: { width: out.width, height: out.height, channels: 1 } });
  if ((d.blur ?? 0) >= 0.3) image = image.blur(d.blur);
  const jpeg = await image
    .toColourspace('srgb')
    .jpeg({ quality: d.jpegQuality ?? 85, chromaSubsampling: '4:2:0' })
    .toBuffer();
  return {
    jpeg,
    width: out.width,
    height: out.height,
    qr: { homeworkId: qrHomeworkId, page: layout.page, ...(options.student ? { studentCode: options.student.code } : {}) },
    expected,
    transform,
    upsideDown: d.upsideDown ?? false,
  };
}

export type MarkMix = { faint: number; partial: number; erased: number; blankQuestion: number; extraOnSingle: number };

/** Marks for every objective question of a page, chosen at random: one for single/judge, one to three for multiple. */
export function randomMarks(page: AnswerSheetPage, random: () => number, mix: Partial<MarkMix> = {}): SheetMark[] {
  const { faint = 0, partial = 0, erased = 0, blankQuestion = 0.05, extraOnSingle = 0 } = mix;
  const marks: SheetMark[] = [];
  const style = (): MarkStyle => {
    const r = random();
    return r < faint ? 'faint' : r < faint + partial ? 'partial' : 'solid';
  };
  for (const q of page.objective) {
    const labels = q.options.map((o) => o.label);
    const shuffled = [...labels].sort(() => random() - 0.5);
    if (random() < blankQuestion) continue;
    const count = q.type === 'multiple' ? 1 + Math.floor(random() * 3) : random() < extraOnSingle ? 2 : 1;
    const chosen = shuffled.slice(0, count);
    for (const label of chosen) marks.push({ questionNo: q.questionNo, label, style: style() });
    const left = shuffled.slice(count);
    if (left.length > 0 && random() < erased) marks.push({ questionNo: q.questionNo, label: left[0]!, style: 'erased' });
  }
  return marks;
}
