/**
 * The recognition engine the server uses: a small pool of worker threads (recognition.worker.ts), one
 * page per worker at a time, the rest queued in arrival order. A worker asks for a page's template by
 * message and the pool answers it with the caller's resolver, which stays on the main thread. A worker
 * that dies fails only the page it was reading and is replaced; workers that keep dying before reading
 * anything (a broken install) stop the engine instead of being restarted for ever. The pages being read
 * at once are also bounded by their pixels (pixelBudget), so the memory recognition takes does not grow
 * with the machine's cores: a page is started only while the pixels in flight leave room for it (one
 * page always runs, however large).
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { jpegDimensions, SCAN_PAGE_MAX_PIXELS } from '../../lib/image-limits';
import { startModuleWorker } from './module-worker';
import type { RecognitionEngine, RecognitionResult, TemplateResolver } from './recognition-engine';
import type { WorkerOptions, WorkerReply, WorkerRequest } from './recognition.worker';

export type RecognitionEngineOptions = {
  /** Worker threads; default: the machine's cores. */
  threads?: number;
  /** Resolution of the region cut-outs (default DEFAULT_REGION_DPI, at most the scan's). */
  regionDpi?: number;
  /** The worker's module; tests point it elsewhere. Default: recognition.worker beside this file. */
  workerEntry?: URL;
  /** Pixels of the pages read at once (default DEFAULT_PIXEL_BUDGET). */
  pixelBudget?: number;
};

/** About 100 megapixels in flight (ten A4 pages at 300 dpi, or one A3 at 600 dpi): some 500 MB at most. */
export const DEFAULT_PIXEL_BUDGET = 100_000_000;

/** A page whose size cannot be read counts as the largest page accepted. */
const UNKNOWN_PAGE_PIXELS = SCAN_PAGE_MAX_PIXELS.shortSide * SCAN_PAGE_MAX_PIXELS.longSide;

/** Workers dying one after another without reading a page: the engine gives up after this many. */
const MAX_STARTUP_FAILURES = 3;

type Task = {
  id: number;
  image: Buffer;
  pixels: number;
  resolveTemplate: TemplateResolver;
  resolve: (result: RecognitionResult) => void;
  reject: (error: Error) => void;
};

type Slot = { worker: Worker; task: Task | null; served: number };

/** The worker's entry: the TypeScript file itself when running from source, else its compiled sibling. */
function defaultEntry(): URL {
  const extension = path.extname(new URL(import.meta.url).pathname);
  return new URL(`./recognition.worker${extension}`, import.meta.url);
}

export function createRecognitionEngine(options: RecognitionEngineOptions = {}): RecognitionEngine {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const workerOptions: WorkerOptions = options.regionDpi === undefined ? {} : { regionDpi: options.regionDpi };
  const queue: Task[] = [];
  const slots: Slot[] = [];
  const entry = options.workerEntry ?? defaultEntry();
  let nextId = 1;
  let closed = false;
  let broken: Error | null = null;
  let startupFailures = 0;
  const pixelBudget = options.pixelBudget ?? DEFAULT_PIXEL_BUDGET;
  let pixelsInFlight = 0;

  const post = (slot: Slot, request: WorkerRequest, transfer: ArrayBuffer[] = []) => slot.worker.postMessage(request, transfer);

  function dispatch() {
    for (const slot of slots) {
      if (slot.task || queue.length === 0) continue;
      const next = queue[0]!;
      // In arrival order: a large page waits for room rather than being overtaken for ever.
      if (pixelsInFlight > 0 && pixelsInFlight + next.pixels > pixelBudget) return;
      const task = queue.shift() as Task;
      pixelsInFlight += task.pixels;
      slot.task = task;
      // A copy the worker may own: the caller's Buffer may share its memory with others.
      const image = new Uint8Array(task.image);
      post(slot, { type: 'recognize', id: task.id, image }, [image.buffer as ArrayBuffer]);
    }
  }

  function finish(slot: Slot, id: number): Task | null {
    const task = slot.task;
    if (!task || task.id !== id) return null;
    slot.task = null;
    pixelsInFlight -= task.pixels;
    slot.served += 1;
    startupFailures = 0;
    queueMicrotask(dispatch);
    return task;
  }

  function spawn(): Slot {
    const slot: Slot = { worker: startModuleWorker(entry, workerOptions), task: null, served: 0 };
    slot.worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'template') {
        const task = slot.task;
        if (!task || task.id !== reply.id) return;
        // Through a promise, so a resolver that throws instead of rejecting fails only its page.
        Promise.resolve(reply.qr)
          .then(task.resolveTemplate)
          .then(
            (template) => post(slot, { type: 'template', id: reply.id, template }),
            (error: unknown) =>
              post(slot, {
                type: 'templateFailed',
                id: reply.id,
                message: error instanceof Error ? error.message : String(error),
              }),
          );
      } else if (reply.type === 'done') {
        const task = finish(slot, reply.id);
        task?.resolve({
          reading: reply.reading,
          regions: reply.regions.map((r) => ({
            questionNo: r.questionNo,
            kind: r.kind,
            jpeg: Buffer.from(r.jpeg.buffer, r.jpeg.byteOffset, r.jpeg.byteLength),
          })),
        });
      } else {
        finish(slot, reply.id)?.reject(new Error(`Recognition failed: ${reply.message}`));
      }
    });
    const replace = (error: Error) => {
      const task = slot.task;
      slot.task = null;
      if (task) pixelsInFlight -= task.pixels;
      task?.reject(error);
      const index = slots.indexOf(slot);
      if (index < 0 || closed) return;
      startupFailures = slot.served === 0 ? startupFailures + 1 : 0;
      if (startupFailures >= MAX_STARTUP_FAILURES) {
        broken = new Error(`The recognition engine cannot start its workers: ${error.message}`);
        slots.splice(index, 1);
        for (const other of slots.splice(0)) void other.worker.terminate();
        for (const waiting of queue.splice(0)) waiting.reject(broken);
        return;
      }
      slots[index] = spawn();
      dispatch();
    };
    slot.worker.on('error', (error) => replace(new Error(`Recognition worker failed: ${error.message}`)));
    slot.worker.on('exit', (code) => replace(new Error(`Recognition worker exited with code ${code}`)));
    return slot;
  }

  for (let i = 0; i < threads; i += 1) slots.push(spawn());

  return {
    recognize(image, resolveTemplate) {
      if (closed) return Promise.reject(new Error('The recognition engine is closed'));
      if (broken) return Promise.reject(broken);
      return new Promise<RecognitionResult>((resolve, reject) => {
        const size = jpegDimensions(image);
        const pixels = size ? size.width * size.height : UNKNOWN_PAGE_PIXELS;
        queue.push({ id: nextId++, image, pixels, resolveTemplate, resolve, reject });
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new Error('The recognition engine is closed');
      for (const task of queue.splice(0)) task.reject(error);
      for (const slot of slots) {
        slot.task?.reject(error);
        slot.task = null;
      }
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
