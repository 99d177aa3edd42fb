/**
 * Held-out answer sheets for `npm run bench heldout` (heldout.bench.ts): sheets made differently from
 * the accuracy bench's generator (tests/support/synthetic-sheets.ts), whose marks and scans the engine's
 * thresholds were tuned on. The printed sheet is the same (the real PDF, rasterised by mupdf), but at
 * 200, 300 or 600 dpi, and everything after it is drawn here with other code and other parameters:
 * pencil with paper tooth, ballpoint and marker strokes, ticks and crosses of other shapes and sizes,
 * checkmarks running out of the bubble, circles around the option, dots, scribbles; rotation by sharp;
 * gamma and contrast, tinted colour scans, JPEG down to quality 35, 1-bit scans thresholded at 120-170
 * or dithered (stored as 1-bit PNG or CCITT G4 TIFF), scanner streaks of any width and darkness, light
 * streaks, stray lines of any width and angle, half-erased marks of other greys with leftover texture.
 * Phone photos go through the synthetic generator's camera model, with parameters beyond the bench's.
 */
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { renderAnswerSheetPdf } from '../../server/services/answer-sheet/answer-sheet-pdf';
import type { AnswerSheetTemplate, ObjectiveQuestionLayout } from '../../src/shared/contract/answer-sheet';
import { seededRandom } from '../../src/shared/lib/simulated-scan';
import { ditherFloydSteinberg, randomMarks, renderSyntheticSheet, type SheetFixture } from '../../tests/support/synthetic-sheets';

export const HELDOUT_KINDS = [
  'tickBallpoint',
  'tickMarker',
  'crossShapes',
  'checkOutside',
  'circled',
  'dots',
  'scribbles',
  'faint1bitThreshold',
  'faint1bitDither',
  'streakVariety',
  'lightStreaks',
  'strayVariety',
  'halfErasedLight',
  'halfErasedTexture',
  'gammaContrast',
  'dpi200',
  'dpi600',
  'colourScan',
  'jpeg50',
  'photoHard',
] as const;
export type HeldoutKind = (typeof HELDOUT_KINDS)[number];

/** What each kind is, for the report. */
export const HELDOUT_WHAT: Record<HeldoutKind, string> = {
  tickBallpoint: 'ticks of a 0.25-0.35 mm ballpoint, 0.5-1.3 of the bubble, among fills',
  tickMarker: 'ticks and crosses of a 0.9-1.4 mm marker',
  crossShapes: 'crosses: X and + of 0.45-1.4 of the bubble, 0.3-0.8 mm',
  checkOutside: 'checkmarks whose long arm runs 1.5-5 mm out of the bubble',
  circled: 'a ring drawn around the option instead of a fill (an answer)',
  dots: 'a dot of 1-2 mm in the bubble (an answer)',
  scribbles: 'a zigzag scribble over 50-100 % of the bubble',
  faint1bitThreshold: 'pencil grey 115-185 on a 1-bit scan thresholded at 120-170, 1-bit PNG / G4 TIFF',
  faint1bitDither: 'pencil grey 100-190 on a dithered 1-bit scan (Floyd-Steinberg), 1-bit PNG / G4 TIFF',
  streakVariety: '1-4 scanner streaks 1-25 px wide, grey 20-200, through bubble columns or anywhere',
  lightStreaks: 'white streaks (a dead sensor pixel) 2-12 px wide through marked columns',
  strayVariety: 'stray lines 0.15-1.0 mm wide, any angle, 6-40 mm long over unmarked options',
  halfErasedLight: 'half-erased marks grey 190-220 with eraser texture, beside a mark or alone',
  halfErasedTexture: 'half-erased marks grey 140-190 in patches and streaks of a rubber',
  gammaContrast: 'gamma 0.45-2.2, paper 185-250, toner 10-110',
  dpi200: 'a 200 dpi scan (1654 x 2339), mixed marks',
  dpi600: 'a 600 dpi scan (4961 x 7016), mixed marks',
  colourScan: 'a colour scan of tinted paper, colour noise, JPEG 60-80 4:2:0',
  jpeg50: 'JPEG quality 35-55',
  photoHard: 'phone photos, 12 MP, tilt 14-20 degrees, shadow 0.45-0.65, curl 8-16 mm, blur up to 2.2',
};

