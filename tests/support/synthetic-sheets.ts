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
import { fitAffine } from '../../server/services/recognition/affine-fit';

/** Resolution the sheet is rasterised at (a scanner's). */
export const BASE_DPI = 300;
const BASE_PX_PER_MM = BASE_DPI / 25.4;

/**
 * How a bubble was marked. Beside fills: a tick or a cross drawn inside the bubble (answers); a mark
 * rubbed out halfway (grey 150-195 all over: not an answer, but no scanner can be sure of that); a
 * stray pencil line across the bubble and beyond it, near level or upright (`stray`) or diagonal, 45
 * degrees give or take 10 (`strayDiagonal`): not an answer. A ring drawn around the option on the paper
 * outside its outline, the inside left clean (`ring`), and a small dot of pencil in the bubble (`dot`):
 * answers, as students make them.
 */
export type MarkStyle =
  'solid' | 'faint' | 'partial' | 'erased' | 'tick' | 'cross' | 'halfErased' | 'stray' | 'strayDiagonal' | 'ring' | 'dot';
export type SheetMark = {
  questionNo: number;
  label: string;
  style: MarkStyle;
  /** A half-erased mark's grey (150-195 at random without). */
  grey?: number;
  /** A half-erased mark keeps darker streaks of the pencil strokes the rubber missed. */
  strokes?: boolean;
};
/** Marks that count as answers: erased marks and stray lines do not. */
export const COUNTS_AS_MARK: Readonly<Record<MarkStyle, boolean>> = {
  solid: true,
  faint: true,
  partial: true,
  erased: false,
  tick: true,
  cross: true,
  halfErased: false,
  stray: false,
  strayDiagonal: false,
  ring: true,
  dot: true,
};

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
  /**
   * Streaks of a dirty scanner glass running down the centre of a bubble column (the column of one
   * option letter of the page's objective questions), full page length.
   */
  columnStreaks?: number;
  /** The bubble the column streaks run through (a random one of the page's without). */
  columnStreakOn?: { questionNo: number; label: string };
  /** The column streaks' width in pixels (3 to 10 without). */
  columnStreakPx?: number;
  /**
   * The column streaks' grey (40 to 130 without). 255 is a dead pixel of the sensor: paper white
   * whatever lies under it, ink of a mark included.
   */
  columnStreakGrey?: number;
  /**
   * A 1-bit scanner: every pixel black below this grey level, white above (before the JPEG the
   * station makes of it). Faint pencil leaves only speckle.
   */
  bilevel?: number;
  /**
   * The 1-bit scan as the scanner delivers it: its own 1-bit file (a 1-bit PNG, or a CCITT G4 TIFF)
   * instead of a grey JPEG, so it is decoded as a real 1-bit file is. Thresholded at `bilevel` (128
   * without), or with `dither` by Floyd-Steinberg error diffusion (a grey kept as a density of black).
   */
  oneBitFile?: { format: 'png' | 'tiff'; dither?: boolean };
  /** A phone photo of the sheet instead of a scan (replaces the scanner geometry above). */
  photo?: PhotoView;
  jpegQuality?: number;
};

/** A phone photo: the page seen in perspective, unevenly lit, maybe curled, on a darker desk. */
export type PhotoView = {
  /** Tilt of the camera against the page's normal, degrees (0-20), and the direction of the tilt. */
  tiltDeg: number;
  tiltAzimuthDeg: number;
  /** In-plane rotation of the page in the photo, degrees. */
  rollDeg: number;
  /** Share of the photo's shorter side the page's longer side would take head on (0.7-0.95). */
  fill: number;
  /** A shadow band across the page: darkening 0-1 at its core (0.35 = 35 % darker). */
  shadow: number;
  /** Lighting falling off from one side to the other, 0-1. */
  gradient: number;
  /** A curled edge: the bottom this many millimetres lifted (bending the page's image), 0 = flat. */
  curlMm: number;
  /** Gaussian blur sigma in photo pixels (focus); above ~3 the photo should be rejected. */
  blur: number;
  /** The page shifted this share of the photo's width: a corner may leave the picture. */
  offset?: number;
  /** Photo size; 4000 x 3000 (12 MP) unless given. */
  width?: number;
  height?: number;
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
  /** The scan's file: a JPEG, or with `oneBitFile` the 1-bit PNG or G4 TIFF. */
  jpeg: Buffer;
  width: number;
  height: number;
  qr: SheetQrPayload;
  /** Marked labels per objective question of the page, in template order (erased marks excluded). */
  expected: Map<number, string[]>;
  /** Template millimetres to the JPEG's pixel coordinates (pixel centres at integers). */
  transform: AffineTransform;
  upsideDown: boolean;
  /** A phone photo: whether all four fiducials are inside the picture (`transform` is then only the best affine stand-in). */
  photo?: { fiducialsInside: boolean };
};

