/**
 * The browser's simulated scanner pages, made in Node: the simulated driver's own drawing code
 * (renderSimulatedPage) runs against a recording stand-in for OffscreenCanvas that writes SVG, which
 * sharp rasterises; then the scan station's treatment (A4 2480x3508 to 2480x3507, JPEG quality 0.85).
 * So tests can check the recognition engine on the pages the demo scanner really feeds, without a
 * browser. Text comes out in whatever fonts fontconfig has; recognition reads none of it.
 */
import sharp from 'sharp';
import { renderSimulatedPage } from '../../../src/shared/lib/simulated-scan-render';
import type { AnswerSheetSpec, AnswerSheetTemplate } from '../../../src/shared/contract/answer-sheet';
import { RESIZE_TARGETS, SCAN_JPEG_QUALITY } from '../../../src/shared/contract/scan';
import type { SimulatedPage } from '../../../src/shared/lib/simulated-scan';

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m · n (apply n first, then m), in canvas's (a, b, c, d, e, f) order. */
function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

class RecordingPath {
  constructor(readonly d = '') {}
}

/** The subset of CanvasRenderingContext2D the simulated driver uses, recorded as SVG elements. */
class RecordingContext {
  fillStyle = '#000';
  strokeStyle = '#000';
  lineWidth = 1;
  lineCap = 'butt';
  lineJoin = 'miter';
  font = '10px sans-serif';
  textAlign = 'start';
  readonly elements: string[] = [];
  private matrix: Matrix = IDENTITY;
  private readonly stack: Matrix[] = [];
  private path = '';

  private transform() {
    return `transform="matrix(${this.matrix.map((v) => +v.toFixed(6)).join(' ')})"`;
  }

  save() {
    this.stack.push(this.matrix);
  }

  restore() {
    this.matrix = this.stack.pop() ?? IDENTITY;
  }

  translate(x: number, y: number) {
    this.matrix = multiply(this.matrix, [1, 0, 0, 1, x, y]);
  }

  rotate(angle: number) {
    this.matrix = multiply(this.matrix, [Math.cos(angle), Math.sin(angle), -Math.sin(angle), Math.cos(angle), 0, 0]);
  }

  scale(x: number, y: number) {
    this.matrix = multiply(this.matrix, [x, 0, 0, y, 0, 0]);
  }

  fillRect(x: number, y: number, w: number, h: number) {
    this.elements.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${this.fillStyle}" ${this.transform()}/>`);
  }

  strokeRect(x: number, y: number, w: number, h: number) {
    this.elements.push(
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="${this.strokeStyle}" stroke-width="${this.lineWidth}" ${this.transform()}/>`,
    );
  }

  beginPath() {
    this.path = '';
  }

  moveTo(x: number, y: number) {
    this.path += `M${x} ${y}`;
  }

  lineTo(x: number, y: number) {
    this.path += `L${x} ${y}`;
  }

  ellipse(cx: number, cy: number, rx: number, ry: number) {
    this.path += `M${cx + rx} ${cy}A${rx} ${ry} 0 1 1 ${cx - rx} ${cy}A${rx} ${ry} 0 1 1 ${cx + rx} ${cy}Z`;
  }

  fill(path?: RecordingPath) {
    this.elements.push(`<path d="${path ? path.d : this.path}" fill="${this.fillStyle}" ${this.transform()}/>`);
  }

  stroke() {
    this.elements.push(
      `<path d="${this.path}" fill="none" stroke="${this.strokeStyle}" stroke-width="${this.lineWidth}" ` +
        `stroke-linecap="${this.lineCap}" stroke-linejoin="${this.lineJoin}" ${this.transform()}/>`,
    );
  }

  fillText(text: string, x: number, y: number) {
    const size = Number.parseFloat(this.font);
    const anchor = this.textAlign === 'center' ? 'middle' : this.textAlign === 'right' ? 'end' : 'start';
    this.elements.push(
      `<text x="${x}" y="${y}" font-size="${size}" font-family="sans-serif" text-anchor="${anchor}" fill="${this.fillStyle}" ${this.transform()}>${escape(text)}</text>`,
    );
  }
}

class RecordingCanvas {
  readonly context = new RecordingContext();
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  getContext() {
    return this.context;
  }

  svg(): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">` +
      `${this.context.elements.join('')}</svg>`
    );
  }
}

/** One page of a simulated batch as the scan station uploads it: JPEG, A4 at 2480x3507. */
export async function simulatedScanJpeg(
  page: SimulatedPage,
  template: AnswerSheetTemplate,
  spec: AnswerSheetSpec,
): Promise<Buffer> {
  const globals = globalThis as Record<string, unknown>;
  const saved = { OffscreenCanvas: globals.OffscreenCanvas, Path2D: globals.Path2D };
  globals.OffscreenCanvas = RecordingCanvas;
  globals.Path2D = RecordingPath;
  let canvas: RecordingCanvas;
  try {
    canvas = renderSimulatedPage(page, template, spec, 300) as unknown as RecordingCanvas;
  } finally {
    globals.OffscreenCanvas = saved.OffscreenCanvas;
    globals.Path2D = saved.Path2D;
  }
  const target = template.paperSize === 'A4' ? RESIZE_TARGETS[1]! : { width: canvas.width, height: canvas.height };
  return sharp(Buffer.from(canvas.svg()))
    .resize(target.width, target.height, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: Math.round(SCAN_JPEG_QUALITY * 100) })
    .toBuffer();
}