export type HeldoutFile = { name: string; bytes: Buffer; expected: Map<number, string[]>; seed: number };

type Rng = () => number;

/**
 * Fast per-pixel noise: a table of 65,536 uniform deviates in [-0.5, 0.5) from the sheet's seed, picked
 * by a xorshift (a seeded generator called per pixel of a 300 dpi page would make generating slower
 * than reading).
 */
function pixelNoise(rng: Rng): () => number {
  const table = Float32Array.from({ length: 1 << 16 }, () => rng() - 0.5);
  let state = Math.floor(rng() * 0x7fffffff) | 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return table[state & 0xffff]!;
  };
}
const between = (rng: Rng, low: number, high: number) => low + rng() * (high - low);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** A grey page in pixels at `k` pixels per millimetre, with pencil and pen drawing in millimetres. */
class Canvas {
  constructor(
    readonly data: Float32Array,
    readonly width: number,
    readonly height: number,
    readonly k: number,
    readonly rng: Rng,
  ) {}

  /** Lays ink of grey `ink` with coverage `alpha` (0-1) on the pixel, multiplying (graphite over print). */
  private lay(x: number, y: number, alpha: number, ink: number) {
    const i = y * this.width + x;
    const v = this.data[i]!;
    this.data[i] = v * (1 - alpha * (1 - ink / 255));
  }

  /** A stroke along a polyline (mm), `widthMm` wide; `tooth` 0-1 leaves that share of pixels half inked (pencil on paper grain). */
  stroke(points: { x: number; y: number }[], widthMm: number, ink: number, tooth = 0) {
    const k = this.k;
    const r = Math.max(0.5, (widthMm / 2) * k);
    const touched = new Set<number>();
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
          const i = y * this.width + x;
          if (touched.has(i)) continue;
          const t = Math.max(0, Math.min(1, ((x + 0.5 - a.x) * dx + (y + 0.5 - a.y) * dy) / len2));
          const dist = Math.hypot(x + 0.5 - (a.x + t * dx), y + 0.5 - (a.y + t * dy));
          const alpha = Math.min(1, Math.max(0, r - dist + 0.5));
          if (alpha <= 0) continue;
          touched.add(i);
          const grain = tooth > 0 && this.rng() < tooth ? 0.45 : 1;
          this.lay(x, y, alpha * grain, ink + (this.rng() - 0.5) * 20);
        }
      }
    }
  }

  /** An ellipse (mm) filled with `ink`, kept where `keep(u, v)` (unit-disc coordinates) says. */
  blob(
    cx: number,
    cy: number,
    rx: number,
    ry: number,
    ink: number,
    tooth = 0,
    keep: (u: number, v: number) => boolean = () => true,
  ) {
    const k = this.k;
    const x0 = Math.max(0, Math.floor((cx - rx) * k) - 1);
    const x1 = Math.min(this.width - 1, Math.ceil((cx + rx) * k) + 1);
    const y0 = Math.max(0, Math.floor((cy - ry) * k) - 1);
    const y1 = Math.min(this.height - 1, Math.ceil((cy + ry) * k) + 1);
    const soft = Math.min(rx, ry) * k;
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        const u = ((x + 0.5) / k - cx) / rx;
        const v = ((y + 0.5) / k - cy) / ry;
        const alpha = Math.min(1, Math.max(0, (1 - Math.hypot(u, v)) * soft + 0.5));
        if (alpha <= 0 || !keep(u, v)) continue;
        const grain = tooth > 0 && this.rng() < tooth ? 0.5 : 1;
        this.lay(x, y, alpha * grain, ink + (this.rng() - 0.5) * 24);
      }
    }
  }
}

