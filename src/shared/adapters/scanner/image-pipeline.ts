/**
 * The scan image pipeline's main-thread side: a pool of Web Workers (image-pipeline.worker.ts), each
 * turning one transferred image at a time into the page's JPEG (1-bit → greyscale, sized by paper size,
 * quality 0.85), and the ScannedPage around it. Owns the workers, the order of results and the page ids;
 * the pixel work is the worker's, the pure steps are src/shared/lib/scan-image.ts.
 *
 * A page may be started as soon as the scanner transfers it (`start`) and claimed later, in transfer
 * order, by `transform`: the scanner machine transforms one page at a time, so without starting early a
 * station would use one worker however many it has. `transform` settles in the order it is called,
 * whatever order the workers finish in, and names pages in that order.
 */
import { SCAN_JPEG_QUALITY, type PaperSizeCode, type RawImage, type ScannedPage } from '../../contract/scan';
import { scannedPageFileName, uuidV4 } from '../../lib/scan-image';

export type PipelineRequest = { id: number; raw: RawImage; paperSize: PaperSizeCode; quality: number };
export type PipelineResponse =
  { id: number; ok: true; blob: Blob; width: number; height: number } | { id: number; ok: false; message: string };

export type TransformOptions = { paperSize: PaperSizeCode; scanSubject: boolean; sequence: number };

export interface ImagePipeline {
  /**
   * Starts converting a transferred image now; `transform` of the same image (same object) later takes
   * the result. The image's pixels are handed to a worker, so the caller must not read them afterwards.
   */
  start(raw: RawImage, paperSize: PaperSizeCode): void;
  /** The page of an image: started earlier, or converted now. Settles in call order. */
  transform(raw: RawImage, opts: TransformOptions): Promise<ScannedPage>;
  /** Forgets started images nobody claimed (a cancelled scan): those not yet in a worker are not converted. */
  discardStarted(): void;
  /** Stops the workers; transforms still running reject. */
  dispose(): void;
}

/** What the pipeline needs of a worker (a real Worker, or a fake in tests). */
export type PipelineWorker = Pick<Worker, 'postMessage' | 'terminate' | 'addEventListener'>;

export type ImagePipelineOptions = {
  createWorker?: () => PipelineWorker;
  /** Workers at most; by default {@link defaultPoolSize} of this computer's cores. */
  workers?: number;
  /** Page ids; by default v4 UUIDs from crypto.getRandomValues (works outside secure contexts too). */
  newImageId?: () => string;
};

/** Pages converted at once: one per core, at most 4 (each page in flight holds some 70 MB of pixels). */
export function defaultPoolSize(hardwareConcurrency: number | undefined): number {
  return Math.max(1, Math.min(4, hardwareConcurrency || 2));
}

function defaultWorker(): PipelineWorker {
  return new Worker(new URL('./image-pipeline.worker.ts', import.meta.url), { type: 'module', name: 'scan-image-pipeline' });
}

function transferablesOf(raw: RawImage): Transferable[] {
  if (raw.kind === 'bitmap') return [raw.bitmap];
  // Hand the pixel buffer over instead of copying it, when the view covers all of it.
  if (raw.kind === 'pixels' && raw.data.byteOffset === 0 && raw.data.byteLength === raw.data.buffer.byteLength) {
    return [raw.data.buffer as ArrayBuffer];
  }
  return [];
}

type Converted = { blob: Blob; width: number; height: number };

/** One image's conversion: waiting for a worker, in a worker, or done. */
type Job = {
  id: number;
  raw: RawImage;
  paperSize: PaperSizeCode;
  result: Promise<Converted>;
  resolve: (converted: Converted) => void;
  reject: (error: Error) => void;
};

type Slot = { worker: PipelineWorker; job: Job | null };

export function createImagePipeline(options: ImagePipelineOptions = {}): ImagePipeline {
  const newImageId = options.newImageId ?? (() => uuidV4((bytes) => crypto.getRandomValues(bytes)));
  const poolSize = options.workers ?? defaultPoolSize(globalThis.navigator?.hardwareConcurrency);
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  // Started and not yet claimed by a transform, by image.
  const started = new Map<RawImage, Job>();
  let nextId = 1;
  // The previous transform's settling, so that transforms settle in call order.
  let previous: Promise<unknown> = Promise.resolve();

  const dispatch = () => {
    while (waiting.length > 0) {
      let slot = slots.find((s) => s.job === null);
      if (!slot && slots.length < poolSize) slot = addWorker();
      if (!slot) return;
      const job = waiting.shift()!;
      slot.job = job;
      const request: PipelineRequest = { id: job.id, raw: job.raw, paperSize: job.paperSize, quality: SCAN_JPEG_QUALITY };
      slot.worker.postMessage(request, transferablesOf(job.raw));
    }
  };

  const addWorker = (): Slot => {
    const slot: Slot = { worker: (options.createWorker ?? defaultWorker)(), job: null };
    slot.worker.addEventListener('message', (event: MessageEvent<PipelineResponse>) => {
      const { job } = slot;
      if (!job || job.id !== event.data.id) return;
      slot.job = null;
      const response = event.data;
      if (response.ok) job.resolve({ blob: response.blob, width: response.width, height: response.height });
      else job.reject(new Error(response.message));
      dispatch();
    });
    slot.worker.addEventListener('error', (event: ErrorEvent) => {
      // A worker that crashed is replaced by a fresh one for the next page; its page fails.
      slot.worker.terminate();
      slots.splice(slots.indexOf(slot), 1);
      slot.job?.reject(new Error(`image pipeline worker failed: ${event.message}`));
      slot.job = null;
      dispatch();
    });
    slots.push(slot);
    return slot;
  };

  const submit = (raw: RawImage, paperSize: PaperSizeCode): Job => {
    let resolve!: Job['resolve'];
    let reject!: Job['reject'];
    const result = new Promise<Converted>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A started page nobody claims must not surface as an unhandled rejection.
    result.catch(() => undefined);
    const job: Job = { id: nextId++, raw, paperSize, result, resolve, reject };
    waiting.push(job);
    dispatch();
    return job;
  };

  return {
    start(raw, paperSize) {
      if (started.has(raw)) return;
      started.set(raw, submit(raw, paperSize));
    },
    transform(raw, opts) {
      const imageId = newImageId();
      let job = started.get(raw);
      started.delete(raw);
      const mismatch = job !== undefined && job.paperSize !== opts.paperSize;
      if (!job) job = submit(raw, opts.paperSize);
      const own = job.result.then((converted): ScannedPage => {
        // Its pixels went to a worker with the other size; they cannot be converted again.
        if (mismatch) throw new Error('image was started for another paper size');
        return {
          imageId,
          fileName: scannedPageFileName(imageId),
          blob: converted.blob,
          scanSubject: opts.scanSubject,
          width: converted.width,
          height: converted.height,
          sequence: opts.sequence,
        };
      });
      const ordered = previous.then(
        () => own,
        () => own,
      );
      previous = ordered.catch(() => undefined);
      return ordered;
    },
    discardStarted() {
      for (const job of started.values()) {
        const at = waiting.indexOf(job);
        if (at >= 0) waiting.splice(at, 1);
        job.reject(new Error('image pipeline: started image discarded'));
      }
      started.clear();
    },
    dispose() {
      const error = new Error('image pipeline disposed');
      for (const job of waiting.splice(0)) job.reject(error);
      for (const slot of slots.splice(0)) {
        slot.job?.reject(error);
        slot.worker.terminate();
      }
      started.clear();
    },
  };
}
