// The browser side of scan-pipeline.bench.ts: draws simulated answer sheets at 300 dpi, then times the
// worker pipeline (decode → greyscale/crop/resample → JPEG 0.85) two ways per kind of page, as the Node
// side asks (`window.bench.prepare`, then `measure`):
// - latency: one page at a time through one worker, as the scanner machine transforms them;
// - burst: pages started as they are transferred and claimed in order (scannerActors' `start`), through
//   a pool of workers.
// Every pass checks its last JPEG's declared size by decoding it, and that pages came back in order.
import { PDFDocument, rgb } from 'pdf-lib';
import pica from 'pica';
import { createFileImportDriver } from '../../src/shared/adapters/scanner/file-import-driver';
import { createImagePipeline, defaultPoolSize } from '../../src/shared/adapters/scanner/image-pipeline';
import { renderSimulatedPage } from '../../src/shared/adapters/scanner/simulated-driver';
import { answerSheetSpecSchema } from '../../src/shared/contract/answer-sheet';
import type { AnswerSheetTemplate } from '../../src/shared/contract/answer-sheet';
import { RESIZE_TARGETS, type PaperSizeCode, type RawImage, type ScannedPage } from '../../src/shared/contract/scan';
import { planSimulatedBatch, type SimulatedPage } from '../../src/shared/lib/simulated-scan';

/** One measured pass: per-page times (one at a time) or the wall time of a burst, and the last page. */
export type Pass = { times: number[]; elapsedMs: number; pages: number; width: number; height: number; bytes: number };

export type Kind = { key: string; label: string };

