/**
 * The scan image pipeline's main-thread side: hands each transferred image to a Web Worker
 * (image-pipeline.worker.ts), which turns it into the page's JPEG (1-bit → greyscale, resized by paper
 * size, quality 0.85), and resolves with the ScannedPage. Owns the worker and the page ids; the pixel
 * work itself is the worker's, the pure steps are src/shared/lib/scan-image.ts.
 */
import { SCAN_JPEG_QUALITY, type PaperSizeCode, type RawImage, type ScannedPage } from '../../contract/scan';
import { scannedPageFileName, uuidV4 } from '../../lib/scan-image';

export type PipelineRequest = { id: number; raw: RawImage; paperSize: PaperSizeCode; quality: number };
export type PipelineResponse =
  { id: number; ok: true; blob: Blob; width: number; height: number } | { id: number; ok: false; message: string };

export type TransformOptions = { paperSize: PaperSizeCode; scanSubject: boolean; sequence: number };

export interface ImagePipeline {
  transform(raw: RawImage, opts: TransformOptions): Promise<ScannedPage>;
  /** Stops the worker; transforms still running reject. */
  dispose(): void;
}

/** What the pipeline needs of a worker (a real Worker, or a fake in tests). */
export type PipelineWorker = Pick<Worker, 'postMessage' | 'terminate' | 'addEventListener'>;

export type ImagePipelineOptions = {
  createWorker?: () => PipelineWorker;
  /** Page ids; by default v4 UUIDs from crypto.getRandomValues (works outside secure contexts too). */
  newImageId?: () => string;
};

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

export function createImagePipeline(options: ImagePipelineOptions = {}): ImagePipeline {
  const newImageId = options.newImageId ?? (() => uuidV4((bytes) => crypto.getRandomValues(bytes)));
  const pending = new Map<number, { resolve: (r: PipelineResponse) => void; reject: (e: Error) => void }>();
  let worker: PipelineWorker | null = null;
  let nextId = 1;

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const ensureWorker = (): PipelineWorker => {
    if (worker) return worker;
    const created = (options.createWorker ?? defaultWorker)();
    created.addEventListener('message', (event: MessageEvent<PipelineResponse>) => {
      const entry = pending.get(event.data.id);
      if (!entry) return;
      pending.delete(event.data.id);
      entry.resolve(event.data);
    });
    created.addEventListener('error', (event: ErrorEvent) => {
      failAll(new Error(`image pipeline worker failed: ${event.message}`));
      created.terminate();
      if (worker === created) worker = null;
    });
    worker = created;
    return created;
  };

  return {
    async transform(raw, opts) {
      const id = nextId++;
      const target = ensureWorker();
      const response = await new Promise<PipelineResponse>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const request: PipelineRequest = { id, raw, paperSize: opts.paperSize, quality: SCAN_JPEG_QUALITY };
        target.postMessage(request, transferablesOf(raw));
      });
      if (!response.ok) throw new Error(response.message);
      const imageId = newImageId();
      return {
        imageId,
        fileName: scannedPageFileName(imageId),
        blob: response.blob,
        scanSubject: opts.scanSubject,
        width: response.width,
        height: response.height,
        sequence: opts.sequence,
      };
    },
    dispose() {
      failAll(new Error('image pipeline disposed'));
      worker?.terminate();
      worker = null;
    },
  };
}