export type SheetFixture = {
  spec: AnswerSheetSpec;
  template: AnswerSheetTemplate;
  /** Rasterised pages per sheet (student code or "-"), rendered on first use. */
  bases: Map<string, Promise<Uint8Array[]>>;
};

/** A typical homework's sheet: 12 single, 4 multiple (5 options), 4 judge, a blank and two subjective. */
/** A sheet of two pages: 120 objective questions fill page 1, page 2 has five judge questions and the written answers. */
export function twoPageSpec(homeworkId = 4105): AnswerSheetSpec {
  return answerSheetSpecSchema.parse({
    homeworkId,
    title: '八年级英语期中练习',
    subjectName: '英语',
    paperSize: 'A4',
    questions: [
      ...Array.from({ length: 110 }, (_, i) => ({ no: i + 1, type: 'single', score: 1 })),
      ...Array.from({ length: 15 }, (_, i) => ({ no: 111 + i, type: 'judge', score: 1 })),
      { no: 126, type: 'subjective', score: 10, lines: 10 },
      { no: 127, type: 'subjective', score: 10, lines: 10 },
    ],
  });
}

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
  mark: Pick<SheetMark, 'grey' | 'strokes'> = {},
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
  } else if (style === 'tick' || style === 'cross') {
    // Pencil strokes inside the bubble, 0.4-0.6 mm wide: a tick's short and long arm, or two diagonals.
    const ink = 35 + random() * 55;
    const width = 0.4 + random() * 0.2;
    const size = 0.75 + random() * 0.25;
    const j = () => (random() - 0.5) * 0.25;
    const at = (u: number, v: number) => ({ x: cx + u * rx * size, y: cy + v * ry * size });
    if (style === 'tick') {
      paper.stroke([at(-0.75 + j(), 0 + j()), at(-0.2 + j(), 0.75 + j()), at(0.85 + j(), -0.85 + j())], width, ink);
    } else {
      paper.stroke([at(-0.75 + j(), -0.75 + j()), at(0.75 + j(), 0.75 + j())], width, ink);
      paper.stroke([at(0.75 + j(), -0.75 + j()), at(-0.75 + j(), 0.75 + j())], width, ink);
    }
  } else if (style === 'ring') {
    // A hand-drawn loop around the option, its line 0.6-1.4 mm out from the outline, wobbling by up
    // to 0.3 mm and a little off centre, so that here and there it may touch the outline; where the
    // pencil stops it overshoots its start or leaves a gap of up to 40 degrees.
    const gap = 0.6 + random() * 0.8;
    const [ox, oy] = [(random() - 0.5) * 0.3, (random() - 0.5) * 0.2];
    const start = random() * 2 * Math.PI;
    const sweep = ((320 + random() * 60) * Math.PI) / 180;
    const wobble = [random(), random(), random()].map((r) => (r - 0.5) * 0.2);
    const points = Array.from({ length: 48 }, (_, i) => {
      const a = start + (sweep * i) / 47;
      const off = gap + wobble[0]! * Math.sin(2 * a) + wobble[1]! * Math.cos(3 * a) + wobble[2]! * Math.sin(a);
      return {
        x: bubble.xMm + bubble.wMm / 2 + ox + Math.cos(a) * (bubble.wMm / 2 + off),
        y: bubble.yMm + bubble.hMm / 2 + oy + Math.sin(a) * (bubble.hMm / 2 + off),
      };
    });
    paper.stroke(points, 0.3 + random() * 0.3, 35 + random() * 55);
  } else if (style === 'dot') {
    // A small dot pressed into the bubble: 0.9-1.8 mm across, a little out of round.
    const r = 0.45 + random() * 0.45;
    paper.ellipse(cx, cy, r * (0.85 + random() * 0.3), r * (0.85 + random() * 0.3), grain(35 + random() * 45, 30));
  } else if (style === 'halfErased') {
    // Rubbed out halfway: a grey wash over the whole bubble, grey 150-195 (or as given).
    const level = mark.grey ?? 150 + random() * 45;
    paper.ellipse(cx, cy, rx, ry, grain(level, 16));
    if (mark.strokes) {
      // What the rubber missed: a few streaks of the filling strokes, 6-14 grey levels darker.
      const ink = level - 6 - random() * 8;
      for (let k = 0; k < 4; k += 1) {
        const v = -0.6 + 0.4 * k + (random() - 0.5) * 0.15;
        const half = Math.sqrt(Math.max(0, 1 - v * v)) * 0.85;
        paper.stroke(
          [
            { x: cx - half * rx, y: cy + v * ry },
            { x: cx + half * rx, y: cy + v * ry + (random() - 0.5) * 0.4 },
          ],
          0.25 + random() * 0.15,
          ink,
        );
      }
    }
  } else if (style === 'stray' || style === 'strayDiagonal') {
    // A pencil line across the bubble and 1.5-4 mm beyond it on both sides: at any slant up to 30
    // degrees off level or upright, or (diagonal) rising or falling at 35 to 55 degrees.
    const angle =
      style === 'stray'
        ? ((random() - 0.5) * Math.PI) / 3 + (random() < 0.5 ? 0 : Math.PI / 2) * (random() < 0.3 ? 1 : 0)
        : (((random() < 0.5 ? 45 : 135) + (random() - 0.5) * 20) * Math.PI) / 180;
    const reach = bubble.wMm / 2 + 1.5 + random() * 2.5;
    const [ux, uy] = [Math.cos(angle) * reach, Math.sin(angle) * reach];
    const ink = 50 + random() * 60;
    paper.stroke(
      [
        { x: cx - ux, y: cy - uy },
        { x: cx + ux, y: cy + uy },
      ],
      0.35 + random() * 0.25,
      ink,
    );
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
      drawMark(paper, bubble, mark.style, random, mark);
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
  if (d.photo) return photographSheet(base, baseWidth, baseHeight, template, layout, d.photo, options, expected, qrHomeworkId);
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

  for (let i = 0; i < (d.columnStreaks ?? 0); i += 1) {
    // Through the centre of one bubble, straight down the image (the scanner's sensor does not turn
    // with the page): the bubbles of that option's column, give or take the page's skew.
    const q = layout.objective[Math.floor(noise() * layout.objective.length)];
    const picked = q?.options[Math.floor(noise() * (q?.options.length ?? 0))];
    const on = d.columnStreakOn;
    const bubble = on
      ? layout.objective.find((o) => o.questionNo === on.questionNo)?.options.find((o) => o.label === on.label)
      : picked;
    if (!bubble) break;
    const xMm = bubble.xMm + bubble.wMm / 2 + (noise() - 0.5) * 0.8;
    const yMm = bubble.yMm + bubble.hMm / 2;
    const width = d.columnStreakPx ?? 3 + Math.floor(noise() * 8);
    const level = d.columnStreakGrey ?? 40 + noise() * 90;
    const x = Math.round(forward.a * xMm + forward.c * yMm + forward.e - 0.5 - width / 2);
    for (let y = 0; y < out.height; y += 1) {
      for (let dx = 0; dx < width; dx += 1) {
        const k = x + dx;
        if (k < 0 || k >= out.width) continue;
        pixels[y * out.width + k] = level >= 255 ? 255 : Math.min(pixels[y * out.width + k]!, level);
      }
    }
  }

  if (d.bilevel !== undefined || d.oneBitFile) {
    // The 1-bit scanner thresholds what it sees (optics blur first), the station stores it as grey.
    let raw = pixels;
    if ((d.blur ?? 0) >= 0.3) {
      raw = new Uint8Array(
        await sharp(pixels, { raw: { width: out.width, height: out.height, channels: 1 } })
          .blur(d.blur)
          .extractChannel(0)
          .raw()
          .toBuffer(),
      );
    }
    // Its threshold flickers a little from pixel to pixel: grey near it comes out as speckle.
    const cut = d.bilevel ?? 128;
    if (d.oneBitFile?.dither) pixels.set(ditherFloydSteinberg(raw, out.width, out.height));
    else for (let i = 0; i < raw.length; i += 1) pixels[i] = raw[i]! < cut + (noise() - 0.5) * 40 ? 0 : 255;
  }

  let image = sharp(pixels, { raw: { width: out.width, height: out.height, channels: 1 } });
  const sheet = (jpeg: Buffer): SyntheticSheet => ({
    jpeg,
    width: out.width,
    height: out.height,
    qr: { homeworkId: qrHomeworkId, page: layout.page, ...(options.student ? { studentCode: options.student.code } : {}) },
    expected,
    transform,
    upsideDown: d.upsideDown ?? false,
  });
  if (d.oneBitFile) {
    // The scanner's own file, as it delivers it.
    return sheet(
      d.oneBitFile.format === 'tiff'
        ? await image.toColourspace('b-w').tiff({ compression: 'ccittfax4', bitdepth: 1 }).toBuffer()
        : await image.png({ palette: true, colours: 2 }).toBuffer(),
    );
  }
  if ((d.blur ?? 0) >= 0.3 && d.bilevel === undefined) image = image.blur(d.blur);
  return sheet(
    await image
      .toColourspace('srgb')
      .jpeg({ quality: d.jpegQuality ?? 85, chromaSubsampling: '4:2:0' })
      .toBuffer(),
  );
}

