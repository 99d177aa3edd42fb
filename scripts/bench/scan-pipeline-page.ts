// The browser side of scan-pipeline.bench.ts: draws simulated answer sheets at 300 dpi, then times the
// worker pipeline (decode → greyscale/resize → JPEG 0.85) on each, one page at a time as a scan does.
import { createImagePipeline } from '../../src/shared/adapters/scanner/image-pipeline';
import { renderSimulatedPage } from '../../src/shared/adapters/scanner/simulated-driver';
import { answerSheetSpecSchema } from '../../src/shared/contract/answer-sheet';
import type { PaperSizeCode, RawImage } from '../../src/shared/contract/scan';
import { planSimulatedBatch } from '../../src/shared/lib/simulated-scan';

type Run = { label: string; times: number[]; width: number; height: number; bytes: number };

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

/** An A4 scan of `height` rows (2480 wide): 3507 is the A4 target itself, 3508 is what a 300 dpi scanner gives. */
function pages(count: number, height: number): ImageBitmap[] {
  const students = Array.from({ length: count }, (_, i) => ({ name: `学生${i + 1}`, code: `2026${i + 1}` }));
  const { template, pages: plan } = planSimulatedBatch({ homeworkId: 1001, spec, students, pageCount: count, seed: 3 });
  return plan.map((page) => {
    const drawn = renderSimulatedPage(page, template, spec, 300) as OffscreenCanvas;
    const canvas = new OffscreenCanvas(2480, height);
    canvas.getContext('2d')!.drawImage(drawn, 0, 0);
    return canvas.transferToImageBitmap();
  });
}

async function run(label: string, images: RawImage[], paperSize: PaperSizeCode): Promise<Run> {
  const pipeline = createImagePipeline();
  const times: number[] = [];
  let last = { width: 0, height: 0, bytes: 0 };
  for (const [i, raw] of images.entries()) {
    const started = performance.now();
    const page = await pipeline.transform(raw, { paperSize, scanSubject: false, sequence: i + 1 });
    times.push(performance.now() - started);
    last = { width: page.width, height: page.height, bytes: page.blob.size };
  }
  pipeline.dispose();
  return { label, times, ...last };
}

async function main(): Promise<Run[]> {
  const count = Number(new URLSearchParams(location.search).get('pages') ?? 20);
  // Warm the worker, its pica/wasm and the JPEG encoder.
  await run(
    'warm-up',
    pages(2, 3507).map((bitmap) => ({ kind: 'bitmap', bitmap, bitDepth: 24 })),
    1,
  );
  const exact = await run(
    'A4 2480x3507 (no resampling)',
    pages(count, 3507).map((bitmap) => ({ kind: 'bitmap', bitmap, bitDepth: 24 })),
    1,
  );
  const scanner = await run(
    'A4 2480x3508 → 2480x3507 (sub-percent: canvas smoothing)',
    pages(count, 3508).map((bitmap) => ({ kind: 'bitmap', bitmap, bitDepth: 24 })),
    1,
  );
  const sixteenK = await run(
    '16k from a 2480x3508 scan → 2184x3072 (pica)',
    pages(count, 3508).map((bitmap) => ({ kind: 'bitmap', bitmap, bitDepth: 24 })),
    0,
  );
  const bitonal = await run(
    '1-bit A4 2480x3507 → greyscale',
    Array.from({ length: count }, (_, i) => {
      const data = new Uint8Array(310 * 3507).fill(0xff);
      for (let row = 200 + i; row < 3300; row += 40) data.fill(0, row * 310 + 20, row * 310 + 290);
      return { kind: 'pixels', width: 2480, height: 3507, bitDepth: 1, data } as RawImage;
    }),
    1,
  );
  return [exact, scanner, sixteenK, bitonal];
}

declare global {
  interface Window {
    benchResult?: Promise<Run[]>;
  }
}
window.benchResult = main();
