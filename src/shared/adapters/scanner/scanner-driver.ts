/**
 * The one interface every scanner driver offers (Dynamic Web TWAIN, the simulated feeder, file import),
 * and its wiring into the scanner machine's actors. A driver talks to the device; it does not decide the
 * flow (that is scanner.machine.ts) and does not convert images (that is the image pipeline).
 */
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import {
  DriverError,
  type AcquireEvent,
  type RawImage,
  type ScannedPage,
  type ScanSourceConfig,
  type TransformInput,
} from '../../contract/scan';
import type { ImagePipeline } from './image-pipeline';

export interface ScannerDriver {
  /** Loads the scanning component and lists its source names. Throws DriverError 'serviceNotInstalled'. */
  load(): Promise<string[]>;
  /** Selects (and opens) the source at `index`. Throws DriverError 'sourceNotSelectable'. */
  select(index: number): Promise<void>;
  configure(config: ScanSourceConfig): Promise<void>;
  /**
   * Starts acquiring: `onImage` per transferred image, then `onDone` once, or `onError` with the
   * scanning service's error code (null when unknown). Returns a function that stops the acquisition.
   */
  acquire(onImage: (image: RawImage) => void, onDone: () => void, onError: (code: number | null) => void): () => void;
  close(): Promise<void>;
}

/**
 * The source bookkeeping of a driver with a single source named `name`: only index 0 can be selected, a
 * source is configured after it is selected, and closing forgets both.
 */
export function singleSource(name: string) {
  let selected = false;
  let config: ScanSourceConfig | null = null;
  return {
    load: async (): Promise<string[]> => [name],
    select: async (index: number): Promise<void> => {
      if (index !== 0) throw new DriverError('sourceNotSelectable', `no source ${index}`, -1003);
      selected = true;
    },
    configure: async (next: ScanSourceConfig): Promise<void> => {
      if (!selected) throw new DriverError('acquisition', 'source not selected', -1031);
      config = next;
    },
    /** The configuration of the selected source, null before configure. */
    config: (): ScanSourceConfig | null => config,
    reset(): void {
      selected = false;
      config = null;
    },
  };
}

/**
 * The scanner machine's IO actors over a driver and an image pipeline (pass to `scannerMachine.provide`).
 * The machine transforms one page at a time, in order; a pipeline that can `start` pages begins each as
 * it is transferred, so its workers convert several at once while the machine still emits them in order.
 */
export function scannerActors(
  driver: ScannerDriver,
  pipeline: Pick<ImagePipeline, 'transform'> & Partial<Pick<ImagePipeline, 'start' | 'discardStarted'>>,
) {
  return {
    loadDriver: fromPromise(async () => ({ sources: await driver.load() })),
    selectSource: fromPromise<void, { index: number }>(({ input }) => driver.select(input.index)),
    configureSource: fromPromise<void, ScanSourceConfig>(({ input }) => driver.configure(input)),
    acquire: fromCallback<EventObject, ScanSourceConfig, AcquireEvent>(({ sendBack, input }) => {
      const stop = driver.acquire(
        (image) => {
          pipeline.start?.(image, input.paperSize);
          sendBack({ type: 'scan.transferred', image });
        },
        () => sendBack({ type: 'scan.finished' }),
        (code) => sendBack({ type: 'scan.failed', code }),
      );
      return () => {
        stop();
        // The scan is over (or cancelled): pages the machine will not transform need not be converted.
        pipeline.discardStarted?.();
      };
    }),
    transformImage: fromPromise<ScannedPage, TransformInput>(({ input }) =>
      pipeline.transform(input.image, { paperSize: input.paperSize, scanSubject: input.scanSubject, sequence: input.sequence }),
    ),
    closeSource: fromPromise(() => driver.close()),
  };
}

export { DriverError };