const spec = answerSheetSpecSchema.parse({
  homeworkId: 1001,
  title: '七年级数学第三单元作业',
  subjectName: '数学',
  paperSize: 'A4',
  questions: [
    ...Array.from({ length: 16 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
    { no: 17, type: 'subjective', score: 10 },
    { no: 18, type: 'subjective', score: 12 },
  ],
});

/** A4 scans of `height` rows (2480 wide): 3507 is the A4 target itself, 3508 is what a 300 dpi scanner gives. */
function sheets(count: number, height: number): () => RawImage[] {
  const students = Array.from({ length: count }, (_, i) => ({ name: `学生${i + 1}`, code: `2026${i + 1}` }));
  const { template, pages: plan } = planSimulatedBatch({ homeworkId: 1001, spec, students, pageCount: count, seed: 3 });
  const drawn = plan.map((page) => renderSimulatedPage(page, template, spec, 300) as OffscreenCanvas);
  // Fresh bitmaps for every pass: a bitmap handed to a worker is gone.
  return () =>
    drawn.map((source) => {
      const canvas = new OffscreenCanvas(2480, height);
      canvas.getContext('2d')!.drawImage(source, 0, 0);
      return { kind: 'bitmap', bitmap: canvas.transferToImageBitmap(), bitDepth: 24 };
    });
}

/** The same sheets as image files, as the scanning service (DWT ConvertToBlob) or a scanning program hands them over. */
function encodedSheets(count: number, type: 'image/png' | 'image/jpeg', height = 3508): () => Promise<RawImage[]> {
  const bitmaps = sheets(count, height);
  let files: Promise<Blob[]> | null = null;
  return async () => {
    files ??= Promise.all(
      bitmaps().map((raw) => {
        const canvas = new OffscreenCanvas(2480, height);
        canvas.getContext('bitmaprenderer')!.transferFromImageBitmap((raw as Extract<RawImage, { kind: 'bitmap' }>).bitmap);
        return canvas.convertToBlob({ type, quality: 0.85 });
      }),
    );
    return (await files).map((blob) => ({ kind: 'encoded', blob, bitDepth: 24 }));
  };
}

function bitonal(count: number): () => RawImage[] {
  return () =>
    Array.from({ length: count }, (_, i) => {
      const data = new Uint8Array(310 * 3507).fill(0xff);
      for (let row = 200 + i; row < 3300; row += 40) data.fill(0, row * 310 + 20, row * 310 + 290);
      return { kind: 'pixels', width: 2480, height: 3507, bitDepth: 1, data };
    });
}

async function checkSize(page: ScannedPage): Promise<void> {
  const bitmap = await createImageBitmap(page.blob);
  const actual = `${bitmap.width}x${bitmap.height}`;
  bitmap.close();
  if (actual !== `${page.width}x${page.height}`) throw new Error(`JPEG decodes as ${actual}, said ${page.width}x${page.height}`);
}

const KINDS: Record<
  string,
  { label: string; paperSize: PaperSizeCode; make: (count: number) => () => RawImage[] | Promise<RawImage[]> }
> = {
  scanner: {
    label: 'A4 2480x3508 → 2480x3507 (a 300 dpi scanner page: edge crop)',
    paperSize: 1,
    make: (count) => sheets(count, 3508),
  },
  exact: { label: 'A4 2480x3507 (at target)', paperSize: 1, make: (count) => sheets(count, 3507) },
  png: {
    label: 'A4 2480x3508 PNG from the scanning service → 2480x3507 (decode, edge crop)',
    paperSize: 1,
    make: (count) => encodedSheets(count, 'image/png'),
  },
  jpeg: {
    label: 'A4 2480x3508 JPEG file → 2480x3507 (header crop, no decode)',
    paperSize: 1,
    make: (count) => encodedSheets(count, 'image/jpeg'),
  },
  'jpeg-exact': {
    label: 'A4 2480x3507 JPEG file (at target: passed through)',
    paperSize: 1,
    make: (count) => encodedSheets(count, 'image/jpeg', 3507),
  },
  'jpeg-16k': {
    label: '16k from a 2480x3508 JPEG file → 2184x3072 (decode, resample)',
    paperSize: 0,
    make: (count) => encodedSheets(count, 'image/jpeg'),
  },
  '16k': { label: '16k from a 2480x3508 scan → 2184x3072 (resampled)', paperSize: 0, make: (count) => sheets(count, 3508) },
  bitonal: { label: '1-bit A4 2480x3507 → greyscale', paperSize: 1, make: bitonal },
};

const count = Number(new URLSearchParams(location.search).get('pages') ?? 20);
let measure: (() => Promise<Pass>) | null = null;

/**
 * Gets a pass ready (draws the pages, starts and warms the workers) so that `measure` times only the
 * pipeline: the Node side reads Chromium's CPU time around `measure`.
 */
async function prepare(key: string, mode: 'latency' | 'burst', workers: number): Promise<void> {
  const kind = KINDS[key]!;
  const images = await kind.make(count)();
  const pipeline = createImagePipeline({ workers: mode === 'latency' ? 1 : workers });
  // Warm every worker (module, encoder) outside the timing.
  const warm = sheets(mode === 'latency' ? 1 : workers, 3507)();
  await Promise.all(warm.map((raw, i) => pipeline.transform(raw, { paperSize: 1, scanSubject: false, sequence: i + 1 })));
  const options = (i: number) => ({ paperSize: kind.paperSize, scanSubject: false, sequence: i + 1 });
  measure = async () => {
    const times: number[] = [];
    const started = performance.now();
    let pages: ScannedPage[];
    if (mode === 'latency') {
      pages = [];
      for (const [i, raw] of images.entries()) {
        const at = performance.now();
        pages.push(await pipeline.transform(raw, options(i)));
        times.push(performance.now() - at);
      }
    } else {
      // As scannerActors does: each page starts when transferred, the machine claims them in order.
      for (const raw of images) pipeline.start(raw, kind.paperSize);
      pages = await Promise.all(images.map((raw, i) => pipeline.transform(raw, options(i))));
    }
    const elapsedMs = performance.now() - started;
    pipeline.dispose();
    if (pages.some((page, i) => page.sequence !== i + 1)) throw new Error('pages out of order');
    const last = pages.at(-1)!;
    await checkSize(last);
    return { times, elapsedMs, pages: pages.length, width: last.width, height: last.height, bytes: last.blob.size };
  };
}

async function measurePrepared(): Promise<Pass> {
  const next = measure!;
  measure = null;
  return next();
}

/** What the PDF import check saw: each page's size and marker grey level, in the order emitted. */
export type PdfImportCheck = {
  pages: { width: number; height: number; grey: number }[];
  pdfPages: number;
  /** The first import (pdf.js loaded, its worker started) and the second. */
  firstMs: number;
  elapsedMs: number;
};

/** A page's marker: the grey of a square 1 inch from the top left corner (300 px at 300 dpi). */
async function markerGrey(page: ScannedPage): Promise<number> {
  const bitmap = await createImageBitmap(page.blob, 300, 300, 100, 100);
  const ctx = new OffscreenCanvas(100, 100).getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  return ctx.getImageData(50, 50, 1, 1).data[0]!;
}

/** An A4 image file of 2480x3508 with a marker square of grey `level` (0–1). */
async function imageFile(name: string, type: 'image/png' | 'image/jpeg', level: number): Promise<File> {
  const canvas = new OffscreenCanvas(2480, 3508);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 2480, 3508);
  ctx.fillStyle = `rgb(${level * 255}, ${level * 255}, ${level * 255})`;
  ctx.fillRect(300, 300, 100, 100);
  return new File([await canvas.convertToBlob({ type, quality: 0.95 })], name, { type });
}

/**
 * The real PDF path in Chromium: a 3-page PDF (made with pdf-lib: a vector A4 page, an A4 page that is a
 * scanned JPEG like a scanner's PDF, a 16k page) between two image files, imported by the file-import
 * driver (pdf.js at 300 dpi, lazily loaded, its worker from our own server) and converted by the pool
 * as scannerActors does it. Each page carries a marker grey that tells where it came from.
 */
async function pdfImport(): Promise<PdfImportCheck> {
  const doc = await PDFDocument.create();
  const A4: [number, number] = [595.28, 841.89];
  const marker = (page: ReturnType<typeof doc.addPage>, level: number) =>
    page.drawRectangle({ x: 72, y: page.getHeight() - 72 - 24, width: 24, height: 24, color: rgb(level, level, level) });
  marker(doc.addPage(A4), 0.3);
  const scanned = doc.addPage(A4);
  const jpeg = await (await imageFile('scan.jpg', 'image/jpeg', 0.5)).arrayBuffer();
  scanned.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: A4[0], height: A4[1] });
  marker(doc.addPage([524.16, 737.28]), 0.7); // 16k: 185 x 260 mm
  const files = [
    new File([(await doc.save()) as Uint8Array<ArrayBuffer>], 'b-scan.pdf', { type: 'application/pdf' }),
    await imageFile('c-last.png', 'image/png', 0.9),
    await imageFile('a-first.jpg', 'image/jpeg', 0.1),
  ];
  const pipeline = createImagePipeline();
  const importAll = async () => {
    const driver = createFileImportDriver(() => files);
    await driver.select(0);
    const started = performance.now();
    const images: RawImage[] = [];
    await new Promise<void>((resolve, reject) =>
      driver.acquire(
        (image) => {
          pipeline.start(image, 1);
          images.push(image);
        },
        resolve,
        (code) => reject(new Error(`import failed: ${code}`)),
      ),
    );
    const pages = await Promise.all(
      images.map((raw, i) => pipeline.transform(raw, { paperSize: 1, scanSubject: false, sequence: i + 1 })),
    );
    return { pages, elapsedMs: performance.now() - started };
  };
  // The first import loads pdf.js and starts its worker; the second shows the steady cost.
  const first = await importAll();
  const second = await importAll();
  pipeline.dispose();
  return {
    pages: await Promise.all(
      second.pages.map(async (page) => ({ width: page.width, height: page.height, grey: await markerGrey(page) })),
    ),
    pdfPages: 3,
    firstMs: first.elapsedMs,
    elapsedMs: second.elapsedMs,
  };
}