export type MarkMix = {
  faint: number;
  partial: number;
  erased: number;
  blankQuestion: number;
  extraOnSingle: number;
  /** Share of marks drawn as a tick, as a cross, as a ring around the option, as a small dot (instead of a fill). */
  tick: number;
  cross: number;
  ring: number;
  dot: number;
  /** Chance per question of a half-erased mark on an unmarked option. */
  halfErased: number;
  /** Chance per multiple-choice question of a stray pencil line across an unmarked option. */
  stray: number;
  /** Chance per question of a stray pencil line across one of its marks (the mark still counts). */
  strayOnMark: number;
  /** Share of those stray lines drawn diagonally (45 degrees give or take 10). */
  diagonal: number;
};

/** Marks for every objective question of a page, chosen at random: one for single/judge, one to three for multiple. */
export function randomMarks(page: AnswerSheetPage, random: () => number, mix: Partial<MarkMix> = {}): SheetMark[] {
  const { faint = 0, partial = 0, erased = 0, blankQuestion = 0.05, extraOnSingle = 0, tick = 0, cross = 0 } = mix;
  const { ring = 0, dot = 0 } = mix;
  const { halfErased = 0, stray = 0, strayOnMark = 0, diagonal = 0 } = mix;
  const strayStyle = (): MarkStyle => (diagonal > 0 && random() < diagonal ? 'strayDiagonal' : 'stray');
  const marks: SheetMark[] = [];
  const style = (): MarkStyle => {
    const r = random();
    if (r < faint) return 'faint';
    if (r < faint + partial) return 'partial';
    if (r < faint + partial + tick) return 'tick';
    if (r < faint + partial + tick + cross) return 'cross';
    if (r < faint + partial + tick + cross + ring) return 'ring';
    return r < faint + partial + tick + cross + ring + dot ? 'dot' : 'solid';
  };
  for (const q of page.objective) {
    const labels = q.options.map((o) => o.label);
    const shuffled = [...labels].sort(() => random() - 0.5);
    if (random() < blankQuestion) continue;
    const count = q.type === 'multiple' ? 1 + Math.floor(random() * 3) : random() < extraOnSingle ? 2 : 1;
    const chosen = shuffled.slice(0, count);
    for (const label of chosen) marks.push({ questionNo: q.questionNo, label, style: style() });
    if (strayOnMark > 0 && random() < strayOnMark)
      marks.push({ questionNo: q.questionNo, label: chosen[0]!, style: strayStyle() });
    const left = shuffled.slice(count);
    if (left.length > 0 && random() < erased) marks.push({ questionNo: q.questionNo, label: left[0]!, style: 'erased' });
    if (left.length > 0 && halfErased > 0 && random() < halfErased) {
      marks.push({ questionNo: q.questionNo, label: left.at(-1)!, style: 'halfErased' });
    } else if (q.type === 'multiple' && left.length > 0 && stray > 0 && random() < stray) {
      marks.push({ questionNo: q.questionNo, label: left.at(-1)!, style: strayStyle() });
    }
  }
  return marks;
}