type BubbleBox = { xMm: number; yMm: number; wMm: number; hMm: number };

/** How one answer is drawn. */
type Style =
  'fill' | 'light' | 'tickThin' | 'tickMarker' | 'crossMarker' | 'cross' | 'plus' | 'checkOut' | 'circle' | 'dot' | 'scribble';

function drawAnswer(c: Canvas, b: BubbleBox, style: Style, rng: Rng, lightGrey = 150) {
  const cx = b.xMm + b.wMm / 2 + (rng() - 0.5) * 0.6;
  const cy = b.yMm + b.hMm / 2 + (rng() - 0.5) * 0.5;
  const rx = b.wMm / 2;
  const ry = b.hMm / 2;
  const at = (u: number, v: number, size = 1) => ({ x: cx + u * rx * size, y: cy + v * ry * size });
  switch (style) {
    case 'fill': {
      // A pencil fill that may stop short of the outline or spill over it.
      const grow = between(rng, 0.85, 1.12);
      c.blob(cx, cy, rx * grow, ry * grow, between(rng, 30, 90), between(rng, 0, 0.25));
      return;
    }
    case 'light':
      c.blob(cx, cy, rx * between(rng, 0.85, 1.05), ry * between(rng, 0.85, 1.05), lightGrey, between(rng, 0.1, 0.4));
      return;
    case 'tickThin':
    case 'tickMarker': {
      const size = between(rng, 0.5, 1.3);
      const width = style === 'tickThin' ? between(rng, 0.25, 0.35) : between(rng, 0.9, 1.4);
      const ink = style === 'tickThin' ? between(rng, 15, 70) : between(rng, 10, 45);
      const lean = (rng() - 0.5) * 0.5;
      c.stroke([at(-0.8 + lean, -0.05, size), at(-0.25, 0.7, size), at(0.9 + lean, -0.9, size)], width, ink);
      return;
    }
    case 'crossMarker': {
      const size = between(rng, 0.6, 1.1);
      const width = between(rng, 0.9, 1.4);
      const ink = between(rng, 10, 45);
      c.stroke([at(-0.8, -0.8, size), at(0.8, 0.8, size)], width, ink);
      c.stroke([at(0.8, -0.8, size), at(-0.8, 0.8, size)], width, ink);
      return;
    }
    case 'cross':
    case 'plus': {
      const size = between(rng, 0.45, 1.4);
      const width = between(rng, 0.3, 0.8);
      const ink = between(rng, 30, 100);
      if (style === 'cross') {
        c.stroke([at(-0.8, -0.8, size), at(0.75, 0.85, size)], width, ink, 0.2);
        c.stroke([at(0.8, -0.75, size), at(-0.85, 0.8, size)], width, ink, 0.2);
      } else {
        c.stroke([at(-0.9, 0, size), at(0.9, 0.05, size)], width, ink, 0.2);
        c.stroke([at(0, -0.9, size), at(0.05, 0.9, size)], width, ink, 0.2);
      }
      return;
    }
    case 'checkOut': {
      // The short arm in the bubble, the long arm running up and right well past the outline.
      const out = between(rng, 1.5, 5);
      const width = between(rng, 0.3, 0.6);
      const ink = between(rng, 25, 90);
      const end = { x: cx + rx + out * 0.7, y: cy - ry - out * 0.7 };
      c.stroke([at(-0.7, 0, 0.9), at(-0.15, 0.75, 0.9), end], width, ink, 0.15);
      return;
    }
    case 'circle': {
      // A ring around the option, open a little where the pencil started and stopped.
      const grow = between(rng, 1.15, 1.5);
      const width = between(rng, 0.3, 0.55);
      const ink = between(rng, 30, 90);
      const start = rng() * 2 * Math.PI;
      const sweep = between(rng, 1.85, 2.1) * Math.PI;
      const points = Array.from({ length: 40 }, (_, i) => {
        const a = start + (sweep * i) / 39;
        return { x: cx + Math.cos(a) * (rx * grow + 0.3), y: cy + Math.sin(a) * (ry * grow + 0.3) };
      });
      c.stroke(points, width, ink, 0.15);
      return;
    }
    case 'dot': {
      const d = between(rng, 1, 2);
      c.blob(cx + (rng() - 0.5) * 0.8, cy + (rng() - 0.5) * 0.5, d / 2, d / 2, between(rng, 20, 80));
      return;
    }
    case 'scribble': {
      const cover = between(rng, 0.5, 1);
      const turns = 4 + Math.floor(rng() * 6);
      const width = between(rng, 0.3, 0.55);
      const points = Array.from({ length: turns + 1 }, (_, i) => ({
        x: cx - rx * 0.85 + (2 * rx * 0.85 * i) / turns + (rng() - 0.5) * 0.3,
        y: cy + (i % 2 === 0 ? -1 : 1) * ry * 0.8 * cover + (rng() - 0.5) * 0.3,
      }));
      c.stroke(points, width, between(rng, 30, 90), 0.2);
      return;
    }
  }
}

