/**
 * A simulated scanner, the default wherever Dynamic Web TWAIN is absent (demo, development, tests): it
 * "feeds" answer sheets drawn at 300 dpi from the homework's template (fiducials, QR, bubbles with some
 * filled, handwriting-like strokes, texts and lines), slightly rotated, with scanner noise, some pages
 * upside down, one blank page and one page of another homework (see lib/simulated-scan.ts for the plan).
 * Deterministic for a given seed. Pages are handed over as ImageBitmaps, one every `intervalMs`.
 */
import type { AnswerSheetSpec, AnswerSheetTemplate } from '../../contract/answer-sheet';
import { SCAN_RESOLUTION, type RawImage } from '../../contract/scan';
import { sheetPageDecorations } from '../../lib/answer-sheet-layout';
import { encodeSheetQr, sheetQrPath } from '../../lib/answer-sheet-qr';
import { planSimulatedBatch, seededRandom, type SimulatedPage, type SimulatedStudent } from '../../lib/simulated-scan';
import { singleSource, type ScannerDriver } from './scanner-driver';

export const SIMULATED_SOURCE_NAME = '模拟扫描仪（演示）';

export type SimulatedDriverOptions = {
  homeworkId: number;
  spec: AnswerSheetSpec;
  students: readonly SimulatedStudent[];
  pageCount: number;
  seed?: number;
  /** false: each student's sheet once, then the feeder is empty (see SimulatedBatchOptions). */
  wrap?: boolean;
  /** Students already scanned, for a deliberate duplicate now and then. */
  duplicates?: readonly SimulatedStudent[];
  /** Time between two pages, like a sheet-fed scanner (default 200 ms). */
  intervalMs?: number;
  /** Jam after this many pages (DWT code -1020), to try the failure path. */
  jamAfter?: number;
};

type Canvas2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

function createCanvas(width: number, height: number): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/** Draws one simulated page at `dpi`; returns the canvas. */
export function renderSimulatedPage(
  page: SimulatedPage,
  template: AnswerSheetTemplate,
  spec: AnswerSheetSpec,
  dpi: number = SCAN_RESOLUTION,
): OffscreenCanvas | HTMLCanvasElement {
  const px = dpi / 25.4;
  const width = Math.round(template.pageWidthMm * px);
  const height = Math.round(template.pageHeightMm * px);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d') as Canvas2D;
  // Scanner "paper": a little off-white.
  ctx.fillStyle = '#f6f5f1';
  ctx.fillRect(0, 0, width, height);
  ctx.save();
  ctx.translate(width / 2, height / 2);
  ctx.rotate(((page.rotationDeg + (page.upsideDown ? 180 : 0)) * Math.PI) / 180);
  ctx.translate(-width / 2, -height / 2);
  ctx.scale(px, px);
  if (page.kind === 'sheet') drawSheet(ctx, page, template, spec);
  ctx.restore();
  addNoise(ctx, width, height, page.noiseSeed);
  return canvas;
}