/** One way of resampling an A4 scan to 16k, run on a bitmap; resolves with a canvas ready to encode. */
type Resample = {
  method: string;
  run: (bitmap: ImageBitmap, target: { width: number; height: number }) => Promise<OffscreenCanvas>;
};

const picaResizer = pica({ features: ['js', 'wasm'] });

/** pica on raw RGBA, as the worker ran it (read the bitmap's pixels, resize, put them on a canvas). */
function picaResample(filter: 'box' | 'hamming' | 'lanczos2' | 'lanczos3' | 'mks2013'): Resample {
  return {
    method: `pica ${filter} (wasm)`,
    run: async (bitmap, target) => {
      const source = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d', { alpha: false })!;
      source.drawImage(bitmap, 0, 0);
      const src = source.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const out = await picaResizer.resizeBuffer({
        src,
        width: bitmap.width,
        height: bitmap.height,
        toWidth: target.width,
        toHeight: target.height,
        filter,
      });
      const canvas = new OffscreenCanvas(target.width, target.height);
      const rgba = new Uint8ClampedArray(out.buffer as ArrayBuffer, out.byteOffset, out.length);
      canvas.getContext('2d', { alpha: false })!.putImageData(new ImageData(rgba, target.width, target.height), 0, 0);
      return canvas;
    },
  };
}