/** What a rubber leaves: grey at `grey` in patches (texture) or all over, and rubbed streaks. */
function drawHalfErased(c: Canvas, b: BubbleBox, rng: Rng, grey: number, texture: boolean) {
  const cx = b.xMm + b.wMm / 2 + (rng() - 0.5) * 0.5;
  const cy = b.yMm + b.hMm / 2 + (rng() - 0.5) * 0.4;
  const rx = b.wMm / 2;
  const ry = b.hMm / 2;
  if (!texture) {
    c.blob(cx, cy, rx, ry, grey, 0.3);
    return;
  }
  const patches = Array.from({ length: 3 + Math.floor(rng() * 5) }, () => ({
    u: (rng() - 0.5) * 1.4,
    v: (rng() - 0.5) * 1.4,
    r: between(rng, 0.25, 0.6),
  }));
  c.blob(cx, cy, rx, ry, grey, 0.35, (u, v) => patches.some((p) => (u - p.u) ** 2 + (v - p.v) ** 2 < p.r ** 2));
  // The rubber's strokes drag graphite across and out of the bubble.
  for (let i = 0; i < 2; i += 1) {
    const y = cy + (rng() - 0.5) * ry;
    c.stroke(
      [
        { x: cx - rx * between(rng, 0.6, 1.3), y },
        { x: cx + rx * between(rng, 0.6, 1.3), y: y + (rng() - 0.5) * 0.6 },
      ],
      between(rng, 0.4, 0.9),
      Math.min(235, grey + 20),
      0.5,
    );
  }
}

const bases = new Map<string, Promise<{ data: Float32Array; width: number; height: number }>>();

/** The printed page at `dpi`, as mupdf rasterises the real PDF. */
function printedPage(fixture: SheetFixture, student: { name: string; code: string }, dpi: number) {
  const key = `${fixture.spec.homeworkId}:${student.code}:${dpi}`;
  let base = bases.get(key);
  if (!base) {
    base = (async () => {
      const pdf = await renderAnswerSheetPdf(fixture.spec, fixture.template, [{ student }]);
      const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
      const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
      const width = pixmap.getWidth();
      const height = pixmap.getHeight();
      const stride = pixmap.getStride();
      const src = pixmap.getPixels();
      const data = new Float32Array(width * height);
      for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = src[y * stride + x]!;
      pixmap.destroy();
      doc.destroy();
      return { data, width, height };
    })();
    bases.set(key, base);
  }
  return base;
}