/** Template millimetres to photo pixels for a phone photo: pinhole camera, tilted page, curled bottom edge. */
export function photoProjection(template: { pageWidthMm: number; pageHeightMm: number }, view: PhotoView) {
  const W = view.width ?? 3000;
  const H = view.height ?? 4000;
  const D = 450;
  const f = (view.fill * H * D) / template.pageHeightMm;
  const roll = (view.rollDeg * Math.PI) / 180;
  const tilt = (view.tiltDeg * Math.PI) / 180;
  const az = (view.tiltAzimuthDeg * Math.PI) / 180;
  const [ux, uy] = [Math.cos(az), Math.sin(az)];
  const [ct, st] = [Math.cos(tilt), Math.sin(tilt)];
  // Rodrigues' rotation about (ux, uy, 0) by `tilt`, after the roll about z.
  const R = [
    [ct + ux * ux * (1 - ct), ux * uy * (1 - ct), uy * st],
    [ux * uy * (1 - ct), ct + uy * uy * (1 - ct), -ux * st],
    [-uy * st, ux * st, ct],
  ];
  const [cr, sr] = [Math.cos(roll), Math.sin(roll)];
  const curlZone = 40;
  const lift = (yMm: number) => {
    const s = Math.max(0, (yMm - (template.pageHeightMm - curlZone)) / curlZone);
    return view.curlMm * s * s;
  };
  const cx = W / 2 + (view.offset ?? 0) * W;
  const cy = H / 2;
  const project = (xMm: number, yMm: number): Point2 => {
    const x0 = xMm - template.pageWidthMm / 2;
    const y0 = yMm - template.pageHeightMm / 2;
    const p = [cr * x0 - sr * y0, sr * x0 + cr * y0, -lift(yMm)];
    const X = R[0]![0]! * p[0]! + R[0]![1]! * p[1]! + R[0]![2]! * p[2]!;
    const Y = R[1]![0]! * p[0]! + R[1]![1]! * p[1]! + R[1]![2]! * p[2]!;
    const Z = R[2]![0]! * p[0]! + R[2]![1]! * p[1]! + R[2]![2]! * p[2]! + D;
    return { x: (f * X) / Z + cx - 0.5, y: (f * Y) / Z + cy - 0.5 };
  };
  return { width: W, height: H, project };
}

