/**
 * A simulated scanner, the default wherever Dynamic Web TWAIN is absent (demo, development, tests): it
 * "feeds" answer sheets drawn at 300 dpi from the homework's template (fiducials, QR, bubbles with some
 * filled, handwriting-like strokes, texts and lines), slightly rotated, with scanner noise, some pages
 * upside down, one blank page and one page of another homework (see lib/simulated-scan.ts for the plan).
 * Deterministic for a given seed. Pages are handed over as ImageBitmaps, one every `intervalMs`.
 */
import type { AnswerSheetSpec } from '../../contract/answer-sheet';
import type { RawImage } from '../../contract/scan';
import { planSimulatedBatch, type SimulatedStudent } from '../../lib/simulated-scan';
import { renderSimulatedPage } from '../../lib/simulated-scan-render';
import { singleSource, type ScannerDriver } from './scanner-driver';

export { renderSimulatedPage };

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
  /** Students' own sheets (a personalised set), by 学号. */
  studentSpecs?: ReadonlyMap<string, AnswerSheetSpec>;
  /** Only when a test asks: students' own sheets answered with the key (see SimulatedBatchOptions). */
  answerKeys?: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>;
  /** Time between two pages, like a sheet-fed scanner (default 200 ms). */
  intervalMs?: number;
  /** Jam after this many pages (DWT code -1020), to try the failure path. */
  jamAfter?: number;
};

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
        // A student with a sheet of their own is drawn on it (a personalised set).
        const own = page.kind === 'sheet' ? page.sheet : undefined;
        const canvas = renderSimulatedPage(page, own?.template ?? template, own?.spec ?? options.spec, dpi);
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