/** The answers of a page: one label for single and judge questions (5 % blank), one to three for multiple. */
function chooseAnswers(questions: readonly ObjectiveQuestionLayout[], rng: Rng): Map<number, string[]> {
  const answers = new Map<number, string[]>();
  for (const q of questions) {
    const labels = q.options.map((o) => o.label);
    const shuffled = [...labels].sort(() => rng() - 0.5);
    if (rng() < 0.05) {
      answers.set(q.questionNo, []);
      continue;
    }
    const count = q.type === 'multiple' ? 1 + Math.floor(rng() * 3) : 1;
    answers.set(
      q.questionNo,
      shuffled.slice(0, count).sort((a, b) => labels.indexOf(a) - labels.indexOf(b)),
    );
  }
  return answers;
}

/** The style an answer of a kind is drawn in: the kind's own on every other sheet, mixed with fills on the rest. */
function styleOf(kind: HeldoutKind, rng: Rng, allOfKind: boolean): Style {
  const own: Partial<Record<HeldoutKind, Style[]>> = {
    tickBallpoint: ['tickThin'],
    tickMarker: ['tickMarker', 'crossMarker'],
    crossShapes: ['cross', 'plus'],
    checkOutside: ['checkOut'],
    circled: ['circle'],
    dots: ['dot'],
    scribbles: ['scribble'],
    faint1bitThreshold: ['light'],
    faint1bitDither: ['light'],
  };
  const styles = own[kind];
  if (styles && (allOfKind || rng() < 0.5)) return pick(rng, styles);
  if (!styles) {
    // The scan kinds: mostly fills, some ticks, crosses and light pencil.
    const r = rng();
    return r < 0.6 ? 'fill' : r < 0.75 ? 'tickThin' : r < 0.85 ? 'cross' : 'light';
  }
  return 'fill';
}

export type HeldoutPlan = { kind: HeldoutKind; index: number; seed: number };