/** The browser's resize inside createImageBitmap; the bitmap goes to a canvas without drawing. */
function bitmapResample(quality: ResizeQuality): Resample {
  return {
    method: `createImageBitmap resizeQuality '${quality}'`,
    run: async (bitmap, target) => {
      const resized = await createImageBitmap(bitmap, {
        resizeWidth: target.width,
        resizeHeight: target.height,
        resizeQuality: quality,
      });
      const canvas = new OffscreenCanvas(target.width, target.height);
      canvas.getContext('bitmaprenderer')!.transferFromImageBitmap(resized);
      return canvas;
    },
  };
}

/** OffscreenCanvas drawImage with the given smoothing quality. */
function drawResample(quality: ImageSmoothingQuality): Resample {
  return {
    method: `drawImage imageSmoothingQuality '${quality}'`,
    run: async (bitmap, target) => {
      const canvas = new OffscreenCanvas(target.width, target.height);
      const ctx = canvas.getContext('2d', { alpha: false })!;
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = quality;
      ctx.drawImage(bitmap, 0, 0, target.width, target.height);
      return canvas;
    },
  };
}

const RESAMPLES: Resample[] = [
  picaResample('mks2013'),
  picaResample('lanczos3'),
  picaResample('lanczos2'),
  picaResample('hamming'),
  picaResample('box'),
  bitmapResample('high'),
  bitmapResample('medium'),
  bitmapResample('low'),
  drawResample('high'),
  drawResample('medium'),
  drawResample('low'),
];

/** The sheets of the resample comparison, and what the Node side needs to score the results. */
export type ResampleSetup = {
  /** The first sheet as PNG (for sharp's reference resample). */
  source: string;
  template: AnswerSheetTemplate;
  plans: SimulatedPage[];
  methods: string[];
  /** The JPEG encode alone of a page already at 16k, ms: what every method pays on top of its resample. */
  encodeOnlyMs: number;
};

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let j = 0; j < bytes.length; j += 0x8000) binary += String.fromCharCode(...bytes.subarray(j, j + 0x8000));
  return btoa(binary);
}

let resampleSheets: ImageBitmap[] = [];
const SIXTEEN_K = RESIZE_TARGETS[0]!;

/**
 * 16k (2184x3072) from 300 dpi A4 scans (2480x3508): draws the sheets every method is then run on
 * (`resampleRun`, one call per method so that the Node side can read Chromium's CPU time around it).
 */