type Point2 = { x: number; y: number };

/** Renders a phone photo of the marked page (base pixels at BASE_DPI). */
async function photographSheet(
  base: Uint8Array,
  baseWidth: number,
  baseHeight: number,
  template: AnswerSheetTemplate,
  layout: AnswerSheetPage,
  view: PhotoView,
  options: SyntheticSheetOptions,
  expected: Map<number, string[]>,
  qrHomeworkId: number,
): Promise<SyntheticSheet> {
  const { width: W, height: H, project } = photoProjection(template, view);
  const random = seededRandom((options.seed ?? 1) ^ 0x2545f491);
  // The inverse map (photo pixel -> template mm) on a coarse grid, by Newton steps on `project`;
  // pixels between grid nodes interpolate it (a perspective map is all but linear over 16 pixels).
  const STEP = 16;
  const gw = Math.ceil(W / STEP) + 1;
  const gh = Math.ceil(H / STEP) + 1;
  const gridX = new Float64Array(gw * gh);
  const gridY = new Float64Array(gw * gh);
  const centre = project(template.pageWidthMm / 2, template.pageHeightMm / 2);
  let guess = { x: template.pageWidthMm / 2, y: template.pageHeightMm / 2 };
  for (let j = 0; j < gh; j += 1) {
    for (let i = 0; i < gw; i += 1) {
      const target = { x: i * STEP, y: j * STEP };
      let m =
        i === 0
          ? {
              x: template.pageWidthMm / 2 + (target.x - centre.x) / 10,
              y: template.pageHeightMm / 2 + (target.y - centre.y) / 10,
            }
          : guess;
      for (let k = 0; k < 6; k += 1) {
        const p = project(m.x, m.y);
        const px = project(m.x + 0.5, m.y);
        const py = project(m.x, m.y + 0.5);
        const [a, b, c, d] = [(px.x - p.x) / 0.5, (px.y - p.y) / 0.5, (py.x - p.x) / 0.5, (py.y - p.y) / 0.5];
        const det = a * d - b * c;
        const [ex, ey] = [target.x - p.x, target.y - p.y];
        m = { x: m.x + (d * ex - c * ey) / det, y: m.y + (-b * ex + a * ey) / det };
      }
      guess = m;
      gridX[j * gw + i] = m.x;
      gridY[j * gw + i] = m.y;
    }
  }
  // Lighting: a gradient across the photo and a soft shadow band at a random slant.
  const gradAngle = random() * 2 * Math.PI;
  const [gx, gy] = [Math.cos(gradAngle), Math.sin(gradAngle)];
  const shadowAngle = random() * Math.PI;
  const [sx, sy] = [Math.cos(shadowAngle), Math.sin(shadowAngle)];
  const shadowAt = (0.25 + random() * 0.5) * Math.hypot(W, H) - Math.hypot(W, H) / 2;
  const shadowWidth = (0.06 + random() * 0.08) * W;
  const paperTone = 225 + random() * 25;
  const inkTone = 20 + random() * 30;
  const desk = 70 + random() * 60;
  const pixels = new Uint8Array(W * H);
  const k = BASE_PX_PER_MM;
  let state = (options.seed ?? 1) * 2246822519 || 1;
  const half = Math.hypot(W, H) / 2;
  for (let y = 0; y < H; y += 1) {
    const gj = Math.min(gh - 2, Math.floor(y / STEP));
    const fy = y / STEP - gj;
    for (let x = 0; x < W; x += 1) {
      const gi = Math.min(gw - 2, Math.floor(x / STEP));
      const fx = x / STEP - gi;
      const n = gj * gw + gi;
      const mx =
        (1 - fy) * ((1 - fx) * gridX[n]! + fx * gridX[n + 1]!) + fy * ((1 - fx) * gridX[n + gw]! + fx * gridX[n + gw + 1]!);
      const my =
        (1 - fy) * ((1 - fx) * gridY[n]! + fx * gridY[n + 1]!) + fy * ((1 - fx) * gridY[n + gw]! + fx * gridY[n + gw + 1]!);
      const bx = mx * k - 0.5;
      const by = my * k - 0.5;
      let v: number;
      if (bx >= 0 && by >= 0 && bx < baseWidth - 1 && by < baseHeight - 1) {
        const x0 = bx | 0;
        const y0 = by | 0;
        const ax = bx - x0;
        const ay = by - y0;
        const i0 = y0 * baseWidth + x0;
        const top = base[i0]! + ax * (base[i0 + 1]! - base[i0]!);
        const bottom = base[i0 + baseWidth]! + ax * (base[i0 + baseWidth + 1]! - base[i0 + baseWidth]!);
        v = inkTone + ((top + ay * (bottom - top)) * (paperTone - inkTone)) / 255;
      } else {
        v = desk;
      }
      const t = ((x - W / 2) * gx + (y - H / 2) * gy) / half;
      let light = 1 - view.gradient * (0.5 + 0.5 * t);
      const ds = (x - W / 2) * sx + (y - H / 2) * sy - shadowAt;
      light *= 1 - view.shadow * Math.exp(-((ds / shadowWidth) ** 2));
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      v = v * light + ((state & 1023) / 1023 - 0.5) * 10;
      pixels[y * W + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  let image = sharp(pixels, { raw: { width: W, height: H, channels: 1 } });
  if (view.blur >= 0.3) image = image.blur(view.blur);
  // A phone's JPEG: colour, 4:2:0, quality around 90.
  const jpeg = await image.toColourspace('srgb').jpeg({ quality: 88, chromaSubsampling: '4:2:0' }).toBuffer();
  // The best affine stand-in of the projection (the truth is not affine), from a grid of page points.
  const pairs: { from: Point2; to: Point2 }[] = [];
  for (let i = 0; i <= 4; i += 1)
    for (let j = 0; j <= 4; j += 1) {
      const from = { x: (template.pageWidthMm * i) / 4, y: (template.pageHeightMm * j) / 4 };
      pairs.push({ from, to: project(from.x, from.y) });
    }
  const transform = fitAffine(pairs)!;
  const fiducialsInside = layout.fiducials.every((fd) =>
    [-1, 1].every((dx) =>
      [-1, 1].every((dy) => {
        const p = project(fd.xMm + (dx * fd.sizeMm) / 2, fd.yMm + (dy * fd.sizeMm) / 2);
        return p.x >= 0 && p.y >= 0 && p.x < W && p.y < H;
      }),
    ),
  );
  return {
    jpeg,
    width: W,
    height: H,
    qr: { homeworkId: qrHomeworkId, page: layout.page, ...(options.student ? { studentCode: options.student.code } : {}) },
    expected,
    transform,
    upsideDown: false,
    photo: { fiducialsInside },
  };
}

/** A 1-bit scan by Floyd-Steinberg error diffusion: each grey kept as a density of black pixels. */
export function ditherFloydSteinberg(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const err = new Float32Array(pixels);
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const v = err[i]!;
      const o = v < 128 ? 0 : 255;
      out[i] = o;
      const e = v - o;
      if (x + 1 < width) err[i + 1]! += (e * 7) / 16;
      if (y + 1 < height) {
        if (x > 0) err[i + width - 1]! += (e * 3) / 16;
        err[i + width]! += (e * 5) / 16;
        if (x + 1 < width) err[i + width + 1]! += e / 16;
      }
    }
  }
  return out;
}