/** Renders one held-out sheet: the image file bytes (JPEG, PNG or TIFF) and the answers on it. */
export async function renderHeldout(fixture: SheetFixture, plan: HeldoutPlan): Promise<HeldoutFile> {
  const { kind, seed } = plan;
  const rng = seededRandom(seed);
  const template: AnswerSheetTemplate = fixture.template;
  const page = template.pages[0]!;
  const studentNo = 1 + (plan.index % 4);
  const student = { name: `学生${studentNo}`, code: `20260101${String(studentNo).padStart(2, '0')}` };
  if (kind === 'photoHard') return photo(fixture, plan, student, rng);

  const dpi = kind === 'dpi200' ? 200 : kind === 'dpi600' ? 600 : 300;
  const base = await printedPage(fixture, student, dpi);
  const canvas = new Canvas(Float32Array.from(base.data), base.width, base.height, dpi / 25.4, rng);
  const answers = chooseAnswers(page.objective, rng);
  const allOfKind = plan.index % 2 === 1;
  const lightGrey = () =>
    kind === 'faint1bitThreshold'
      ? between(rng, 115, 185)
      : kind === 'faint1bitDither'
        ? between(rng, 100, 190)
        : between(rng, 120, 160);
  for (const q of page.objective) {
    const chosen = answers.get(q.questionNo)!;
    for (const label of chosen) {
      drawAnswer(
        canvas,
        q.options.find((o) => o.label === label)!,
        styleOf(kind, rng, allOfKind),
        rng,
        lightGrey(),
      );
    }
    const free = q.options.filter((o) => !chosen.includes(o.label));
    if (free.length === 0) continue;
    if (kind === 'strayVariety' && rng() < (q.type === 'multiple' ? 0.7 : 0.25)) {
      const o = pick(rng, free);
      const angle = rng() * Math.PI;
      const length = between(rng, 6, 40);
      const off = between(rng, -0.35, 0.35);
      const cx = o.xMm + o.wMm / 2 + off * o.wMm;
      const cy = o.yMm + o.hMm / 2 + off * o.hMm;
      const [dx, dy] = [(Math.cos(angle) * length) / 2, (Math.sin(angle) * length) / 2];
      const t = between(rng, 0.2, 0.8);
      canvas.stroke(
        [
          { x: cx - dx * 2 * t, y: cy - dy * 2 * t },
          { x: cx + dx * 2 * (1 - t), y: cy + dy * 2 * (1 - t) },
        ],
        between(rng, 0.15, 1),
        between(rng, 40, 140),
        0.2,
      );
    }
    if ((kind === 'halfErasedLight' || kind === 'halfErasedTexture') && rng() < 0.3) {
      const grey = kind === 'halfErasedLight' ? between(rng, 190, 220) : between(rng, 140, 190);
      drawHalfErased(canvas, pick(rng, free), rng, grey, kind === 'halfErasedTexture' || rng() < 0.5);
    }
  }

  // The scan: rotation (and upside down), then the scanner's tone, noise, streaks, bits and file.
  let grey = new Uint8Array(canvas.data.length);
  for (let i = 0; i < grey.length; i += 1) grey[i] = Math.max(0, Math.min(255, Math.round(canvas.data[i]!)));
  const { width, height } = base;
  const angle = between(rng, -2.5, 2.5) + (rng() < 0.2 ? 180 : 0);
  const rotated = await sharp(grey, { raw: { width, height, channels: 1 } })
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Cropped back to the scanner's page size, centred.
  const left = Math.floor((rotated.info.width - width) / 2);
  const top = Math.floor((rotated.info.height - height) / 2);
  grey = new Uint8Array(width * height);
  const ch = rotated.info.channels;
  for (let y = 0; y < height; y += 1) {
    const row = (y + top) * rotated.info.width + left;
    for (let x = 0; x < width; x += 1) grey[y * width + x] = rotated.data[(row + x) * ch]!;
  }

  let paper = 245;
  let toner = 20;
  let gamma = 1;
  if (kind === 'gammaContrast') {
    gamma = pick(rng, [between(rng, 0.45, 0.8), between(rng, 1.3, 2.2)]);
    paper = between(rng, 185, 250);
    toner = between(rng, 10, 110);
  }
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v += 1) lut[v] = Math.round(toner + (paper - toner) * (v / 255) ** gamma);
  const sigma = between(rng, 1.5, 5);
  const jitter = pixelNoise(rng);
  for (let i = 0; i < grey.length; i += 1) {
    const n = (jitter() + jitter() + jitter()) * 2 * sigma;
    grey[i] = Math.max(0, Math.min(255, Math.round(lut[grey[i]!]! + n)));
  }

  const px = dpi / 25.4;
  const columnOf = (o: BubbleBox) => {
    // The image column of a bubble centre under the rotation about the page centre.
    const a = (angle * Math.PI) / 180;
    const x = (o.xMm + o.wMm / 2) * px - width / 2;
    const y = (o.yMm + o.hMm / 2) * px - height / 2;
    return Math.round(x * Math.cos(a) - y * Math.sin(a) + width / 2);
  };
  if (kind === 'streakVariety' || kind === 'lightStreaks') {
    const count = kind === 'lightStreaks' ? 1 + Math.floor(rng() * 2) : 1 + Math.floor(rng() * 4);
    for (let s = 0; s < count; s += 1) {
      const q = pick(rng, page.objective);
      const through =
        kind === 'lightStreaks' ? q.options.find((o) => answers.get(q.questionNo)!.includes(o.label)) : pick(rng, q.options);
      const x = rng() < 0.8 && through ? columnOf(through) + Math.round((rng() - 0.5) * 10) : Math.floor(rng() * width);
      const w = kind === 'lightStreaks' ? 2 + Math.floor(rng() * 11) : pick(rng, [1, 2, 3, 5, 8, 12, 18, 25]);
      const level = kind === 'lightStreaks' ? 255 : between(rng, 20, 200);
      for (let y = 0; y < height; y += 1) {
        for (let dx = 0; dx < w; dx += 1) {
          const k = x - Math.floor(w / 2) + dx;
          if (k < 0 || k >= width) continue;
          const i = y * width + k;
          grey[i] = level === 255 ? 255 : Math.min(grey[i]!, Math.round(level + jitter() * 16));
        }
      }
    }
  }

  const raw = { raw: { width, height, channels: 1 as const } };
  const name = `${kind}-${plan.index}`;
  if (kind === 'faint1bitThreshold' || kind === 'faint1bitDither') {
    const blurred = new Uint8Array(
      await sharp(grey, raw)
        .blur(between(rng, 0.4, 1.1))
        .extractChannel(0)
        .raw()
        .toBuffer(),
    );
    const bits =
      kind === 'faint1bitThreshold'
        ? threshold(blurred, between(rng, 120, 170), jitter)
        : ditherFloydSteinberg(blurred, width, height);
    const asTiff = plan.index % 2 === 0;
    const image = sharp(bits, raw);
    const bytes = asTiff
      ? await image.toColourspace('b-w').tiff({ compression: 'ccittfax4', bitdepth: 1 }).toBuffer()
      : await image.png({ palette: true, colours: 2 }).toBuffer();
    return { name: `${name}.${asTiff ? 'tif' : 'png'}`, bytes, expected: answers, seed };
  }
  if (kind === 'colourScan') {
    const tint = pick(rng, [
      [1, 0.97, 0.86],
      [0.93, 0.97, 1],
      [1, 0.93, 0.93],
      [0.95, 1, 0.94],
    ]);
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < grey.length; i += 1) {
      for (let ch = 0; ch < 3; ch += 1) {
        const v = grey[i]! * tint[ch]! + jitter() * 8;
        rgb[i * 3 + ch] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    const bytes = await sharp(rgb, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: Math.round(between(rng, 60, 80)), chromaSubsampling: '4:2:0' })
      .toBuffer();
    return { name: `${name}.jpg`, bytes, expected: answers, seed };
  }
  const quality = kind === 'jpeg50' ? Math.round(between(rng, 35, 55)) : Math.round(between(rng, 70, 92));
  const bytes = await sharp(grey, raw)
    .blur(between(rng, 0.3, 0.9))
    .jpeg({ quality })
    .toBuffer();
  return { name: `${name}.jpg`, bytes, expected: answers, seed };
}

