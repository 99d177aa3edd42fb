/**
 * The simulated scanner's drawing (lib/simulated-scan.ts plans the pages): an answer sheet page at a
 * given dpi on a canvas (OffscreenCanvas, a DOM canvas, or any stand-in with the same 2D calls, as the
 * server's demo scans use), with fiducials, QR, bubbles, handwriting-like strokes, rotation and noise.
 */
import type { AnswerSheetSpec, AnswerSheetTemplate } from '../contract/answer-sheet';
import { SCAN_RESOLUTION } from '../contract/scan';
import { sheetPageDecorations } from './answer-sheet-layout';
import { encodeSheetQr, sheetQrPath } from './answer-sheet-qr';
import { seededRandom, type SimulatedPage } from './simulated-scan';

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