async function resampleSetup(sheetCount: number): Promise<ResampleSetup> {
  const students = Array.from({ length: sheetCount }, (_, i) => ({ name: `学生${i + 1}`, code: `2026${i + 1}` }));
  const { template, pages: planned } = planSimulatedBatch({
    homeworkId: 1001,
    spec,
    students,
    pageCount: sheetCount + 4,
    seed: 7,
  });
  const plans = planned.filter((p) => p.kind === 'sheet' && p.homeworkId === 1001).slice(0, sheetCount);
  resampleSheets = plans.map((plan) => {
    const canvas = new OffscreenCanvas(2480, 3508);
    canvas.getContext('2d')!.drawImage(renderSimulatedPage(plan, template, spec, 300) as OffscreenCanvas, 0, 0);
    return canvas.transferToImageBitmap();
  });
  const sourceCanvas = new OffscreenCanvas(2480, 3508);
  sourceCanvas.getContext('2d')!.drawImage(resampleSheets[0]!, 0, 0);
  const source = await base64(await sourceCanvas.convertToBlob({ type: 'image/png' }));
  const sized = new OffscreenCanvas(SIXTEEN_K.width, SIXTEEN_K.height);
  sized.getContext('2d')!.drawImage(resampleSheets[0]!, 0, 0);
  await sized.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  const encodeTimes: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const at = performance.now();
    await sized.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
    encodeTimes.push(performance.now() - at);
  }
  return {
    source,
    template,
    plans,
    methods: RESAMPLES.map((r) => r.method),
    encodeOnlyMs: encodeTimes.sort((a, b) => a - b)[1]!,
  };
}

/** Warms a method (wasm compiled, code paths hot) outside the timing. */
async function resampleWarm(index: number): Promise<void> {
  await (await RESAMPLES[index]!.run(resampleSheets[0]!, SIXTEEN_K)).convertToBlob({ type: 'image/jpeg', quality: 0.85 });
}

let lastRun: { first: OffscreenCanvas; jpegs: Blob[] } | null = null;

/** Runs one method on every sheet: the resample and the JPEG 0.85 encode (a draw may be deferred to it). */
async function resampleRun(index: number): Promise<{ method: string; ms: number[] }> {
  const resample = RESAMPLES[index]!;
  const ms: number[] = [];
  const jpegs: Blob[] = [];
  let first: OffscreenCanvas | null = null;
  for (const bitmap of resampleSheets) {
    const at = performance.now();
    const canvas = await resample.run(bitmap, SIXTEEN_K);
    jpegs.push(await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 }));
    ms.push(performance.now() - at);
    first ??= canvas;
  }
  lastRun = { first: first!, jpegs };
  return { method: resample.method, ms };
}

/** The last run's first result as PNG (for PSNR/SSIM) and every result as the JPEG the station uploads. */
async function resampleResults(): Promise<{ png: string; jpegs: string[] }> {
  const { first, jpegs } = lastRun!;
  lastRun = null;
  return { png: await base64(await first.convertToBlob({ type: 'image/png' })), jpegs: await Promise.all(jpegs.map(base64)) };
}

declare global {
  interface Window {
    bench?: {
      kinds: Kind[];
      workers: number;
      prepare: typeof prepare;
      measure: typeof measurePrepared;
      pdfImport: typeof pdfImport;
      resampleSetup: typeof resampleSetup;
      resampleWarm: typeof resampleWarm;
      resampleRun: typeof resampleRun;
      resampleResults: typeof resampleResults;
    };
  }
}
window.bench = {
  kinds: Object.entries(KINDS).map(([key, { label }]) => ({ key, label })),
  workers: defaultPoolSize(navigator.hardwareConcurrency),
  prepare,
  measure: measurePrepared,
  pdfImport,
  resampleSetup,
  resampleWarm,
  resampleRun,
  resampleResults,
};