/** A 1-bit scan by a threshold that varies a little across the sensor. */
function threshold(pixels: Uint8Array, cut: number, jitter: () => number): Uint8Array {
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i += 1) out[i] = pixels[i]! < cut + jitter() * 20 ? 0 : 255;
  return out;
}

/** A phone photo through the synthetic generator's camera, with parameters beyond the accuracy bench's. */
async function photo(
  fixture: SheetFixture,
  plan: HeldoutPlan,
  student: { name: string; code: string },
  rng: Rng,
): Promise<HeldoutFile> {
  const page = fixture.template.pages[0]!;
  const landscape = rng() < 0.5;
  const sheet = await renderSyntheticSheet(fixture, {
    student,
    seed: plan.seed,
    writeIn: page.regions.map((r) => r.questionNo),
    marks: randomMarks(page, rng, { tick: 0.25, cross: 0.1, faint: 0.1, partial: 0.05 }),
    degrade: {
      photo: {
        tiltDeg: between(rng, 14, 20),
        tiltAzimuthDeg: rng() * 360,
        rollDeg: between(rng, -12, 12),
        fill: landscape ? between(rng, 0.85, 0.92) : between(rng, 0.72, 0.8),
        shadow: between(rng, 0.45, 0.65),
        gradient: between(rng, 0.3, 0.5),
        curlMm: between(rng, 8, 16),
        blur: between(rng, 0.8, 2.2),
        ...(landscape ? { width: 4000, height: 3000 } : {}),
      },
    },
  });
  return { name: `photoHard-${plan.index}.jpg`, bytes: sheet.jpeg, expected: sheet.expected, seed: plan.seed };
}