function drawSheet(
  ctx: Canvas2D,
  page: Extract<SimulatedPage, { kind: 'sheet' }>,
  template: AnswerSheetTemplate,
  spec: AnswerSheetSpec,
) {
  const layout = template.pages[page.pageIndex]!;
  ctx.fillStyle = '#111';
  for (const f of layout.fiducials) ctx.fillRect(f.xMm - f.sizeMm / 2, f.yMm - f.sizeMm / 2, f.sizeMm, f.sizeMm);

  const qrText = encodeSheetQr({ homeworkId: page.homeworkId, page: layout.page, studentCode: page.student.code || undefined });
  const qr = sheetQrPath(qrText);
  ctx.save();
  ctx.translate(layout.qr.xMm, layout.qr.yMm);
  ctx.scale(layout.qr.sizeMm / qr.modules, layout.qr.sizeMm / qr.modules);
  ctx.fill(new Path2D(qr.path));
  ctx.restore();

  const decorations = sheetPageDecorations(
    { ...spec, homeworkId: page.homeworkId },
    template,
    page.pageIndex,
    page.student.code ? page.student : undefined,
  );
  ctx.lineWidth = 0.2;
  for (const line of decorations.lines) {
    ctx.strokeStyle = line.tone === 'faint' ? '#bbb' : '#222';
    ctx.beginPath();
    ctx.moveTo(line.x1Mm, line.y1Mm);
    ctx.lineTo(line.x2Mm, line.y2Mm);
    ctx.stroke();
  }
  for (const text of decorations.texts) {
    ctx.fillStyle = text.tone === 'faint' ? '#aaa' : '#222';
    ctx.font = `${text.sizeMm}px sans-serif`;
    ctx.textAlign = text.align === 'middle' ? 'center' : text.align === 'end' ? 'right' : 'left';
    ctx.fillText(text.text, text.xMm, text.baselineMm, text.maxWidthMm);
  }
  ctx.strokeStyle = '#333';
  ctx.lineWidth = 0.25;
  for (const block of layout.objectiveBlocks) ctx.strokeRect(block.xMm, block.yMm, block.wMm, block.hMm);
  for (const region of layout.regions) ctx.strokeRect(region.xMm, region.yMm, region.wMm, region.hMm);

  const filled = new Map(page.filled.map((f) => [f.questionNo, new Set(f.labels)]));
  for (const q of layout.objective) {
    for (const o of q.options) {
      ctx.beginPath();
      ctx.ellipse(o.xMm + o.wMm / 2, o.yMm + o.hMm / 2, o.wMm / 2, o.hMm / 2, 0, 0, Math.PI * 2);
      if (filled.get(q.questionNo)?.has(o.label)) {
        ctx.fillStyle = '#1a1a1a';
        ctx.fill();
      } else {
        ctx.strokeStyle = '#666';
        ctx.lineWidth = 0.2;
        ctx.stroke();
      }
    }
  }

  ctx.strokeStyle = '#1b1f3a';
  ctx.lineWidth = 0.35;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const stroke of page.strokes) {
    ctx.beginPath();
    stroke.forEach((p, i) => (i === 0 ? ctx.moveTo(p.xMm, p.yMm) : ctx.lineTo(p.xMm, p.yMm)));
    ctx.stroke();
  }
}

/** Dust and sensor specks, like a real feeder scan. */
function addNoise(ctx: Canvas2D, width: number, height: number, seed: number) {
  const random = seededRandom(seed);
  ctx.fillStyle = 'rgba(40, 40, 40, 0.55)';
  for (let i = 0; i < 600; i += 1) {
    const size = 1 + random() * 3;
    ctx.fillRect(random() * width, random() * height, size, size);
  }
}

export function createSimulatedDriver(options: SimulatedDriverOptions): ScannerDriver {
  const source = singleSource(SIMULATED_SOURCE_NAME);
  return {
    load: source.load,
    select: source.select,
    configure: source.configure,
    acquire(onImage, onDone, onError) {
      const config = source.config();
      if (!config) {
        queueMicrotask(() => onError(-1031));
        return () => undefined;
      }
      const { template, pages } = planSimulatedBatch(options);
      const dpi = config.resolution;
      const interval = options.intervalMs ?? 200;
      let next = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const feed = () => {
        if (options.jamAfter !== undefined && next >= options.jamAfter) return onError(-1020);
        const page = pages[next];
        if (!page) return onDone();
        next += 1;
        const canvas = renderSimulatedPage(page, template, options.spec, dpi);
        const image: RawImage =
          'transferToImageBitmap' in canvas
            ? { kind: 'bitmap', bitmap: canvas.transferToImageBitmap(), bitDepth: 24 }
            : {
                kind: 'pixels',
                width: canvas.width,
                height: canvas.height,
                bitDepth: 32,
                data: canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data,
              };
        onImage(image);
        timer = setTimeout(feed, interval);
      };
      timer = setTimeout(feed, interval);
      return () => clearTimeout(timer);
    },
    async close() {
      source.reset();
    },
  };
}
